//! Who stands where, as the rules ask it: occupants of a hex by side,
//! Zones of Control, the enemy units that may fire withdrawal fire.
//! Built from a state for one decision and thrown away.

use super::Gbacw;
use super::state::GbacwState;
use crate::gbacw::charts::WeaponKind;
use crate::gbacw::command::PathBlocks;
use crate::gbacw::facing::{ZocUse, can_fire_through, zoc_hexes};
use crate::gbacw::fire::{FireOccasion, may_fire};
use crate::gbacw::los::Los;
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::{CounterId, Formation, Unit, UnitKind, UnitStatus};
use crate::gbacw::stacking::{Overstack, check_hex};
use crate::gbacw::withdrawal::limbering_firers;
use std::collections::{BTreeMap, BTreeSet};

/// Corinth 23.2: whether `hex` is the inner side of a battery redan,
/// whose own stacking limits replace the terrain's (23.25, 23.27).
pub fn is_redan_hex(map: &Map, hex: HexNumber) -> bool {
    map.hexsides().any(|(side, features)| {
        side.touches(hex)
            && features.iter().any(|f| {
                matches!(f.kind, SideKind::RedanPrimary | SideKind::RedanSecondary)
                    && f.side == Some(hex)
            })
    })
}

/// A state seen through the scenario's fixed data.
pub(crate) struct Board<'a> {
    pub rs: &'a Gbacw,
    pub state: &'a GbacwState,
    /// Combat units on the map with their side, by hex, top first
    /// (8.41: the order set, else id order).
    units_at: BTreeMap<HexNumber, Vec<(&'a CounterId, &'a CounterId)>>,
    /// Leaders on the map, by hex, in id order.
    leaders_at: BTreeMap<HexNumber, Vec<&'a CounterId>>,
    /// Cedar Mountain 24.0: the brigades that have lost BCE, found when
    /// first asked (movement asks at every step).
    bce_lost: std::cell::OnceCell<std::collections::BTreeSet<CounterId>>,
}

impl<'a> Board<'a> {
    pub fn new(rs: &'a Gbacw, state: &'a GbacwState) -> Self {
        let mut units_at: BTreeMap<HexNumber, Vec<(&CounterId, &CounterId)>> = BTreeMap::new();
        for (id, u) in &state.units {
            if let Some(h) = u.hex {
                let side = &rs.game.oob.units[id].side;
                units_at.entry(h).or_default().push((id, side));
            }
        }
        // GBACW 8.41, 8.21: each hex's units top first (id order where no
        // order was set).
        for (h, units) in units_at.iter_mut() {
            super::stack_order::sort(state, *h, units, |(id, _)| id);
        }
        let mut leaders_at: BTreeMap<HexNumber, Vec<&CounterId>> = BTreeMap::new();
        for (id, l) in &state.leaders {
            if let Some(h) = l.hex {
                leaders_at.entry(h).or_default().push(id);
            }
        }
        Board {
            rs,
            state,
            units_at,
            leaders_at,
            bce_lost: std::cell::OnceCell::new(),
        }
    }

    /// Cedar Mountain 24.0: whether `unit`'s brigade has lost BCE and the
    /// battle plays 24.0 (as `bce_loss::broken`, remembered).
    pub fn bce_broken(&self, unit: &CounterId) -> bool {
        let lost = self
            .bce_lost
            .get_or_init(|| super::exclusive::bce_loss::broken_brigades(self.rs, self.state));
        match self.rs.game.oob.units.get(unit).map(|u| &u.command) {
            Some(crate::gbacw::oob::Command::Brigade(b)) => lost.contains(b),
            _ => false,
        }
    }

    pub fn map(&self) -> &'a Map {
        &self.rs.game.map
    }

    pub fn unit(&self, id: &CounterId) -> &'a Unit {
        &self.rs.game.oob.units[id]
    }

    pub fn status(&self, id: &CounterId) -> &'a UnitStatus {
        &self.state.units[id].status
    }

    /// The combat units of `side` in `hex`.
    pub fn units_of(&self, hex: HexNumber, side: &CounterId) -> Vec<&'a CounterId> {
        self.units_at
            .get(&hex)
            .into_iter()
            .flatten()
            .filter(|(_, s)| *s == side)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Whether `hex` holds a combat unit opposing `side`.
    pub fn has_enemy(&self, hex: HexNumber, side: &CounterId) -> bool {
        self.units_at
            .get(&hex)
            .is_some_and(|v| v.iter().any(|(_, s)| *s != side))
            // The battle's own rule here (hook `enemy_piece_in`).
            || self.rs.battle().enemy_piece_in(self.rs, self.state, hex, side)
    }

    /// The leaders of the side opposing `side` in `hex`.
    pub fn enemy_leaders_in(&self, hex: HexNumber, side: &CounterId) -> Vec<&'a CounterId> {
        self.leaders_at
            .get(&hex)
            .into_iter()
            .flatten()
            .copied()
            .filter(|id| &self.rs.game.oob.leaders[*id].side != side)
            .collect()
    }

    /// The leaders of `side` in `hex`.
    pub fn leaders_of(&self, hex: HexNumber, side: &CounterId) -> Vec<&'a CounterId> {
        self.leaders_at
            .get(&hex)
            .into_iter()
            .flatten()
            .copied()
            .filter(|id| &self.rs.game.oob.leaders[*id].side == side)
            .collect()
    }

    /// Every combat unit of the side opposing `side` that is on the map.
    pub fn enemy_units<'s>(
        &'s self,
        side: &'s CounterId,
    ) -> impl Iterator<Item = (&'a CounterId, HexNumber)> + 's {
        self.units_at.iter().flat_map(move |(hex, ids)| {
            ids.iter()
                .filter(move |(_, s)| *s != side)
                .map(move |(id, _)| (*id, *hex))
        })
    }

    /// The hexes in the ZOC of a unit, for `purpose` (10.0).
    pub fn zoc_of(&self, id: &CounterId, purpose: ZocUse) -> Vec<HexNumber> {
        let u = &self.state.units[id];
        match u.hex {
            Some(hex) => zoc_hexes(
                self.map(),
                hex,
                // The battle's own rule here (hook `facing_in`).
                self.rs.battle().facing_in(self.rs, hex, u.facing),
                u.status.formation,
                &u.status.markers,
                purpose,
            ),
            None => Vec::new(),
        }
    }

    /// The hexes in the ZOC of any unit opposing `side`.
    pub fn enemy_zoc(&self, side: &CounterId, purpose: ZocUse) -> BTreeSet<HexNumber> {
        self.enemy_units(side)
            .flat_map(|(id, _)| self.zoc_of(id, purpose))
            .collect()
    }

    /// GBACW 10.4, 13.53: what blocks a leader's radius for `side`.
    pub fn command_blocks(&self, side: &CounterId) -> PathBlocks {
        let mut blocks = PathBlocks::default();
        for (hex, ids) in &self.units_at {
            for (id, s) in ids {
                if *s == side {
                    blocks.friendly_units.insert(*hex);
                } else {
                    blocks.enemy_units.insert(*hex);
                    blocks
                        .enemy_zoc
                        .extend(self.zoc_of(id, ZocUse::SupplyAndCommand));
                }
            }
        }
        blocks
    }

    /// GBACW 10.1, 10.19, 6.24: the enemy units whose ZOC holds `hex` for
    /// a mover of `side` (mounted or not, 10.0) and who may fire withdrawal
    /// fire (9.21, 6.32, 9.84 ... : [`may_fire`]), each once.
    pub fn withdrawal_firers(
        &self,
        side: &CounterId,
        hex: HexNumber,
        mounted: bool,
    ) -> Vec<CounterId> {
        self.withdrawal_zocs(side, mounted)
            .remove(&hex)
            .unwrap_or_default()
    }

    /// [`Board::withdrawal_firers`] for every hex at once: the hexes in
    /// the ZOC of enemy units that may fire withdrawal fire, with them.
    pub fn withdrawal_zocs(
        &self,
        side: &CounterId,
        mounted: bool,
    ) -> BTreeMap<HexNumber, Vec<CounterId>> {
        let purpose = ZocUse::WithdrawalAndRetreat {
            mover_mounted: mounted,
        };
        let range = &self.rs.game.charts.range;
        let mut out: BTreeMap<HexNumber, Vec<CounterId>> = BTreeMap::new();
        for (id, _) in self.enemy_units(side) {
            // Cedar Mountain 21.2: no ammunition rules.
            let status =
                self.rs
                    .battle()
                    .fire_status(self.rs, &self.unit(id).kind, self.status(id));
            if may_fire(self.unit(id), &status, range, FireOccasion::Withdrawal).is_err() {
                continue;
            }
            for hex in self.zoc_of(id, purpose) {
                out.entry(hex).or_default().push(id.clone());
            }
        }
        out
    }

    /// GBACW 6.23: the enemy small-arms units (not wagon crews, 11.16) that
    /// have a battery of `side` in `hex` within range and line of sight,
    /// through a frontal hexside (7.22), and may fire.
    pub fn limbering_firers(&self, side: &CounterId, hex: HexNumber) -> Vec<CounterId> {
        let range = &self.rs.game.charts.range;
        let map = self.map();
        let candidates: Vec<(CounterId, HexNumber, u32)> = self
            .enemy_units(side)
            .filter_map(|(id, at)| {
                let unit = self.unit(id);
                let state = &self.state.units[id];
                let weapon = range.weapon(unit.weapon.as_deref()?)?;
                let small_arms = weapon.kind.value == WeaponKind::SmallArms;
                let wagon = matches!(unit.kind, UnitKind::Wagon { .. });
                let ok = small_arms
                    && !wagon
                    && may_fire(unit, &state.status, range, FireOccasion::Withdrawal).is_ok()
                    && can_fire_through(
                        &map.grid,
                        at,
                        // The battle's own rule here (hook `facing_in`).
                        self.rs.battle().facing_in(self.rs, at, state.facing),
                        state.status.formation,
                        hex,
                    );
                ok.then(|| (id.clone(), at, weapon.max_range()))
            })
            .collect();
        // Cedar Mountain 21.42, 21.43: standing corn blocks, blown down not.
        let sees = |from: HexNumber| {
            crate::gbacw::ruleset::sight::line_of_sight(self.rs, self.state, from, hex, |h| {
                self.unit_feet(h)
            }) == Los::Clear
        };
        limbering_firers(&map.grid, hex, &candidates, sees)
    }

    /// GBACW 9.72: how tall the units in a hex stand: mounted cavalry and
    /// wagons 10 ft, foot and guns 5 ft, nobody 0.
    pub fn unit_feet(&self, hex: HexNumber) -> u16 {
        self.units_at
            .get(&hex)
            .into_iter()
            .flatten()
            .map(|(id, _)| match self.status(id).formation {
                Formation::Mounted | Formation::Wagon => 10,
                _ => 5,
            })
            .max()
            .unwrap_or(0)
    }

    /// GBACW 8.1: whether `side`'s units in `hex` would keep to the hex's
    /// limits with `leaving` gone, `arriving` come and `reformed` in new
    /// formations.
    pub fn check_stack(
        &self,
        hex: HexNumber,
        side: &CounterId,
        leaving: &[&CounterId],
        arriving: &[&CounterId],
        reformed: Option<(&CounterId, Formation)>,
    ) -> Result<(), Overstack> {
        let mut ids: Vec<&CounterId> = self
            .units_of(hex, side)
            .into_iter()
            .filter(|id| !leaving.contains(id))
            .collect();
        for id in arriving {
            if !ids.contains(id) {
                ids.push(id);
            }
        }
        let statuses: Vec<(&Unit, UnitStatus)> = ids
            .iter()
            .map(|id| {
                let mut s = self.status(id).clone();
                if let Some((r, f)) = reformed
                    && r == *id
                {
                    s.formation = f;
                }
                (self.unit(id), s)
            })
            .collect();
        let pairs: Vec<(&Unit, &UnitStatus)> = statuses.iter().map(|(u, s)| (*u, s)).collect();
        let map = self.map();
        // The battle's own rule here (hook `terrain_now`).
        let terrain = self.rs.battle().terrain_now(self.rs, self.state, hex);
        let terrain = terrain.iter().flatten();
        check_hex(
            &self.rs.game.charts.stacking,
            terrain,
            is_redan_hex(map, hex),
            &pairs,
        )
    }
}
