//! GBACW helpers shared by the table's kittests.

use muster_client::app::gbacw::GbacwApp;
use muster_shared::SeatId;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::GbacwAction;

/// GBACW 17.52: a leader ends the Movement Phase with a combat unit (or
/// far from the enemy). The moves, as actions, that take each of `seat`'s
/// lone leaders onto a friendly unit he can reach.
pub fn leaders_to_join(app: &GbacwApp, seat: SeatId) -> Vec<GbacwAction> {
    let (Some(rules), Some(state)) = (app.session.ruleset(), app.session.state()) else {
        return Vec::new();
    };
    let side = rules.side_of(seat);
    let oob = &rules.game().oob;
    let friendly: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(u, _)| oob.units[*u].side == *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    state
        .leaders
        .iter()
        .filter(|(l, st)| {
            oob.leaders[*l].side == *side && st.hex.is_some_and(|h| !friendly.contains(&h))
        })
        .filter_map(|(l, _)| {
            let reach = rules.reachable(state, l)?;
            let to = friendly.iter().find(|h| reach.cost(**h).is_some())?;
            Some(GbacwAction::Move {
                pieces: vec![l.clone()],
                path: reach.path_to(*to)?[1..].to_vec(),
            })
        })
        .collect()
}
