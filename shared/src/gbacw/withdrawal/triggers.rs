//! GBACW 10.1–10.2, 6.23, 6.24: what triggers free fire, and by whom.

use crate::gbacw::facing::{Facing, is_enfiladed};
use crate::gbacw::map::{Grid, HexNumber};
use crate::gbacw::oob::{CounterId, Formation};
use std::collections::BTreeSet;

/// An enemy unit able to fire withdrawal or retreat fire (the caller has
/// checked [`crate::gbacw::fire::may_fire`] with the withdrawal occasion)
/// and the hexes its ZOC covers for the mover (10.0; for a mounted mover
/// mounted cavalry's ZOC counts too: [`crate::gbacw::facing::ZocUse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnemyZoc {
    pub unit: CounterId,
    pub zoc: BTreeSet<HexNumber>,
}

/// What is moving, for the exceptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// A combat unit in the Movement Phase (10.1, 10.17) or retreating
    /// before melee (12.83).
    Unit,
    /// GBACW 10.18: leaders draw no withdrawal fire.
    Leader,
    /// GBACW 12.84, 16.1: mounted cavalry retreating before melee draws
    /// none either.
    MountedRetreatingBeforeMelee,
}

/// GBACW 10.1, 10.19, 6.24: the enemy units that may fire at a unit
/// leaving `hex` (or changing formation in it) — every unit whose ZOC
/// covers the hex, each once for this mover.
pub fn withdrawal_firers(enemies: &[EnemyZoc], hex: HexNumber, mover: Mover) -> Vec<CounterId> {
    if mover != Mover::Unit {
        return Vec::new();
    }
    enemies
        .iter()
        .filter(|e| e.zoc.contains(&hex))
        .map(|e| e.unit.clone())
        .collect()
}

/// GBACW 10.13/10.14: whom withdrawal fire hits. If the whole stack
/// leaves, the fire is one shot at the stack; if only some leave, they go
/// unharmed and the units staying behind take the fire.
pub fn withdrawal_targets(stack: &[CounterId], leaving: &BTreeSet<CounterId>) -> Vec<CounterId> {
    if stack.iter().all(|u| leaving.contains(u)) {
        stack.to_vec()
    } else {
        stack
            .iter()
            .filter(|u| !leaving.contains(*u))
            .cloned()
            .collect()
    }
}

/// GBACW 10.16, 7.11: a withdrawing unit faces the hex it enters, so the
/// withdrawal fire from `firer` enfilades it if that facing turns its rear
/// to the firer.
pub fn withdrawal_enfiladed(
    grid: &Grid,
    from: HexNumber,
    to: HexNumber,
    formation: Formation,
    firer: HexNumber,
) -> bool {
    match grid.direction(from, to) {
        Some(d) => is_enfiladed(grid, from, Facing::new(d), formation, false, firer),
        None => true,
    }
}

/// GBACW 10.2: along a retreat `path` (without the start), each enemy unit
/// whose ZOC a hex of the path enters may fire once at the retreating
/// unit — except the unit(s) that caused the retreat. Returns the hex
/// entered and the firer, in path order.
pub fn retreat_firers(
    enemies: &[EnemyZoc],
    path: &[HexNumber],
    caused_by: &BTreeSet<CounterId>,
) -> Vec<(HexNumber, CounterId)> {
    let mut fired = BTreeSet::new();
    let mut out = Vec::new();
    for &hex in path {
        for e in enemies {
            if e.zoc.contains(&hex) && !caused_by.contains(&e.unit) && fired.insert(e.unit.clone())
            {
                out.push((hex, e.unit.clone()));
            }
        }
    }
    out
}

/// GBACW 6.23: a battery that limbers or unlimbers draws fire from every
/// enemy small-arms unit (not wagon crews) that has it in range and line
/// of sight. `candidates` are those units with their hex and maximum
/// range; `sees` answers line of sight from a hex to the battery.
pub fn limbering_firers(
    grid: &Grid,
    battery: HexNumber,
    candidates: &[(CounterId, HexNumber, u32)],
    sees: impl Fn(HexNumber) -> bool,
) -> Vec<CounterId> {
    candidates
        .iter()
        .filter(|(_, hex, max_range)| grid.distance(*hex, battery) <= *max_range && sees(*hex))
        .map(|(id, _, _)| id.clone())
        .collect()
}
