//! BCE bookkeeping and its hooks.

use super::*;
use crate::gbacw::oob::UnitKind;
use crate::gbacw::testkit::id;

fn ledger(limit: u16) -> BceLedger {
    BceLedger {
        brigades: [(id("crawford"), BceTrack { limit, marked: 0 })].into(),
    }
}

#[test]
fn case_18_0_one_box_per_infantry_or_cavalry_point_lost() {
    let mut l = ledger(3);
    let b = id("crawford");
    let inf = BceEvent::StrengthLost {
        kind: UnitKind::Infantry,
        points: 2,
    };
    assert!(!l.record(&StandardBce, &b, &inf));
    // Guns and wagons mark nothing; neither do routs under the Standard Rules.
    let guns = BceEvent::StrengthLost {
        kind: UnitKind::Battery { rounds: 0 },
        points: 2,
    };
    assert!(!l.record(&StandardBce, &b, &guns));
    assert!(!l.record(&StandardBce, &b, &BceEvent::Routed));
    assert!(!l.lost(&b));
    let cav = BceEvent::StrengthLost {
        kind: UnitKind::Cavalry,
        points: 1,
    };
    // The third box: lost now, and reported once.
    assert!(l.record(&StandardBce, &b, &cav));
    assert!(l.lost(&b));
    assert!(!l.record(&StandardBce, &b, &cav));
    assert_eq!(l.brigades[&b].marked, 4);
}

#[test]
fn case_18_0_exclusive_rules_hook_adds_factors() {
    struct AmmoCounts;
    impl BceRules for AmmoCounts {
        fn boxes(&self, e: &BceEvent) -> u16 {
            match e {
                BceEvent::AmmoDepleted => 1,
                other => StandardBce.boxes(other),
            }
        }
    }
    let mut l = ledger(1);
    assert!(l.record(&AmmoCounts, &id("crawford"), &BceEvent::AmmoDepleted));
    assert!(!l.record(&AmmoCounts, &id("nobody"), &BceEvent::AmmoDepleted));
}

#[test]
fn case_17_67_bce_lost_brigade_cannot_detach_but_may_attach_if_detached() {
    assert!(may_detach(false));
    assert!(!may_detach(true));
    assert!(may_attach(true, true));
    assert!(!may_attach(true, false));
    assert!(may_attach(false, false));
}
