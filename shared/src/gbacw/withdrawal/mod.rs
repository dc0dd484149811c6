//! Withdrawal and retreat fire (GBACW 10.1–10.2, 6.23, 6.24, 12.83,
//! 12.84) as pure queries: who may fire, at whom, and whether the shot
//! enfilades. The engine turns each answer into a pending decision for
//! the firing player.

pub mod shot;
pub mod triggers;

pub use shot::withdrawal_shot;
pub use triggers::{
    EnemyZoc, Mover, limbering_firers, retreat_firers, withdrawal_enfiladed, withdrawal_firers,
    withdrawal_targets,
};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_shot;
