//! GBACW in words for people: one description for every action
//! ([`action`]) and every event ([`event`]), written from the order of
//! battle's printed names ("15 Ala", "Ewell"), hex numbers as printed
//! ("4032"), formations and phases in the rulebook's words, and the case
//! where it helps ("GBACW 12.81"). A player never reads `Debug` output
//! (DESIGN §3, "Words for people").
//!
//! The matches in `action.rs` and `event.rs` are exhaustive, with no
//! catch-all arm: a new action or event does not compile until it has
//! its words. The client's log, prompts and buttons use these.
//!
//! - `names.rs`: counters, sides, areas, reserves, hexes, facings,
//!   formations, Movement Points, lists.
//! - `action.rs`: what a player asks for.
//! - `event.rs`: what happened.
//! - `refusal.rs`: refusals, their counters named as printed.
//! - `readings.rs`: the rules readings a table may choose.

mod action;
mod event;
mod names;
mod readings;
mod refusal;

pub use action::action;
pub use event::event;
pub use names::{
    area_name, counter_name, facing_word, formation_word, hex_path, mp_text, plan_words,
    reserve_name, seat_name, side_name,
};
pub use readings::{ReadingWords, reading_words};
pub use refusal::{refusal, refusal_text};

#[cfg(test)]
mod tests;
