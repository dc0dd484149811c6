//! GBACW 17.53: a leader whose units were shot away rejoins his command.

use super::Unfold;
use crate::gbacw::leaders::{Relocation, relocate_after_fire, trapped};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, LeaderRole};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{Casualty, GbacwState};

/// GBACW 17.53: "If a leader is stacked with a combat unit(s) that is
/// eliminated by Fire Combat—and the leader does not suffer a
/// casualty—the leader is immediately placed on the nearest combat unit in
/// his command. If, as a result of fire or melee, a leader is alone in a
/// hex that is surrounded by Enemy units, Enemy ZOC's and/or impassable
/// terrain, that leader is captured." Called once the fire's losses and
/// its leader rolls (17.72) are in: `side`'s leaders left in `hex` with no
/// friendly combat unit go to the nearest unit of their command, or are
/// captured when the hex is a trap or no unit of theirs is left
/// (`case_17_53_leader_jumps_to_nearest_unit_of_his_command`).
pub(crate) fn after_fire(rs: &Gbacw, u: &mut Unfold, side: &CounterId, hex: HexNumber) {
    let (alone, is_trapped) = {
        let board = Board::new(rs, &u.state);
        if !board.units_of(hex, side).is_empty() {
            return;
        }
        let alone: Vec<CounterId> = board.leaders_of(hex, side).into_iter().cloned().collect();
        let blocks = board.command_blocks(side);
        let is_trapped = trapped(&rs.game.map.grid, hex, |h| blocks.blocks(h));
        (alone, is_trapped)
    };
    for leader in alone {
        let units = command_units(rs, &u.state, &leader);
        match relocate_after_fire(&rs.game.map.grid, hex, is_trapped, &units) {
            Relocation::Join(_, to) => u.push(GbacwEvent::LeaderRejoined { leader, hex: to }),
            Relocation::Captured => u.push(GbacwEvent::LeaderLost {
                leader,
                casualty: Casualty::Captured,
            }),
        }
    }
}

/// The combat units on the map in `leader`'s command: those of the
/// brigades he leads now (17.81–17.83), of the brigades of the division he
/// leads now (17.2, 17.83; its attached brigade in, a detached one out,
/// 17.6), or his whole side's for an army commander.
fn command_units(
    rs: &Gbacw,
    state: &GbacwState,
    leader: &CounterId,
) -> Vec<(CounterId, HexNumber)> {
    let oob = &rs.game.oob;
    let Some(l) = oob.leaders.get(leader) else {
        return Vec::new();
    };
    let army = matches!(l.role, LeaderRole::Army { .. });
    let division_of = |b: &CounterId| -> Option<CounterId> {
        if let Some((d, _)) = state
            .links
            .iter()
            .find(|(_, x)| x.attached.as_ref() == Some(b))
        {
            return Some(d.clone());
        }
        let LeaderRole::Brigade {
            division: Some(d), ..
        } = &oob.leaders.get(b)?.role
        else {
            return None;
        };
        let detached = state
            .links
            .get(d)
            .is_some_and(|x| x.detached.as_ref() == Some(b));
        (!detached).then(|| d.clone())
    };
    let leads = |b: &CounterId| {
        super::succession::brigade_commander(state, b).as_ref() == Some(leader)
            || division_of(b)
                .and_then(|d| super::succession::division_commander(rs, state, &d))
                .is_some_and(|(c, _)| &c == leader)
    };
    state
        .units
        .iter()
        .filter_map(|(id, s)| {
            let unit = &oob.units[id];
            let hex = s.hex?;
            if unit.side != l.side {
                return None;
            }
            let ours = army || matches!(&unit.command, Command::Brigade(b) if leads(b));
            ours.then(|| (id.clone(), hex))
        })
        .collect()
}
