//! GBACW in words: the client's log lines, prompts and buttons read the
//! engine's own descriptions (`muster_shared::gbacw::words`): one per
//! action and event, printed names and hex numbers, the case where it
//! helps, never a `Debug` form.

use crate::app::narrate::Narrate;
use muster_shared::gbacw::charts::Mp;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwEvent, GbacwState};
use muster_shared::gbacw::words;
use muster_shared::sandbox::RollResult;
use std::collections::BTreeMap;

pub use muster_shared::gbacw::words::{counter_name, mp_text};

/// Where every counter on the map stood before a step: a move's line
/// names the hex it started from.
pub type Standing = BTreeMap<CounterId, HexNumber>;

impl Narrate for Gbacw {
    /// Where the counters stood (a move's events name only the hexes
    /// entered).
    type Memo = Standing;

    fn memo(&self, state: &GbacwState) -> Standing {
        let units = state.units.iter().filter_map(|(id, u)| Some((id, u.hex?)));
        let leaders = state
            .leaders
            .iter()
            .filter_map(|(id, l)| Some((id, l.hex?)));
        units
            .chain(leaders)
            .map(|(id, h)| (id.clone(), h))
            .collect()
    }

    fn describe_action(&self, action: &GbacwAction) -> String {
        words::action(self, action)
    }

    fn describe_event(&self, event: &GbacwEvent, _who: &str, _: &Standing, _: &[String]) -> String {
        words::event(self, event)
    }

    /// Issue 18: a move was logged one line per hex entered ("4 Md
    /// entered 2828…", 13 lines for one move). The engine's `UnitMoved`
    /// and `LeaderMoved` events of a move, one per counter and hex, in a
    /// row, are put in one line per counter (counters that went the same
    /// way share it): "46 Pa moved 1817 to 1921 (3 hexes, 4 MP), facing
    /// north-east". Every other event keeps its own line, in its place.
    fn describe_events(
        &self,
        events: &[GbacwEvent],
        _who: &str,
        before: &Standing,
        _: &[String],
    ) -> Vec<Option<String>> {
        let mut out: Vec<Option<String>> = Vec::with_capacity(events.len());
        let mut k = 0;
        while k < events.len() {
            let run = events[k..]
                .iter()
                .take_while(|e| step_of(e).is_some())
                .count();
            if run == 0 {
                out.push(Some(words::event(self, &events[k])));
                k += 1;
                continue;
            }
            let lines = moves_in_words(self, before, &events[k..k + run]);
            let n = lines.len();
            out.extend(lines.into_iter().map(Some));
            out.extend(std::iter::repeat_n(None, run - n));
            k += run;
        }
        out
    }

    /// GBACW's dice are shown in its own log lines (each with its case);
    /// the session records each roll from its proof instead (the dice
    /// panel lists them with their verdicts).
    fn rolled(&self, _: &GbacwEvent) -> Option<RollResult> {
        None
    }
}

/// One hex entered: the counter, the hex, its cost, and the unit's new
/// facing (a leader has none).
fn step_of(e: &GbacwEvent) -> Option<(&CounterId, HexNumber, Mp, Option<Facing>)> {
    match e {
        GbacwEvent::UnitMoved {
            unit,
            to,
            facing,
            cost,
        } => Some((unit, *to, *cost, Some(*facing))),
        GbacwEvent::LeaderMoved { leader, to, cost } => Some((leader, *to, *cost, None)),
        _ => None,
    }
}

/// A run of hex-by-hex move events (at least one) as one line per way
/// taken: the counters that entered the same hexes share a line.
fn moves_in_words(rs: &Gbacw, before: &Standing, run: &[GbacwEvent]) -> Vec<String> {
    // Each counter's hexes, total cost and last facing, in order of first
    // appearance.
    struct Went {
        id: CounterId,
        hexes: Vec<HexNumber>,
        cost: Mp,
        facing: Option<Facing>,
    }
    let mut went: Vec<Went> = Vec::new();
    for (id, to, cost, facing) in run.iter().filter_map(step_of) {
        match went.iter_mut().find(|w| w.id == *id) {
            Some(w) => {
                w.hexes.push(to);
                w.cost = w.cost + cost;
                w.facing = facing.or(w.facing);
            }
            None => went.push(Went {
                id: id.clone(),
                hexes: vec![to],
                cost,
                facing,
            }),
        }
    }
    // Counters that went the same way from the same hex, together.
    let mut ways: Vec<Vec<&Went>> = Vec::new();
    for w in &went {
        let same = |o: &&Went| o.hexes == w.hexes && before.get(&o.id) == before.get(&w.id);
        match ways.iter_mut().find(|g| same(&g[0])) {
            Some(g) => g.push(w),
            None => ways.push(vec![w]),
        }
    }
    ways.iter()
        .map(|g| {
            let lead = g[0];
            let who = g
                .iter()
                .map(|w| counter_name(rs, &w.id))
                .collect::<Vec<_>>();
            let who = match who.as_slice() {
                [one] => one.clone(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            let to = lead.hexes.last().copied();
            let n = lead.hexes.len();
            let hexes = if n == 1 {
                "1 hex".to_string()
            } else {
                format!("{n} hexes")
            };
            let costs = if g.iter().all(|w| w.cost == lead.cost) {
                format!("{} MP", mp_text(lead.cost))
            } else {
                g.iter()
                    .map(|w| format!("{} {} MP", counter_name(rs, &w.id), mp_text(w.cost)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let from = before
                .get(&lead.id)
                .map_or_else(String::new, |h| format!(" {h}"));
            let facing = g
                .iter()
                .find_map(|w| w.facing)
                .map_or_else(String::new, |f| {
                    format!(", facing {}", words::facing_word(rs, f))
                });
            format!(
                "{who} moved{from} to {} ({hexes}, {costs}){facing}",
                to.map_or_else(String::new, |h| h.to_string())
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::SeatId;
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::map::HexNumber;
    use muster_shared::gbacw::oob::CounterId;
    use muster_shared::gbacw::ruleset::GbacwConfig;
    use muster_shared::gbacw::ruleset::corinth::{leader_binding, retreat_batteries};

    /// The Corinth actions and events added with 22.33, 24.21 and 25.26
    /// read as words naming their case, not as their debug form.
    #[test]
    fn corinth_leader_binding_crews_and_battery_retreat_read_as_words() {
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let id = |s: &str| CounterId(s.into());
        let lines = [
            rules.describe_action(&GbacwAction::RetreatBatteries {
                batteries: vec![id("d-1-mo")],
            }),
            rules.describe_action(&GbacwAction::DeclineBatteryRetreat),
            rules.describe_event(
                &GbacwEvent::LeaderBound(leader_binding::LeaderBinding {
                    leader: id("hackleman"),
                    units: vec![id("52-ill")],
                }),
                "",
                &Standing::new(),
                &[],
            ),
            rules.describe_event(
                &GbacwEvent::BatteryRetreatOffered(retreat_batteries::BatteryRetreatOffer {
                    seat: SeatId(0),
                    brigade: id("hackleman"),
                    batteries: vec![id("d-1-mo")],
                }),
                "",
                &Standing::new(),
                &[],
            ),
            rules.describe_event(
                &GbacwEvent::BatteryRetreatAnswered,
                "",
                &Standing::new(),
                &[],
            ),
            rules.describe_event(
                &GbacwEvent::CrewRouted {
                    battery: id("d-1-mo"),
                    path: vec![],
                },
                "",
                &Standing::new(),
                &[],
            ),
        ];
        for (line, case) in lines
            .iter()
            .zip(["25.26", "25.26", "22.33", "25.26", "25.26", "24.21"])
        {
            assert!(line.contains(case), "{line}");
            // No debug form: no struct braces, no type names.
            assert!(!line.contains('{') && !line.contains("CounterId"), "{line}");
        }
    }

    /// Corinth 25.23's held brigade retreats read as words too.
    #[test]
    fn corinth_held_brigade_retreats_read_as_words() {
        use muster_shared::gbacw::ruleset::corinth::brigade_retreat::BrigadeRun;
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let id = |s: &str| CounterId(s.into());
        let held = rules.describe_event(
            &GbacwEvent::BrigadeRetreatHeld(BrigadeRun {
                brigade: id("bowen"),
                members: vec![id("6-miss")],
                batteries: Vec::new(),
            }),
            "",
            &Standing::new(),
            &[],
        );
        let resumed = rules.describe_event(
            &GbacwEvent::BrigadeRetreatResumed {
                brigade: id("bowen"),
            },
            "",
            &Standing::new(),
            &[],
        );
        for line in [&held, &resumed] {
            assert!(line.contains("25.23"), "{line}");
            assert!(!line.contains('{') && !line.contains("CounterId"), "{line}");
        }
        assert!(held.contains("6 Miss"), "{held}");
    }

    /// Issue 18: a move's hex-by-hex events are one line per way taken,
    /// from the hex the counters stood in; other events keep their lines.
    #[test]
    fn a_move_is_one_line_from_where_it_stood() {
        use muster_shared::gbacw::charts::Mp;
        use muster_shared::gbacw::facing::Facing;
        let rules = Gbacw::new(&GbacwConfig::default()).expect("the test battle loads");
        let id = |s: &str| CounterId(s.into());
        let hex = |s: &str| HexNumber::parse(s).unwrap();
        let before: Standing = [(id("10-me"), hex("0306")), (id("banks"), hex("0306"))].into();
        let facing = Facing::from_index(3).unwrap();
        let unit = |to| GbacwEvent::UnitMoved {
            unit: id("10-me"),
            to: hex(to),
            facing,
            cost: Mp::from_whole(1),
        };
        let leader = |to| GbacwEvent::LeaderMoved {
            leader: id("banks"),
            to: hex(to),
            cost: Mp::from_whole(1),
        };
        let events = [
            unit("0307"),
            leader("0307"),
            unit("0308"),
            leader("0308"),
            GbacwEvent::FacingChanged {
                unit: id("10-me"),
                facing,
            },
        ];
        let lines = rules.describe_events(&events, "", &before, &[]);
        assert_eq!(lines.len(), events.len());
        let shown: Vec<&String> = lines.iter().flatten().collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        let name = |s: &str| counter_name(&rules, &id(s));
        let facing = words::facing_word(&rules, facing);
        assert_eq!(
            *shown[0],
            format!(
                "{} and {} moved 0306 to 0308 (2 hexes, 2 MP), facing {facing}",
                name("10-me"),
                name("banks")
            )
        );
        assert!(shown[1].contains("faces"), "{}", shown[1]);
    }

    /// GBACW 12.81: the legal set offers two-hex retreats before melee;
    /// two of them ending in one hex by different ways read differently.
    #[test]
    fn case_12_81_a_two_hex_retreat_before_melee_names_the_hex_it_passes() {
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let hex = |s: &str| HexNumber::parse(s).unwrap();
        let go = |path: &[&str]| {
            rules.describe_action(&GbacwAction::RetreatBeforeMelee {
                units: vec![CounterId("52-ill".into())],
                path: path.iter().map(|h| hex(h)).collect(),
            })
        };
        assert!(go(&["1327"]).contains("to 1327 "), "{}", go(&["1327"]));
        let a = go(&["1327", "1328"]);
        let b = go(&["1227", "1328"]);
        assert!(a.contains("to 1328 via 1327"), "{a}");
        assert_ne!(a, b);
    }
}
