//! The sequence of play (GBACW 4.0): phases ([`phase`]) and the game
//! clock with exclusive-rule hooks ([`clock`]).

pub mod clock;
pub mod phase;

pub use clock::{Clock, ExtraInterphase, ExtraPhase, SequenceSpec, Step, Turns};
pub use phase::{Phase, PlayerTurn};

#[cfg(test)]
mod tests;
