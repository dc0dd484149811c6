//! Leaders in combat and their succession (GBACW 17.4, 17.5, 17.7, 17.8,
//! 9.86, 13.34): casualty rolls, capture, where a leader may stand, and who
//! takes over when one is lost.
//!
//! - [`casualty`]: 17.72's rolls, taken before the hex's morale checks.
//! - [`capture`]: lone leaders captured (17.53, 17.54, 17.73, 17.75).
//! - [`presence`]: one leader per unit (17.51), ending moves alone (17.52),
//!   pins (9.86), rout (13.34, 17.74).
//! - [`succession`]: replacements and promotions (17.8–17.85).

pub mod capture;
pub mod casualty;
pub mod presence;
pub mod succession;

pub use capture::{Relocation, captured_on_entry, lone_after_melee, relocate_after_fire, trapped};
pub use casualty::{HexAftermath, LeaderCasualty, UnitCheck, casualties_then_morale, roll_leaders};
pub use presence::{
    StackEntry, effective_leader, leader_may_end_move, leader_may_move, rout_movers,
};
pub use succession::{Succession, placement_turn, promotion_candidates, succession};

#[cfg(test)]
mod tests;
