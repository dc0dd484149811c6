//! Melee (GBACW 12.0–12.7, 16.2–16.3) as pure queries: each unit's melee
//! strength ([`strength`]), the terrain it crosses ([`terrain`]), a
//! side's total for the differential, who may melee ([`declare`]) and
//! what the Melee CRT's cell does ([`result`]).

pub mod declare;
pub mod result;
pub mod strength;
pub mod terrain;

pub use declare::{
    MeleeIntent, check_declarations, continuing_terrain_penalty, formation_after_melee,
    may_advance, may_initiate_melee, may_move_through, melee_stacking,
};
pub use result::{
    MeleeOutcome, SideOutcome, alive, apply_effect, loss_order, may_leave_engaged, resolve_melee,
};
pub use strength::{
    MeleeRole, Opponents, differential, morale_edge, side_total, unit_melee_strength,
};
pub use terrain::{crossing_penalty, may_charge, may_melee_into};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_resolve;
