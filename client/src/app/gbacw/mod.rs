//! The GBACW table: the same [`Session`] as the sandbox (a follower per
//! viewer, the log), over [`Gbacw`], with its own panels.
//!
//! - [`map`]: the map from `gbacw::map::Map` data, counters, reach, moves.
//! - [`counter`]: one counter drawn from the order of battle and the state.
//! - [`card`]: everything about the selected counter; facing and formation.
//! - [`track`]: the phase track and "End phase".
//! - [`prompts`]: pending decisions (generic over `Ruleset::pending`).
//! - [`plot`]: Corinth 29.2's assault-plan plotting panel; [`area_overlay`]
//!   marks its Assault Areas on the map.
//! - [`barrage`]: Corinth 26.4's Pre-Dawn Barrage panel; [`solitaire`]:
//!   29.5's rolls; [`corinth_card`]: fouled guns (24.1) and reserves
//!   (30.3) on the unit card.
//! - [`tray`]: counters to set up (26.2) or arriving (26.4), placed by
//!   picking one and clicking a lit hex.
//! - [`place_answers`]: retreat paths (14.4, 12.81) and the advance
//!   (12.85) lit and drawn on the map, answered by a click there.
//! - [`narrate`]: GBACW's log lines (the engine's `gbacw::words`).
//! - [`saves`]: "Save this game" and "Continue a saved game" at a
//!   hot-seat table (issue 18).
//! - [`turn`]: whose turn it is: the "Your turn: ..." banner, the window
//!   title and attention request, the hot-seat view following the seat
//!   that must act.
//!
//! Everything shown comes from the active viewer's follower, as in the
//! sandbox.

pub mod area_overlay;
pub mod barrage;
pub mod card;
pub mod corinth_card;
pub mod counter;
pub mod drag_path;
pub mod map;
pub mod narrate;
pub mod oob_panel;
pub mod orders;
pub mod place_answers;
pub mod plot;
pub mod prompts;
pub mod saves;
pub mod solitaire;
pub mod track;
pub mod tray;
pub mod turn;

use super::local::LocalTable;
use super::replay::Replay;
use super::session::Session;
use super::{log, seats};
use egui::{Color32, RichText, Ui};
use muster_shared::engine::{RuleError, Ruleset};
use muster_shared::gbacw::ruleset::scenario::CHARTS;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::{SeatId, Viewer};
use std::collections::BTreeSet;

/// The button that selects the selected counter's whole side of its hex.
pub const SELECT_STACK: &str = "Select the whole stack";

/// The toggle that turns the move path into the line-of-sight preview.
pub const SIGHT_TOGGLE: &str = "Sight and range";

/// The notice in the header wherever the charts are used.
pub const PROVISIONAL_NOTICE: &str = "Provisional charts";

/// How many chart values `charts.toml` marks provisional.
/// The battle's printed title cut before its scenario ("Corinth, 3–4
/// October 1862" of "Corinth, 3–4 October 1862: the historical scenario
/// (30.0)"), for the top bar, which must stay one line at 1280 px.
pub fn battle_short(title: &str) -> &str {
    title.split(": ").next().unwrap_or(title)
}

pub fn provisional_chart_values() -> usize {
    CHARTS.matches("provisional = true").count()
}

/// The GBACW table and its panels.
pub struct GbacwApp {
    pub session: Session<Gbacw>,
    pub map: map::MapView,
    prompts: prompts::Prompts,
    /// Corinth 29.2: the assault-plan plotting panel.
    pub plot: plot::PlotPanel,
    /// Corinth 26.4: the Pre-Dawn Barrage panel.
    pub barrage: barrage::BarragePanel,
    /// The set-up and arrivals tray.
    pub tray: tray::Tray,
    /// The replay scrubber: live, or an earlier entry shown read-only.
    pub replay: Replay<Gbacw>,
    /// Whether the order-of-battle panel is shown (left of the map).
    pub show_oob: bool,
    /// The active viewer's legal actions, worked out once per log entry:
    /// (viewer, seq, actions).
    legal: Option<(muster_shared::Viewer, u64, Vec<GbacwAction>)>,
    pub chat: crate::app::chat::ChatPanel,
    /// The title, attention request and hot-seat hand-over, once per turn.
    pub turn: turn::TurnWatch,
    /// Space was pressed: "End the phase?" is asked.
    confirm_end: bool,
    /// Bring the acting side's units into view next frame (hot-seat
    /// hand-over).
    refocus: bool,
    /// The Melee Phase whose first melee was brought into view.
    melee_shown: Option<(u16, Step)>,
    waker_set: bool,
    /// Saved games (hot seat): the window and the folder they are kept in.
    pub saves: saves::SavesPanel,
}

impl GbacwApp {
    pub fn new(session: Session<Gbacw>) -> Self {
        GbacwApp {
            session,
            map: map::MapView::default(),
            prompts: prompts::Prompts::default(),
            plot: plot::PlotPanel::default(),
            barrage: barrage::BarragePanel::default(),
            tray: tray::Tray::default(),
            replay: Replay::default(),
            show_oob: false,
            legal: None,
            chat: crate::app::chat::ChatPanel::default(),
            turn: turn::TurnWatch::default(),
            confirm_end: false,
            refocus: false,
            melee_shown: None,
            waker_set: false,
            saves: saves::SavesPanel::default(),
        }
    }

    /// A hot-seat GBACW table hosted in this process.
    pub fn hot_seat(config: &GbacwConfig, names: &[&str]) -> Result<Self, RuleError> {
        let table = LocalTable::<Gbacw>::new(config, names)?;
        let names = names.iter().map(|n| (*n).to_string()).collect();
        Ok(Self::new(Session::new(Box::new(table), names)))
    }

    /// Issue 18: whether the engine's decision model lets the acting
    /// seat's last action be taken back. The follower keeps every action
    /// that rolled nothing and was no default; GBACW also makes an answer
    /// to a pending question final (withdrawal fire, a retreat, the
    /// advance: the other side acted on it), as the server's take-back
    /// check does (`Awaiting::may_take_back`), so the button is not
    /// offered where the server would refuse.
    fn last_action_not_final(&self) -> bool {
        let (Some(book), Some(seat)) = (self.session.book(), self.session.acting_seat()) else {
            return false;
        };
        book.follower
            .take_back_before(seat)
            .is_some_and(|before| book.follower.ruleset().awaiting(before).may_take_back())
    }

    /// The active viewer's legal actions, cached per log entry.
    fn legal_actions(&mut self) -> Vec<GbacwAction> {
        let Some(book) = self.session.book() else {
            return Vec::new();
        };
        let (viewer, seq) = (book.viewer, book.follower.seq());
        if let Some((v, s, a)) = &self.legal
            && *v == viewer
            && *s == seq
        {
            return a.clone();
        }
        let actions = match self.session.acting_seat() {
            Some(seat) => book
                .follower
                .ruleset()
                .legal_actions(book.follower.state(), seat),
            None => Vec::new(),
        };
        self.legal = Some((viewer, seq, actions.clone()));
        actions
    }

    /// The acting seat's legal actions when this window has already
    /// worked them out for the entry it shows (tests read them instead
    /// of working out the same set again).
    pub fn legal_if_cached(&self) -> Option<&[GbacwAction]> {
        let book = self.session.book()?;
        let (v, s, a) = self.legal.as_ref()?;
        (*v == book.viewer && *s == book.follower.seq()).then_some(a.as_slice())
    }

    /// Draw one frame.
    pub fn ui(&mut self, ui: &mut Ui) {
        if !self.waker_set {
            let ctx = ui.ctx().clone();
            self.session
                .set_waker(std::sync::Arc::new(move || ctx.request_repaint()));
            self.waker_set = true;
        }
        if self.session.pump() {
            ui.ctx().request_repaint();
        }
        let mut actions: Vec<GbacwAction> = Vec::new();
        let names: Vec<String> = (0..2u8)
            .map(|s| self.session.seat_name(SeatId(s)))
            .collect();
        let seat_name = |s: SeatId| {
            names
                .get(usize::from(s.0))
                .cloned()
                .unwrap_or_else(|| s.to_string())
        };
        // A replay is read-only: nobody acts from the past.
        let live = self.replay.is_live();
        // Hot-seat: the view goes to the seat that must act, once per
        // change (a player may still look through the other seat's eyes).
        let hot_seat = self.session.is_hot_seat();
        if live && hot_seat {
            let acting = match (self.session.ruleset(), self.session.state()) {
                (Some(r), Some(s)) => r.acting_seat(s),
                _ => None,
            };
            if let Some(seat) = self.turn.follow(acting)
                && self.session.acting_seat() != Some(seat)
            {
                self.session.set_active(Viewer::Seat(seat));
                self.map.select(Vec::new());
                self.map.path_refusal = None;
                self.refocus = true;
            }
        }
        // Issue 18: a Melee Phase with declared melees brings the first into
        // view once (at a hot-seat table the hand-over had shown the
        // acting side's army, the melee off screen).
        if live
            && let Some(s) = self.session.state()
            && matches!(
                s.clock.step,
                Step::Phase {
                    phase: Phase::Melee,
                    ..
                }
            )
            && !s.melees.is_empty()
            && self.melee_shown != Some((s.clock.turn, s.clock.step))
        {
            self.melee_shown = Some((s.clock.turn, s.clock.step));
            self.refocus = true;
        }
        // Whether the viewer's seat is the one to act now.
        let can_act = live
            && match (self.session.ruleset(), self.session.state()) {
                (Some(r), Some(s)) => {
                    self.session.acting_seat().is_some()
                        && r.acting_seat(s) == self.session.acting_seat()
                }
                _ => false,
            };
        // The window title and, when it just became this seat's turn, a
        // request for the player's attention.
        let mine = self.session.acting_seat().filter(|_| can_act);
        if let Some(r) = self.session.ruleset() {
            let battle = r.game().scenario.name.clone();
            // Over a network the view is this player's own: when the turn
            // comes to them, their units (or entry hexes) come into view.
            if self.turn.update(ui.ctx(), &battle, mine) && !hot_seat {
                self.refocus = true;
            }
        }
        // Space: end the phase, asked first.
        let may_end = can_act
            && self
                .session
                .state()
                .is_some_and(|s| s.decision.is_none() && s.progress.setting_up.is_none());
        if may_end
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(egui::Key::Space))
        {
            self.confirm_end = true;
        }
        if !may_end {
            self.confirm_end = false;
        }
        // Z: take back this seat's last move (issue 18), where allowed.
        let may_take_back = live && self.session.can_take_back() && self.last_action_not_final();
        if may_take_back
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(egui::Key::Z))
        {
            self.take_back();
        }

        // The acting seat's legal actions (cached per log entry), for the
        // banner's words.
        let legal_for_banner = if live {
            self.legal_actions()
        } else {
            Vec::new()
        };
        egui::Panel::top("top").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.strong("Muster");
                if let Some(r) = self.session.ruleset() {
                    // The battle as printed (issue 18), the game's whole
                    // title on hover; never the ruleset's id.
                    let title = muster_shared::gbacw::battles::title(&r.config().battle);
                    ui.weak(battle_short(title)).on_hover_text(format!(
                        "{}: {title}",
                        crate::app::lobby::list::game_words("gbacw")
                    ));
                }
                ui.separator();
                seats::viewer_switch(ui, &mut self.session);
                ui.separator();
                ui.toggle_value(&mut self.show_oob, oob_panel::OOB_TOGGLE);
                if let Some(r) = self.session.ruleset() {
                    ui.label(
                        RichText::new(map::RECONSTRUCTION_NOTICE)
                            .color(Color32::BLACK)
                            .background_color(Color32::from_rgb(0xff, 0xe0, 0x80)),
                    )
                    .on_hover_text(&r.game().map.reconstruction);
                }
                ui.label(
                    RichText::new(format!(
                        "{PROVISIONAL_NOTICE} ({} values)",
                        provisional_chart_values()
                    ))
                    .color(Color32::BLACK)
                    .background_color(Color32::from_rgb(0xff, 0xb0, 0x60)),
                )
                .on_hover_text(
                    "Movement, stacking, range and terrain-combat charts are not in the \
                     rulebook text we have: values marked provisional in assets/gbacw/charts.toml \
                     are reasoned reconstructions, each with its reason.",
                );
                ui.separator();
                // Always drawn (greyed when not allowed), so the bar's
                // height never changes with it.
                let tb = ui
                    .add_enabled(may_take_back, egui::Button::new(TAKE_BACK))
                    .on_hover_text(
                        "Take back your last move (Z): allowed for your own moves since \
                         the last roll or the last reveal of hidden information. \
                         At a table on a server the other player is asked first.",
                    );
                if tb.clicked() {
                    self.take_back();
                }
            });
            // The status line, on a line of its own and cut short with
            // "…" (the whole on hover): a long refusal never wraps the bar
            // and pushes the map down (issue 18).
            let replay_note = self.replay.note(&self.session);
            let status = match (&self.map.path_refusal, &self.session.last_refusal) {
                (Some(text), _) | (None, Some(text)) => {
                    RichText::new(text).color(Color32::from_rgb(0xe0, 0x8a, 0x00))
                }
                (None, None) if replay_note.is_some() => {
                    RichText::new(replay_note.unwrap_or_default()).weak()
                }
                (None, None) if self.session.take_back_waiting => {
                    RichText::new("waiting for the other player to agree to the take-back").weak()
                }
                (None, None) => RichText::new(self.session.describe_link()).weak(),
            };
            ui.add(egui::Label::new(status).truncate());
            ui.horizontal(|ui| {
                self.replay.ui(ui, &self.session);
                // Issue 18: save the game, or continue a saved one (a
                // table on this computer only). On the replay row, which
                // has room: on the top bar it wrapped to a second line at
                // 1280 px and moved the map down.
                if hot_seat && self.saves.dir.is_some() {
                    ui.separator();
                    ui.toggle_value(&mut self.saves.open, saves::SAVED_GAMES)
                        .on_hover_text("Save this game, or continue a game saved earlier");
                }
            });
            if let Some(f) = self.replay.view(&self.session)
                && let track::TrackOutput::EndPhase =
                    track::ui(ui, f.ruleset(), f.state(), &seat_name, can_act)
            {
                actions.push(GbacwAction::EndPhase);
            }
            // Always the same height, live or replaying (issue 18).
            let banner_height = turn::banner_height(ui);
            ui.horizontal(|ui| {
                ui.set_min_height(banner_height);
                ui.set_max_height(banner_height);
                if live && let (Some(r), Some(s)) = (self.session.ruleset(), self.session.state()) {
                    turn::banner(
                        ui,
                        r,
                        s,
                        self.session.acting_seat(),
                        &legal_for_banner,
                        &seat_name,
                    );
                } else if !live {
                    ui.weak("Replaying: nobody acts from the past; Live returns to the game");
                }
            });
        });
        if let Some(next) = self.saves.ui(ui, &self.session) {
            // The saved game replaces this one at this window's table:
            // every panel starts afresh on it (the folder is kept).
            let saves = std::mem::take(&mut self.saves);
            *self = GbacwApp::new(next);
            self.saves = saves;
            ui.ctx().request_repaint();
            return;
        }
        if let Some(ask) = self.session.take_back_asked.clone()
            && let Some(agree) = take_back_ask_ui(ui, &ask.name)
        {
            self.session.answer_take_back(agree);
        }
        if self.confirm_end {
            match self.confirm_end_ui(ui) {
                Some(true) => {
                    actions.push(GbacwAction::EndPhase);
                    self.confirm_end = false;
                }
                Some(false) => self.confirm_end = false,
                None => {}
            }
        }

        let legal = if live {
            self.legal_actions()
        } else {
            Vec::new()
        };
        let acting = self.session.acting_seat().filter(|_| live);
        // Moving is not among this phase's orders (the Defensive Fire
        // Phase...): no movement range is lit.
        // In the Movement Phase itself a legal set with no move (every
        // unit's allowance spent, only arrivals left) is not "no moves
        // now": the selected unit is told it cannot go further (issue 18).
        let movement_phase = self.session.state().is_some_and(|s| {
            matches!(
                s.clock.step,
                Step::Phase {
                    phase: Phase::Movement,
                    ..
                }
            )
        });
        self.map.no_moves =
            !movement_phase && !legal.iter().any(|a| matches!(a, GbacwAction::Move { .. }));
        // Open on (and after a hot-seat hand-over, bring into view) the
        // acting side's units.
        if self.map.camera().is_none() || self.refocus {
            let focus = match (self.session.ruleset(), self.session.state()) {
                (Some(r), Some(s)) => turn::focus_hex(r, s, r.acting_seat(s), &legal),
                _ => None,
            };
            if self.map.camera().is_none() {
                self.map.open_on(focus);
            } else if let Some(h) = focus {
                self.map.centre_on(h);
            }
            self.refocus = false;
        }
        egui::Panel::right("side")
            .default_size(320.0)
            .min_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("side_scroll")
                    .show(ui, |ui| {
                        let Some(view) = self.replay.view(&self.session) else {
                            return;
                        };
                        let (rules, state) = (view.ruleset(), view.state());
                        let pending = rules.pending(state);
                        // Placements and arrivals are answered in the tray.
                        let answers: Vec<GbacwAction> = legal
                            .iter()
                            .filter(|a| !tray::is_tray_action(a))
                            .cloned()
                            .collect();
                        // No countdown at a hot-seat table: nobody waits on
                        // a player who is not there.
                        // Issue 18: where to retreat or advance is
                        // answered on the map too (never while placing),
                        // its paths drawn from the units; the prompt says so.
                        let places = if legal.iter().any(tray::is_tray_action) {
                            place_answers::PlaceAnswers::default()
                        } else {
                            place_answers::PlaceAnswers::from_legal(state, &legal)
                        };
                        self.prompts.hint = places.kind.map(place_answers::AnswerKind::hint);
                        self.prompts.no_countdown = hot_seat;
                        self.prompts.clock = self.session.clock;
                        // In a scope of its own: the server's clock line
                        // comes and goes, and the widgets after it (the
                        // tray) must keep their ids, or a click landing as
                        // the clock arrives is lost.
                        let prompts = &mut self.prompts;
                        let answered = ui
                            .push_id("prompts", |ui| {
                                prompts.ui(ui, rules, &pending, acting, &answers, &seat_name)
                            })
                            .inner;
                        actions.extend(answered);
                        if self.map.take_cleared() {
                            self.tray.unpick();
                        }
                        let table = tray::TrayContext {
                            seq: self.session.book().map_or(0, |b| b.follower.seq()),
                            busy: self.session.awaiting_answer(),
                            refused: self.session.last_refusal.is_some(),
                        };
                        let placing = self.tray.ui(ui, rules, state, &legal, &table);
                        actions.extend(placing.action);
                        // A tray row let go over a lit hex of the map.
                        if let Some(p) = placing.dropped_at
                            && let Some(h) = self.map.hex_at_screen(p)
                        {
                            match placing.lit.get(&h) {
                                Some(a) => actions.push(a.clone()),
                                None => {
                                    self.map.path_refusal = Some(format!(
                                        "not placed: {h} is not lit for it (only the bright \
                                         green hexes are)"
                                    ));
                                }
                            }
                        }
                        self.map.lit = placing.lit;
                        self.map.faint = placing.faint;
                        // They come into view once, when first asked.
                        if self.map.answer_paths.is_empty()
                            && let Some(path) = places.paths.values().next()
                        {
                            self.map.centre_on(path[0]);
                        }
                        self.map.lit.extend(places.lit);
                        self.map.answer_paths = places.paths;
                        // Arrivals just became due: their entry hexes come
                        // into view (once; the player may look elsewhere).
                        if self.map.entry_marks.is_empty()
                            && let Some((h, _)) = placing.entries.first()
                        {
                            self.map.centre_on(*h);
                        }
                        self.map.entry_marks = placing.entries;
                        if let Some(h) = placing.centre_on {
                            self.map.centre_on(h);
                        }
                        let plotted = self.plot.ui(ui, rules, state, acting);
                        actions.extend(plotted.action);
                        if let Some(h) = plotted.centre_on {
                            self.map.centre_on(h);
                        }
                        // Corinth 29.5, 26.4: the solitaire roll and the barrage.
                        actions.extend(solitaire::ui(ui, rules, state, acting, &legal));
                        let fired = if live {
                            self.barrage.ui(ui, rules, state, acting, view.seq())
                        } else {
                            barrage::BarrageOutput::default()
                        };
                        actions.extend(fired.action);
                        if let Some(h) = fired.centre_on {
                            self.map.centre_on(h);
                        }
                        self.map.area_marks = self.plot.marks(rules, state);
                        self.map.area_marks.extend(self.barrage.marks());
                        let mut hints = orders::MapHints::default();
                        if let Some(a) = orders::ui(
                            ui,
                            rules,
                            state,
                            self.map.selected().first(),
                            &legal,
                            can_act,
                            &mut hints,
                        ) {
                            actions.push(a);
                        }
                        if let Some(h) = hints.centre {
                            self.map.centre_on(h);
                        }
                        self.map.fire_lines = hints.lines;
                        // Issue 18: who has orders now, with nothing selected.
                        if can_act
                            && self.map.selected().is_empty()
                            && let Some(id) = orders::ready(ui, rules, state, &legal)
                        {
                            let hex = state.units.get(&id).and_then(|u| u.hex);
                            self.map.select(vec![id]);
                            if let Some(h) = hex {
                                self.map.centre_on(h);
                            }
                        }
                        if let Some(id) = self.map.selected().first().cloned() {
                            if let Some(a) = card::ui(ui, rules, state, &id, can_act) {
                                actions.push(a);
                            }
                            // Corinth 24.1 (fouled guns), 30.3 (reserves).
                            if let Some(a) =
                                corinth_card::ui(ui, rules, state, &id, &legal, can_act)
                            {
                                actions.push(a);
                            }
                            // The counter's friends in its hex, to move as one (5.16).
                            let hex = state
                                .units
                                .get(&id)
                                .and_then(|u| u.hex)
                                .or_else(|| state.leaders.get(&id).and_then(|l| l.hex));
                            let oob = &rules.game().oob;
                            let side_of = |c: &muster_shared::gbacw::oob::CounterId| {
                                oob.units
                                    .get(c)
                                    .map(|u| &u.side)
                                    .or_else(|| oob.leaders.get(c).map(|l| &l.side))
                            };
                            let mut stack = vec![id.clone()];
                            if let Some(hex) = hex {
                                let units = state.units.iter().filter(|(_, u)| u.hex == Some(hex)).map(|(c, _)| c);
                                let leaders = state.leaders.iter().filter(|(_, l)| l.hex == Some(hex)).map(|(c, _)| c);
                                stack.extend(
                                    units
                                        .chain(leaders)
                                        .filter(|c| **c != id && side_of(c) == side_of(&id))
                                        .cloned(),
                                );
                            }
                            if stack.len() > 1
                                && self.map.selected().len() < stack.len()
                                && ui.button(SELECT_STACK).clicked()
                            {
                                self.map.select(stack);
                            }
                            if state.units.contains_key(&id) {
                                ui.toggle_value(&mut self.map.sight, SIGHT_TOGGLE)
                                    .on_hover_text("Hover a hex: range (9.23), line of sight (9.7), frontal hexside (7.22) and the weapon's range multiplier (9.25). Fire orders and their CRT column are under Orders.");
                            }
                            if self.map.selected().len() > 1 {
                                ui.weak(format!(
                                    "moving together: {}",
                                    self.map
                                        .selected()
                                        .iter()
                                        .map(|c| narrate::counter_name(rules, c))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ));
                            }
                            if self.map.reach().is_some_and(|r| r.hexes.len() > 1) {
                                ui.weak("Click an empty lit hex (or drag the counter) to move; shift-click adds a counter of the same hex; right-click clears.");
                            } else if can_act && !self.map.no_moves {
                                // The Movement Phase, but this counter has
                                // nowhere to go (its allowance spent, or
                                // held: 12.9x, 17.52...).
                                ui.weak(format!("{} cannot move any further this phase. Right-click or Esc clears the selection.", narrate::counter_name(rules, &id)));
                            } else if can_act {
                                ui.weak("No moves for it now: this phase's orders, if any, are under Orders. Right-click or Esc clears the selection.");
                            } else {
                                ui.weak("Not your turn: look, but the acting player gives the orders. Right-click or Esc clears the selection.");
                            }
                        } else if self.tray.picked().is_none() {
                            ui.weak("Click a counter to select it.");
                        }
                        let icp = matches!(
                            state.clock.step,
                            Step::Phase {
                                phase: Phase::InitialCommand,
                                ..
                            }
                        );
                        if icp && can_act && state.progress.setting_up.is_none() {
                            ui.separator();
                            ui.strong("Initial Command Phase (17.0)");
                            let command: Vec<&GbacwAction> = legal
                                .iter()
                                .filter(|a| {
                                    matches!(
                                        a,
                                        GbacwAction::SpendCommandPoints { .. }
                                            | GbacwAction::Attach { .. }
                                            | GbacwAction::Detach { .. }
                                    )
                                })
                                .collect();
                            let commits = legal
                                .iter()
                                .any(|a| matches!(a, GbacwAction::CommitReserve { .. }));
                            if command.is_empty() && !commits {
                                ui.weak("no command orders possible");
                            }
                            // Corinth 30.34: commitment rolls for the reserves.
                            if let Some(a) = corinth_card::commit_buttons(ui, rules, state, &legal)
                            {
                                actions.push(a);
                            }
                            for a in command {
                                use crate::app::narrate::Narrate;
                                if ui.button(rules.describe_action(a)).clicked() {
                                    actions.push(a.clone());
                                }
                            }
                            let side = rules.side_of(acting.unwrap_or(SeatId(0)));
                            let preview = rules.command_preview(state, side);
                            let out: BTreeSet<String> = preview
                                .out_of_command
                                .iter()
                                .chain(&preview.out_of_radius)
                                .map(|c| narrate::counter_name(rules, c))
                                .collect();
                            ui.weak(if out.is_empty() {
                                "if the phase ended now: everyone in command".to_string()
                            } else {
                                format!(
                                    "if the phase ended now, out of command: {}",
                                    out.into_iter().collect::<Vec<_>>().join(", ")
                                )
                            });
                        }
                    });
            });
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| {
                // The dice alarm above everything: a bad roll must not be
                // missed, so it stays live while replaying.
                crate::app::dice::alarm(ui, &self.session);
                // The log and the dice follow the replay scrubber, as the map does.
                let upto = self.replay.at();
                ui.columns(3, |cols| {
                    log::ui(&mut cols[0], &self.session, upto);
                    cols[1].strong("Dice");
                    crate::app::dice::rolls(&mut cols[1], &self.session, upto);
                    self.chat.ui(&mut cols[2], &mut self.session);
                });
            });
        if self.show_oob {
            egui::Panel::left("oob")
                .resizable(true)
                .default_size(300.0)
                .show(ui, |ui| {
                    let Some(view) = self.replay.view(&self.session) else {
                        return;
                    };
                    ui.heading(oob_panel::OOB_TOGGLE);
                    if let Some(id) =
                        oob_panel::ui(ui, view.ruleset(), view.state(), self.map.selected())
                    {
                        let state = view.state();
                        let hex = state
                            .units
                            .get(&id)
                            .and_then(|u| u.hex)
                            .or_else(|| state.leaders.get(&id).and_then(|l| l.hex));
                        self.map.select(vec![id]);
                        if let Some(h) = hex {
                            self.map.centre_on(h);
                        }
                    }
                });
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let Some(view) = self.replay.view(&self.session) else {
                ui.centered_and_justified(|ui| ui.label("Joining the table…"));
                return;
            };
            let rules = view.ruleset();
            let input = map::MapInput {
                map: &rules.game().map,
                oob: &rules.game().oob,
                state: view.state(),
                sides: &rules.game().seats,
                rules: Some(rules),
                acting: acting.filter(|_| can_act),
                seq: view.seq(),
            };
            let asked = self.map.show(ui, &input);
            // A replay shows; it never plays.
            if live {
                actions.extend(asked);
            }
        });
        for a in actions {
            self.session.act(a);
        }
    }
}

impl GbacwApp {
    /// "End the phase?" after Space: `Some(true)` to end it, `Some(false)`
    /// to cancel, `None` while asking.
    /// Issue 18: ask to take back the acting seat's last move; the
    /// selection and any drawn path go with it (they may name a unit
    /// that is no longer where it was).
    fn take_back(&mut self) {
        self.map.select(Vec::new());
        self.map.path_refusal = None;
        self.session.take_back();
    }

    fn confirm_end_ui(&mut self, ui: &Ui) -> Option<bool> {
        let step = self
            .session
            .ruleset()
            .zip(self.session.state())
            .map(|(r, s)| turn::step_words(r, s))
            .unwrap_or_else(|| "phase".into());
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm_end_phase")).show(ui.ctx(), |ui| {
            ui.heading(format!("End the {step}?"));
            ui.label("Space asked to end it. Orders not given now are lost for this phase.");
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button(CONFIRM_END).clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter))
                {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(false);
        }
        answer
    }
}

/// Issue 18: another player asks to take back their last move: Agree or
/// Refuse (`Some(true)` / `Some(false)`), `None` while unanswered.
/// Shared with the sandbox table.
pub(crate) fn take_back_ask_ui(ui: &Ui, name: &str) -> Option<bool> {
    let mut answer = None;
    egui::Modal::new(egui::Id::unique("take_back_asked")).show(ui.ctx(), |ui| {
        ui.heading(format!("{name} asks to take back their last move"));
        ui.label(
            "The move is undone as if it had not been made; nothing was rolled or revealed since.",
        );
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button(TAKE_BACK_AGREE).clicked() {
                answer = Some(true);
            }
            if ui.button(TAKE_BACK_REFUSE).clicked() {
                answer = Some(false);
            }
        });
    });
    answer
}

/// The take-back button (issue 18) and the answers to a request.
pub const TAKE_BACK: &str = "Take back";
pub const TAKE_BACK_AGREE: &str = "Agree";
pub const TAKE_BACK_REFUSE: &str = "Refuse";

/// The confirm button Space opens.
pub const CONFIRM_END: &str = "Yes, end the phase";

impl eframe::App for GbacwApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        GbacwApp::ui(self, ui);
    }
}
