//! What the hub tells a club's webhook (see `club::webhook`): a round
//! started, a player's move came in slow play, a game ended. Each is
//! queued and never waited for.

use super::{Hub, now_ms};
use crate::club::event::Event;
use muster_shared::protocol::club::{ClubId, EventId, ResultHow};
use serde_json::{Value, json};

impl Hub {
    /// Queue `body` for the webhook of event `id`'s club, if it has one.
    fn hook(&self, id: EventId, body: impl FnOnce(&Event, ClubId) -> Value) {
        let Some(entry) = self.events.get(&id) else {
            return;
        };
        let Some(url) = self
            .clubs
            .get(&entry.club)
            .and_then(|c| c.webhook.as_deref())
        else {
            return;
        };
        let body = body(&entry.event, entry.club);
        if !body.is_null() {
            self.webhooks.send(url, body);
        }
    }

    /// Round `r` (0-based) of event `id` has started.
    pub(super) fn hook_round_started(&self, id: EventId, r: usize) {
        self.hook(id, |e, club| {
            let Some(round) = e.rounds.get(r) else {
                return Value::Null;
            };
            let mut tables = Vec::new();
            let mut byes = Vec::new();
            for g in &round.games {
                match (g.seats, g.table) {
                    ([Some(a), Some(b)], Some(t)) => tables.push(json!({
                        "table": t.0,
                        "players": [e.name_of(a), e.name_of(b)],
                    })),
                    ([Some(a), None], _) => byes.push(e.name_of(a)),
                    _ => {}
                }
            }
            let mut text = format!(
                "Round {} of {} has started: {} table{}.",
                r + 1,
                e.settings.name,
                tables.len(),
                if tables.len() == 1 { "" } else { "s" }
            );
            if !byes.is_empty() {
                text.push_str(&format!(" A bye: {}.", byes.join(", ")));
            }
            json!({
                "kind": "round_started",
                "club": club.0,
                "event": id.0,
                "event_name": e.settings.name,
                "round": r + 1,
                "scenario": e.settings.round_play(r).scenario,
                "tables": tables,
                "byes": byes,
                "text": text,
            })
        });
    }

    /// Slow play: the game at game `g` of round `r` now awaits `seat`.
    pub(super) fn hook_your_move(&self, id: EventId, r: usize, g: usize, seat: u8) {
        self.hook(id, |e, club| {
            let Some(game) = e.rounds.get(r).and_then(|x| x.games.get(g)) else {
                return Value::Null;
            };
            let Some(user) = game.seats[usize::from(seat.min(1))] else {
                return Value::Null;
            };
            let name = e.name_of(user);
            let table = game.table.map_or(0, |t| t.0);
            let deadline_ms = e
                .settings
                .time
                .as_ref()
                .and_then(|tc| game.clock.as_ref()?.deadline_ms(tc));
            let within = deadline_ms
                .map(|d| format!(" (time left: {})", span_ms(d.saturating_sub(now_ms()))))
                .unwrap_or_default();
            json!({
                "kind": "your_move",
                "club": club.0,
                "event": id.0,
                "event_name": e.settings.name,
                "round": r + 1,
                "table": table,
                "player": name,
                "side": seat + 1,
                "deadline": deadline_ms.map(|d| d / 1000),
                "text": format!(
                    "{name}: your move at table {table} of {}, round {}{within}.",
                    e.settings.name,
                    r + 1
                ),
            })
        });
    }

    /// The game at game `g` of round `r` has its result.
    pub(super) fn hook_game_over(&self, id: EventId, r: usize, g: usize) {
        self.hook(id, |e, club| {
            let Some(game) = e.rounds.get(r).and_then(|x| x.games.get(g)) else {
                return Value::Null;
            };
            let Some(result) = &game.result else {
                return Value::Null;
            };
            let names = game
                .seats
                .map(|s| s.map_or_else(String::new, |u| e.name_of(u)));
            let seat_name = |s: u8| names[usize::from(s.min(1))].clone();
            let how = match &result.how {
                ResultHow::Engine { summary } => summary.clone(),
                ResultHow::Resigned { seat } => format!("{} resigned", seat_name(seat.0)),
                ResultHow::Clock { seat } => format!("{}'s time ran out", seat_name(seat.0)),
                ResultHow::Adjudicated { reason } => format!("adjudicated: {reason}"),
                ResultHow::Bye => "a bye".into(),
            };
            let table = game.table.map_or(0, |t| t.0);
            json!({
                "kind": "game_over",
                "club": club.0,
                "event": id.0,
                "event_name": e.settings.name,
                "round": r + 1,
                "table": table,
                "players": names,
                "points": result.points,
                "vp_margin": result.vp_margin,
                "how": how,
                "text": format!(
                    "Table {table} of {}, round {}: {} {}, {} {} ({how}).",
                    e.settings.name,
                    r + 1,
                    names[0],
                    result.points[0],
                    names[1],
                    result.points[1]
                ),
            })
        });
    }
}

/// A span of time in words ("1 d 3 h", "2 h 5 min", "40 s").
fn span_ms(ms: u64) -> String {
    let s = ms / 1000;
    let (d, h, m) = (s / 86_400, (s / 3600) % 24, (s / 60) % 60);
    if d > 0 {
        format!("{d} d {h} h")
    } else if h > 0 {
        format!("{h} h {m} min")
    } else if m > 0 {
        format!("{m} min")
    } else {
        format!("{s} s")
    }
}
