//! The director's desk, shown only to the event's directors (the server
//! refuses every action below to anyone else, in words, and logs each).
//!
//! Every table of the round in one list: players (the side awaited
//! marked), Game-Turn and phase, clocks, last action, status. A table
//! picked in the list gets the actions: pause or resume it, give a side
//! more time, put a reserve in a seat, adjudicate with a reason. Above the
//! list: pause or resume the whole round, pair the next round, re-pair it
//! by swapping two players, start it; the battles of the rounds to come,
//! and changing one before its round starts. Beside it: the directors'
//! log.

use super::grid::clock_now;
use super::{EventApp, words};
use crate::app::lobby::create::battle_picker;
use crate::app::lobby::new_event::{default_levels, scenario_words};
use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::club::{
    ClubRequest, EventView, LevelPoints, Pairing, RoundScenario, TableCard,
};
use muster_shared::protocol::{TableId, UserId};

/// What the desk's forms hold between frames.
#[derive(Clone, Debug)]
pub struct Desk {
    /// The table the actions apply to.
    pub table: Option<TableId>,
    /// The side for "add time" and "replace".
    pub seat: u8,
    pub minutes: u32,
    /// The reserve who takes the seat.
    pub reserve: Option<UserId>,
    /// The adjudicated result: 0 the first side wins, 1 drawn, 2 the second.
    pub verdict: u8,
    pub margin: i32,
    pub reason: String,
    /// The first player picked for a swap in the proposed round.
    pub swap: Option<UserId>,
    /// Slow play: the vacation days each player may take.
    pub vacation_days: u8,
    /// The round (1-based, not started) whose battle is to change; 0:
    /// none picked (the next round is offered).
    pub battle_round: u8,
    /// The battle it is to play (a battle's name in the rules' files).
    pub battle: String,
}

impl Default for Desk {
    fn default() -> Self {
        Desk {
            table: None,
            seat: 0,
            minutes: 5,
            reserve: None,
            verdict: 1,
            margin: 0,
            reason: String::new(),
            swap: None,
            vacation_days: 3,
            battle_round: 0,
            battle: "corinth".into(),
        }
    }
}

const AMBER: Color32 = Color32::from_rgb(0xe0, 0x8a, 0x00);
const GOLD: Color32 = Color32::from_rgb(0xff, 0xd7, 0x00);

pub fn ui(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    egui::Panel::right("director_log")
        .default_size(340.0)
        .show(ui, |ui| {
            ui.heading("Directors' log");
            egui::ScrollArea::vertical()
                .id_salt("director_log_scroll")
                .show(ui, |ui| {
                    if app.log.is_empty() {
                        ui.weak("Nothing yet.");
                    }
                    for line in app.log.iter().rev() {
                        ui.add(egui::Label::new(RichText::new(line).small()).wrap());
                    }
                });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .id_salt("director_scroll")
            .show(ui, |ui| {
                round_controls(ui, app, view);
                round_battles(ui, app, view);
                if let Some(p) = &view.proposed {
                    ui.separator();
                    proposal(ui, app, view, p);
                }
                ui.separator();
                tables(ui, app, view);
                ui.separator();
                actions(ui, app, view);
            });
    });
}

fn round_controls(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    let event = view.event;
    let playing = view.tables.iter().any(|c| c.result.is_none());
    ui.horizontal_wrapped(|ui| {
        ui.strong(if view.round == 0 {
            "No round yet".to_string()
        } else {
            format!("Round {} of {}", view.round, view.rounds)
        });
        if ui
            .add_enabled(playing, egui::Button::new("Pause the round"))
            .on_hover_text("Stop every table still playing: clocks stop, no move can be made")
            .clicked()
        {
            app.send(ClubRequest::PauseRound { event, on: true });
        }
        if ui
            .add_enabled(playing, egui::Button::new("Resume the round"))
            .on_hover_text("Let every paused table of the round go on: clocks run again")
            .clicked()
        {
            app.send(ClubRequest::PauseRound { event, on: false });
        }
        let more = view.round < view.rounds;
        if ui
            .add_enabled(!playing && more, egui::Button::new("Pair the next round"))
            .on_hover_text("Pair it without starting it: you can re-pair it first")
            .clicked()
        {
            app.send(ClubRequest::PairRound { event });
        }
        if ui
            .add_enabled(!playing && more, egui::Button::new("Start the next round"))
            .on_hover_text("Create every table and start the clocks")
            .clicked()
        {
            app.desk.swap = None;
            app.send(ClubRequest::StartRound { event });
        }
    });
    // Slow play: whole days each player may stop their clocks.
    if view.time.is_some() {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Vacation days per player");
            ui.add(egui::DragValue::new(&mut app.desk.vacation_days).range(0..=60))
                .labelled_by(label.id);
            if ui
                .button(SET_VACATION_DAYS)
                .on_hover_text(
                    "Each player may stop their slow-play clocks for this many whole days",
                )
                .clicked()
            {
                let days = app.desk.vacation_days;
                app.send(ClubRequest::SetVacationDays { event, days });
            }
        });
    }
}

/// The button that changes a later round's battle.
pub const CHANGE_BATTLE: &str = "Change the battle";
/// The battle picker beside it.
pub const NEW_BATTLE: &str = "New battle:";

/// The round whose battle the desk changes: round `round` (1-based).
pub fn battle_round_label(round: u8) -> String {
    format!("Round {round}")
}

/// The battles of the rounds not started, and changing one of them (GBACW
/// events: the battles a table may be made with). The server refuses a
/// started round, a battle of another game or one that cannot be set up.
fn round_battles(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    let next = view.round.saturating_add(1);
    if next > view.rounds || view.ruleset != "gbacw" {
        return;
    }
    ui.separator();
    ui.strong("Battles of the rounds to come");
    let battle_of = |r: u8| -> &str {
        view.round_scenarios
            .get(usize::from(r) - 1)
            .map_or(view.scenario.as_str(), |s| s.scenario.as_str())
    };
    egui::Grid::new("round_battles")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            for r in next..=view.rounds {
                ui.label(format!("Round {r} plays"));
                ui.label(battle_of(r));
                ui.end_row();
            }
        });
    if !(next..=view.rounds).contains(&app.desk.battle_round) {
        app.desk.battle_round = next;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Change:");
        for r in next..=view.rounds {
            ui.radio_value(&mut app.desk.battle_round, r, battle_round_label(r));
        }
        let l = ui.label(NEW_BATTLE);
        battle_picker(ui, "desk_round_battle", &mut app.desk.battle, Some(300.0)).labelled_by(l.id);
        let round = app.desk.battle_round;
        let same = scenario_words(&app.desk.battle) == battle_of(round);
        if ui
            .add_enabled(!same, egui::Button::new(CHANGE_BATTLE))
            .on_hover_text(
                "The round picked plays this battle instead, with its own levels of victory; \
                 the other rounds keep theirs",
            )
            .clicked()
        {
            let battle = &app.desk.battle;
            let levels = default_levels(battle)
                .into_iter()
                .map(|l| LevelPoints {
                    level: l.words,
                    winner: l.winner,
                    loser: l.loser,
                })
                .collect();
            let config = codec::encode_infallible(&GbacwConfig {
                battle: battle.clone(),
                ..GbacwConfig::default()
            });
            app.send(ClubRequest::SetRoundBattle {
                event: view.event,
                round,
                ruleset: view.ruleset.clone(),
                battle: RoundScenario {
                    scenario: scenario_words(battle),
                    config,
                    levels,
                },
            });
        }
    });
}

/// The label of the button that sets the event's vacation days.
pub const SET_VACATION_DAYS: &str = "Set vacation days";

/// The proposed next round: click two players to swap them.
fn proposal(ui: &mut Ui, app: &mut EventApp, view: &EventView, p: &[Pairing]) {
    ui.strong(format!("Round {} as paired (not started)", view.round + 1));
    ui.weak("Click two players to swap them; then start the round.");
    let mut games: Vec<[Option<UserId>; 2]> = p
        .iter()
        .map(|g| g.players.clone().map(|s| s.map(|(u, _)| u)))
        .collect();
    let mut clicked = None;
    egui::Grid::new("proposal")
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for (i, g) in p.iter().enumerate() {
                ui.label(format!("Game {}", i + 1));
                for seat in &g.players {
                    match seat {
                        Some((u, name)) => {
                            let picked = app.desk.swap == Some(*u);
                            if ui.selectable_label(picked, format!("↔ {name}")).clicked() {
                                clicked = Some(*u);
                            }
                        }
                        None => {
                            ui.weak("bye");
                        }
                    }
                }
                ui.end_row();
            }
        });
    let Some(u) = clicked else { return };
    match app.desk.swap.take() {
        None => app.desk.swap = Some(u),
        Some(first) if first == u => {}
        Some(first) => {
            for g in &mut games {
                for s in g.iter_mut() {
                    if *s == Some(first) {
                        *s = Some(u);
                    } else if *s == Some(u) {
                        *s = Some(first);
                    }
                }
            }
            app.send(ClubRequest::RePair {
                event: view.event,
                games,
            });
        }
    }
}

fn tables(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    let elapsed = app.since_seen_ms();
    egui::Grid::new("director_tables")
        .num_columns(6)
        .striped(true)
        .min_col_width(64.0)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in [
                "Table",
                "Players",
                "Game-Turn and phase",
                "Clocks",
                "Last action",
                "Status",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for card in &view.tables {
                let Some(t) = card.table else {
                    ui.label("bye");
                    ui.label(words::name_at(card, SeatId(0)));
                    ui.end_row();
                    continue;
                };
                let picked = app.desk.table == Some(t);
                if ui
                    .selectable_label(picked, format!("Table {}", t.0))
                    .clicked()
                {
                    app.desk.table = Some(t);
                    app.desk.reserve = None;
                }
                ui.vertical(|ui| {
                    for seat in 0..2u8 {
                        let turn = card.result.is_none() && card.awaiting == Some(SeatId(seat));
                        let name = words::name_at(card, SeatId(seat));
                        ui.add(
                            egui::Label::new(if turn {
                                RichText::new(format!("▶ {name}")).color(GOLD)
                            } else {
                                RichText::new(name)
                            })
                            .extend(),
                        );
                    }
                });
                ui.label(card.progress.as_deref().unwrap_or("not begun"));
                ui.vertical(|ui| {
                    for seat in 0..2u8 {
                        match clock_now(card, seat, elapsed) {
                            Some(ms) => ui.add(
                                egui::Label::new(RichText::new(words::clock(ms)).monospace())
                                    .extend(),
                            ),
                            None => ui.weak("—"),
                        };
                    }
                });
                match card.last_activity {
                    Some(at) => ui.label(words::ago(at, view.now)),
                    None => ui.weak("none yet"),
                };
                let status = words::status(card);
                ui.add(
                    egui::Label::new(if card.paused {
                        RichText::new(status).color(AMBER)
                    } else {
                        RichText::new(status)
                    })
                    .wrap(),
                );
                ui.end_row();
            }
        });
}

/// The actions on the table picked.
fn actions(ui: &mut Ui, app: &mut EventApp, view: &EventView) {
    let event = view.event;
    let card: Option<&TableCard> = app
        .desk
        .table
        .and_then(|t| view.tables.iter().find(|c| c.table == Some(t)));
    let Some(card) = card else {
        ui.weak("Pick a table in the list for its actions.");
        return;
    };
    let Some(table) = card.table else { return };
    ui.heading(format!("Table {}", table.0));
    if card.result.is_some() {
        ui.label(words::status(card));
        return;
    }
    let (a, b) = (
        words::name_at(card, SeatId(0)),
        words::name_at(card, SeatId(1)),
    );
    ui.horizontal(|ui| {
        let (label, on) = if card.paused {
            ("Resume this table", false)
        } else {
            ("Pause this table", true)
        };
        if ui.button(label).clicked() {
            app.send(ClubRequest::PauseTable { event, table, on });
        }
    });
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        ui.label("Side:");
        ui.radio_value(&mut app.desk.seat, 0, format!("{a}'s side"));
        ui.radio_value(&mut app.desk.seat, 1, format!("{b}'s side"));
    });
    let seat = SeatId(app.desk.seat.min(1));
    if view.time.is_some() {
        ui.horizontal(|ui| {
            let l = ui.label("Minutes:");
            ui.add(egui::DragValue::new(&mut app.desk.minutes).range(1..=10_080))
                .labelled_by(l.id);
            if ui.button("Add time").clicked() {
                app.send(ClubRequest::AddTime {
                    event,
                    table,
                    seat,
                    secs: app.desk.minutes.saturating_mul(60),
                });
            }
        });
    }
    // Reserves: registered, and in no standings line (not playing).
    let reserves: Vec<&(UserId, String)> = view
        .entrants
        .iter()
        .filter(|(u, _)| !view.standings.iter().any(|r| r.user == *u))
        .collect();
    ui.horizontal_wrapped(|ui| {
        ui.label("Reserve:");
        if reserves.is_empty() {
            ui.weak("none registered");
        }
        for (u, name) in &reserves {
            ui.radio_value(&mut app.desk.reserve, Some(*u), format!("{name} (reserve)"));
        }
        let ready = app.desk.reserve.is_some();
        if ui
            .add_enabled(ready, egui::Button::new("Replace"))
            .on_hover_text(
                "The reserve takes the side picked, and that player's place in the event",
            )
            .clicked()
            && let Some(user) = app.desk.reserve.take()
        {
            app.send(ClubRequest::Replace {
                event,
                table,
                seat,
                user,
            });
        }
    });
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        ui.label("Adjudicate:");
        ui.radio_value(&mut app.desk.verdict, 0, format!("{a} wins"));
        ui.radio_value(&mut app.desk.verdict, 1, "Drawn");
        ui.radio_value(&mut app.desk.verdict, 2, format!("{b} wins"));
    });
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(format!("Victory-point margin ({a}'s minus {b}'s):"));
        ui.add(egui::DragValue::new(&mut app.desk.margin).range(-999..=999))
            .labelled_by(l.id);
        let l = ui.label("Reason:");
        ui.add(egui::TextEdit::singleline(&mut app.desk.reason).desired_width(260.0))
            .labelled_by(l.id);
        let ready = !app.desk.reason.trim().is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Adjudicate"))
            .clicked()
        {
            let p = &view.points;
            let points = match app.desk.verdict {
                0 => [p.win, p.loss],
                2 => [p.loss, p.win],
                _ => [p.draw, p.draw],
            };
            app.send(ClubRequest::Adjudicate {
                event,
                table,
                points,
                vp_margin: app.desk.margin,
                reason: app.desk.reason.trim().to_string(),
            });
            app.desk.reason.clear();
        }
    });
}
