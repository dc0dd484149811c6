//! GBACW 11: ammunition. Small-arms depletion on the Fire CRT (11.2),
//! supply wagons and what fire does to them (11.1), resupply from a wagon
//! (11.23–11.25, 11.32) and battery rounds (11.3).
//!
//! - [`depletion`]: who rolls for depletion, and the roll (11.2, 11.21).
//! - [`wagon`]: wagons under fire, crews, recrewing and capture (11.1x).
//! - [`resupply`]: who a wagon may resupply this Resupply Phase.
//! - [`rounds`]: battery rounds: firing, transfer, capture (11.3x).

pub mod depletion;
pub mod resupply;
pub mod rounds;
pub mod wagon;

pub use depletion::{depleted_after_fire, may_reorder_stack};
pub use resupply::{ResupplyRequest, resupply};
pub use rounds::{expend_round, transfer_rounds};
pub use wagon::{
    WagonEffect, WagonRetreat, apply_ammo_loss, capture_wagon, captured_wagon_usable, recrew,
    wagon_fire_effect, wagon_may_move, wagon_retreat,
};

#[cfg(test)]
mod tests;
