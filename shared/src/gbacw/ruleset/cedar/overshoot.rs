//! Cedar Mountain 22.0–22.3: artillery overshoot. When batteries fire at a
//! target nine hexes or more away (`hook artillery-overshoot from-range=9`),
//! each rolls on the Overshoot Table by its own range (22.0 step 2): the
//! accurate ones fire together at the target as usual (step 3); each one
//! that scatters rolls on the Scatter Diagram and lands on one of the six
//! hexes round the target, firing at whatever combat units stand there,
//! enemy or friendly (step 4), ignoring line of sight and maximum range
//! (22.2); batteries landing in the same hex fire together.
//!
//! The table and diagram are printed on the map, which no seed holds: the
//! values are provisional, in `assets/gbacw/cedar_mountain/overshoot.toml`
//! (each with its reason; 22.0's example holds, and a test checks it).

use crate::gbacw::map::{Grid, HexNumber};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::attack::{Prepared, prepare, prepare_with};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState, PlannedFire};
use crate::gbacw::scenario::HookKind;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The provisional table and diagram (reviewed text).
pub const OVERSHOOT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/cedar_mountain/overshoot.toml"
));

const FORMAT: &str = "cedar-overshoot 1";

/// One row of the Overshoot Table: a range band and the dice that are
/// accurate in it (the others scatter).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub from: u32,
    /// Inclusive; `None`: and beyond.
    #[serde(default)]
    pub to: Option<u32>,
    pub accurate: Vec<u8>,
    pub why: String,
}

/// One die of the Scatter Diagram: where on the map sheet the fire lands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scatter {
    pub die: u8,
    /// `up`, `up-right`, `down-right`, `down`, `down-left`, `up-left`.
    pub toward: String,
    pub why: String,
}

/// Cedar Mountain 22.3: the Overshoot Table and the Scatter Diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OvershootTable {
    pub format: String,
    pub band: Vec<Band>,
    pub scatter: Vec<Scatter>,
}

/// The six directions of a flat-topped hex on the sheet, as the screen
/// eighths `retreat::screen_eighth` gives (0 right, 2 up, 4 left, 6 down).
const TOWARD: [(&str, i32); 6] = [
    ("up", 2),
    ("up-right", 1),
    ("down-right", 7),
    ("down", 6),
    ("down-left", 5),
    ("up-left", 3),
];

impl OvershootTable {
    /// Parse and check the table: its format, dice 1–6, bands in order,
    /// every die of the diagram once with a known direction.
    pub fn load(input: &str) -> Result<Self, TextError> {
        let t: OvershootTable = crate::gbacw::charts::source::from_toml(input, "overshoot table")?;
        let bad = |message: String| TextError {
            line: 0,
            column: 0,
            message,
        };
        if t.format != FORMAT {
            return Err(bad(format!("expected format {FORMAT:?}")));
        }
        if t.band.is_empty() {
            return Err(bad("the Overshoot Table has no band".into()));
        }
        for (k, b) in t.band.iter().enumerate() {
            if b.accurate.iter().any(|d| !(1..=6).contains(d)) {
                return Err(bad(format!("band from {}: dice are 1 to 6", b.from)));
            }
            if b.to.is_some_and(|to| to < b.from) {
                return Err(bad(format!("band from {}: `to` before `from`", b.from)));
            }
            if let Some(next) = t.band.get(k + 1)
                && b.to.is_none_or(|to| to + 1 != next.from)
            {
                return Err(bad(format!(
                    "band from {}: the next band must start right after it",
                    b.from
                )));
            }
        }
        for die in 1..=6u8 {
            let n = t.scatter.iter().filter(|s| s.die == die).count();
            if n != 1 {
                return Err(bad(format!(
                    "the Scatter Diagram gives die {die} {n} times"
                )));
            }
        }
        if let Some(s) = t
            .scatter
            .iter()
            .find(|s| !TOWARD.iter().any(|(w, _)| *w == s.toward))
        {
            return Err(bad(format!(
                "scatter die {}: unknown direction {:?}",
                s.die, s.toward
            )));
        }
        if t.scatter.len() != 6 {
            return Err(bad("the Scatter Diagram has six dice".into()));
        }
        Ok(t)
    }

    /// The first range that may overshoot.
    pub fn first_range(&self) -> u32 {
        self.band.first().map_or(u32::MAX, |b| b.from)
    }

    /// Whether a battery at `range` rolling `die` is accurate; below the
    /// first band, always.
    pub fn accurate(&self, range: u32, die: u8) -> bool {
        match self
            .band
            .iter()
            .find(|b| range >= b.from && b.to.is_none_or(|to| range <= to))
        {
            Some(b) => b.accurate.contains(&die),
            None => true,
        }
    }

    /// The hex next to `target` a scatter die of `die` lands in; `None`
    /// off the map (the fire is lost).
    pub fn lands(&self, grid: &Grid, target: HexNumber, die: u8) -> Option<HexNumber> {
        let toward = &self.scatter.iter().find(|s| s.die == die)?.toward;
        let eighth = TOWARD.iter().find(|(w, _)| w == toward)?.1;
        grid.neighbours_on_map(target)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| {
                crate::gbacw::ruleset::combat::retreat_limits::screen_eighth(grid, target, *h)
                    == Some(eighth)
            })
    }
}

/// The ruleset's table when the battle plays overshoot; the hook's
/// `from-range=` must agree with the table's first band.
pub(crate) fn load_for(
    scenario: &crate::gbacw::scenario::Scenario,
) -> Result<Option<OvershootTable>, String> {
    let Some(hook) = scenario.hook(HookKind::ArtilleryOvershoot) else {
        return Ok(None);
    };
    let t = OvershootTable::load(OVERSHOOT).map_err(|e| format!("overshoot.toml: {e}"))?;
    if let Some(from) = hook.number("from-range")
        && u32::from(from) != t.first_range()
    {
        return Err(format!(
            "overshoot.toml starts at range {}, the scenario's hook at {from}",
            t.first_range()
        ));
    }
    Ok(Some(t))
}

/// Cedar Mountain 22.0: the attacks one planned artillery attack comes to,
/// with its overshoot dice drawn and shown (`OvershootRolled`); `None`
/// when overshoot does not apply (no rule, small arms, every battery
/// closer than the first band): the attack is prepared as usual.
pub(crate) fn split(
    rs: &Gbacw,
    table: Option<&OvershootTable>,
    state: &GbacwState,
    plan: &PlannedFire,
    u: &mut Unfold,
    roll: &mut Roller,
) -> Option<Vec<Prepared>> {
    let table = table?;
    if !plan.artillery {
        return None;
    }
    let grid = &rs.game.map.grid;
    let range_of = |f: &FireShare| {
        state
            .units
            .get(&f.unit)
            .and_then(|x| x.hex)
            .map(|h| grid.distance(h, plan.target))
    };
    if !plan
        .firers
        .iter()
        .any(|f| range_of(f).is_some_and(|r| r >= table.first_range()))
    {
        return None;
    }
    let mut accurate: Vec<FireShare> = Vec::new();
    let mut scattered: BTreeMap<HexNumber, Vec<FireShare>> = BTreeMap::new();
    for f in &plan.firers {
        let Some(range) = range_of(f) else { continue };
        if range < table.first_range() {
            accurate.push(f.clone());
            continue;
        }
        let die = roll.d6();
        let hit = table.accurate(range, die);
        let (scatter_die, lands) = if hit {
            accurate.push(f.clone());
            (None, None)
        } else {
            let d = roll.d6();
            let lands = table.lands(grid, plan.target, d);
            if let Some(h) = lands {
                scattered.entry(h).or_default().push(f.clone());
            }
            (Some(d), lands)
        };
        u.push(GbacwEvent::OvershootRolled {
            battery: f.unit.clone(),
            target: plan.target,
            range: u8::try_from(range).unwrap_or(u8::MAX),
            die,
            accurate: hit,
            scatter_die,
            lands,
        });
    }
    let mut out = Vec::new();
    if !accurate.is_empty()
        && let Ok(p) = prepare(rs, state, plan.target, &accurate, None, None)
    {
        out.push(p);
    }
    let board = Board::new(rs, state);
    for (hex, shares) in scattered {
        // 22.0 step 4: whoever stands there, enemy or friendly.
        let there: Vec<_> = rs
            .game
            .seats
            .iter()
            .flat_map(|side| board.units_of(hex, side))
            .cloned()
            .collect();
        if there.is_empty() {
            continue;
        }
        // 22.2: line of sight and maximum range do not matter.
        if let Ok(p) = prepare_with(rs, state, hex, &shares, Some(&there), None, true) {
            out.push(p);
        }
    }
    Some(out)
}
