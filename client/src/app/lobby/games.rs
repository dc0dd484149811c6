//! "Your tables" at the top of the lobby (issues 18 and 21): every table
//! where you hold a seat — those the lobby lists, and your event games
//! ("your games", which the server keeps even for a slow-play table no one
//! has open) — with the game waiting on you marked "your move" and how
//! long you have, counted down from the server's deadline. Your move
//! first, the least time left first.

use super::list::{self, Pick};
use crate::app::event::words;
use crate::app::your_move::Waiting;
use egui::{Color32, RichText, Ui};
use muster_shared::protocol::club::YourGame;
use muster_shared::protocol::{TableId, TableStatus, TableSummary};
use std::collections::BTreeMap;

/// One table of yours, from the lobby's list, your games, or both.
#[derive(Clone, Debug)]
pub struct YourTable<'a> {
    pub table: TableId,
    pub summary: Option<&'a TableSummary>,
    pub game: Option<&'a YourGame>,
    /// The game waits on you (and is not paused).
    pub your_move: bool,
}

impl YourTable<'_> {
    /// The battle and the opponent: "Cedar Mountain, 9 August 1862
    /// against Jackson".
    pub fn words(&self, me: Option<&str>) -> String {
        let battle = self.summary.map(list::scenario_words);
        let opponent = match (self.game, self.summary) {
            (Some(g), _) => Some(g.opponent.clone()),
            (None, Some(t)) => t
                .seats
                .iter()
                .flatten()
                .find(|n| Some(n.as_str()) != me)
                .cloned(),
            _ => None,
        };
        let mut w = match (battle, self.game) {
            (Some(b), _) => b.to_string(),
            (None, Some(g)) => g.event_name.clone(),
            (None, None) => format!("table {}", self.table.0),
        };
        if let Some(o) = opponent {
            w.push_str(&format!(" against {o}"));
        }
        w
    }

    /// Time left to answer, in words, `elapsed_ms` after the server said.
    pub fn time_left(&self, elapsed_ms: u64) -> Option<String> {
        let g = self.game?;
        let running = self.your_move && !g.paused;
        let tick = |ms: u64| {
            if running {
                ms.saturating_sub(elapsed_ms)
            } else {
                ms
            }
        };
        // Slow play counts in days and hours, as the deadlines are set.
        match (g.decision_ms, g.bank_ms) {
            (Some(d), Some(b)) => Some(format!(
                "{} left to answer ({} in the bank)",
                words::left(tick(d)),
                words::left(tick(b))
            )),
            (Some(d), None) => Some(format!("{} left to answer", words::left(tick(d)))),
            (None, Some(b)) => Some(format!("{} in the bank", words::left(tick(b)))),
            (None, None) => None,
        }
    }
}

/// Every table of yours: the lobby's (by `me`'s seat) and your games.
pub fn collect<'a>(
    tables: &'a BTreeMap<TableId, TableSummary>,
    games: &'a [YourGame],
    me: Option<&str>,
) -> Vec<YourTable<'a>> {
    let mut out: BTreeMap<TableId, YourTable<'a>> = BTreeMap::new();
    for t in tables.values().filter(|t| list::sits_here(t, me)) {
        out.insert(
            t.table,
            YourTable {
                table: t.table,
                summary: Some(t),
                game: None,
                your_move: list::waits_on(t, me),
            },
        );
    }
    for g in games {
        let e = out.entry(g.table).or_insert(YourTable {
            table: g.table,
            summary: tables.get(&g.table),
            game: None,
            your_move: false,
        });
        e.game = Some(g);
        // The lobby's list follows every move at once; your games, asked
        // for every few seconds, also knows tables no one has open and
        // whether the director paused the game.
        let listed = e.summary.is_some_and(|t| t.status == TableStatus::Playing);
        e.your_move = !g.paused && if listed { e.your_move } else { g.your_move };
    }
    let mut v: Vec<YourTable<'a>> = out.into_values().collect();
    v.sort_by_key(|t| {
        (
            !t.your_move,
            t.game.and_then(|g| g.decision_ms.or(g.bank_ms)),
            t.table,
        )
    });
    v
}

/// The tables where your move is awaited, for [`crate::app::your_move`].
pub fn waiting(mine: &[YourTable<'_>], me: Option<&str>) -> Vec<Waiting> {
    mine.iter()
        .filter(|t| t.your_move)
        .map(|t| Waiting {
            table: t.table,
            words: t.words(me),
        })
        .collect()
}

/// Draw "Your tables"; a click on a table's button opens it.
pub fn ui(ui: &mut Ui, mine: &[YourTable<'_>], me: Option<&str>, elapsed_ms: u64) -> Option<Pick> {
    if mine.is_empty() {
        return None;
    }
    let mut pick = None;
    ui.strong(list::YOUR_TABLES);
    egui::ScrollArea::vertical()
        .id_salt("your_tables")
        .max_height(170.0)
        .show(ui, |ui| {
            for t in mine {
                ui.horizontal_wrapped(|ui| {
                    if ui.button(format!("Open #{}", t.table.0)).clicked() {
                        pick = Some(Pick::Join(t.table));
                    }
                    // Your seat by its one name, "as Union (Meade)" (issue 18).
                    let seat = t.summary.and_then(|s| {
                        let k = s.seats.iter().position(|n| n.as_deref() == me)?;
                        crate::app::seat_words::table_seat_names(s).get(k).cloned()
                    });
                    let seat = seat.map(|s| format!(" as {s}")).unwrap_or_default();
                    ui.label(format!("#{} {}{seat}", t.table.0, t.words(me)));
                    if t.your_move {
                        ui.label(
                            RichText::new(list::YOUR_MOVE)
                                .strong()
                                .color(Color32::BLACK)
                                .background_color(Color32::from_rgb(0xff, 0xd0, 0x40)),
                        );
                    }
                    if let Some(g) = t.game {
                        if g.paused {
                            ui.label(
                                RichText::new("paused by the director")
                                    .color(Color32::from_rgb(0xe0, 0x8a, 0x00)),
                            );
                        } else if !t.your_move {
                            ui.weak(format!("{}'s move", g.opponent));
                        }
                        if let Some(left) = t.time_left(elapsed_ms) {
                            ui.label(RichText::new(left).monospace());
                        }
                        ui.weak(format!("{}, round {}", g.event_name, g.round));
                    }
                });
            }
        });
    ui.separator();
    pick
}
