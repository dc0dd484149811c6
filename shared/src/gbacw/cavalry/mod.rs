//! GBACW 16: cavalry charges (16.2) and what follows them; mounted fire
//! (16.34). Mounted melee strengths are in [`crate::gbacw::melee`];
//! cavalry's retreat before melee (16.1) is in
//! [`crate::gbacw::retreat::before_melee`].
//!
//! - [`charge`]: who may charge whom, and the charger's rout afterwards.

pub mod charge;

pub use charge::{ChargeSetup, charge_allowed, charger_routs, mounted_fire_hexsides};

#[cfg(test)]
mod tests;
