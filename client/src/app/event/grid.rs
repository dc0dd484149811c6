//! Watching an event: the round's tables as status cards (players,
//! Game-Turn and phase in words, clocks, last activity, result), one table
//! featured beside them, and "your games" — for slow play, where it is
//! your move and how long you have.

use super::{EventApp, words};
use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::protocol::TableId;
use muster_shared::protocol::club::{ClubRequest, EventView, SideAssignment, TableCard, YourGame};

/// A status card's width: four across a 1280-point window beside the side panel.
pub const CARD_WIDTH: f32 = 192.0;

const GOLD: Color32 = Color32::from_rgb(0xff, 0xd7, 0x00);
const AMBER: Color32 = Color32::from_rgb(0xe0, 0x8a, 0x00);
const GREEN: Color32 = Color32::from_rgb(0x40, 0xc0, 0x60);

pub fn ui(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    let elapsed = app.since_seen_ms();
    egui::Panel::right("event_side")
        .default_size(340.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("event_side_scroll")
                .show(ui, |ui| {
                    featured(ui, app, view, elapsed);
                    ui.separator();
                    your_games(ui, app);
                });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .id_salt("event_grid_scroll")
            .show(ui, |ui| {
                if view.tables.is_empty() {
                    ui.label("No round has started yet. Registered:");
                    for (_, name) in &view.entrants {
                        ui.label(format!("  {name}"));
                    }
                    return;
                }
                let open = view.tables.iter().filter(|c| c.result.is_none()).count();
                let tables = view.tables.iter().filter(|c| c.table.is_some()).count();
                ui.label(format!(
                    "Round {}: {}, {open} still playing",
                    view.round,
                    words::count(tables, "table", "tables")
                ));
                ui.horizontal_wrapped(|ui| {
                    for card in &view.tables {
                        if let Some(t) = card_ui(ui, card, view.now, elapsed, app.featured) {
                            app.featured = Some(t);
                        }
                    }
                });
            });
    });
}

/// A side's clock as it stands now: counting down for the side awaited.
pub fn clock_now(card: &TableCard, seat: u8, elapsed_ms: u64) -> Option<u64> {
    let ms = card.clock_ms?[usize::from(seat.min(1))];
    let running = card.result.is_none() && !card.paused && card.awaiting == Some(SeatId(seat));
    Some(if running {
        ms.saturating_sub(elapsed_ms)
    } else {
        ms
    })
}

/// One card; `Some(table)` when it was picked to be featured.
fn card_ui(
    ui: &mut Ui,
    card: &TableCard,
    now: u64,
    elapsed: u64,
    featured: Option<TableId>,
) -> Option<TableId> {
    let mut picked = None;
    let is_featured = card.table.is_some() && card.table == featured;
    let stroke = if is_featured {
        egui::Stroke::new(2.0, GOLD)
    } else {
        ui.visuals().widgets.noninteractive.bg_stroke
    };
    egui::Frame::group(ui.style())
        .stroke(stroke)
        .show(ui, |ui| {
            ui.set_width(CARD_WIDTH);
            ui.set_min_height(150.0);
            ui.vertical(|ui| {
                let Some(t) = card.table else {
                    ui.strong("Bye");
                    ui.label(words::status(card));
                    return;
                };
                ui.horizontal(|ui| {
                    ui.strong(format!("Table {}", t.0));
                    let (tag, colour) = if card.result.is_some() {
                        ("finished", Color32::GRAY)
                    } else if card.paused {
                        ("paused", AMBER)
                    } else {
                        ("playing", GREEN)
                    };
                    ui.label(RichText::new(tag).color(colour));
                });
                for seat in 0..2u8 {
                    let name = words::name_at(card, SeatId(seat));
                    let turn = card.result.is_none() && card.awaiting == Some(SeatId(seat));
                    let clock = clock_now(card, seat, elapsed)
                        .map(|ms| format!("  {}", words::clock(ms)))
                        .unwrap_or_default();
                    let text = format!("{}{name}{clock}", if turn { "▶ " } else { "" });
                    ui.label(if turn {
                        RichText::new(text).strong().color(GOLD)
                    } else {
                        RichText::new(text)
                    });
                }
                ui.label(
                    RichText::new(card.progress.as_deref().unwrap_or("Not begun yet")).small(),
                );
                ui.add(egui::Label::new(RichText::new(words::status(card)).small()).wrap());
                if let Some(at) = card.last_activity {
                    ui.weak(format!("last action {}", words::ago(at, now)));
                }
                if !is_featured && ui.small_button(format!("Feature table {}", t.0)).clicked() {
                    picked = Some(t);
                }
            });
        });
    picked
}

/// The featured table, large: the one picked, else the first still playing.
fn featured(ui: &mut Ui, app: &EventApp, view: &EventView, elapsed: u64) {
    let card = app
        .featured
        .and_then(|t| view.tables.iter().find(|c| c.table == Some(t)))
        .or_else(|| {
            view.tables
                .iter()
                .find(|c| c.table.is_some() && c.result.is_none())
        })
        .or_else(|| view.tables.iter().find(|c| c.table.is_some()));
    let Some(card) = card else {
        ui.heading("Featured table");
        ui.weak("No table yet.");
        return;
    };
    let Some(t) = card.table else { return };
    ui.heading(format!("Featured: table {}", t.0));
    ui.label(RichText::new(card.progress.as_deref().unwrap_or("Not begun yet")).strong());
    egui::Grid::new("featured_clocks")
        .num_columns(2)
        .spacing([16.0, 6.0])
        .show(ui, |ui| {
            for seat in 0..2u8 {
                let turn = card.result.is_none() && card.awaiting == Some(SeatId(seat));
                let name = words::name_at(card, SeatId(seat));
                ui.label(if turn {
                    RichText::new(format!("▶ {name}")).size(18.0).color(GOLD)
                } else {
                    RichText::new(name).size(18.0)
                });
                match clock_now(card, seat, elapsed) {
                    Some(ms) => ui.label(RichText::new(words::clock(ms)).size(18.0).monospace()),
                    None => ui.weak("no clock"),
                };
                ui.end_row();
            }
        });
    ui.add(egui::Label::new(words::status(card)).wrap());
    if let Some(at) = card.last_activity {
        ui.weak(format!("Last action {}", words::ago(at, view.now)));
    }
    ui.weak(format!(
        "To watch the board, open table {} from the lobby's list.",
        t.0
    ));
}

/// The heading of your games on the event page.
pub const YOUR_GAMES: &str = "Your games";

/// The button that opens one of your games (in the lobby's window).
pub fn open_label(table: TableId) -> String {
    format!("Open table {}", table.0)
}

/// Slow play: every unfinished event game of yours, your move first,
/// with the time left counted down from the server's deadline.
fn your_games(ui: &mut Ui, app: &mut EventApp) {
    super::entry::ui(ui, app);
    ui.heading(YOUR_GAMES);
    vacation(ui, app);
    bid(ui, app);
    if app.your_games.is_empty() {
        ui.weak("You have no game in play.");
        return;
    }
    let elapsed = app.since_games_ms();
    let mut sorted: Vec<&YourGame> = app.your_games.iter().collect();
    sorted.sort_by_key(|g| (!g.your_move, g.decision_ms.or(g.bank_ms)));
    let mut open = None;
    for g in sorted {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(format!(
                "{}, round {}: table {} against {}",
                g.event_name, g.round, g.table.0, g.opponent
            ));
            if let Some(p) = &g.progress {
                ui.small(p);
            }
            // Only the side awaited has its time running.
            let running = g.your_move && !g.paused;
            let tick = |ms: u64| {
                if running {
                    ms.saturating_sub(elapsed)
                } else {
                    ms
                }
            };
            let time = match (g.decision_ms, g.bank_ms) {
                (Some(d), Some(b)) => format!(
                    "{} left to answer (time bank {})",
                    words::left(tick(d)),
                    words::clock(tick(b))
                ),
                (Some(d), None) => format!("{} left to answer", words::left(tick(d))),
                (None, Some(b)) => format!("Time bank {}", words::clock(tick(b))),
                (None, None) => String::new(),
            };
            if g.paused {
                ui.label(RichText::new("Paused by the director").color(AMBER));
            } else if g.your_move {
                ui.label(
                    RichText::new(format!("Your move. {time}"))
                        .strong()
                        .color(GOLD),
                );
            } else {
                ui.label(format!("{}'s move. {time}", g.opponent));
            }
            if app.opens_tables && ui.button(open_label(g.table)).clicked() {
                open = Some(g.table);
            }
        });
    }
    if open.is_some() {
        app.open_table = open;
    }
}

/// The label of the button that takes one vacation day.
pub const TAKE_VACATION_DAY: &str = "Take a vacation day";

/// Slow play: the player's vacation days in the event (issue 21) — how
/// many are left, the one under way, and a button to take a day, which
/// holds the player's clocks for 24 hours (added to a vacation under way).
fn vacation(ui: &mut Ui, app: &mut EventApp) {
    // An event that gives no vacation days (or none left, none under
    // way) shows nothing.
    let Some(v) = app
        .vacation
        .filter(|v| v.days_left > 0 || v.until.is_some())
    else {
        return;
    };
    let now = app.view.as_ref().map_or(0, |x| x.now);
    ui.horizontal(|ui| {
        if let Some(until) = v.until {
            let ms = until
                .saturating_sub(now)
                .saturating_mul(1000)
                .saturating_sub(app.since_seen_ms());
            ui.label(
                RichText::new(format!(
                    "On vacation: your clocks are held for {} more.",
                    words::left(ms)
                ))
                .color(AMBER),
            );
        }
        ui.label(format!(
            "{} left.",
            words::count(usize::from(v.days_left), "vacation day", "vacation days")
        ));
        if v.days_left > 0
            && ui
                .button(TAKE_VACATION_DAY)
                .on_hover_text("Your slow-play clocks stop for 24 hours")
                .clicked()
        {
            let event = app.event;
            app.send(ClubRequest::TakeVacation { event, days: 1 });
        }
    });
}

/// The label of the button that places a bid.
pub const PLACE_BID: &str = "Place bid";

/// An event whose sides go by bid (issue 21): the player picks the side
/// wanted in the next round and the victory points bid for it; when both
/// players of a game want the same side the higher bid takes it, and the
/// bid counts against the taker's margin. The last bid counts.
fn bid(ui: &mut Ui, app: &mut EventApp) {
    let Some(view) = &app.view else { return };
    let playing = app
        .me
        .as_ref()
        .is_some_and(|(me, _)| view.entrants.iter().any(|(u, _)| u == me));
    if view.sides != SideAssignment::Bid || !playing || view.round >= view.rounds {
        return;
    }
    let event = view.event;
    let [first, second] = view.side_names.clone();
    ui.horizontal_wrapped(|ui| {
        ui.label("Next round, the side you want:");
        ui.radio_value(&mut app.bid.0, 0, first);
        ui.radio_value(&mut app.bid.0, 1, second);
        let label = ui.label("bid");
        ui.add(egui::DragValue::new(&mut app.bid.1).range(0..=1000))
            .labelled_by(label.id);
        ui.label("victory points");
        if ui
            .button(PLACE_BID)
            .on_hover_text(
                "If your opponent wants the same side, the higher bid takes it and counts \
                 against that player's victory-point margin",
            )
            .clicked()
        {
            let (seat, vp) = app.bid;
            app.send(ClubRequest::Bid {
                event,
                seat: SeatId(seat),
                vp,
            });
        }
    });
}
