//! Refusals in words: a [`RuleError`]'s message with every counter named
//! as printed ("10 Va", not `10-va`).
//!
//! The rule modules write their refusals with the counters' ids (they are
//! what the rule code holds); this is the one place the ids become
//! printed names, on the way out of `decide`, so no refusal a player
//! reads carries an id. A word that is an id is replaced when it cannot
//! be an ordinary word of the message: it has a digit or a hyphen
//! (`46-pa`), or it is a leader's or side's id that is no English word
//! (`banks`, not `early` or `green`, which the messages use as words:
//! "a green unit", 13.12), or it is the message's first word (a sentence
//! names its subject there: "early must end the Movement Phase …").

use super::names::counter_name;
use crate::engine::RuleError;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;

/// Ids that are also words a refusal may use as words. (Leaders' ids
/// that no refusal uses as a word — `hill`, `branch`, `price`, `rust`,
/// `gates` — are not here: "price must end the Movement Phase" read as
/// an id, GBACW 17.52's refusal.)
const ENGLISH: &[&str] = &["early", "green", "union", "confederate", "test"];

fn id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// `message` with the ids of `rs`'s order of battle as printed names.
pub fn refusal_text(rs: &Gbacw, message: &str) -> String {
    let oob = &rs.game().oob;
    let mut out = String::with_capacity(message.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        let first = out.is_empty();
        let id = CounterId(word.clone());
        let known = oob.units.contains_key(&id)
            || oob.leaders.contains_key(&id)
            || oob.sides.contains_key(&id);
        let marked = word
            .chars()
            .any(|c| c.is_ascii_digit() || c == '-' || c == '_');
        if known && (marked || first || !ENGLISH.contains(&word.as_str())) {
            out.push_str(&counter_name(rs, &id));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in message.chars() {
        if id_char(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// `e` with its message in printed names.
pub fn refusal(rs: &Gbacw, mut e: RuleError) -> RuleError {
    e.message = refusal_text(rs, &e.message);
    e
}
