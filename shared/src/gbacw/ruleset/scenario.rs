//! A shipped battle made ready to play: its map, order of battle and
//! scenario ([`crate::gbacw::battles`], embedded in the binary so a server
//! needs no files), the charts, the sequence of play, which side each seat
//! plays, and where every counter starts.

use super::board::is_redan_hex;
use crate::gbacw::battles::{self, Battle, BattleFiles};
use crate::gbacw::charts::{Charts, Cost, MoveClass};
use crate::gbacw::facing::Facing;
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::oob::{CounterId, Formation, Oob, Unit, UnitStatus};
use crate::gbacw::scenario::{Place, Scenario};
use crate::gbacw::sequence::SequenceSpec;
use crate::gbacw::stacking::check_hex;
use std::collections::BTreeMap;

/// The mapsheet charts every battle uses (provisional values marked in the file).
pub const CHARTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/charts.toml"
));

/// Where one unit starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitStart {
    pub hex: HexNumber,
    pub facing: Facing,
    pub formation: Formation,
}

/// A battle ready to play.
#[derive(Clone, Debug)]
pub struct Game {
    pub map: Map,
    pub oob: Oob,
    pub scenario: Scenario,
    pub charts: Charts,
    pub sequence: SequenceSpec,
    /// Side ids by seat: `seats[0]` is seat 0's side (the scenario's first
    /// `side` line).
    pub seats: [CounterId; 2],
    /// The side of the First Player-Turn (4.0).
    pub first: CounterId,
    /// Units on the map at the start; the others are not on it (they
    /// arrive later, or their player places them in the set-up step:
    /// Cedar Mountain 26.2, `decide/setup.rs`).
    pub units: BTreeMap<CounterId, UnitStart>,
    /// Leaders on the map at the start (the same).
    pub leaders: BTreeMap<CounterId, HexNumber>,
}

impl Game {
    /// Load the shipped battle `name` and its fixed set-up. `Err` says why
    /// in words: an unknown battle, a file that does not parse, or a set-up
    /// this engine cannot start yet.
    pub fn load(name: &str) -> Result<Game, String> {
        let files = battles::BATTLES
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| {
                format!(
                    "there is no battle {name:?} (shipped: {})",
                    battles::BATTLES
                        .iter()
                        .map(|b| b.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        Game::from_files(files)
    }

    /// [`Game::load`] from a battle's three texts.
    pub fn from_files(files: &BattleFiles) -> Result<Game, String> {
        let name = files.name;
        let charts = Charts::load(CHARTS).map_err(|e| format!("charts.toml: {e}"))?;
        let Battle { map, oob, scenario } =
            battles::load_files(files, &charts.range).map_err(|e| e.to_string())?;
        let [a, b] = scenario.sides.as_slice() else {
            return Err(format!("{name}: a battle has two sides"));
        };
        let seats = [a.id.clone(), b.id.clone()];
        let first = scenario
            .first_player
            .clone()
            .ok_or_else(|| format!("{name}: no first player"))?;
        let turns = scenario.length.as_ref().map_or(1, |l| l.turns);
        let mut units = BTreeMap::new();
        let mut leaders = BTreeMap::new();
        for s in &scenario.setup {
            let hex = match s.place {
                Place::Hex(h) => h,
                Place::Pool => continue,
                // Cedar Mountain 26.2: placed by the player in the set-up
                // step (`decide/setup.rs`).
                Place::Area(_) | Place::WithCommand => continue,
            };
            let facing = match &s.facing {
                Some(w) => Facing::from_name(map.grid.orientation, w)
                    .ok_or_else(|| format!("{name}: no facing `{w}`"))?,
                None => Facing::new(hexx::EdgeDirection::FLAT_TOP),
            };
            for id in &s.units {
                if oob.leaders.contains_key(id) {
                    leaders.insert(id.clone(), hex);
                    continue;
                }
                let unit = &oob.units[id];
                if s.facing.is_none() {
                    return Err(format!("{name}: {id} sets up with no facing (7.0)"));
                }
                let formation = s
                    .formation
                    .unwrap_or_else(|| UnitStatus::fresh(unit).formation);
                units.insert(
                    id.clone(),
                    UnitStart {
                        hex,
                        facing,
                        formation,
                    },
                );
            }
        }
        let game = Game {
            map,
            oob,
            scenario,
            charts,
            sequence: SequenceSpec::standard(turns),
            seats,
            first,
            units,
            leaders,
        };
        game.check_start().map_err(|e| format!("{name}: {e}"))?;
        Ok(game)
    }

    /// The set-up as the rules allow it: no hex holds both sides' counters
    /// (5.12), every stack keeps to its limits (8.1), no unit stands where
    /// the chart closes the terrain to it (5.19).
    fn check_start(&self) -> Result<(), String> {
        let mut by_hex: BTreeMap<HexNumber, Vec<&CounterId>> = BTreeMap::new();
        for (id, u) in &self.units {
            by_hex.entry(u.hex).or_default().push(id);
            let class = u.formation.move_class().unwrap_or(MoveClass::Limbered);
            let terrain = &self.map.hex(u.hex).ok_or("off the map")?.terrain;
            if self.charts.movement.enter_cost(class, terrain) == Cost::Prohibited {
                return Err(format!("{id} may not stand in {} (5.19)", u.hex));
            }
        }
        for (hex, ids) in &by_hex {
            let side = &self.oob.units[ids[0]].side;
            if ids.iter().any(|id| self.oob.units[*id].side != *side) {
                return Err(format!("both sides have units in {hex} (5.12)"));
            }
            let statuses: Vec<(&Unit, UnitStatus)> = ids
                .iter()
                .map(|id| {
                    let unit = &self.oob.units[*id];
                    let mut s = UnitStatus::fresh(unit);
                    s.formation = self.units[*id].formation;
                    (unit, s)
                })
                .collect();
            let pairs: Vec<_> = statuses.iter().map(|(u, s)| (*u, s)).collect();
            let terrain = &self.map.hex(*hex).ok_or("off the map")?.terrain;
            check_hex(
                &self.charts.stacking,
                terrain,
                is_redan_hex(&self.map, *hex),
                &pairs,
            )
            .map_err(|o| format!("{hex} is over its stacking limits ({})", o.rule()))?;
        }
        for (id, hex) in &self.leaders {
            let side = &self.oob.leaders[id].side;
            if by_hex
                .get(hex)
                .is_some_and(|ids| ids.iter().any(|u| self.oob.units[*u].side != *side))
            {
                return Err(format!("{id} starts in {hex} among enemy units (5.12)"));
            }
        }
        Ok(())
    }
}
