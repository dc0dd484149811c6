//! Named options for the edition differences the rule functions decide
//! (`shared/rules/gbacw/differences.md`, listed with the others in
//! docs/gbacw-notes.md). Every default is the 004 reading, which wins.

use crate::gbacw::ammo::{ResupplyRequest, resupply, wagon_may_move};
use crate::gbacw::oob::{CounterId, Crew, Marker, UnitStatus};
use crate::gbacw::tables::ElephantTable;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleOptions {
    /// differences.md #7, GBACW 11.1: 004 adds "nor may it move (in any
    /// Phase)" for an uncrewed wagon; 001 is silent, read as: it may move.
    pub uncrewed_wagons_move: bool,
    /// differences.md #8, GBACW 11.23: 004 resupplies "a unit", 001 "a
    /// small-arms unit". With `false` batteries are refilled only by
    /// transfers (11.33).
    pub batteries_resupply: bool,
    /// differences.md #11, GBACW 13.15: a 2d6 roll of 12 gives morale 4 in
    /// 004 and 1 in 001.
    pub elephant_twelve_is_one: bool,
    /// GBACW 9.51, an ambiguity rather than an edition difference: whether
    /// the two-column cap holds terrain shifts only (`true`), with density
    /// and enfilade added after it, or the net of every shift (`false`,
    /// the engine's reading: 9.51's own example nets a rightward shift,
    /// which only density or enfilade can give, against terrain).
    pub cap_terrain_only: bool,
    /// GBACW 13.33 against 12.92, an ambiguity rather than an edition
    /// difference: a routed unit given a melee "R" result without losses
    /// retreats, then checks morale and routs again only if it fails
    /// (`false`, the default: 12.92 "At the end of the retreat, the owning
    /// Player conducts a morale check"), or routs again without a check
    /// (`true`: 13.33's "second rout result (e.g., from a P/R result on
    /// the Fire CRT)" read as any result that calls for a check).
    pub routed_melee_reroutes: bool,
    /// GBACW 15.13, an ambiguity both printings share: "the current fire
    /// strength of the battery is halved (round fractions up)". `false`
    /// (the default): the guns, before range (9.45's "Current Strength",
    /// "not the Final Fire Strength"); `true`: the strength after range.
    pub half_crew_halves_final: bool,
    /// Cedar Mountain 27.22, an ambiguity of the text: "having been the
    /// last player to have actually occupied the hex with a combat unit".
    /// `false` (the default, the literal reading): a unit in the hex at any
    /// step of an action occupies it, so passing through takes control;
    /// `true`: only where units stand when an action is done (a move's end,
    /// a retreat's last hex), the usual sense of "occupy".
    pub vp_hex_where_units_stand: bool,
    /// GBACW 10.19 against 9.41, an ambiguity both printings share: "When
    /// a unit triggers withdrawal fire, it may be fired on once by every
    /// eligible Enemy unit." `false` (the default): the chosen firers
    /// combine into one attack, one die (9.41: "units firing from
    /// different hexes at the same Enemy hex must combine their Fire
    /// Strength into one total"); `true`: each firer is a shot of its own
    /// at its own strength, with its own die, applied in the order named.
    pub withdrawal_fire_separate: bool,
    /// Corinth 22.1 (and 22.2's enfilade hex), an ambiguity of the text:
    /// whether mounted cavalry checking to retreat before melee is
    /// enfiladed by an attacker in any hex but its one frontal hex
    /// (`false`, the default: "an attacking unit(s) occupies the enfilade
    /// hex(es) of the defending unit") or always (`true`: GBACW 7.0 and
    /// 16.35, "always enfiladed when fired upon", read into the check).
    pub mounted_always_enfiladed: bool,
    /// GBACW 8.0, a silence of both printings: "stacking restrictions
    /// apply only at the end of a Movement or Combat Phase", and nothing
    /// says what becomes of a stack that enemy fire pinned (9.84) over its
    /// limits before it could be mended. `false` (the default): a move may
    /// not stop over the limits where that fire could reach the stack (an
    /// enemy Zone of Control), so it never happens; `true`: the stop
    /// stands, and the phase's end displaces the units that entered such a
    /// stack until it fits (8.15, 14.3).
    pub overstack_displaced: bool,
    /// GBACW 14.3 against 14.4, an ambiguity both printings share: where a
    /// unit displaced by a friend's retreat goes. `false` (the default):
    /// 14.3 binds, "The retreat must be onto a vacant hex if possible",
    /// even a vacant hex back toward the enemy (14.4's "should attempt to
    /// follow ... away from Enemy" is advice); `true`: 14.4's direction
    /// first, no step nearer the enemy while a hex away from him is open,
    /// onto friends if need be, who are displaced in turn (14.3's "chain
    /// reaction").
    pub displace_away_from_enemy: bool,
}

impl Default for RuleOptions {
    /// The 004 readings.
    fn default() -> Self {
        RuleOptions {
            uncrewed_wagons_move: false,
            batteries_resupply: true,
            elephant_twelve_is_one: false,
            cap_terrain_only: false,
            routed_melee_reroutes: false,
            half_crew_halves_final: false,
            vp_hex_where_units_stand: false,
            withdrawal_fire_separate: false,
            mounted_always_enfiladed: false,
            overstack_displaced: false,
            displace_away_from_enemy: false,
        }
    }
}

/// GBACW 11.1 under the options: a pinned wagon never moves; an uncrewed
/// one only under 001's reading.
pub fn wagon_moves(status: &UnitStatus, o: RuleOptions) -> bool {
    if o.uncrewed_wagons_move && status.crew == Crew::None {
        return !status.markers.contains(&Marker::Pin);
    }
    wagon_may_move(status)
}

/// GBACW 11.23 under the options: [`resupply`], refusing batteries under
/// 001's reading.
pub fn resupply_with(
    o: RuleOptions,
    wagon: &mut UnitStatus,
    wagon_moved: bool,
    requests: &[ResupplyRequest],
    units: &mut BTreeMap<CounterId, UnitStatus>,
) -> Result<Vec<(CounterId, u16)>, (CounterId, &'static str)> {
    if !o.batteries_resupply
        && let Some(r) = requests.iter().find(|r| r.battery)
    {
        return Err((r.unit.clone(), "GBACW 11.23"));
    }
    resupply(wagon, wagon_moved, requests, units)
}

/// GBACW 13.14, 13.15 under the options: a green unit's rating for a 2d6
/// total.
pub fn elephant_rating(table: &ElephantTable, two_dice: u8, o: RuleOptions) -> Option<u8> {
    if o.elephant_twelve_is_one && two_dice == 12 {
        return Some(1);
    }
    table.morale(two_dice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::oob::Formation;
    use crate::gbacw::testkit::{id, world};

    const OLD: RuleOptions = RuleOptions {
        uncrewed_wagons_move: true,
        batteries_resupply: false,
        elephant_twelve_is_one: true,
        cap_terrain_only: false,
        routed_melee_reroutes: false,
        half_crew_halves_final: false,
        vp_hex_where_units_stand: false,
        withdrawal_fire_separate: false,
        mounted_always_enfiladed: false,
        overstack_displaced: false,
        displace_away_from_enemy: false,
    };

    #[test]
    fn case_11_1_uncrewed_wagon_movement_by_edition() {
        let w = world();
        let mut s = w.status("supply-u", Formation::Wagon);
        s.crew = Crew::None;
        assert!(!wagon_moves(&s, RuleOptions::default()));
        assert!(wagon_moves(&s, OLD));
        s.markers.insert(Marker::Pin);
        assert!(!wagon_moves(&s, OLD));
    }

    #[test]
    fn case_11_23_batteries_resupplied_only_under_004() {
        let w = world();
        let req = [ResupplyRequest {
            unit: id("4-me"),
            battery: true,
            rounds_wanted: 2,
            path: true,
            moved: false,
        }];
        let fresh = || BTreeMap::from([(id("4-me"), w.status("4-me", Formation::Unlimbered))]);
        let mut wagon = w.status("supply-u", Formation::Wagon);
        assert_eq!(
            resupply_with(
                RuleOptions::default(),
                &mut wagon,
                false,
                &req,
                &mut fresh()
            ),
            Ok(vec![(id("4-me"), 2)])
        );
        assert_eq!(
            resupply_with(OLD, &mut wagon, false, &req, &mut fresh()),
            Err((id("4-me"), "GBACW 11.23"))
        );
    }

    #[test]
    fn case_13_15_roll_of_twelve_by_edition() {
        let w = world();
        let t = &w.tables.elephant;
        assert_eq!(elephant_rating(t, 12, RuleOptions::default()), Some(4));
        assert_eq!(elephant_rating(t, 12, OLD), Some(1));
        assert_eq!(elephant_rating(t, 11, OLD), Some(5));
        assert_eq!(elephant_rating(t, 13, RuleOptions::default()), None);
    }
}
