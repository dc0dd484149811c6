//! A player made of clicks: produces a GBACW action at the real table
//! only through what a person does (click a tray row, a lit hex, a
//! counter on the map, a button by its visible words), never by calling
//! the engine to act. The engine is read only to choose what to do (as a
//! person looks at the board) and to check the result.
//!
//! `kind_of` names every `GbacwAction` kind (an exhaustive match: a new
//! kind does not compile until it is named here and given a UI path in
//! `Clicker::perform`).

use egui::Pos2;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::gbacw::{
    CONFIRM_END, GbacwApp, SELECT_STACK, barrage, corinth_card, plot, solitaire, track, tray,
};
use muster_client::app::narrate::Narrate;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use std::collections::BTreeMap;

/// Every kind of `GbacwAction`, by name.
pub fn kind_of(a: &GbacwAction) -> &'static str {
    use GbacwAction as A;
    match a {
        A::Move { .. } => "Move",
        A::Face { .. } => "Face",
        A::ChangeFormation { .. } => "ChangeFormation",
        A::SpendCommandPoints { .. } => "SpendCommandPoints",
        A::Detach { .. } => "Detach",
        A::Attach { .. } => "Attach",
        A::EndPhase => "EndPhase",
        A::WithdrawalFire { .. } => "WithdrawalFire",
        A::DeclineWithdrawalFire => "DeclineWithdrawalFire",
        A::DeclareFire { .. } => "DeclareFire",
        A::CancelFire { .. } => "CancelFire",
        A::Rally { .. } => "Rally",
        A::DeclareMelee { .. } => "DeclareMelee",
        A::RetreatBeforeMelee { .. } => "RetreatBeforeMelee",
        A::StandFast => "StandFast",
        A::Resupply { .. } => "Resupply",
        A::Retreat { .. } => "Retreat",
        A::PlaceUnit { .. } => "PlaceUnit",
        A::PlaceLeader { .. } => "PlaceLeader",
        A::EndSetUp => "EndSetUp",
        A::Arrive { .. } => "Arrive",
        A::ExitMap { .. } => "ExitMap",
        A::DeclareCharge { .. } => "DeclareCharge",
        A::ReplaceLeader { .. } => "ReplaceLeader",
        A::WithdrawEngaged { .. } => "WithdrawEngaged",
        A::Advance { .. } => "Advance",
        A::DeclineAdvance => "DeclineAdvance",
        A::LeaderRout { .. } => "LeaderRout",
        A::RetreatFire { .. } => "RetreatFire",
        A::DeclineRetreatFire => "DeclineRetreatFire",
        A::TransferRounds { .. } => "TransferRounds",
        A::CommitReserve { .. } => "CommitReserve",
        A::PlotAssault { .. } => "PlotAssault",
        A::RapidFire { .. } => "RapidFire",
        A::Unfoul { .. } => "Unfoul",
        A::SolitaireRoll => "SolitaireRoll",
        A::BarrageFire { .. } => "BarrageFire",
        A::EndBarrage => "EndBarrage",
        A::RetreatBatteries { .. } => "RetreatBatteries",
        A::DeclineBatteryRetreat => "DeclineBatteryRetreat",
        A::MoveCrew { .. } => "MoveCrew",
        A::PutOnTop { .. } => "PutOnTop",
        A::StackOrderDone => "StackOrderDone",
        A::Recrew { .. } => "Recrew",
        A::ChoosePromotion { .. } => "ChoosePromotion",
    }
}

/// Each kind and the test that produces it by clicks (file::test).
pub const UI_PATHS: &[(&str, &str)] = &[
    (
        "PlaceUnit",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "PlaceLeader",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "EndSetUp",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "Arrive",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "Move",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "EndPhase",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "DeclareFire",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "DeclareMelee",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "Rally",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    ("Face", "gbacw_ui::a_facing_button_turns_the_unit"),
    (
        "ChangeFormation",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "SpendCommandPoints",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "CancelFire",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "WithdrawalFire",
        "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only",
    ),
    (
        "DeclineWithdrawalFire",
        "gbacw_ui::withdrawal_fire_is_a_prompt_with_its_default_and_the_view_follows_it",
    ),
    (
        "PlotAssault",
        "corinth_plot_ui::corinth_29_2_the_confederate_plots_the_assault_in_the_panel_and_the_union_sees_only_the_commitment",
    ),
    (
        "SolitaireRoll",
        "corinth_actions_ui::corinth_29_5_the_solitaire_roll_is_one_button_for_the_confederate_and_its_arrivals_are_narrated",
    ),
    (
        "CommitReserve",
        "corinth_actions_ui::corinth_30_34_a_reserve_is_committed_from_its_card_and_from_the_initial_command_phase",
    ),
    (
        "BarrageFire",
        "corinth_actions_ui::corinth_26_42_the_barrage_panel_fires_a_battery_at_a_target_the_engine_allows_and_ends",
    ),
    (
        "EndBarrage",
        "corinth_actions_ui::corinth_26_42_the_barrage_panel_fires_a_battery_at_a_target_the_engine_allows_and_ends",
    ),
    (
        "Unfoul",
        "corinth_actions_ui::corinth_24_1_a_fouled_battery_is_tagged_on_the_map_and_unfouled_from_its_card",
    ),
    (
        "PutOnTop",
        "stack_order_ui::case_8_41_a_unit_is_put_on_top_of_its_stack_by_a_click",
    ),
    (
        "MoveCrew",
        "corinth_crew_ui::corinth_24_21_the_crew_away_is_drawn_where_it_stands_and_moved_by_the_map",
    ),
];

/// Kinds a play-through produces when its game brings them about (the
/// prompt's buttons, the orders list); listed with the play-through
/// that produced them in the last run.
pub const BY_PROMPT_OR_ORDERS: &[&str] = &[
    "RetreatBeforeMelee",
    "StandFast",
    "Retreat",
    "ReplaceLeader",
    "Advance",
    "DeclineAdvance",
    "LeaderRout",
    "RetreatFire",
    "DeclineRetreatFire",
    "RetreatBatteries",
    "DeclineBatteryRetreat",
    "Resupply",
    "DeclareCharge",
    "WithdrawEngaged",
    "TransferRounds",
    "ExitMap",
    "Attach",
    "Detach",
    "RapidFire",
    "StackOrderDone",
    "Recrew",
    "ChoosePromotion",
];

/// What no text on screen may contain (issue 18): Debug forms, ids.
pub const NOT_WORDS: [&str; 4] = ["{", "CounterId", "HexNumber", "Some("];

/// A snake_case word (two lower-case words joined by `_`), as ids and
/// Rust names are written.
pub fn has_snake_case(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|k| b[k] == b'_' && b[k - 1].is_ascii_lowercase() && b[k + 1].is_ascii_lowercase())
}

/// Every label and value in the accesskit tree reads as words; returns
/// how many texts were looked at.
pub fn assert_words_only<S>(h: &Harness<'_, S>, when: &str) -> usize {
    let mut seen = 0;
    for node in h.query_all(By::new().include_labels()) {
        let n = node.accesskit_node();
        for text in [n.label(), n.value()].into_iter().flatten() {
            seen += 1;
            for bad in NOT_WORDS {
                assert!(!text.contains(bad), "{when}: {bad:?} on screen in {text:?}");
            }
            assert!(
                !has_snake_case(&text),
                "{when}: snake_case on screen in {text:?}"
            );
        }
    }
    seen
}

/// A primary click at `p` (hover, press, release, run to rest).
pub fn click_at<S>(h: &mut Harness<'_, S>, p: Pos2) {
    super::kittest::click_at(h, p);
}

/// The clicking player and what it counted.
#[derive(Default)]
pub struct Clicker {
    /// Clicks (and key presses) made.
    pub clicks: usize,
    /// Each action kind the table accepted from a click, how often.
    pub produced: BTreeMap<&'static str, usize>,
    /// Screen texts checked for programmer text.
    pub texts_checked: usize,
    /// Why the last `perform` did not act (for the test's message).
    pub last_miss: Option<String>,
    /// Only to make a fixture (a saved game to start a test from): act
    /// through the session, as the engine's own tests do, with no click.
    /// A test that claims "by clicks" never sets it.
    pub direct: bool,
}

pub fn seq(h: &Harness<'_, GbacwApp>) -> u64 {
    h.state().session.book().map_or(0, |b| b.follower.seq())
}

pub fn state<'a>(h: &'a Harness<'_, GbacwApp>) -> &'a GbacwState {
    h.state().session.state().expect("the table is joined")
}

pub fn rules<'a>(h: &'a Harness<'_, GbacwApp>) -> &'a Gbacw {
    h.state().session.ruleset().expect("the table is joined")
}

/// The legal actions of the seat that acts now, as its client works them
/// out (the same query the side panel uses).
pub fn legal_now(h: &Harness<'_, GbacwApp>) -> Vec<GbacwAction> {
    let (r, s) = (rules(h), state(h));
    let acting = r.acting_seat(s);
    // The window's own set, when it holds one for this entry and seat.
    if acting.is_some()
        && h.state().session.acting_seat() == acting
        && let Some(cached) = h.state().legal_if_cached()
    {
        return cached.to_vec();
    }
    match acting {
        Some(seat) => r.legal_actions(s, seat),
        None => Vec::new(),
    }
}

fn hex_of(s: &GbacwState, id: &CounterId) -> Option<HexNumber> {
    s.units
        .get(id)
        .and_then(|u| u.hex)
        .or_else(|| s.leaders.get(id).and_then(|l| l.hex))
}

impl Clicker {
    /// Click the button (or selectable row) whose visible words are
    /// exactly `text`; the `nth` of several. False if none is on screen.
    pub fn button(&mut self, h: &mut Harness<'_, GbacwApp>, text: &str, nth: usize) -> bool {
        let node = h
            .query_all(By::new().predicate(move |n| {
                n.label().is_some_and(|l| l == text)
                    && matches!(
                        n.role(),
                        egui::accesskit::Role::Button | egui::accesskit::Role::CheckBox
                    )
            }))
            .nth(nth);
        let Some(node) = node else {
            return false;
        };
        // Scrolled into view first (a person scrolls the panel).
        node.scroll_to_me();
        super::kittest::settle(h);
        let node = h
            .query_all(By::new().predicate(move |n| {
                n.label().is_some_and(|l| l == text)
                    && matches!(
                        n.role(),
                        egui::accesskit::Role::Button | egui::accesskit::Role::CheckBox
                    )
            }))
            .nth(nth);
        let Some(node) = node else {
            return false;
        };
        node.click();
        super::kittest::settle(h);
        self.clicks += 1;
        true
    }

    /// Click the first button whose words contain `text`.
    pub fn button_containing(&mut self, h: &mut Harness<'_, GbacwApp>, text: &str) -> bool {
        let node = h
            .query_all(By::new().predicate(move |n| {
                n.label().is_some_and(|l| l.contains(text))
                    && matches!(n.role(), egui::accesskit::Role::Button)
            }))
            .next();
        let Some(node) = node else {
            return false;
        };
        node.click();
        super::kittest::settle(h);
        self.clicks += 1;
        true
    }

    /// Pan the map with the arrow keys until `at` is well in view (at
    /// most 40 presses).
    pub fn bring_into_view(&mut self, h: &mut Harness<'_, GbacwApp>, at: HexNumber) -> bool {
        for _ in 0..40 {
            let (Some(p), Some(r)) = (h.state().map.hex_screen_pos(at), h.state().map.rect())
            else {
                return false;
            };
            let inner = r.shrink(60.0);
            let key = if p.x > inner.right() {
                egui::Key::ArrowRight
            } else if p.x < inner.left() {
                egui::Key::ArrowLeft
            } else if p.y > inner.bottom() {
                egui::Key::ArrowDown
            } else if p.y < inner.top() {
                egui::Key::ArrowUp
            } else {
                return true;
            };
            h.key_press(key);
            super::kittest::settle(h);
            self.clicks += 1;
        }
        false
    }

    /// Click a hex of the map, panning it into view first if need be.
    pub fn hex(&mut self, h: &mut Harness<'_, GbacwApp>, at: HexNumber) -> bool {
        if !self.bring_into_view(h, at) {
            return false;
        }
        let (Some(p), Some(r)) = (h.state().map.hex_screen_pos(at), h.state().map.rect()) else {
            return false;
        };
        if !r.shrink(8.0).contains(p) {
            return false;
        }
        click_at(h, p);
        self.clicks += 1;
        true
    }

    /// Select `id` by clicking its counter on the map (hovering its stack
    /// first, which fans it out); if it is not in view, by its row in
    /// the order of battle (which brings it into view).
    pub fn select(&mut self, h: &mut Harness<'_, GbacwApp>, id: &CounterId) -> bool {
        if h.state().map.selected() == std::slice::from_ref(id) {
            return true;
        }
        // On the map: its hex panned into view, its stack hovered (it
        // fans out), the map panned again while the fanned counter is
        // past an edge, then the counter clicked.
        if let Some(at) = where_is(h, id) {
            self.bring_into_view(h, at);
            for _ in 0..8 {
                let Some(r) = h.state().map.counter_rect(id) else {
                    break;
                };
                h.hover_at(r.center());
                super::kittest::settle(h);
                let (Some(map), Some(r)) = (h.state().map.rect(), h.state().map.counter_rect(id))
                else {
                    break;
                };
                let inner = map.shrink(4.0);
                let key = if r.left() < inner.left() {
                    egui::Key::ArrowLeft
                } else if r.right() > inner.right() {
                    egui::Key::ArrowRight
                } else if r.top() < inner.top() {
                    egui::Key::ArrowUp
                } else if r.bottom() > inner.bottom() {
                    egui::Key::ArrowDown
                } else {
                    click_at(h, r.center());
                    self.clicks += 1;
                    break;
                };
                h.key_press(key);
                super::kittest::settle(h);
                self.clicks += 1;
            }
            if h.state().map.selected().first() == Some(id) {
                return true;
            }
        }
        for _ in 0..1 {
            // Not in view (or under another): by its row in the order
            // of battle, which selects it and brings it into view.
            let name = name(h, id);
            let opened = !h.state().show_oob;
            if opened {
                self.button(h, muster_client::app::gbacw::oob_panel::OOB_TOGGLE, 0);
            }
            let clicked = self.button(h, &name, 0) || self.button(h, &format!("* {name}"), 0);
            if std::env::var_os("PLAY_DEBUG").is_some() {
                eprintln!("  after the row: {:?}", h.state().map.selected());
            }
            if opened {
                self.button(h, muster_client::app::gbacw::oob_panel::OOB_TOGGLE, 0);
            }
            if clicked && h.state().map.selected().first() == Some(id) {
                return true;
            }
            if std::env::var_os("PLAY_DEBUG").is_some() {
                eprintln!(
                    "select {id}: oob row clicked {clicked}, selected {:?}, rect {:?}, map {:?}",
                    h.state().map.selected(),
                    h.state().map.counter_rect(id),
                    h.state().map.rect()
                );
            }
        }
        false
    }

    /// Drag the selected `piece` hex by hex along its cheapest path to
    /// `to` (the path the map lights) and drop it there.
    pub fn drag_move(
        &mut self,
        h: &mut Harness<'_, GbacwApp>,
        piece: &CounterId,
        to: HexNumber,
    ) -> bool {
        let Some(path) = rules(h)
            .reachable(state(h), piece)
            .and_then(|r| r.path_to(to))
        else {
            return false;
        };
        if !self.bring_into_view(h, to) {
            return false;
        }
        let Some(from) = h.state().map.counter_rect(piece).map(|r| r.center()) else {
            return false;
        };
        h.hover_at(from);
        h.step();
        h.drag_at(from);
        h.step();
        let mut at = from;
        for x in path.iter().skip(1) {
            let Some(next) = h.state().map.hex_screen_pos(*x) else {
                return false;
            };
            for i in 1..=3 {
                h.hover_at(at + (next - at) * (i as f32 / 3.0));
                h.step();
            }
            at = next;
        }
        h.drop_at(at);
        super::kittest::settle(h);
        self.clicks += 1;
        true
    }

    /// Pick `id` in the tray (set-up or arrivals) and click `at`.
    fn tray_place(&mut self, h: &mut Harness<'_, GbacwApp>, id: &CounterId, at: HexNumber) -> bool {
        let name = name(h, id);
        let name2 = name.clone();
        if h.state().tray.picked() != Some(id) {
            let row = h
                .query_all(By::new().predicate(move |n| {
                    n.label().is_some_and(|l| {
                        n.role() == egui::accesskit::Role::Button
                            && (l == name || l.starts_with(&format!("{name} ")))
                    })
                }))
                .next();
            let Some(row) = row else {
                self.last_miss = Some(format!("no tray row for {id}"));
                return false;
            };
            let rect = row.rect();
            row.scroll_to_me();
            super::kittest::settle(h);
            // The row where it is now (the tray scrolled).
            let row = h
                .query_all(By::new().predicate(move |n| {
                    n.role() == egui::accesskit::Role::Button
                        && n.label()
                            .is_some_and(|l| l == name2 || l.starts_with(&format!("{name2} ")))
                }))
                .next();
            let Some(row) = row else {
                self.last_miss = Some(format!("tray row for {id} lost at {rect:?}"));
                return false;
            };
            row.click();
            super::kittest::settle(h);
            self.clicks += 1;
        }
        if h.state().tray.picked() != Some(id) {
            self.last_miss = Some(format!("{id} not picked"));
            return false;
        }
        if !h.state().map.lit.contains_key(&at) {
            self.last_miss = Some(format!("{at} not lit for {id}"));
            return false;
        }
        if !self.hex(h, at) {
            self.last_miss = Some(format!("{at} out of view"));
            return false;
        }
        true
    }

    /// Produce `a` by clicks. True when the table took an action (the
    /// follower moved on, no refusal); the kind is then counted.
    pub fn perform(&mut self, h: &mut Harness<'_, GbacwApp>, a: &GbacwAction) -> bool {
        use GbacwAction as A;
        self.last_miss = None;
        h.state_mut().session.last_refusal = None;
        let before = seq(h);
        let words = rules(h).describe_action(a);
        if self.direct {
            // A move is chosen by its last hex (a click there); the
            // table moves along the cheapest path, as the map does.
            let mut a = a.clone();
            if let A::Move { pieces, path } = &mut a
                && let Some(full) = path.last().and_then(|to| {
                    rules(h)
                        .reachable(state(h), &pieces[0])
                        .and_then(|r| r.path_to(*to))
                })
            {
                *path = full[1..].to_vec();
            }
            h.state_mut().session.act(a.clone());
            super::kittest::settle(h);
            let took = seq(h) != before && h.state().session.last_refusal.is_none();
            if took {
                *self.produced.entry(kind_of(&a)).or_default() += 1;
            } else {
                self.last_miss = Some(format!("{words:?} refused"));
            }
            return took;
        }
        let clicked = match a {
            A::PlaceUnit { unit, hex, .. } => self.tray_place(h, unit, *hex),
            A::PlaceLeader { leader, hex } => self.tray_place(h, leader, *hex),
            A::Arrive { piece, hex, .. } => self.tray_place(h, piece, *hex),
            A::EndSetUp => self.button(h, tray::DEFAULT_DEPLOYMENT, 0),
            A::EndPhase => self.button(h, track::END_PHASE, 0),
            A::Move { pieces, path } => {
                let Some(to) = path.last() else { return false };
                let taken = {
                    let st = state(h);
                    st.units.values().any(|u| u.hex == Some(*to))
                        || st.leaders.values().any(|l| l.hex == Some(*to))
                };
                self.select(h, &pieces[0])
                    && (pieces.len() == 1 || self.button(h, SELECT_STACK, 0))
                    && if taken {
                        // A click there would select its counter: the
                        // counter is dragged along the lit path instead.
                        self.drag_move(h, &pieces[0], *to)
                    } else {
                        self.hex(h, *to)
                    }
            }
            A::Face { unit, facing } => {
                let label = muster_client::app::gbacw::card::facing_label(rules(h), *facing);
                self.select(h, unit) && self.button(h, &label, 0)
            }
            A::ChangeFormation { unit, to } => self.select(h, unit) && self.button(h, to.name(), 0),
            A::DeclareFire { firers, .. } => {
                self.select(h, &firers[0].unit) && self.button(h, &words, 0)
            }
            A::DeclareMelee { attackers, .. } | A::DeclareCharge { attackers, .. } => {
                self.select(h, &attackers[0]) && self.button(h, &words, 0)
            }
            A::Rally { unit } | A::ExitMap { unit } | A::Unfoul { unit } => {
                self.select(h, unit) && self.button(h, &words, 0)
            }
            A::Resupply { unit, .. } => self.select(h, unit) && self.button(h, &words, 0),
            // GBACW 8.41, 11.18: orders of the selected unit; in the
            // 8.41 decision after a Fire Phase, the prompt's button.
            A::PutOnTop { unit } | A::Recrew { unit, .. } => {
                if state(h).restack.is_some() {
                    self.button(h, &words, 0)
                } else {
                    self.select(h, unit) && self.button(h, &words, 0)
                }
            }
            A::TransferRounds { from, .. } => self.select(h, from) && self.button(h, &words, 0),
            // Issue 18: a retreat path or the advance is a click on the
            // lit hex it ends in, when the map lights this very answer
            // (other answers ending there, and part of a stack, stay
            // buttons in the prompt).
            A::Retreat { path, .. } | A::RetreatBeforeMelee { path, .. }
                if path
                    .last()
                    .is_some_and(|to| h.state().map.lit.get(to) == Some(a)) =>
            {
                self.hex(h, *path.last().expect("checked just above"))
            }
            A::Advance { .. } if h.state().map.lit.values().any(|x| x == a) => {
                let to = h
                    .state()
                    .map
                    .lit
                    .iter()
                    .find(|(_, x)| *x == a)
                    .map(|(t, _)| *t);
                to.is_some_and(|to| self.hex(h, to))
            }
            A::WithdrawEngaged { units, .. } => {
                self.select(h, &units[0]) && self.button(h, &words, 0)
            }
            A::CancelFire { index } => self.button(h, "take back", usize::from(*index)),
            A::RapidFire { index } => {
                self.button_containing(h, "rapid fire") && {
                    let _ = index;
                    true
                }
            }
            A::CommitReserve { reserve } => {
                let name = name(h, reserve);
                self.button(h, &corinth_card::commit_label(&name), 0)
            }
            A::SolitaireRoll => self.button(h, solitaire::ROLL, 0),
            A::PlotAssault { .. } => {
                self.button(h, plot::SEND_PLAN, 0) || self.button(h, &words, 0)
            }
            A::BarrageFire { target, firers } => {
                let names: Vec<String> = firers.iter().map(|f| name(h, f)).collect();
                names
                    .iter()
                    .all(|n| self.button(h, &barrage::battery_label(n), 0))
                    && self.button(h, &barrage::target_label(*target), 0)
                    && self.button(h, barrage::FIRE, 0)
            }
            A::EndBarrage => self.button(h, barrage::END, 0),
            A::MoveCrew { battery, path } => {
                let Some(to) = path.last() else { return false };
                let crew = h.state().map.crew_rect(battery);
                match crew {
                    Some(r) => {
                        click_at(h, r.center());
                        self.clicks += 1;
                        self.hex(h, *to)
                    }
                    None => false,
                }
            }
            // Command orders (the Initial Command Phase's list) and the
            // answers to a pending decision: a button in the action's
            // own words.
            A::SpendCommandPoints { .. }
            | A::Detach { .. }
            | A::Attach { .. }
            | A::WithdrawalFire { .. }
            | A::DeclineWithdrawalFire
            | A::RetreatBeforeMelee { .. }
            | A::StandFast
            | A::Retreat { .. }
            | A::ReplaceLeader { .. }
            | A::Advance { .. }
            | A::DeclineAdvance
            | A::LeaderRout { .. }
            | A::RetreatFire { .. }
            | A::DeclineRetreatFire
            | A::RetreatBatteries { .. }
            | A::DeclineBatteryRetreat
            | A::StackOrderDone
            | A::ChoosePromotion { .. } => self.button(h, &words, 0),
        };
        if !clicked {
            if self.last_miss.is_none() {
                self.last_miss = Some(format!("no way to click {words:?}"));
            }
            return false;
        }
        // Let a network table answer (bounded).
        for _ in 0..200 {
            if seq(h) != before || h.state().session.last_refusal.is_some() {
                break;
            }
            if h.state().session.is_hot_seat() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            super::kittest::settle(h);
        }
        let took = seq(h) != before && h.state().session.last_refusal.is_none();
        if took {
            *self.produced.entry(kind_of(a)).or_default() += 1;
        } else {
            self.last_miss = Some(format!(
                "{words:?} not taken: {:?}",
                h.state().session.last_refusal
            ));
        }
        took
    }

    /// End the phase with Space and the confirm (the keys a player uses).
    pub fn space_end(&mut self, h: &mut Harness<'_, GbacwApp>) -> bool {
        h.key_press(egui::Key::Space);
        super::kittest::settle(h);
        self.clicks += 1;
        self.button(h, CONFIRM_END, 0)
    }
}

/// The printed name of a counter, as the screen shows it.
pub fn name(h: &Harness<'_, GbacwApp>, id: &CounterId) -> String {
    muster_client::app::gbacw::narrate::counter_name(rules(h), id)
}

/// Where `id` stands now.
pub fn where_is(h: &Harness<'_, GbacwApp>, id: &CounterId) -> Option<HexNumber> {
    hex_of(state(h), id)
}
