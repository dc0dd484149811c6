//! Stacking (GBACW 8.0–8.18) as pure queries: what a unit counts
//! ([`points`]), whether a moving unit may enter a hex ([`entry`]) and
//! whether a hex is within its limits at the end of a phase ([`limits`]).

pub mod entry;
pub mod limits;
pub mod points;

pub use entry::may_enter;
pub use limits::{Overstack, check_hex};
pub use points::stacking_points;

#[cfg(test)]
mod tests;
