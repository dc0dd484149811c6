//! Scenarios: which map, order of battle and charts a table plays with,
//! how long, who goes first, and where every counter starts. All of it is
//! embedded in the binary from `assets/gbacw/`, so a server runs with no
//! files beside it.
//!
//! The set-up is a plain-text file, one line per counter:
//!
//! ```text
//! gbacw-scenario 1
//! name "Test battle"
//! map test                  # assets/gbacw/maps/test.map
//! oob test                  # assets/gbacw/oob/test.oob
//! turns 8                   # Game-Turns (4.0)
//! first union               # the side of the First Player-Turn
//! seats union confederate   # seat 1, seat 2
//! leader crawford 0305
//! unit 5-conn 0305 facing=ne formation=line
//! ```
//!
//! Errors name line and column, like the map and order-of-battle formats.

use crate::gbacw::charts::{Charts, Cost, MoveClass};
use crate::gbacw::facing::Facing;
use crate::gbacw::map::{HexNumber, Map, Orientation, parse_map};
use crate::gbacw::oob::{CounterId, Formation, Oob, UnitStatus, parse_oob};
use crate::gbacw::sequence::SequenceSpec;
use crate::gbacw::stacking::check_hex;
use crate::gbacw::text::{self, TextError, Token};
use std::collections::BTreeMap;

/// The mapsheet charts every scenario uses (provisional values marked in the file).
pub const CHARTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/charts.toml"
));

/// Maps by the name a scenario file gives them.
const MAPS: &[(&str, &str)] = &[(
    "test",
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/gbacw/maps/test.map"
    )),
)];

/// Orders of battle by name.
const OOBS: &[(&str, &str)] = &[(
    "test",
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/gbacw/oob/test.oob"
    )),
)];

/// Scenarios by the name a table's config chooses.
pub const SCENARIOS: &[(&str, &str)] = &[(
    "test",
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/gbacw/scenarios/test.scenario"
    )),
)];

/// Largest scenario file accepted.
pub const MAX_SCENARIO_BYTES: usize = 256 * 1024;

const FORMAT: &str = "gbacw-scenario 1";

/// Where one unit starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSetup {
    pub hex: HexNumber,
    pub facing: Facing,
    pub formation: Formation,
}

/// A scenario with all its data loaded and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub map: Map,
    pub oob: Oob,
    pub charts: Charts,
    pub sequence: SequenceSpec,
    /// Side ids by seat: `seats[0]` is seat 0's side.
    pub seats: [CounterId; 2],
    /// The side of the First Player-Turn (4.0).
    pub first: CounterId,
    pub units: BTreeMap<CounterId, UnitSetup>,
    pub leaders: BTreeMap<CounterId, HexNumber>,
}

/// Why a scenario did not load: which file, and where in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {error}")]
pub struct ScenarioError {
    pub file: String,
    pub error: TextError,
}

fn embedded<'a>(table: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    table.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The names of the embedded scenarios, for a table-creation menu.
pub fn scenario_names() -> impl Iterator<Item = &'static str> {
    SCENARIOS.iter().map(|(n, _)| *n)
}

impl Scenario {
    /// Load the embedded scenario `name`.
    pub fn embedded(name: &str) -> Result<Scenario, ScenarioError> {
        let text = embedded(SCENARIOS, name).ok_or_else(|| ScenarioError {
            file: "config".into(),
            error: TextError::line(
                0,
                format!(
                    "there is no scenario {name:?} (known: {})",
                    scenario_names().collect::<Vec<_>>().join(", ")
                ),
            ),
        })?;
        Scenario::parse(&format!("scenarios/{name}.scenario"), text)
    }

    /// Parse a scenario file; the map and order of battle it names must be
    /// embedded ones.
    pub fn parse(file: &str, input: &str) -> Result<Scenario, ScenarioError> {
        let at = |f: &str| {
            let f = f.to_string();
            move |error| ScenarioError { file: f, error }
        };
        let charts = Charts::load(CHARTS).map_err(at("charts.toml"))?;
        let header = Header::read(input).map_err(at(file))?;
        let map_text = embedded(MAPS, header.map.1).ok_or_else(|| {
            at(file)(TextError::at(
                &header.map.0,
                format!("there is no embedded map {:?}", header.map.1),
            ))
        })?;
        let map = parse_map(map_text).map_err(at(&format!("maps/{}.map", header.map.1)))?;
        let oob_text = embedded(OOBS, header.oob.1).ok_or_else(|| {
            at(file)(TextError::at(
                &header.oob.0,
                format!("there is no embedded order of battle {:?}", header.oob.1),
            ))
        })?;
        let oob =
            parse_oob(oob_text, &charts.range).map_err(at(&format!("oob/{}.oob", header.oob.1)))?;
        read_body(input, header, map, oob, charts).map_err(at(file))
    }
}

/// The header lines, each with the token that gave it (for errors).
struct Header<'a> {
    name: String,
    map: (Token<'a>, &'a str),
    oob: (Token<'a>, &'a str),
    turns: u16,
    first: (Token<'a>, &'a str),
    seats: [(Token<'a>, &'a str); 2],
}

impl<'a> Header<'a> {
    fn read(input: &'a str) -> Result<Self, TextError> {
        text::check_size(input, MAX_SCENARIO_BYTES, "scenario")?;
        let mut name = None;
        let mut map = None;
        let mut oob = None;
        let mut turns = None;
        let mut first = None;
        let mut seats = None;
        let mut seen_format = false;
        let mut last = 1;
        for tokens in text::lines(input) {
            let tokens = tokens?;
            let head = tokens[0];
            last = head.line;
            if !seen_format {
                let words: Vec<&str> = tokens.iter().map(|t| t.text).collect();
                if words.join(" ") != FORMAT {
                    return Err(TextError::at(
                        &head,
                        format!("a scenario starts with `{FORMAT}`"),
                    ));
                }
                seen_format = true;
                continue;
            }
            let one = || -> Result<(Token<'a>, &'a str), TextError> {
                match tokens.as_slice() {
                    [_, v] => Ok((*v, v.text)),
                    _ => Err(TextError::at(
                        &head,
                        format!("`{}` takes one value", head.text),
                    )),
                }
            };
            match head.text {
                "name" => {
                    let v = one()?.1;
                    let v = v
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .unwrap_or(v);
                    name = Some(v.to_string());
                }
                "map" => map = Some(one()?),
                "oob" => oob = Some(one()?),
                "turns" => {
                    let (t, v) = one()?;
                    let n: u16 = text::number(&t, v, "turns")?;
                    if !(1..=200).contains(&n) {
                        return Err(TextError::at(&t, "`turns` must be 1 to 200"));
                    }
                    turns = Some(n);
                }
                "first" => first = Some(one()?),
                "seats" => match tokens.as_slice() {
                    [_, a, b] => seats = Some([(*a, a.text), (*b, b.text)]),
                    _ => {
                        return Err(TextError::at(
                            &head,
                            "`seats` names the two sides, seat 1's first",
                        ));
                    }
                },
                "unit" | "leader" => {}
                other => {
                    return Err(TextError::at(
                        &head,
                        format!(
                            "unknown line `{other}` (name, map, oob, turns, first, seats, unit, leader)"
                        ),
                    ));
                }
            }
        }
        if !seen_format {
            return Err(TextError::line(
                1,
                format!("empty scenario: expected `{FORMAT}`"),
            ));
        }
        let need =
            |what: &str| TextError::line(last, format!("the scenario needs a `{what}` line"));
        Ok(Header {
            name: name.ok_or_else(|| need("name"))?,
            map: map.ok_or_else(|| need("map"))?,
            oob: oob.ok_or_else(|| need("oob"))?,
            turns: turns.ok_or_else(|| need("turns"))?,
            first: first.ok_or_else(|| need("first"))?,
            seats: seats.ok_or_else(|| need("seats"))?,
        })
    }
}

/// GBACW 7.0: facing words by orientation, in `hexx` edge-direction order.
pub fn direction_names(orientation: Orientation) -> [&'static str; 6] {
    match orientation {
        Orientation::Flat => ["se", "s", "sw", "nw", "n", "ne"],
        Orientation::Pointy => ["e", "se", "sw", "w", "nw", "ne"],
    }
}

/// The word for a facing on a map of `orientation`.
pub fn facing_name(orientation: Orientation, facing: Facing) -> &'static str {
    direction_names(orientation)[usize::from(facing.index() % 6)]
}

fn formation_named(word: &str) -> Option<Formation> {
    Some(match word {
        "line" => Formation::Line,
        "column" => Formation::Column,
        "mounted" => Formation::Mounted,
        "dismounted" => Formation::Dismounted,
        "limbered" => Formation::Limbered,
        "unlimbered" => Formation::Unlimbered,
        "wagon" => Formation::Wagon,
        _ => return None,
    })
}

fn side_of(oob: &Oob, (t, v): (Token<'_>, &str)) -> Result<CounterId, TextError> {
    let id = CounterId(v.to_string());
    if oob.sides.contains_key(&id) {
        Ok(id)
    } else {
        Err(TextError::at(
            &t,
            format!("the order of battle has no side `{v}`"),
        ))
    }
}

fn read_body(
    input: &str,
    h: Header<'_>,
    map: Map,
    oob: Oob,
    charts: Charts,
) -> Result<Scenario, TextError> {
    let seats = [side_of(&oob, h.seats[0])?, side_of(&oob, h.seats[1])?];
    if seats[0] == seats[1] {
        return Err(TextError::at(
            &h.seats[1].0,
            "the two seats play the same side",
        ));
    }
    let first = side_of(&oob, h.first)?;
    let mut units: BTreeMap<CounterId, UnitSetup> = BTreeMap::new();
    let mut leaders = BTreeMap::new();
    let mut placed_at: BTreeMap<CounterId, usize> = BTreeMap::new();
    let names = direction_names(map.grid.orientation);
    for tokens in text::lines(input).skip(1) {
        let tokens = tokens?;
        let head = tokens[0];
        if head.text != "unit" && head.text != "leader" {
            continue;
        }
        let (id_t, hex_t) = match tokens.as_slice() {
            [_, id, hex, ..] => (*id, *hex),
            _ => {
                return Err(TextError::at(
                    &head,
                    format!("`{} ID HEX` places a counter", head.text),
                ));
            }
        };
        let id = CounterId(id_t.text.to_string());
        if let Some(line) = placed_at.get(&id) {
            return Err(TextError::at(
                &id_t,
                format!("{id} is already placed on line {line}"),
            ));
        }
        let hex = HexNumber::parse(hex_t.text)
            .filter(|n| map.grid.contains(*n))
            .ok_or_else(|| {
                TextError::at(&hex_t, format!("{} is not a hex of the map", hex_t.text))
            })?;
        if head.text == "leader" {
            if !oob.leaders.contains_key(&id) {
                return Err(TextError::at(
                    &id_t,
                    format!("the order of battle has no leader {id}"),
                ));
            }
            if let Some(t) = tokens.get(3) {
                return Err(TextError::at(t, "a leader line is `leader ID HEX`"));
            }
            leaders.insert(id.clone(), hex);
        } else {
            let unit = oob.units.get(&id).ok_or_else(|| {
                TextError::at(&id_t, format!("the order of battle has no unit {id}"))
            })?;
            let mut facing = None;
            let mut formation = UnitStatus::fresh(unit).formation;
            for t in &tokens[3..] {
                match text::key_value(t) {
                    Some(("facing", v)) => {
                        let i = names.iter().position(|n| *n == v).ok_or_else(|| {
                            TextError::at(t, format!("facing is one of {}", names.join(" ")))
                        })?;
                        facing = Facing::from_index(i as u8);
                    }
                    Some(("formation", v)) => {
                        formation = formation_named(v)
                            .filter(|f| f.allowed_for(&unit.kind))
                            .ok_or_else(|| {
                                TextError::at(
                                    t,
                                    format!("no formation `{v}` for {}", unit.kind.name()),
                                )
                            })?;
                    }
                    _ => return Err(TextError::at(t, "expected facing=DIR or formation=F")),
                }
            }
            let facing =
                facing.ok_or_else(|| TextError::at(&head, "a unit needs facing=DIR (7.0)"))?;
            let class = formation.move_class().unwrap_or(MoveClass::Limbered);
            if let Some(info) = map.hex(hex)
                && charts.movement.enter_cost(class, &info.terrain) == Cost::Prohibited
            {
                return Err(TextError::at(
                    &hex_t,
                    format!("{id} may not stand in {hex} (5.19)"),
                ));
            }
            units.insert(
                id.clone(),
                UnitSetup {
                    hex,
                    facing,
                    formation,
                },
            );
        }
        placed_at.insert(id, head.line);
    }
    // Both sides keep to their own hexes (5.12), and every hex to its limits (8.1).
    let mut by_hex: BTreeMap<HexNumber, Vec<&CounterId>> = BTreeMap::new();
    for (id, u) in &units {
        by_hex.entry(u.hex).or_default().push(id);
    }
    for (hex, ids) in &by_hex {
        let sides: Vec<&CounterId> = ids.iter().map(|id| &oob.units[*id].side).collect();
        if sides.windows(2).any(|w| w[0] != w[1]) {
            return Err(TextError::line(
                placed_at[ids[0]],
                format!("both sides have units in {hex} (5.12)"),
            ));
        }
        let statuses: Vec<(&crate::gbacw::oob::Unit, UnitStatus)> = ids
            .iter()
            .map(|id| {
                let unit = &oob.units[*id];
                let mut s = UnitStatus::fresh(unit);
                s.formation = units[*id].formation;
                (unit, s)
            })
            .collect();
        let pairs: Vec<_> = statuses.iter().map(|(u, s)| (*u, s)).collect();
        let terrain = map.hex(*hex).map(|h| h.terrain.clone()).unwrap_or_default();
        let redan = super::board::is_redan_hex(&map, *hex);
        if let Err(o) = check_hex(&charts.stacking, &terrain, redan, &pairs) {
            return Err(TextError::line(
                placed_at[ids[0]],
                format!("{hex} is over its stacking limits ({})", o.rule()),
            ));
        }
    }
    for (id, hex) in &leaders {
        let side = &oob.leaders[id].side;
        if let Some(ids) = by_hex.get(hex)
            && ids.iter().any(|u| oob.units[*u].side != *side)
        {
            return Err(TextError::line(
                placed_at[id],
                format!("{id} starts in {hex} among enemy units (5.12)"),
            ));
        }
    }
    Ok(Scenario {
        name: h.name,
        map,
        oob,
        charts,
        sequence: SequenceSpec::standard(h.turns),
        seats,
        first,
        units,
        leaders,
    })
}
