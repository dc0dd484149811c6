//! GBACW 10.0: Zones of Control.

use super::hexsides::{Facing, frontal_directions};
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::{Formation, Marker};
use std::collections::BTreeSet;

/// What a ZOC is being asked about; the rules give different units a ZOC
/// for different purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZocUse {
    /// Withdrawal and retreat fire (10.1, 10.2), for a unit that is or is
    /// not mounted cavalry.
    WithdrawalAndRetreat { mover_mounted: bool },
    /// Supply paths and leaders' radii (10.3, 10.4, 11.23, 13.53).
    SupplyAndCommand,
}

/// GBACW 10.0: whether a unit in `formation` with `markers` has a ZOC for
/// `purpose`.
/// - Line infantry, dismounted cavalry, unlimbered guns: yes.
/// - Mounted cavalry: for withdrawal and retreat of mounted cavalry only,
///   and for supply and command (10.0, 16.31).
/// - Column, limbered guns, wagons (and leaders, who are not units): no.
/// - Routed (13.32) and engaged (12.94) units: no.
/// - Out of ammunition: for supply and leadership paths only (11.22).
pub fn exerts_zoc(formation: Formation, markers: &BTreeSet<Marker>, purpose: ZocUse) -> bool {
    if markers.contains(&Marker::Rout) || markers.contains(&Marker::Engaged) {
        return false;
    }
    let depleted = markers.contains(&Marker::AmmoDepleted);
    match (formation, purpose) {
        (Formation::Column | Formation::Limbered | Formation::Wagon, _) => false,
        (_, ZocUse::SupplyAndCommand) => true,
        (_, ZocUse::WithdrawalAndRetreat { .. }) if depleted => false,
        (Formation::Mounted, ZocUse::WithdrawalAndRetreat { mover_mounted }) => mover_mounted,
        (_, ZocUse::WithdrawalAndRetreat { .. }) => true,
    }
}

/// GBACW 10.0/10.5: the hexes a unit at `hex` holds in its ZOC: the
/// three frontal neighbours (all six for mounted cavalry), on the map,
/// not across an impassable (all-lake) hexside.
pub fn zoc_hexes(
    map: &Map,
    hex: HexNumber,
    facing: Facing,
    formation: Formation,
    markers: &BTreeSet<Marker>,
    purpose: ZocUse,
) -> Vec<HexNumber> {
    if !exerts_zoc(formation, markers, purpose) {
        return Vec::new();
    }
    let directions = match formation {
        Formation::Mounted => hexx::EdgeDirection::ALL_DIRECTIONS.to_vec(),
        _ => frontal_directions(facing, formation),
    };
    let mut out: Vec<HexNumber> = directions
        .into_iter()
        .filter_map(|d| map.grid.neighbour(hex, d))
        .filter(|m| map.grid.contains(*m))
        .filter(|m| {
            map.grid
                .hexside(hex, *m)
                .is_some_and(|s| !map.side_has(s, SideKind::Lake))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::map::parse_map;
    use hexx::EdgeDirection;

    fn n(s: &str) -> HexNumber {
        HexNumber::parse(s).unwrap()
    }

    fn map() -> Map {
        parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap()
    }

    fn none() -> BTreeSet<Marker> {
        BTreeSet::new()
    }

    #[test]
    fn case_10_0_line_zoc_is_the_three_frontal_hexes() {
        let m = map();
        let f = Facing::new(EdgeDirection::FLAT_TOP);
        let wr = ZocUse::WithdrawalAndRetreat {
            mover_mounted: false,
        };
        // 0505 (odd column) facing north: 0504 ahead, 0404 and 0604 beside it.
        assert_eq!(
            zoc_hexes(&m, n("0505"), f, Formation::Line, &none(), wr),
            [n("0404"), n("0504"), n("0604")]
        );
        assert!(zoc_hexes(&m, n("0505"), f, Formation::Column, &none(), wr).is_empty());
        assert!(zoc_hexes(&m, n("0505"), f, Formation::Wagon, &none(), wr).is_empty());
        // Mounted cavalry: all six, but only against mounted movers.
        assert!(zoc_hexes(&m, n("0505"), f, Formation::Mounted, &none(), wr).is_empty());
        let mounted = ZocUse::WithdrawalAndRetreat {
            mover_mounted: true,
        };
        assert_eq!(
            zoc_hexes(&m, n("0505"), f, Formation::Mounted, &none(), mounted).len(),
            6
        );
    }

    #[test]
    fn case_16_31_mounted_cavalry_zoc_counts_for_supply_and_command() {
        assert!(exerts_zoc(
            Formation::Mounted,
            &none(),
            ZocUse::SupplyAndCommand
        ));
    }

    #[test]
    fn case_13_32_routed_units_have_no_zoc() {
        let routed = BTreeSet::from([Marker::Rout]);
        assert!(!exerts_zoc(
            Formation::Line,
            &routed,
            ZocUse::SupplyAndCommand
        ));
    }

    #[test]
    fn case_11_22_depleted_units_keep_zoc_for_paths_only() {
        let depleted = BTreeSet::from([Marker::AmmoDepleted]);
        assert!(exerts_zoc(
            Formation::Line,
            &depleted,
            ZocUse::SupplyAndCommand
        ));
        assert!(!exerts_zoc(
            Formation::Line,
            &depleted,
            ZocUse::WithdrawalAndRetreat {
                mover_mounted: false
            }
        ));
    }

    #[test]
    fn case_10_5_zoc_does_not_cross_impassable_hexsides() {
        let m = map();
        // 1002/1003 is an all-lake hexside: a unit in 1003 facing north
        // projects no ZOC into 1002.
        let f = Facing::new(EdgeDirection::FLAT_TOP);
        let z = zoc_hexes(
            &m,
            n("1003"),
            f,
            Formation::Line,
            &none(),
            ZocUse::SupplyAndCommand,
        );
        assert!(!z.contains(&n("1002")), "{z:?}");
        assert_eq!(z.len(), 2);
    }
}
