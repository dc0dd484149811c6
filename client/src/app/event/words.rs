//! The event screens' words: clocks, "a minute ago", results and a
//! table's status as a player reads them. Nothing here shows an id, a
//! type's name or `Debug` output.

use muster_shared::SeatId;
use muster_shared::protocol::club::{
    GameResult, PairingMethod, ResultHow, RoundScenario, TableCard,
};

/// A clock: "1:02:03" from an hour up, else "12:34".
pub fn clock(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Time left to answer, coarsely: "23 h 5 min", "12 min", "40 s".
pub fn left(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        s if s >= 24 * 3600 => format!("{} days {} h", s / 86_400, (s % 86_400) / 3600),
        s if s >= 3600 => format!("{} h {} min", s / 3600, (s / 60) % 60),
        s if s >= 60 => format!("{} min", s / 60),
        s => format!("{s} s"),
    }
}

/// An event's battle per round, for its page: "Round 1: Cedar Mountain,
/// 9 August 1862 · Round 2: Corinth, …".
pub fn round_battles(rounds: &[RoundScenario]) -> String {
    rounds
        .iter()
        .enumerate()
        .map(|(i, r)| format!("Round {}: {}", i + 1, r.scenario))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// How long ago `then` was, at `now` (both Unix seconds).
pub fn ago(then: u64, now: u64) -> String {
    let d = now.saturating_sub(then);
    match d {
        0..=9 => "just now".into(),
        10..=59 => format!("{d} s ago"),
        60..=3599 => format!("{} min ago", d / 60),
        3600..=86_399 => format!("{} h ago", d / 3600),
        _ => format!("{} days ago", d / 86_400),
    }
}

/// Words from the server as a sentence on a status line: the first
/// letter capital ("table 3 paused" → "Table 3 paused").
pub fn sentence(words: &str) -> String {
    let mut c = words.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A count with its noun: "1 table", "4 tables".
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

pub fn pairing(p: PairingMethod) -> &'static str {
    match p {
        PairingMethod::Swiss => "Swiss",
        PairingMethod::RoundRobin => "round robin",
        PairingMethod::SingleElimination => "single elimination",
    }
}

/// A seat's player's name, or "the first side" when the seat is empty.
pub fn name_at(card: &TableCard, seat: SeatId) -> String {
    card.players
        .get(usize::from(seat.0))
        .and_then(|p| p.as_ref())
        .map_or_else(
            || {
                if seat.0 == 0 {
                    "the first side".into()
                } else {
                    "the second side".into()
                }
            },
            |(_, n)| n.clone(),
        )
}

/// A result in words: who won, the points, and how.
pub fn result(card: &TableCard, r: &GameResult) -> String {
    let (a, b) = (name_at(card, SeatId(0)), name_at(card, SeatId(1)));
    let score = format!("{}–{}", r.points[0], r.points[1]);
    let who = match r.points[0].cmp(&r.points[1]) {
        std::cmp::Ordering::Greater => format!("{a} won"),
        std::cmp::Ordering::Less => format!("{b} won"),
        std::cmp::Ordering::Equal => "drawn".to_string(),
    };
    let how = match &r.how {
        ResultHow::Engine { summary } => summary.clone(),
        ResultHow::Resigned { seat } => format!("{} resigned", name_at(card, *seat)),
        ResultHow::Clock { seat } => format!("{} ran out of time", name_at(card, *seat)),
        ResultHow::Adjudicated { reason } => format!("adjudicated: {reason}"),
        ResultHow::Bye => return format!("{a} has a bye ({} points)", r.points[0]),
    };
    format!("{who}, {score} ({how})")
}

/// A table's status in one line.
pub fn status(card: &TableCard) -> String {
    if let Some(r) = &card.result {
        return result(card, r);
    }
    if card.paused {
        return "Paused by the director".into();
    }
    match card.awaiting {
        Some(s) => format!("{} to answer", name_at(card, s)),
        None => "In play".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::protocol::UserId;

    fn card() -> TableCard {
        TableCard {
            table: None,
            players: [
                Some((UserId(1), "Ann".into())),
                Some((UserId(2), "Bob".into())),
            ],
            progress: None,
            awaiting: Some(SeatId(1)),
            clock_ms: None,
            last_activity: None,
            paused: false,
            result: None,
        }
    }

    #[test]
    fn clocks_and_ages_read_as_time() {
        assert_eq!(clock(754_000), "12:34");
        assert_eq!(clock(3_723_000), "1:02:03");
        assert_eq!(left(83_100_000), "23 h 5 min");
        assert_eq!(ago(100, 103), "just now");
        assert_eq!(ago(100, 400), "5 min ago");
        assert_eq!(count(1, "table", "tables"), "1 table");
        assert_eq!(count(4, "table", "tables"), "4 tables");
        assert_eq!(sentence("table 3 paused"), "Table 3 paused");
        assert_eq!(sentence(""), "");
    }

    #[test]
    fn results_and_status_name_the_players() {
        let mut c = card();
        assert_eq!(status(&c), "Bob to answer");
        c.paused = true;
        assert_eq!(status(&c), "Paused by the director");
        c.result = Some(GameResult {
            points: [0, 2],
            vp_margin: 0,
            how: ResultHow::Resigned { seat: SeatId(0) },
        });
        assert_eq!(status(&c), "Bob won, 0–2 (Ann resigned)");
    }
}
