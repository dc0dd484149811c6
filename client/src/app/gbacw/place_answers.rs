//! Answers that are places (issue 18: "retreat paths and advances drawn
//! on the map"). When the engine asks where a unit retreats or whether
//! to advance, the hexes an answer ends in are lit on the map, the path
//! to each is drawn from where the units stand, and a click on a lit hex
//! sends that answer:
//!
//! - GBACW 14.4: a unit ordered to retreat, each legal path;
//! - GBACW 12.81, 12.82: a retreat before melee, each path (the whole
//!   threatened stack; part of it retreats by the prompt's buttons);
//! - GBACW 12.85: the advance into the hex the defenders left (all the
//!   units offered; fewer by the prompt's buttons).
//!
//! Nothing here knows a rule: the hexes and the actions all come from the
//! engine's legal-action set; when two answers end in the same hex, the
//! click sends the one the engine lists first (the rest stay buttons).

use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwState};
use std::collections::BTreeMap;

/// What to light and draw this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaceAnswers {
    /// Each hex an answer ends in, with the answer a click there sends.
    pub lit: BTreeMap<HexNumber, GbacwAction>,
    /// Each lit hex's path, from where the units stand to it (its first
    /// hex is the start, its last the lit hex).
    pub paths: BTreeMap<HexNumber, Vec<HexNumber>>,
    /// What is asked, for the side panel: a retreat or an advance.
    pub kind: Option<AnswerKind>,
}

/// The kind of question the lit hexes answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerKind {
    Retreat,
    Advance,
}

/// The side panel's line under the prompt, in words.
pub const RETREAT_HINT: &str =
    "Click a lit hex on the map to retreat there along the path drawn to it.";
pub const ADVANCE_HINT: &str = "Click the lit hex on the map to advance into it.";

impl AnswerKind {
    pub fn hint(self) -> &'static str {
        match self {
            AnswerKind::Retreat => RETREAT_HINT,
            AnswerKind::Advance => ADVANCE_HINT,
        }
    }
}

impl PlaceAnswers {
    /// The place answers among `legal` (the acting seat's legal actions).
    pub fn from_legal(state: &GbacwState, legal: &[GbacwAction]) -> PlaceAnswers {
        let mut out = PlaceAnswers::default();
        let at = |unit| state.units.get(unit).and_then(|u| u.hex);
        for a in legal {
            match a {
                GbacwAction::Retreat { unit, path } => {
                    out.path_answer(at(unit), path, a, 1);
                }
                GbacwAction::RetreatBeforeMelee { units, path } => {
                    let from = units.first().and_then(at);
                    out.path_answer(from, path, a, units.len());
                }
                GbacwAction::Advance { units } => {
                    let Some(to) = state.advance.as_ref().map(|o| o.hex) else {
                        continue;
                    };
                    // The answer with the most units takes the click.
                    let more = match out.lit.get(&to) {
                        Some(GbacwAction::Advance { units: had }) => units.len() > had.len(),
                        _ => true,
                    };
                    if more && let Some(from) = units.first().and_then(at) {
                        out.lit.insert(to, a.clone());
                        out.paths.insert(to, vec![from, to]);
                        out.kind = Some(AnswerKind::Advance);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A retreat along `path` from `from`: its last hex lit, unless an
    /// answer listed earlier (with as many units or more) ends there.
    fn path_answer(
        &mut self,
        from: Option<HexNumber>,
        path: &[HexNumber],
        a: &GbacwAction,
        units: usize,
    ) {
        let (Some(from), Some(to)) = (from, path.last()) else {
            return; // no path (a capture): the prompt's button answers
        };
        let fewer = match self.lit.get(to) {
            Some(GbacwAction::RetreatBeforeMelee { units: had, .. }) => had.len() >= units,
            Some(_) => true,
            None => false,
        };
        if fewer {
            return;
        }
        self.lit.insert(*to, a.clone());
        let mut full = vec![from];
        full.extend_from_slice(path);
        self.paths.insert(*to, full);
        self.kind = Some(AnswerKind::Retreat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::SeatId;
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::ruleset::{AdvanceOffer, Gbacw, GbacwConfig};
    use muster_shared::gbacw::testkit::{id, n as hex};

    /// The test battle's opening position.
    fn state() -> GbacwState {
        Gbacw::new(&GbacwConfig::default()).unwrap().initial_state()
    }

    #[test]
    fn case_14_4_each_retreat_path_lights_its_last_hex_and_the_first_listed_wins() {
        let s = state();
        let unit = id("10-me");
        let start = s.units[&unit].hex.unwrap();
        let r = |p: &[&str]| GbacwAction::Retreat {
            unit: unit.clone(),
            path: p.iter().map(|h| hex(h)).collect(),
        };
        let legal = vec![
            r(&["0307", "0308"]),
            r(&["0207", "0308"]),
            r(&["0206", "0106"]),
            // A capture (no path) is no place: it stays a button.
            r(&[]),
            GbacwAction::EndPhase,
        ];
        let a = PlaceAnswers::from_legal(&s, &legal);
        assert_eq!(a.kind, Some(AnswerKind::Retreat));
        assert_eq!(
            a.lit.keys().copied().collect::<Vec<_>>(),
            vec![hex("0106"), hex("0308")]
        );
        assert_eq!(a.lit[&hex("0308")], legal[0]);
        assert_eq!(a.paths[&hex("0308")], vec![start, hex("0307"), hex("0308")]);
    }

    #[test]
    fn case_12_85_the_advance_lights_the_vacated_hex_for_all_the_units_offered() {
        let mut s = state();
        let (a, b) = (id("10-me"), id("5-conn"));
        s.advance = Some(AdvanceOffer {
            seat: SeatId(0),
            hex: hex("0406"),
            units: vec![a.clone(), b.clone()],
        });
        let legal = vec![
            GbacwAction::DeclineAdvance,
            GbacwAction::Advance {
                units: vec![a.clone()],
            },
            GbacwAction::Advance {
                units: vec![b.clone()],
            },
            GbacwAction::Advance {
                units: vec![a.clone(), b.clone()],
            },
        ];
        let p = PlaceAnswers::from_legal(&s, &legal);
        assert_eq!(p.kind, Some(AnswerKind::Advance));
        assert_eq!(p.lit.len(), 1);
        assert_eq!(p.lit[&hex("0406")], legal[3]);
        assert_eq!(
            PlaceAnswers::from_legal(&s, &legal[..1]),
            PlaceAnswers::default()
        );
    }
}
