//! The log panel: what happened at the table, as this viewer saw it, with
//! entry numbers, newest at the bottom. While the replay scrubber shows an
//! earlier entry, the log ends there: the lines after it are hidden (and
//! counted), so that the log, the dice and the map tell one moment.

use super::narrate::Narrate;
use super::session::{LineKind, LogLine, Session};
use egui::{Color32, RichText, Ui};

/// Said under the log while replaying, after how many lines it hides.
pub const LATER_LINES_HIDDEN: &str = "later log lines hidden while replaying";

/// The lines of `log` up to entry `upto` (all of them when `None`, live).
/// The log is in the order the entries came, so this is a prefix: it ends
/// before the first line about a later entry, and a line about no entry
/// (a refusal, a problem) stays with the entries before it.
pub fn lines_up_to(log: &[LogLine], upto: Option<u64>) -> &[LogLine] {
    let Some(at) = upto else {
        return log;
    };
    let end = log
        .iter()
        .position(|l| l.seq.is_some_and(|s| s > at))
        .unwrap_or(log.len());
    &log[..end]
}

/// Which lines the log shows: every kind, or one (the filter's buttons
/// above the log), and only lines holding a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogFilter {
    /// `None`: every kind.
    pub kind: Option<LineKind>,
    /// Shown only lines containing this (any case); empty: all.
    pub find: String,
}

impl LogFilter {
    pub fn keeps(&self, line: &LogLine) -> bool {
        self.kind.is_none_or(|k| k == line.kind)
            && (self.find.is_empty()
                || line.text.to_lowercase().contains(&self.find.to_lowercase()))
    }
}

/// The filter's buttons, by kind, with their words.
pub const FILTERS: [(Option<LineKind>, &str); 5] = [
    (None, "All"),
    (Some(LineKind::Event), "Events"),
    (Some(LineKind::Roll), "Rolls"),
    (Some(LineKind::Refused), "Refusals"),
    (Some(LineKind::Problem), "Problems"),
];

/// The accessible name of the log's search field.
pub const FIND: &str = "Find:";

/// The log panel; `upto` is the entry the replay shows (`None` live).
/// It follows new lines unless the player has scrolled back (then it
/// stays where they are until they scroll to the bottom again).
pub fn ui<R: Narrate>(ui: &mut Ui, session: &Session<R>, upto: Option<u64>) {
    let Some(book) = session.book() else {
        ui.weak("Waiting for the table…");
        return;
    };
    let id = ui.scope_id().with("log_filter");
    let mut filter: LogFilter = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        for (kind, words) in FILTERS {
            if ui.selectable_label(filter.kind == kind, words).clicked() {
                filter.kind = kind;
            }
        }
        let label = ui.label(FIND);
        ui.add(egui::TextEdit::singleline(&mut filter.find).desired_width(90.0))
            .labelled_by(label.id);
    });
    ui.data_mut(|d| d.insert_temp(id, filter.clone()));
    let shown = lines_up_to(&book.log, upto);
    egui::ScrollArea::vertical()
        .id_salt("log")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in shown.iter().filter(|l| filter.keeps(l)) {
                ui.horizontal_top(|ui| {
                    let seq = line
                        .seq
                        .map_or_else(|| "    ".to_string(), |s| format!("{s:>4}"));
                    ui.label(RichText::new(seq).monospace().weak());
                    let text = RichText::new(&line.text);
                    // Long lines (a fire's every input) wrap in the column.
                    ui.add(
                        egui::Label::new(match line.kind {
                            LineKind::Event => text,
                            LineKind::Roll => text.strong(),
                            LineKind::Refused => text.color(Color32::from_rgb(0xe0, 0x8a, 0x00)),
                            LineKind::Problem => text.color(Color32::RED).strong(),
                        })
                        .wrap(),
                    );
                });
            }
            // The entry itself is in the replay bar.
            let hidden = book.log.len() - shown.len();
            if hidden > 0 {
                ui.weak(format!("{hidden} {LATER_LINES_HIDDEN}"));
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: Option<u64>, text: &str) -> LogLine {
        LogLine {
            seq,
            kind: LineKind::Event,
            text: text.into(),
        }
    }

    #[test]
    fn the_log_up_to_an_entry_ends_before_the_first_later_line() {
        let log = vec![
            line(Some(1), "one"),
            line(Some(2), "two"),
            line(None, "refused after two"),
            line(Some(2), "two again"),
            line(Some(3), "three"),
            line(None, "refused after three"),
        ];
        assert_eq!(lines_up_to(&log, None).len(), 6);
        let texts = |upto| -> Vec<&str> {
            lines_up_to(&log, upto)
                .iter()
                .map(|l| l.text.as_str())
                .collect()
        };
        assert_eq!(
            texts(Some(2)),
            ["one", "two", "refused after two", "two again"]
        );
        assert_eq!(texts(Some(0)), Vec::<&str>::new());
        assert_eq!(texts(Some(3)).len(), 6);
    }
}
