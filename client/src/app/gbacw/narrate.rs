//! GBACW in words: the client's log lines, prompts and buttons read the
//! engine's own descriptions (`muster_shared::gbacw::words`): one per
//! action and event, printed names and hex numbers, the case where it
//! helps, never a `Debug` form.

use crate::app::narrate::Narrate;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwEvent, GbacwState};
use muster_shared::gbacw::words;
use muster_shared::sandbox::RollResult;

pub use muster_shared::gbacw::words::{counter_name, mp_text};

impl Narrate for Gbacw {
    /// Nothing to remember: GBACW's counters never leave the order of battle.
    type Memo = ();

    fn memo(&self, _: &GbacwState) {}

    fn describe_action(&self, action: &GbacwAction) -> String {
        words::action(self, action)
    }

    fn describe_event(&self, event: &GbacwEvent, _who: &str, _: &(), _: &[String]) -> String {
        words::event(self, event)
    }

    /// GBACW's dice are shown in its own log lines (each with its case);
    /// the session records each roll from its proof instead (the dice
    /// panel lists them with their verdicts).
    fn rolled(&self, _: &GbacwEvent) -> Option<RollResult> {
        None
    }
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
                &(),
                &[],
            ),
            rules.describe_event(
                &GbacwEvent::BatteryRetreatOffered(retreat_batteries::BatteryRetreatOffer {
                    seat: SeatId(0),
                    brigade: id("hackleman"),
                    batteries: vec![id("d-1-mo")],
                }),
                "",
                &(),
                &[],
            ),
            rules.describe_event(&GbacwEvent::BatteryRetreatAnswered, "", &(), &[]),
            rules.describe_event(
                &GbacwEvent::CrewRouted {
                    battery: id("d-1-mo"),
                    path: vec![],
                },
                "",
                &(),
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
            &(),
            &[],
        );
        let resumed = rules.describe_event(
            &GbacwEvent::BrigadeRetreatResumed {
                brigade: id("bowen"),
            },
            "",
            &(),
            &[],
        );
        for line in [&held, &resumed] {
            assert!(line.contains("25.23"), "{line}");
            assert!(!line.contains('{') && !line.contains("CounterId"), "{line}");
        }
        assert!(held.contains("6 Miss"), "{held}");
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
