//! GBACW 17.71, 17.72: leader casualties, rolled per leader on 17.76
//! before the morale checks of the units in the hex.

use crate::gbacw::morale::{MoraleMods, morale_check};
use crate::gbacw::oob::CounterId;
use crate::gbacw::tables::{CasualtyCause, LeaderCasualtyTable, LeaderLoss};

/// One leader's roll and its result (`None`: unharmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderCasualty {
    pub leader: CounterId,
    pub roll: u8,
    pub loss: Option<LeaderLoss>,
}

/// GBACW 17.72: every leader in a hex where a unit suffered a combat
/// casualty rolls two dice, separately, in id order (a fixed order keeps the
/// dice stream the same on server and client). `two_dice` returns one 2d6
/// total per call. Nothing is rolled when no unit lost strength.
pub fn roll_leaders(
    table: &LeaderCasualtyTable,
    cause: CasualtyCause,
    leaders: &[CounterId],
    unit_suffered_casualty: bool,
    mut two_dice: impl FnMut() -> u8,
) -> Vec<LeaderCasualty> {
    if !unit_suffered_casualty {
        return Vec::new();
    }
    let mut sorted: Vec<&CounterId> = leaders.iter().collect();
    sorted.sort();
    sorted.dedup();
    sorted
        .into_iter()
        .map(|leader| {
            let roll = two_dice();
            LeaderCasualty {
                leader: leader.clone(),
                roll,
                loss: table.result(cause, roll),
            }
        })
        .collect()
}

/// A unit in the hex that must check morale, with its modifiers other
/// than the leader's (which depends on the leader surviving).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitCheck {
    pub unit: CounterId,
    pub morale: u8,
    pub mods: MoraleMods,
}

/// What a hex comes to after a combat casualty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexAftermath {
    pub leaders: Vec<LeaderCasualty>,
    /// Units that routed on their check.
    pub routed: Vec<CounterId>,
}

/// GBACW 17.72 then 13.2: leader rolls first (two dice from `die` each),
/// then one morale die per unit. A leader lost on his roll no longer gives
/// the −1 of 17.4 — that is why the order matters.
pub fn casualties_then_morale(
    table: &LeaderCasualtyTable,
    cause: CasualtyCause,
    leaders: &[CounterId],
    checks: &[UnitCheck],
    mut die: impl FnMut() -> u8,
) -> HexAftermath {
    let rolled = roll_leaders(table, cause, leaders, true, || die().saturating_add(die()));
    let leader_left = rolled.iter().any(|c| c.loss.is_none());
    let routed = checks
        .iter()
        .filter(|c| {
            let mods = MoraleMods {
                leader: leader_left,
                ..c.mods
            };
            morale_check(c.morale, die(), mods)
        })
        .map(|c| c.unit.clone())
        .collect();
    HexAftermath {
        leaders: rolled,
        routed,
    }
}
