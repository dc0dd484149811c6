//! Corinth's Free Set-Up Scenario (29.0): the secret assault plan (29.2,
//! 29.21-29.27), its commitment and redaction, the Union set-up limits
//! (29.41, 29.44, 29.46), the divisions entering by the plan (29.3).

use super::*;
use crate::gbacw::ruleset::plan::{AssaultPlan, PlannedDivision, commitment};
use crate::ids::Viewer;

fn free() -> T {
    static RS: std::sync::OnceLock<Gbacw> = std::sync::OnceLock::new();
    let rs = RS
        .get_or_init(|| {
            Gbacw::new(&GbacwConfig {
                battle: "corinth_free".into(),
                ..GbacwConfig::default()
            })
            .unwrap_or_else(|e| panic!("{e}"))
        })
        .clone();
    let s = rs.initial_state();
    T { rs, s }
}

fn div(d: &str, area: &str, turn: u16) -> PlannedDivision {
    PlannedDivision {
        division: id(d),
        area: id(area),
        turn,
    }
}

/// Hebert through C and Maury through D on Game-Turn 1, Lovell through
/// F on Game-Turn 4.
fn a_plan() -> AssaultPlan {
    AssaultPlan {
        divisions: vec![
            div("hebert", "assault-c", 1),
            div("maury", "assault-d", 1),
            div("lovell", "assault-f", 4),
        ],
        attached: ["hoxton", "sengstak", "price", "van-dorn", "supply-reserve"]
            .iter()
            .map(|c| (id(c), id("hebert")))
            .collect(),
        cavalry: [
            "armstrong",
            "2-ark-cav",
            "2-mo-cav",
            "adams-cav",
            "jackson",
            "1-miss-cav",
            "7-tenn-cav",
        ]
        .iter()
        .map(|c| (id(c), id("assault-f")))
        .collect(),
    }
}

const SALT: [u8; 32] = [7; 32];

fn plot(plan: AssaultPlan, announce: &str) -> GbacwAction {
    GbacwAction::PlotAssault {
        plan,
        salt: SALT,
        announce: id(announce),
    }
}

#[test]
fn corinth_29_0_the_confederate_plots_first_then_the_union_sets_up() {
    let mut t = free();
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    t.refused(UNION, GbacwAction::EndSetUp, "Corinth 29.2");
    t.ok(REBEL, plot(a_plan(), "hebert"));
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    t.ok(UNION, GbacwAction::EndSetUp);
    // 29.0 step 4: the Confederate Player-Turn of Game-Turn 1.
    assert_eq!(t.s.clock.turn, 1);
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
}
