//! GBACW 5.19: the Terrain Effects on Movement Chart — Movement
//! Allowances, the cost to enter each terrain, the extra cost of crossing
//! hexsides, road-like paths and formation changes. The printed chart is
//! not in the seeds; the values live in `charts.toml`.

use super::rows::{RawRow, RawTable, row, table};
use super::source::{Cell, Mp, Sourced};
use crate::gbacw::map::Terrain;
use crate::gbacw::names::named_enum;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

named_enum! {
    /// How a unit moves, which picks the chart column: GBACW 5.15 makes
    /// cost depend on terrain and formation.
    pub enum MoveClass {
        /// Infantry in Line, dismounted cavalry, lone gun crews (6.12, 6.13, 6.14).
        Line = "line",
        /// Infantry in Column (6.11).
        Column = "column",
        /// Mounted cavalry (6.14).
        Mounted = "mounted",
        /// Limbered artillery (6.13).
        Limbered = "limbered",
        /// Supply wagons (11.1).
        Wagon = "wagon",
        /// Leaders alone (5.0: "each type of unit and leader").
        Leader = "leader",
    }
}

named_enum! {
    /// The hexside rows of the chart; crests split by direction of travel
    /// (Corinth 23.6: extra going up, some units also going down).
    pub enum SideRow {
        Stream = "stream",
        Run = "run",
        Ford = "ford",
        CrestUp = "crest-up",
        CrestDown = "crest-down",
        SteepCrestUp = "steep-crest-up",
        SteepCrestDown = "steep-crest-down",
        StoneWall = "stone-wall",
        Works = "works",
        Redan = "redan",
        Lake = "lake",
    }
}

named_enum! {
    /// Features a unit can move along, paying their cost instead of the
    /// hex's terrain (GBACW 6.11; Cedar Mountain 21.31).
    pub enum PathKind {
        Road = "road",
        Pike = "pike",
        Trail = "trail",
        Railroad = "railroad",
    }
}

named_enum! {
    /// GBACW 6.0/6.22: formation changes and their chart column.
    pub enum FormationChange {
        ToColumn = "to-column",
        ToLine = "to-line",
        Limber = "limber",
        Unlimber = "unlimber",
        Mount = "mount",
        Dismount = "dismount",
    }
}

/// The cost of entering a hex or crossing a hexside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cost {
    Mp(Mp),
    /// Written `"P"`: the unit may not enter or cross (e.g. Corinth 23.5,
    /// batteries in swamp).
    Prohibited,
}

fn cost(c: &Cell) -> Option<Cost> {
    match c {
        Cell::Word(w) if w == "P" => Some(Cost::Prohibited),
        _ => c.mp().map(Cost::Mp),
    }
}

/// A path cost, or `"-"`: this class does not benefit (GBACW 6.12: Line
/// infantry disregards roads, pikes and bridges).
fn path_cost(c: &Cell) -> Option<Option<Mp>> {
    match c {
        Cell::Word(w) if w == "-" => Some(None),
        _ => c.mp().map(Some),
    }
}

/// The Terrain Effects on Movement Chart as loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovementChart {
    /// GBACW 5.0: Movement Allowance per class.
    pub allowance: BTreeMap<MoveClass, Sourced<Mp>>,
    /// GBACW 5.15: cost to enter a hex of each terrain.
    pub terrain: BTreeMap<Terrain, BTreeMap<MoveClass, Sourced<Cost>>>,
    /// Extra cost to cross a hexside, on top of the hex entered.
    pub hexside: BTreeMap<SideRow, BTreeMap<MoveClass, Sourced<Cost>>>,
    /// Cost per hex moved along a path; `None` = not usable by that class.
    pub path: BTreeMap<PathKind, BTreeMap<MoveClass, Sourced<Option<Mp>>>>,
    /// GBACW 6.22: Movement Points to change formation.
    pub formation: BTreeMap<FormationChange, Sourced<Mp>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMovement {
    allowance: RawRow,
    terrain: RawTable,
    hexside: RawTable,
    path: RawTable,
    formation: RawRow,
}

const MP: &str = "a number of Movement Points (whole or .5)";
const MP_OR_P: &str = "Movement Points (whole or .5) or \"P\" (prohibited)";
const MP_OR_DASH: &str = "Movement Points (whole or .5) or \"-\" (not usable)";

impl MovementChart {
    pub(super) fn read(input: &str, raw: RawMovement) -> Result<Self, TextError> {
        let chart = MovementChart {
            allowance: row(input, raw.allowance, "unit class", MP, Cell::mp)?,
            terrain: table(input, raw.terrain, "terrain", "unit class", MP_OR_P, cost)?,
            hexside: table(
                input,
                raw.hexside,
                "hexside row",
                "unit class",
                MP_OR_P,
                cost,
            )?,
            path: table(input, raw.path, "path", "unit class", MP_OR_DASH, path_cost)?,
            formation: row(input, raw.formation, "formation change", MP, Cell::mp)?,
        };
        Ok(chart)
    }

    /// GBACW 5.0: the class's Movement Allowance.
    pub fn allowance(&self, class: MoveClass) -> Mp {
        self.allowance.get(&class).map_or(Mp::ZERO, |s| s.value)
    }

    /// GBACW 5.15: the cost to enter a hex holding all of `terrain`: the
    /// dearest of them, and prohibited if any one is.
    pub fn enter_cost<'a>(
        &self,
        class: MoveClass,
        terrain: impl IntoIterator<Item = &'a Terrain>,
    ) -> Cost {
        let mut worst = Cost::Mp(Mp::ZERO);
        for t in terrain {
            match self
                .terrain
                .get(t)
                .and_then(|r| r.get(&class))
                .map(|s| s.value)
            {
                Some(Cost::Mp(mp)) => {
                    if let Cost::Mp(w) = worst {
                        worst = Cost::Mp(w.max(mp));
                    }
                }
                Some(Cost::Prohibited) | None => return Cost::Prohibited,
            }
        }
        worst
    }

    /// The extra cost of crossing one kind of hexside.
    pub fn side_cost(&self, class: MoveClass, side: SideRow) -> Cost {
        self.hexside
            .get(&side)
            .and_then(|r| r.get(&class))
            .map_or(Cost::Prohibited, |s| s.value)
    }

    /// The cost per hex along a path, if the class may use it.
    pub fn path_cost(&self, class: MoveClass, path: PathKind) -> Option<Mp> {
        self.path.get(&path)?.get(&class)?.value
    }

    pub fn formation_cost(&self, change: FormationChange) -> Mp {
        self.formation.get(&change).map_or(Mp::ZERO, |s| s.value)
    }
}
