//! The lobby's table list: what the server pushed, filtered, one row per
//! table with its buttons.

use egui::{Color32, RichText, Ui};
use muster_shared::protocol::{TableId, TableStatus, TableSummary};
use std::collections::BTreeMap;

/// Which tables to show.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// `None`: every game; otherwise one ruleset id.
    pub ruleset: Option<String>,
    /// Only tables with a free seat.
    pub open_seats: bool,
    /// Matched (case-insensitively) against the number, game, scenario
    /// and the players' names.
    pub text: String,
}

impl Filters {
    pub fn keeps(&self, t: &TableSummary) -> bool {
        if self.ruleset.as_ref().is_some_and(|r| *r != t.ruleset) {
            return false;
        }
        if self.open_seats && free_seats(t) == 0 {
            return false;
        }
        let needle = self.text.trim().to_lowercase();
        if needle.is_empty() {
            return true;
        }
        let mut hay = format!(
            "#{} {} {} {} {}",
            t.table.0,
            t.ruleset,
            t.scenario,
            game_words(&t.ruleset),
            scenario_words(t)
        )
        .to_lowercase();
        for name in t.seats.iter().flatten() {
            hay.push(' ');
            hay.push_str(&name.to_lowercase());
        }
        hay.contains(&needle)
    }

    pub fn ui(&mut self, ui: &mut Ui, games: &[&str]) {
        ui.horizontal_wrapped(|ui| {
            let game = ui.label("Game:");
            let shown = self
                .ruleset
                .as_deref()
                .map_or_else(|| "any".to_string(), |g| game_words(g).to_string());
            egui::ComboBox::from_id_salt("filter_ruleset")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.ruleset, None, "any");
                    for g in games {
                        ui.selectable_value(
                            &mut self.ruleset,
                            Some((*g).to_string()),
                            game_words(g),
                        );
                    }
                })
                .response
                .labelled_by(game.id);
            ui.checkbox(&mut self.open_seats, "Open seats only");
            let label = ui.label("Search:");
            ui.add(egui::TextEdit::singleline(&mut self.text).desired_width(160.0))
                .labelled_by(label.id);
        });
    }
}

fn free_seats(t: &TableSummary) -> usize {
    if t.status != TableStatus::Open {
        return 0;
    }
    t.seats.iter().filter(|s| s.is_none()).count()
}

/// Whether a seat at `t` is held under the name `me` (perhaps this
/// player, from an earlier start: joining again gets the seat back).
pub fn sits_here(t: &TableSummary, me: Option<&str>) -> bool {
    t.status != TableStatus::Finished
        && me.is_some_and(|me| t.seats.iter().flatten().any(|n| n == me))
}

/// A game as printed for players ("Great Battles of the American Civil
/// War (SPI)"), not its id.
pub fn game_words(ruleset: &str) -> &str {
    super::create::game_title(ruleset)
}

/// A game's short name for the list's narrow column ("Great Battles
/// (SPI)"); the whole title is on hover and in the game filter.
pub fn game_short(ruleset: &str) -> &str {
    match ruleset {
        "gbacw" => "Great Battles (SPI)",
        "sandbox" => "Sandbox",
        other => other,
    }
}

/// A table's battle as printed ("Cedar Mountain, 9 August 1862") for a
/// GBACW table; a sandbox table's own name.
pub fn scenario_words(t: &TableSummary) -> &str {
    if t.ruleset == "gbacw" {
        muster_shared::gbacw::battles::title(&t.scenario)
    } else {
        &t.scenario
    }
}

/// "Corinth, 3–4 October 1862: the historical scenario (30.0)" → the
/// battle and its scenario, for two lines; a title without a colon is all
/// battle.
fn split_title(title: &str) -> (&str, Option<&str>) {
    match title.split_once(": ") {
        Some((battle, scenario)) => (battle, Some(scenario)),
        None => (title, None),
    }
}

/// The colour of a table's marks beside its scenario ("private",
/// "continued"): amber, noticed without alarming.
const MARK: Color32 = Color32::from_rgb(0xd0, 0x90, 0x30);

/// The mark beside a table carried on from a saved game (issue 18).
pub const CONTINUED: &str = "continued";

/// Its tooltip: where the game began, as the server says (from the
/// table's config, so a creator cannot leave it out), and why a player
/// might care before sitting down.
pub fn continued_words(from: &str) -> String {
    let mut first = from.chars();
    let from = first
        .next()
        .map(|c| c.to_uppercase().chain(first).collect::<String>())
        .unwrap_or_default();
    format!(
        "{from}. The rolls before that were made at one machine whose players held every \
         dice chain; from there on the table's dice are fresh, and nobody can choose or foresee them."
    )
}

/// The list's button for a table whose seat this player holds
/// ("Your seat #3"): it opens the table again in that seat.
pub fn your_seat_label(table: TableId) -> String {
    format!("Your seat #{}", table.0)
}

/// The heading of the tables this player sits at (drawn by
/// [`super::games`], above the list).
pub const YOUR_TABLES: &str = "Your tables";

/// Issue 18: the mark beside a table of yours where the game waits on you.
pub const YOUR_MOVE: &str = "your move";

/// Whether the game at `t` waits on the seat held under the name `me`.
pub fn waits_on(t: &TableSummary, me: Option<&str>) -> bool {
    t.status == TableStatus::Playing
        && t.seats.iter().enumerate().any(|(i, s)| {
            s.as_deref().is_some_and(|n| Some(n) == me)
                && t.to_act.iter().any(|a| usize::from(a.0) == i)
        })
}

/// What the person clicked in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Join(TableId),
    Watch(TableId),
}

/// Draw the rows that pass `filters`; returns a click, if any. `me` is
/// this player's name: a table with a seat under it can be joined again
/// even when full (the server gives an identity back its own seat).
pub fn ui(
    ui: &mut Ui,
    tables: &BTreeMap<TableId, TableSummary>,
    filters: &Filters,
    me: Option<&str>,
) -> Option<Pick> {
    let shown: Vec<&TableSummary> = tables.values().filter(|t| filters.keeps(t)).collect();
    if tables.is_empty() {
        ui.weak("No tables yet. Create one.");
        return None;
    }
    if shown.is_empty() {
        ui.weak(format!(
            "No table matches the filters ({} hidden).",
            tables.len()
        ));
        return None;
    }
    let mut pick = None;
    egui::ScrollArea::both()
        .id_salt("lobby_tables")
        .show(ui, |ui| {
            // Names and seats on one line each; the list scrolls instead.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            egui::Grid::new("lobby_table_grid")
                .striped(true)
                .num_columns(7)
                .spacing([14.0, 6.0])
                .show(ui, |ui| {
                    for h in [
                        "Table", "Game", "Scenario", "Seats", "Status", "Watching", "",
                    ] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    for t in shown {
                        if let Some(p) = row(ui, t, me) {
                            pick = Some(p);
                        }
                        ui.end_row();
                    }
                });
        });
    pick
}

/// Each seat's holder as shown: the name, with a short identity tag
/// (`Grant #12`) only when another seat's name looks the same.
pub fn seat_labels(t: &TableSummary) -> Vec<Option<String>> {
    let held: Vec<(u64, &str)> = t
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let user = t.seat_users.get(i).copied().flatten().map_or(0, |u| u.0);
            s.as_deref().map(|n| (user, n))
        })
        .collect();
    let mut labels = muster_shared::display_name::labels(&held).into_iter();
    t.seats
        .iter()
        .map(|s| s.as_ref().and_then(|_| labels.next()))
        .collect()
}

fn row(ui: &mut Ui, t: &TableSummary, me: Option<&str>) -> Option<Pick> {
    let mut pick = None;
    ui.label(format!("#{}", t.table.0));
    // The short name keeps the row inside the list at 1280 px (issue 18).
    ui.label(game_short(&t.ruleset))
        .on_hover_text(game_words(&t.ruleset));
    // The battle on one line, its scenario and the marks on the next:
    // on one line Corinth's long titles and a mark pushed the Join and
    // Watch buttons past the list's edge. Rows are two lines anyway (one
    // per seat).
    let (battle, scenario) = split_title(scenario_words(t));
    ui.vertical(|ui| {
        ui.label(battle);
        ui.horizontal(|ui| {
            if let Some(scenario) = scenario {
                ui.label(scenario);
            }
            if t.private {
                ui.label(RichText::new("private").color(MARK));
            }
            if let Some(from) = &t.carried_from {
                ui.label(RichText::new(CONTINUED).color(MARK))
                    .on_hover_text(continued_words(from));
            }
        });
    });
    // Each seat by its one name, "Union (Meade)", as the table's header,
    // log and refusals name it (issue 18: "1: Meade" here, "seat 0" there).
    let names = crate::app::seat_words::table_seat_names(t);
    let sides = crate::app::seat_words::sides(&t.ruleset, &t.scenario);
    ui.vertical(|ui| {
        for (i, name) in names.iter().enumerate() {
            let held = t.seats.get(i).and_then(Option::as_deref);
            let side = sides.get(i).map_or("", String::as_str);
            match held {
                Some(n) if Some(n) == me => ui.label(format!("{name} (you)")),
                Some(_) => ui.label(name.as_str()),
                None => ui.label(
                    RichText::new(crate::app::seat_words::free_label(side))
                        .color(Color32::from_rgb(0x50, 0xb0, 0x50)),
                ),
            };
        }
    });
    ui.label(match t.status {
        TableStatus::Open => "open",
        TableStatus::Playing => "playing",
        TableStatus::Finished => "finished",
    });
    ui.label(if t.spectators_allowed {
        t.spectators.to_string()
    } else {
        "closed".to_string()
    });
    ui.horizontal(|ui| {
        // A table this player sits at is opened again, not joined: its
        // button says so (issue 18: "Join" beside your own seat read as
        // taking another one).
        let label = if sits_here(t, me) {
            your_seat_label(t.table)
        } else {
            format!("Join #{}", t.table.0)
        };
        if ui
            .add_enabled(
                free_seats(t) > 0 || sits_here(t, me),
                egui::Button::new(label),
            )
            .on_hover_text(if sits_here(t, me) {
                "You sit at this table: open it again in your seat."
            } else {
                "Take the first free seat."
            })
            .clicked()
        {
            pick = Some(Pick::Join(t.table));
        }
        if ui
            .add_enabled(
                t.spectators_allowed,
                egui::Button::new(format!("Watch #{}", t.table.0)),
            )
            .clicked()
        {
            pick = Some(Pick::Watch(t.table));
        }
    });
    pick
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: u64, ruleset: &str, seats: Vec<Option<&str>>) -> TableSummary {
        TableSummary {
            table: TableId(n),
            ruleset: ruleset.into(),
            scenario: "Test battle".into(),
            seats: seats.into_iter().map(|s| s.map(String::from)).collect(),
            status: TableStatus::Open,
            spectators: 0,
            private: false,
            spectators_allowed: true,
            seat_users: vec![None; 2],
            to_act: Vec::new(),
            carried_from: None,
        }
    }

    #[test]
    fn your_move_marks_only_the_seat_the_game_waits_on() {
        use muster_shared::SeatId;
        let mut t = table(5, "gbacw", vec![Some("Meade"), Some("Jackson")]);
        t.status = TableStatus::Playing;
        t.to_act = vec![SeatId(1)];
        assert!(waits_on(&t, Some("Jackson")));
        assert!(!waits_on(&t, Some("Meade")));
        assert!(!waits_on(&t, None));
        t.status = TableStatus::Finished;
        assert!(!waits_on(&t, Some("Jackson")));
    }

    #[test]
    fn look_alike_seat_names_get_identity_tags() {
        use muster_shared::protocol::UserId;
        let mut t = table(3, "sandbox", vec![Some("Grant"), Some("Gr\u{0430}nt")]);
        t.seat_users = vec![Some(UserId(4)), Some(UserId(9))];
        assert_eq!(
            seat_labels(&t),
            [
                Some("Grant #4".to_string()),
                Some("Gr\u{0430}nt #9".to_string())
            ]
        );
        let u = table(4, "sandbox", vec![Some("Meade"), None]);
        assert_eq!(seat_labels(&u), [Some("Meade".to_string()), None]);
    }

    #[test]
    fn filters_by_game_open_seats_and_text() {
        let a = table(1, "sandbox", vec![Some("Meade"), None]);
        let b = table(2, "gbacw", vec![Some("Lee"), Some("Pope")]);
        let mut f = Filters::default();
        assert!(f.keeps(&a) && f.keeps(&b));
        f.ruleset = Some("gbacw".into());
        assert!(!f.keeps(&a) && f.keeps(&b));
        f.ruleset = None;
        f.open_seats = true;
        assert!(f.keeps(&a) && !f.keeps(&b));
        f.open_seats = false;
        f.text = "pope".into();
        assert!(!f.keeps(&a) && f.keeps(&b));
        f.text = "#1".into();
        assert!(f.keeps(&a) && !f.keeps(&b));
    }
}
