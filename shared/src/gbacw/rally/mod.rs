//! Rallying routed units (GBACW 13.5, 17.13, 9.85) as pure functions of
//! the situation and the die.

use crate::gbacw::oob::{Command, Marker, Unit, UnitKind};
use std::collections::BTreeSet;

/// GBACW 9.85: pins come off at the start of the friendly Rally Phase,
/// before rallying.
pub fn unpin(markers: &mut BTreeSet<Marker>) {
    markers.remove(&Marker::Pin);
}

/// How a routed unit may try to rally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RallyBy {
    /// GBACW 13.52, 17.13: stacked with a friendly leader — automatic.
    StackedLeader,
    /// GBACW 13.52, 17.13: its brigade commander spends a Rally Point on
    /// it within his Effectiveness Radius — automatic.
    RallyPoint,
    /// GBACW 13.54: gun crews, wagon crews and independents roll a die.
    Die(u8),
}

/// Whether a routed unit rallies.
/// - Non-independent regiments (13.52): with a leader, or by a Rally
///   Point within their brigade commander's radius.
/// - Crews, wagons and independents (13.54): a die not above morale, or a
///   leader stacked with them; Rally Points do not reach them.
pub fn rallies(unit: &Unit, morale: u8, by: RallyBy) -> bool {
    let self_rallying = matches!(unit.command, Command::Independent)
        || matches!(unit.kind, UnitKind::Battery { .. } | UnitKind::Wagon { .. });
    match by {
        RallyBy::StackedLeader => true,
        RallyBy::RallyPoint => !self_rallying,
        RallyBy::Die(d) => self_rallying && d <= morale,
    }
}

/// GBACW 17.13: a brigade commander rallies one regiment per point of his
/// Rally Rating; units stacked with him cost nothing.
pub fn rally_points_enough(rating: u8, requested: usize) -> bool {
    requested <= usize::from(rating)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::charts::Charts;
    use crate::gbacw::oob::{CounterId, Oob, parse_oob};

    fn oob() -> Oob {
        let charts = Charts::load(crate::gbacw::charts::tests::CHARTS).unwrap();
        parse_oob(crate::gbacw::oob::tests::TEST_OOB, &charts.range).unwrap()
    }

    fn unit<'a>(o: &'a Oob, id: &str) -> &'a Unit {
        &o.units[&CounterId::parse(id).unwrap()]
    }

    #[test]
    fn case_9_85_pins_removed_at_the_rally_phase() {
        let mut m = BTreeSet::from([Marker::Pin, Marker::Rout]);
        unpin(&mut m);
        assert_eq!(m, BTreeSet::from([Marker::Rout]));
    }

    #[test]
    fn case_13_52_regiments_rally_with_a_leader_or_a_rally_point() {
        let o = oob();
        let reg = unit(&o, "5-conn");
        assert!(rallies(reg, 5, RallyBy::StackedLeader));
        assert!(rallies(reg, 5, RallyBy::RallyPoint));
        assert!(!rallies(reg, 5, RallyBy::Die(1)));
    }

    #[test]
    fn case_13_54_crews_and_independents_rally_on_the_die() {
        let o = oob();
        let ind = unit(&o, "whites-c");
        assert!(rallies(ind, 2, RallyBy::Die(2)));
        assert!(!rallies(ind, 2, RallyBy::Die(3)));
        assert!(!rallies(ind, 2, RallyBy::RallyPoint));
        assert!(rallies(ind, 2, RallyBy::StackedLeader));
        let wagon = unit(&o, "supply-u");
        assert!(rallies(wagon, 4, RallyBy::Die(4)));
    }

    #[test]
    fn case_17_13_one_rally_point_per_regiment() {
        assert!(rally_points_enough(2, 2));
        assert!(!rally_points_enough(2, 3));
    }

    #[test]
    fn case_13_51_routed_units_stay_routed_until_rallied() {
        // Nothing but a rally removes the marker; unpinning leaves it.
        let mut m = BTreeSet::from([Marker::Rout]);
        unpin(&mut m);
        assert!(m.contains(&Marker::Rout));
    }
}
