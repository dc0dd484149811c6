//! GBACW helpers shared by the table's kittests.

use muster_client::ConnectOptions;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::{Join, NetTable};
use muster_shared::SeatId;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, Formation};
use muster_shared::gbacw::ruleset::GbacwAction;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};
use muster_shared::protocol::TableOptions;

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
            // The nearest (cheapest to reach).
            let to = friendly
                .iter()
                .filter_map(|h| reach.cost(*h).map(|c| (c, h)))
                .min()?
                .1;
            Some(GbacwAction::Move {
                pieces: vec![l.clone()],
                path: reach.path_to(*to)?[1..].to_vec(),
            })
        })
        .collect()
}

/// A Union combat unit, not in column, that can reach an empty hex next to
/// a Confederate unit: `(unit, path without its start, that hex, the
/// enemy's hex)`, the first such in id order. For tests that set up a
/// fire or a melee from the test battle's opening position.
pub fn closing_move(app: &GbacwApp) -> (CounterId, Vec<HexNumber>, HexNumber, HexNumber) {
    let rules = app.session.ruleset().unwrap();
    let state = app.session.state().unwrap();
    let grid = &rules.game().map.grid;
    let oob = &rules.game().oob;
    let enemies: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(u, _)| oob.units[*u].side.0 == "confederate")
        .filter_map(|(_, u)| u.hex)
        .collect();
    let occupied = |x: HexNumber| state.units.values().any(|u| u.hex == Some(x));
    state
        .units
        .iter()
        .filter(|(u, st)| {
            oob.units[*u].side.0 == "union"
                && oob.units[*u].weapon.is_some()
                && st.status.formation != Formation::Column
        })
        .find_map(|(u, _)| {
            let reach = rules.reachable(state, u)?;
            reach.hexes.keys().filter(|x| !occupied(**x)).find_map(|x| {
                let e = enemies.iter().find(|e| grid.distance(*x, **e) == 1)?;
                Some((u.clone(), reach.path_to(*x)?[1..].to_vec(), *x, *e))
            })
        })
        .expect("some Union unit can close on the enemy")
}

/// A public GBACW table on `server` with `config`, taken by three clients
/// named `names`: the first creates it and sits over WebSocket, the second
/// sits over QUIC, the third watches over WebSocket.
pub fn three_clients(
    server: &super::TestServer,
    config: &GbacwConfig,
    names: [&str; 3],
) -> [NetTable<Gbacw>; 3] {
    let opts = ConnectOptions {
        fingerprint: Some(server.server.fingerprint.clone()),
        ..ConnectOptions::default()
    };
    let options = TableOptions {
        ruleset: "gbacw".into(),
        scenario: config.battle.clone(),
        config: <Gbacw as muster_shared::engine::Ruleset>::encode_config(config),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let first = NetTable::<Gbacw>::join(&server.ws, opts.clone(), names[0], Join::Create(options))
        .expect("create and sit");
    let table = first.table();
    let seat = Join::Seat {
        table,
        seat: None,
        invite: None,
    };
    let second =
        NetTable::<Gbacw>::join(&server.quic, opts.clone(), names[1], seat).expect("second seat");
    let watch = Join::Spectate {
        table,
        invite: None,
    };
    let watcher = NetTable::<Gbacw>::join(&server.ws, opts, names[2], watch).expect("spectate");
    [first, second, watcher]
}
