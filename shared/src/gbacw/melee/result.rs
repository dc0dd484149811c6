//! GBACW 12.9–12.97: applying a Melee CRT cell to the two sides.

use crate::gbacw::oob::{Crew, Formation, Marker, Unit, UnitKind, UnitStatus};
use crate::gbacw::tables::{CasualtyCause, MeleeCrt, MeleeEffect, MeleeResult};

/// What one side came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideOutcome {
    /// Strength Points killed (12.91), by stack index.
    pub killed: Vec<(usize, u8)>,
    /// Strength Points or guns captured (12.93), by stack index.
    pub captured: Vec<(usize, u8)>,
    /// Hexes every surviving unit retreats (12.92, 12.95).
    pub retreat: Option<u8>,
    /// Units captured whole: unlimbered artillery on C or R (12.92, 12.93).
    pub captured_whole: Vec<usize>,
    /// GBACW 12.94.
    pub engaged: bool,
    /// Survivors check morale (12.92 after retreat, 12.95).
    pub morale_check: bool,
    /// GBACW 17.72, 12.95: the 17.76 column leaders in the hex roll on.
    pub leader_roll: Option<CasualtyCause>,
}

fn foot(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
}

/// GBACW 12.74: the order losses come off a side: infantry and cavalry
/// before gun (and wagon) crews, whatever the stacking order; within each
/// group, the owner's order (`stack` as given).
pub fn loss_order(stack: &[(&Unit, &UnitStatus)]) -> Vec<usize> {
    let (mut a, b): (Vec<usize>, Vec<usize>) = (0..stack.len()).partition(|i| foot(stack[*i].0));
    a.extend(b);
    a
}

/// Take `points` off the side in loss order; a crew takes one step per
/// point (12.91: K on a battery hits its crew; a second loss ends it).
fn take(stack: &mut [(&Unit, UnitStatus)], points: u8, out: &mut Vec<(usize, u8)>) {
    let view: Vec<(&Unit, &UnitStatus)> = stack.iter().map(|(u, s)| (*u, s)).collect();
    let order = loss_order(&view);
    let mut left = points;
    for i in order {
        if left == 0 {
            break;
        }
        let (u, s) = &mut stack[i];
        let took = if foot(u) {
            let t = left.min(s.strength);
            s.strength -= t;
            t
        } else if s.crew != Crew::None {
            s.crew = if s.crew == Crew::Full && matches!(u.kind, UnitKind::Battery { .. }) {
                Crew::Half
            } else {
                Crew::None
            };
            1
        } else {
            0
        };
        if took > 0 {
            out.push((i, took));
            left -= took;
        }
    }
}

/// Whether a unit is still in play after losses.
pub fn alive(u: &Unit, s: &UnitStatus) -> bool {
    if foot(u) {
        s.strength > 0
    } else {
        s.crew != Crew::None && s.strength > 0
    }
}

/// GBACW 12.91–12.95: apply one side's effect to its stack; `phasing`
/// tells the attacker (12.95: only the Phasing Player retreats on Rpls).
pub fn apply_effect(
    stack: &mut [(&Unit, UnitStatus)],
    effect: MeleeEffect,
    phasing: bool,
) -> SideOutcome {
    let mut o = SideOutcome::default();
    match effect {
        MeleeEffect::None => {}
        MeleeEffect::Casualty => {
            take(stack, 1, &mut o.killed);
            o.leader_roll = Some(CasualtyCause::KMelee);
        }
        MeleeEffect::Engaged => {
            o.engaged = true;
            for (_, s) in stack.iter_mut() {
                s.markers.insert(Marker::Engaged);
            }
        }
        MeleeEffect::Repulsed => {
            o.retreat = phasing.then_some(2);
            o.morale_check = true;
            o.leader_roll = Some(CasualtyCause::RplsMelee);
        }
        MeleeEffect::CaptureRetreat { captured, retreat } => {
            // GBACW 12.92, 12.93: unlimbered guns cannot retreat; any C
            // or R captures all their guns and crew.
            for (i, (u, s)) in stack.iter_mut().enumerate() {
                if matches!(u.kind, UnitKind::Battery { .. })
                    && s.formation == Formation::Unlimbered
                {
                    o.captured_whole.push(i);
                    s.strength = 0;
                    s.crew = Crew::None;
                }
            }
            if captured > 0 {
                take(stack, captured, &mut o.captured);
                o.leader_roll = Some(CasualtyCause::CMelee);
            }
            o.retreat = Some(retreat);
            o.morale_check = true;
        }
    }
    o
}

/// A melee's outcome for both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeleeOutcome {
    pub cell: MeleeResult,
    pub attacker: SideOutcome,
    pub defender: SideOutcome,
    /// GBACW 12.97: both sides would have been wiped out; the result was
    /// turned into Engaged and nothing else applied.
    pub mutual_elimination: bool,
}

/// GBACW 12.0, 12.9, 12.97: look up the cell (the table clamps the
/// differential, 12.98), apply each side's effect; if that would leave
/// neither side a unit, undo it all and engage both sides instead.
/// `None` for a die outside 1..=6.
pub fn resolve_melee(
    crt: &MeleeCrt,
    differential: i32,
    die: u8,
    attackers: &mut [(&Unit, UnitStatus)],
    defenders: &mut [(&Unit, UnitStatus)],
) -> Option<MeleeOutcome> {
    let cell = crt.result(differential, die)?;
    let before_a: Vec<UnitStatus> = attackers.iter().map(|(_, s)| s.clone()).collect();
    let before_d: Vec<UnitStatus> = defenders.iter().map(|(_, s)| s.clone()).collect();
    let attacker = apply_effect(attackers, cell.attacker, true);
    let defender = apply_effect(defenders, cell.defender, false);
    let wiped =
        |side: &[(&Unit, UnitStatus)]| !side.is_empty() && side.iter().all(|(u, s)| !alive(u, s));
    if wiped(attackers) && wiped(defenders) {
        for ((_, s), b) in attackers.iter_mut().zip(before_a) {
            *s = b;
        }
        for ((_, s), b) in defenders.iter_mut().zip(before_d) {
            *s = b;
        }
        let a = apply_effect(attackers, MeleeEffect::Engaged, true);
        let d = apply_effect(defenders, MeleeEffect::Engaged, false);
        return Some(MeleeOutcome {
            cell,
            attacker: a,
            defender: d,
            mutual_elimination: true,
        });
    }
    Some(MeleeOutcome {
        cell,
        attacker,
        defender,
        mutual_elimination: false,
    })
}

/// GBACW 12.94 option 3: engaged units may retreat two hexes instead of
/// fighting on — except unlimbered artillery.
pub fn may_leave_engaged(u: &Unit, s: &UnitStatus) -> bool {
    !(matches!(u.kind, UnitKind::Battery { .. }) && s.formation == Formation::Unlimbered)
}
