//! The plain-text scenario format, `assets/gbacw/<battle>/<battle>.scenario`.
//! One line per fact, in any order after the first line; ids are those of
//! the battle's order of battle, hexes those of its map.
//!
//! ```text
//! gbacw-scenario 1
//! name "Cedar Mountain"
//! battle cedar_mountain
//! map cedar_mountain.map
//! oob cedar_mountain.oob
//! north left                                  # compass north is the map's left edge
//! side union seat=union name="Union"
//! first-player union case=26.1
//! skip-player-turn turn=1 side=union case=26.1
//! length turns=13 minutes=30 source="..."
//! area a1 centre=2111 radius=1 name="Deployment Area 1" provisional="..."
//! setup area=a1 units=greene,1-dc,78-ny case=26.2    # or hex=HHHH, with-command, pool
//! setup hex=0305 units=5-conn facing=ne formation=line  # facing, formation: optional
//! restrict leader-with-command case=26.2              # [when=OPTION] [area=ID units=..] [side=ID]
//! option free-deployment name="..." case=26.3 default=off
//! arrive turn=7 hex=2934 units=thomas,14-ga detached=thomas case=roster
//! victory case=27.0
//! victory-level draw from=0
//! vp-loss infantry eliminated=1 captured=2           # brigade-leader: wounded= killed= captured=
//! vp-leader jackson wounded=5 killed=10 captured=15
//! vp-bce roster
//! victory-hex 2319 vp=2
//! victory-hexes scored-after=confederate
//! exit 0101 mp=1 vp=confederate:1
//! replace williams by=crawford,gordon case=25.32
//! hook retreat-directions case=23.0 confederate=W,NW,SW union=E,NE,SE
//! # Corinth (all optional):
//! area hamilton-box hexes=2503-2508,2602-2608 name="..."   # list; HHHH-HHHH is a box
//! area assault-e map=assault-e name="..."             # the map's own area line
//! arrive turn=3 area=assault-e formation=line entry=terrain units=... case=30.2
//! arrive turn=2 hex=0104 entry=column first=0.5 step=0.5 units=... case=30.13
//! restrict deployed-formation case=30.1
//! restrict at-most area=park count=4 units=... case=29.44
//! only-arrivals turn=2 side=union case=30.0
//! reserves side=union from=6 per-turn=2 automatic=15 until=16 case=30.34
//! reserve hamilton name="..." commit-on=2 units=... case=30.31
//! night from=17 to=20 case=26.0
//! victory-hexes start=union                           # all objective hexes start Union
//! victory-hex 2437 vp=5                               # vp=0.5: half points
//! victory-tally side=confederate case=31.1            # one total; the enemy's gains subtract
//! victory-band marginal-union to=9 winner=union       # ascending; the last has no to=
//! victory-check turn=16 win=20 lose=4 case=31.2
//! vp-battery 1
//! vp-casualties 5
//! vp-reserve 1
//! ```
//!
//! Errors name line and column; input is size-limited. Whether the ids and
//! hexes exist is checked against the map and order of battle by
//! [`Scenario::check`](super::Scenario::check).

use super::model::*;
use crate::gbacw::charts::Mp;
use crate::gbacw::map::HexNumber;
use crate::gbacw::names::Named;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::text::{self, TextError, Token};
use std::collections::BTreeMap;

/// Largest scenario file accepted.
pub const MAX_SCENARIO_BYTES: usize = 256 * 1024;
/// Most entries in one list (`units=a,b,...`) and most lines of a kind.
pub const MAX_LIST: usize = 1000;

const FORMAT: &str = "gbacw-scenario 1";
/// Edges a `north` line may name.
const EDGES: &[&str] = &["top", "left", "right", "bottom"];

/// Parse a scenario. Never panics; the first error stops the parse.
pub fn parse_scenario(input: &str) -> Result<Scenario, TextError> {
    text::check_size(input, MAX_SCENARIO_BYTES, "scenario")?;
    let mut s = Scenario::default();
    let mut seen_format = false;
    let mut lines = 0usize;
    for tokens in text::lines(input) {
        let tokens = tokens?;
        let head = tokens[0];
        lines += 1;
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
        if lines > 20 * MAX_LIST {
            return Err(TextError::at(&head, "too many lines"));
        }
        line(&mut s, &tokens)?;
    }
    if !seen_format {
        return Err(TextError::line(
            1,
            format!("empty scenario: expected `{FORMAT}`"),
        ));
    }
    if s.name.is_empty() || s.battle.is_empty() || s.map_file.is_empty() || s.oob_file.is_empty() {
        return Err(TextError::line(
            lines.max(1),
            "a scenario needs `name`, `battle`, `map` and `oob` lines",
        ));
    }
    if s.length.is_none() {
        return Err(TextError::line(
            lines.max(1),
            "a scenario needs a `length` line",
        ));
    }
    Ok(s)
}

/// A line's words after the keyword: positional words, then `key=value`s.
struct Fields<'a> {
    head: Token<'a>,
    words: Vec<Token<'a>>,
    values: BTreeMap<&'a str, (Token<'a>, &'a str)>,
}

impl<'a> Fields<'a> {
    fn new(tokens: &[Token<'a>], allowed: &[&str], max_words: usize) -> Result<Self, TextError> {
        let head = tokens[0];
        let mut words = Vec::new();
        let mut values = BTreeMap::new();
        for t in &tokens[1..] {
            match text::key_value(t) {
                Some((k, v)) => {
                    if !allowed.contains(&k) {
                        return Err(TextError::at(
                            t,
                            format!(
                                "unknown key `{k}` on a `{}` line (expected {})",
                                head.text,
                                allowed.join(", ")
                            ),
                        ));
                    }
                    if values.insert(k, (*t, v)).is_some() {
                        return Err(TextError::at(t, format!("`{k}` given twice")));
                    }
                }
                None if !values.is_empty() => {
                    return Err(TextError::at(t, "plain words go before `key=value`s"));
                }
                None => {
                    if words.len() >= max_words {
                        return Err(TextError::at(t, format!("unexpected `{}`", t.text)));
                    }
                    words.push(*t);
                }
            }
        }
        Ok(Fields {
            head,
            words,
            values,
        })
    }

    fn word(&self, i: usize, what: &str) -> Result<Token<'a>, TextError> {
        self.words
            .get(i)
            .copied()
            .ok_or_else(|| TextError::at(&self.head, format!("`{}` needs {what}", self.head.text)))
    }

    fn get(&self, key: &str) -> Option<(Token<'a>, &'a str)> {
        self.values.get(key).copied()
    }

    fn need(&self, key: &str) -> Result<(Token<'a>, &'a str), TextError> {
        self.get(key).ok_or_else(|| {
            TextError::at(&self.head, format!("`{}` needs `{key}=`", self.head.text))
        })
    }

    fn number(&self, key: &str, max: u16) -> Result<u16, TextError> {
        let (t, v) = self.need(key)?;
        bounded(&t, v, key, max)
    }

    fn number_or(&self, key: &str, max: u16, default: u16) -> Result<u16, TextError> {
        match self.get(key) {
            Some((t, v)) => bounded(&t, v, key, max),
            None => Ok(default),
        }
    }

    fn id(&self, key: &str) -> Result<CounterId, TextError> {
        let (t, v) = self.need(key)?;
        id(&t, v)
    }

    fn opt_id(&self, key: &str) -> Result<Option<CounterId>, TextError> {
        self.get(key).map(|(t, v)| id(&t, v)).transpose()
    }

    fn hex(&self, key: &str) -> Result<HexNumber, TextError> {
        let (t, v) = self.need(key)?;
        hex(&t, v)
    }

    fn list(&self, key: &str) -> Result<Vec<CounterId>, TextError> {
        match self.get(key) {
            Some((t, v)) => list(&t, v),
            None => Ok(Vec::new()),
        }
    }

    fn case(&self) -> Result<Case, TextError> {
        Ok(self.need("case")?.1.to_string())
    }

    fn opt_case(&self) -> Option<Case> {
        self.get("case").map(|(_, v)| v.to_string())
    }

    fn text(&self, key: &str) -> Result<String, TextError> {
        Ok(self.need(key)?.1.to_string())
    }
}

fn bounded(t: &Token<'_>, v: &str, key: &str, max: u16) -> Result<u16, TextError> {
    let n: u16 = text::number(t, v, key)?;
    if n > max {
        return Err(TextError::at(t, format!("`{key}` must be at most {max}")));
    }
    Ok(n)
}

fn id(t: &Token<'_>, v: &str) -> Result<CounterId, TextError> {
    CounterId::parse(v).ok_or_else(|| {
        TextError::at(
            t,
            format!("`{v}`: an id is 1-32 lower-case letters, digits, `-` or `_`"),
        )
    })
}

fn hex(t: &Token<'_>, v: &str) -> Result<HexNumber, TextError> {
    HexNumber::parse(v)
        .ok_or_else(|| TextError::at(t, format!("`{v}` is not a four-digit hex number")))
}

/// A number of Victory Points as half points: `5`, `0.5`, `-3`, `24.5`.
fn half_points(t: &Token<'_>, v: &str, key: &str) -> Result<i32, TextError> {
    let bad = || TextError::at(t, format!("`{key}` is a whole or half number of points"));
    let (neg, body) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    let (whole, half) = match body.split_once('.') {
        Some((w, "5")) => (w, 1),
        Some((w, "0")) => (w, 0),
        None => (body, 0),
        Some(_) => return Err(bad()),
    };
    if whole.is_empty() || whole.len() > 4 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: i32 = whole.parse::<i32>().map_err(|_| bad())? * 2 + half;
    Ok(if neg { -n } else { n })
}

/// The scenario's tally, which the line needs declared first.
fn tally_of<'s>(s: &'s mut Scenario, head: &Token<'_>) -> Result<&'s mut Tally, TextError> {
    s.victory.tally.as_mut().ok_or_else(|| {
        TextError::at(
            head,
            format!("`{}` comes after a `victory-tally` line", head.text),
        )
    })
}

/// Hexes as `HHHH` and boxes `HHHH-HHHH` (every column from the first's to
/// the second's, every row from the first's to the second's: Corinth
/// 30.14 "between hexes 0627 and 0638 inclusive").
fn hex_list(t: &Token<'_>, v: &str) -> Result<Vec<HexNumber>, TextError> {
    let mut out = Vec::new();
    for part in v.split(',') {
        match part.split_once('-') {
            None => out.push(hex(t, part)?),
            Some((a, b)) => {
                let (a, b) = (hex(t, a)?, hex(t, b)?);
                if a.col() > b.col() || a.row() > b.row() {
                    return Err(TextError::at(
                        t,
                        format!("`{part}`: a box runs from its low corner to its high one"),
                    ));
                }
                for c in a.col()..=b.col() {
                    for r in a.row()..=b.row() {
                        out.extend(HexNumber::new(c, r));
                    }
                }
            }
        }
        if out.len() > 4 * MAX_LIST {
            return Err(TextError::at(
                t,
                format!("more than {} hexes", 4 * MAX_LIST),
            ));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|h| seen.insert(*h));
    Ok(out)
}

fn list(t: &Token<'_>, v: &str) -> Result<Vec<CounterId>, TextError> {
    let parts: Vec<&str> = v.split(',').collect();
    if parts.len() > MAX_LIST {
        return Err(TextError::at(t, format!("more than {MAX_LIST} entries")));
    }
    parts.into_iter().map(|p| id(t, p)).collect()
}

fn loss_value(f: &Fields<'_>) -> Result<LossValue, TextError> {
    let eliminated = match (f.get("eliminated"), f.get("killed")) {
        (Some(_), Some((t, _))) => {
            return Err(TextError::at(
                &t,
                "give `eliminated=` or `killed=`, not both",
            ));
        }
        (Some((t, v)), None) | (None, Some((t, v))) => bounded(&t, v, "eliminated", 999)?,
        (None, None) => {
            return Err(TextError::at(
                &f.head,
                format!("`{}` needs `eliminated=` or `killed=`", f.head.text),
            ));
        }
    };
    Ok(LossValue {
        wounded: f.number_or("wounded", 999, 0)?,
        eliminated,
        captured: f.number("captured", 999)?,
    })
}

fn named<T: Named>(t: &Token<'_>, what: &str) -> Result<T, TextError> {
    T::from_name(t.text).ok_or_else(|| {
        TextError::at(
            t,
            format!("unknown {what} `{}` (expected {})", t.text, T::name_list()),
        )
    })
}

fn one_of<'a>(t: &Token<'a>, allowed: &[&str], what: &str) -> Result<&'a str, TextError> {
    if allowed.contains(&t.text) {
        Ok(t.text)
    } else {
        Err(TextError::at(
            t,
            format!(
                "unknown {what} `{}` (expected {})",
                t.text,
                allowed.join(", ")
            ),
        ))
    }
}

/// Refuse an unbounded number of lines of one kind.
fn push<T>(v: &mut Vec<T>, item: T, head: &Token<'_>) -> Result<(), TextError> {
    if v.len() >= MAX_LIST {
        return Err(TextError::at(
            head,
            format!("more than {MAX_LIST} `{}` lines", head.text),
        ));
    }
    v.push(item);
    Ok(())
}

fn once(slot: &mut String, f: &Fields<'_>) -> Result<(), TextError> {
    if !slot.is_empty() {
        return Err(TextError::at(
            &f.head,
            format!("`{}` given twice", f.head.text),
        ));
    }
    *slot = f.word(0, "a value")?.text.trim_matches('"').to_string();
    Ok(())
}

fn line(s: &mut Scenario, tokens: &[Token<'_>]) -> Result<(), TextError> {
    let head = tokens[0];
    match head.text {
        "name" => once(&mut s.name, &Fields::new(tokens, &[], 1)?),
        "battle" => once(&mut s.battle, &Fields::new(tokens, &[], 1)?),
        "map" => once(&mut s.map_file, &Fields::new(tokens, &[], 1)?),
        "oob" => once(&mut s.oob_file, &Fields::new(tokens, &[], 1)?),
        "north" => {
            let f = Fields::new(tokens, &[], 1)?;
            let edge = one_of(&f.word(0, "an edge")?, EDGES, "edge")?;
            s.north = Some(edge.to_string());
            Ok(())
        }
        "side" => {
            let f = Fields::new(tokens, &["seat", "name"], 1)?;
            let w = f.word(0, "an id")?;
            let side = Side {
                id: id(&w, w.text)?,
                seat: f.text("seat")?,
                name: f.text("name")?,
            };
            if s.sides
                .iter()
                .any(|x| x.id == side.id || x.seat == side.seat)
            {
                return Err(TextError::at(&w, "side or seat given twice"));
            }
            push(&mut s.sides, side, &head)
        }
        "first-player" => {
            let f = Fields::new(tokens, &["case"], 1)?;
            let w = f.word(0, "a side")?;
            s.first_player = Some(id(&w, w.text)?);
            Ok(())
        }
        "skip-player-turn" => {
            let f = Fields::new(tokens, &["turn", "side", "case"], 0)?;
            let turn = f.number("turn", 999)?;
            push(&mut s.skipped_player_turns, (turn, f.id("side")?), &head)
        }
        "length" => {
            let f = Fields::new(tokens, &["turns", "minutes", "source"], 0)?;
            if s.length.is_some() {
                return Err(TextError::at(&head, "`length` given twice"));
            }
            let turns = f.number("turns", 999)?;
            if turns == 0 {
                return Err(TextError::at(&head, "a game lasts at least one turn"));
            }
            s.length = Some(Length {
                turns,
                minutes: f.number("minutes", 24 * 60)?,
                source: f.text("source")?,
            });
            Ok(())
        }
        "area" => {
            let f = Fields::new(
                tokens,
                &[
                    "centre",
                    "radius",
                    "hexes",
                    "map",
                    "name",
                    "provisional",
                    "clip",
                ],
                1,
            )?;
            let w = f.word(0, "an id")?;
            // A circle (`centre=` `radius=`), a list (`hexes=`) or the map's
            // own area (`map=`): exactly one of the three.
            let hexes = match f.get("hexes") {
                Some((t, v)) => hex_list(&t, v)?,
                None => Vec::new(),
            };
            let map_area = f.get("map").map(|(_, v)| v.to_string());
            let listed = !hexes.is_empty() || map_area.is_some();
            if listed == f.get("centre").is_some() || (!hexes.is_empty() && map_area.is_some()) {
                return Err(TextError::at(
                    &head,
                    "an area is `centre=` with `radius=`, or `hexes=`, or `map=`",
                ));
            }
            let (centre, radius) = match hexes.first() {
                _ if !listed => (
                    f.hex("centre")?,
                    u8::try_from(f.number("radius", 10)?).unwrap_or(10),
                ),
                Some(first) => (*first, 0),
                // Filled from the map when the battle loads.
                None => (hex(&head, "0101")?, 0),
            };
            let area = Area {
                id: id(&w, w.text)?,
                name: f.text("name")?,
                centre,
                radius,
                provisional: f.get("provisional").map(|(_, v)| v.to_string()),
                hexes,
                map_area,
                clipped: match f.get("clip") {
                    None => false,
                    Some((t, v)) => {
                        one_of(&Token { text: v, ..t }, &["yes", "no"], "clip")? == "yes"
                    }
                },
            };
            if s.areas.iter().any(|a| a.id == area.id) {
                return Err(TextError::at(&w, "area id used twice"));
            }
            push(&mut s.areas, area, &head)
        }
        "setup" => {
            let f = Fields::new(
                tokens,
                &["area", "hex", "units", "case", "facing", "formation"],
                1,
            )?;
            let place = match (f.words.first(), f.get("area"), f.get("hex")) {
                (None, Some((t, v)), None) => Place::Area(id(&t, v)?),
                (None, None, Some((t, v))) => Place::Hex(hex(&t, v)?),
                (Some(w), None, None) => {
                    match one_of(w, &["with-command", "pool"], "set-up place")? {
                        "pool" => Place::Pool,
                        _ => Place::WithCommand,
                    }
                }
                _ => {
                    return Err(TextError::at(
                        &head,
                        "a set-up line names one place: area=ID, hex=HHHH, with-command or pool",
                    ));
                }
            };
            let units = f.list("units")?;
            if units.is_empty() {
                return Err(TextError::at(&head, "`setup` needs `units=`"));
            }
            push(
                &mut s.setup,
                Setup {
                    place,
                    units,
                    case: f.opt_case(),
                    facing: f.get("facing").map(|(_, v)| v.to_string()),
                    formation: match f.get("formation") {
                        Some((t, v)) => Some(Formation::from_name(v).ok_or_else(|| {
                            TextError::at(&t, format!("unknown formation `{v}`"))
                        })?),
                        None => None,
                    },
                },
                &head,
            )
        }
        "restrict" => {
            let f = Fields::new(
                tokens,
                &["case", "when", "area", "units", "side", "count"],
                1,
            )?;
            let kind: RestrictionKind = named(&f.word(0, "a kind")?, "restriction")?;
            let r = Restriction {
                kind,
                case: f.case()?,
                when: f.opt_id("when")?,
                area: f.opt_id("area")?,
                units: f.list("units")?,
                side: f.opt_id("side")?,
                count: match f.get("count") {
                    Some((t, v)) => Some(bounded(&t, v, "count", 999)?),
                    None => None,
                },
            };
            match kind {
                RestrictionKind::FixedArea if r.area.is_none() || r.units.is_empty() => {
                    return Err(TextError::at(
                        &head,
                        "`fixed-area` needs `area=` and `units=`",
                    ));
                }
                RestrictionKind::AwayFromAreas if r.units.is_empty() || r.count.is_none() => {
                    return Err(TextError::at(
                        &head,
                        "`away-from-areas` needs `units=` (the areas) and `count=`",
                    ));
                }
                RestrictionKind::AtMost
                    if r.area.is_none() || r.units.is_empty() || r.count.is_none() =>
                {
                    return Err(TextError::at(
                        &head,
                        "`at-most` needs `area=`, `units=` and `count=`",
                    ));
                }
                RestrictionKind::StartsOffMap if r.side.is_none() => {
                    return Err(TextError::at(&head, "`starts-off-map` needs `side=`"));
                }
                _ => {}
            }
            push(&mut s.restrictions, r, &head)
        }
        "option" => {
            let f = Fields::new(tokens, &["name", "case", "default"], 1)?;
            let w = f.word(0, "an id")?;
            let (dt, dv) = f.need("default")?;
            let default_on = one_of(&Token { text: dv, ..dt }, &["on", "off"], "default")? == "on";
            push(
                &mut s.options,
                ScenarioOption {
                    id: id(&w, w.text)?,
                    name: f.text("name")?,
                    case: f.case()?,
                    default_on,
                },
                &head,
            )
        }
        "arrive" => {
            let f = Fields::new(
                tokens,
                &[
                    "turn",
                    "hex",
                    "area",
                    "units",
                    "detached",
                    "case",
                    "formation",
                    "entry",
                    "first",
                    "step",
                    "plan",
                ],
                0,
            )?;
            let turn = f.number("turn", 999)?;
            if turn == 0 {
                return Err(TextError::at(&head, "turns are counted from 1"));
            }
            let units = f.list("units")?;
            if units.is_empty() {
                return Err(TextError::at(&head, "`arrive` needs `units=`"));
            }
            // An entry hex, or any hex of the areas listed (Corinth 29.31);
            // an area arrival's `hex` is its first area's first hex, filled
            // when the battle loads.
            let areas = f.list("area")?;
            let planned = f.get("plan").is_some();
            let hex = match (f.get("hex"), areas.is_empty()) {
                (Some((t, v)), true) if !planned => hex(&t, v)?,
                (None, false) if !planned => hex(&head, "0101")?,
                // Corinth 29.2: the plan gives the area.
                (None, true) if planned => hex(&head, "0101")?,
                _ => {
                    return Err(TextError::at(
                        &head,
                        "an arrival names one of `hex=`, `area=` or `plan=`",
                    ));
                }
            };
            let in_line = match f.get("formation") {
                None => false,
                Some((t, v)) => {
                    one_of(
                        &Token { text: v, ..t },
                        &["line", "column"],
                        "entry formation",
                    )? == "line"
                }
            };
            let half = |key: &str| -> Result<Option<Mp>, TextError> {
                f.get(key)
                    .map(|(t, v)| {
                        v.parse::<f64>().ok().and_then(Mp::from_f64).ok_or_else(|| {
                            TextError::at(&t, format!("`{key}` is whole or half points"))
                        })
                    })
                    .transpose()
            };
            let entry = match f.get("entry") {
                None => EntryCost::Hook,
                Some((t, v)) => {
                    match one_of(
                        &Token { text: v, ..t },
                        &["column", "terrain"],
                        "entry cost",
                    )? {
                        "terrain" => EntryCost::Terrain,
                        _ => EntryCost::Column {
                            first: half("first")?.unwrap_or(Mp::from_whole(1)),
                            step: half("step")?.unwrap_or(Mp::from_whole(1)),
                        },
                    }
                }
            };
            push(
                &mut s.arrivals,
                Arrival {
                    turn,
                    hex,
                    units,
                    detached: f.list("detached")?,
                    case: f.opt_case(),
                    areas,
                    in_line,
                    entry,
                    plan: f.opt_id("plan")?,
                },
                &head,
            )
        }
        "victory" => {
            let f = Fields::new(tokens, &["case"], 0)?;
            s.victory.case = Some(f.case()?);
            Ok(())
        }
        "victory-level" => {
            let f = Fields::new(tokens, &["from"], 1)?;
            let name = f.word(0, "a level name")?.text.to_string();
            let from = f.number("from", 9999)?;
            if s.victory
                .levels
                .last()
                .is_some_and(|(_, prev)| *prev >= from)
            {
                return Err(TextError::at(&head, "victory levels go in ascending order"));
            }
            push(&mut s.victory.levels, (name, from), &head)
        }
        "vp-loss" => {
            let f = Fields::new(tokens, &["wounded", "eliminated", "killed", "captured"], 1)?;
            let kind: LossKind = named(&f.word(0, "a kind of loss")?, "loss")?;
            let v = loss_value(&f)?;
            if s.victory.losses.insert(kind, v).is_some() {
                return Err(TextError::at(&head, format!("`{kind}` priced twice")));
            }
            Ok(())
        }
        "vp-leader" => {
            let f = Fields::new(tokens, &["wounded", "eliminated", "killed", "captured"], 1)?;
            let w = f.word(0, "a leader id")?;
            let v = loss_value(&f)?;
            if s.victory.leaders.len() >= MAX_LIST {
                return Err(TextError::at(&head, "too many `vp-leader` lines"));
            }
            if s.victory.leaders.insert(id(&w, w.text)?, v).is_some() {
                return Err(TextError::at(&w, "leader priced twice"));
            }
            Ok(())
        }
        "vp-bce" => {
            let f = Fields::new(tokens, &[], 1)?;
            one_of(&f.word(0, "`roster`")?, &["roster"], "BCE source")?;
            s.victory.bce_from_roster = true;
            Ok(())
        }
        "victory-hex" => {
            let f = Fields::new(tokens, &["vp"], 1)?;
            let w = f.word(0, "a hex")?;
            let (t, v) = f.need("vp")?;
            let halves = half_points(&t, v, "vp")?;
            let halves = u16::try_from(halves)
                .ok()
                .filter(|h| *h <= 1998)
                .ok_or_else(|| TextError::at(&t, "`vp` is 0 to 999"))?;
            let vh = VictoryHex {
                hex: hex(&w, w.text)?,
                vp: halves / 2,
                halves,
            };
            if s.victory.hexes.iter().any(|x| x.hex == vh.hex) {
                return Err(TextError::at(&w, "victory hex given twice"));
            }
            push(&mut s.victory.hexes, vh, &head)
        }
        "victory-hexes" => {
            let f = Fields::new(tokens, &["scored-after", "start"], 0)?;
            if f.get("scored-after").is_none() && f.get("start").is_none() {
                return Err(TextError::at(
                    &head,
                    "`victory-hexes` needs `scored-after=` or `start=`",
                ));
            }
            s.victory.hexes_scored_after = f.opt_id("scored-after")?;
            s.victory.hexes_start = f.opt_id("start")?;
            Ok(())
        }
        "victory-tally" => {
            let f = Fields::new(tokens, &["side", "case"], 0)?;
            if s.victory.tally.is_some() {
                return Err(TextError::at(&head, "`victory-tally` given twice"));
            }
            s.victory.tally = Some(Tally {
                side: f.id("side")?,
                case: f.case()?,
                bands: Vec::new(),
                battery: 0,
                casualties_per: 0,
                reserve: 0,
                checks: Vec::new(),
            });
            Ok(())
        }
        "victory-band" => {
            let f = Fields::new(tokens, &["to", "winner"], 1)?;
            let name = f.word(0, "a level name")?.text.to_string();
            let to = f
                .get("to")
                .map(|(t, v)| half_points(&t, v, "to"))
                .transpose()?;
            let winner = f.opt_id("winner")?;
            let tally = tally_of(s, &head)?;
            if let Some(last) = tally.bands.last()
                && last.to.is_none_or(|prev| to.is_some_and(|to| to <= prev))
            {
                return Err(TextError::at(
                    &head,
                    "victory bands go in ascending order, the open one last",
                ));
            }
            push(&mut tally.bands, Band { name, to, winner }, &head)
        }
        "victory-check" => {
            let f = Fields::new(tokens, &["turn", "win", "lose", "case"], 0)?;
            let check = DayCheck {
                turn: f.number("turn", 999)?,
                win: f.need("win").and_then(|(t, v)| half_points(&t, v, "win"))?,
                lose: f
                    .need("lose")
                    .and_then(|(t, v)| half_points(&t, v, "lose"))?,
                case: f.case()?,
            };
            if check.lose >= check.win {
                return Err(TextError::at(&head, "`lose=` must be below `win=`"));
            }
            let tally = tally_of(s, &head)?;
            push(&mut tally.checks, check, &head)
        }
        "vp-battery" | "vp-casualties" | "vp-reserve" => {
            let f = Fields::new(tokens, &["case"], 1)?;
            let w = f.word(0, "a number")?;
            let n = bounded(&w, w.text, head.text, 999)?;
            let tally = tally_of(s, &head)?;
            match head.text {
                "vp-battery" => tally.battery = n,
                "vp-casualties" => tally.casualties_per = n,
                _ => tally.reserve = n,
            }
            Ok(())
        }
        "reserves" => {
            let f = Fields::new(
                tokens,
                &["side", "from", "per-turn", "automatic", "until", "case"],
                0,
            )?;
            let r = &mut s.reserves;
            r.side = Some(f.id("side")?);
            r.from = f.number("from", 999)?;
            r.per_turn = u8::try_from(f.number("per-turn", 99)?).unwrap_or(99);
            r.automatic = f.number("automatic", 999)?;
            r.until = f.number("until", 999)?;
            Ok(())
        }
        "reserve" => {
            let f = Fields::new(tokens, &["name", "units", "commit-on", "case"], 1)?;
            let w = f.word(0, "an id")?;
            let reserve = Reserve {
                id: id(&w, w.text)?,
                name: f.text("name")?,
                units: f.list("units")?,
                commit_on: u8::try_from(f.number("commit-on", 6)?).unwrap_or(6),
                case: f.case()?,
            };
            if reserve.units.is_empty() {
                return Err(TextError::at(&head, "`reserve` needs `units=`"));
            }
            if s.reserves.list.iter().any(|r| r.id == reserve.id) {
                return Err(TextError::at(&w, "reserve id used twice"));
            }
            push(&mut s.reserves.list, reserve, &head)
        }
        "only-arrivals" => {
            let f = Fields::new(tokens, &["turn", "side", "case"], 0)?;
            let line = OnlyArrivals {
                turn: f.number("turn", 999)?,
                side: f.id("side")?,
                case: f.case()?,
            };
            push(&mut s.only_arrivals, line, &head)
        }
        "assault-plan" => {
            let f = Fields::new(tokens, &["side", "latest", "reluctant", "case"], 0)?;
            if s.plan.is_some() {
                return Err(TextError::at(&head, "`assault-plan` given twice"));
            }
            s.plan = Some(PlanSpec {
                side: f.id("side")?,
                case: f.case()?,
                latest: f.number("latest", 999)?,
                reluctant: f.opt_id("reluctant")?,
                areas: Vec::new(),
                divisions: Vec::new(),
                attach: Vec::new(),
                attach_to: Vec::new(),
                cavalry: Vec::new(),
            });
            Ok(())
        }
        "plan-area" | "plan-division" | "plan-attach" | "plan-cavalry" => {
            let f = Fields::new(tokens, &["from", "units", "to", "case"], 1)?;
            let plan = s.plan.as_mut().ok_or_else(|| {
                TextError::at(&head, format!("`{}` comes after `assault-plan`", head.text))
            })?;
            match head.text {
                "plan-area" => {
                    let w = f.word(0, "an area id")?;
                    let from = f.number_or("from", 999, 1)?;
                    push(&mut plan.areas, (id(&w, w.text)?, from), &head)
                }
                "plan-division" => {
                    let w = f.word(0, "a division leader")?;
                    push(&mut plan.divisions, id(&w, w.text)?, &head)
                }
                "plan-attach" => {
                    plan.attach = f.list("units")?;
                    plan.attach_to = f.list("to")?;
                    Ok(())
                }
                _ => {
                    plan.cavalry = f.list("units")?;
                    Ok(())
                }
            }
        }
        "night" => {
            let f = Fields::new(tokens, &["from", "to", "case"], 0)?;
            let night = Night {
                from: f.number("from", 999)?,
                to: f.number("to", 999)?,
                case: f.case()?,
            };
            if night.from > night.to || s.night.is_some() {
                return Err(TextError::at(
                    &head,
                    "one `night` line, `from=` up to `to=`",
                ));
            }
            s.night = Some(night);
            Ok(())
        }
        "exit" => {
            let f = Fields::new(tokens, &["mp", "vp"], 1)?;
            let w = f.word(0, "a hex")?;
            let mut vp = BTreeMap::new();
            if let Some((t, v)) = f.get("vp") {
                for part in v.split(',').take(MAX_LIST + 1) {
                    let Some((side, n)) = part.split_once(':') else {
                        return Err(TextError::at(&t, "write exit points as `side:N,side:N`"));
                    };
                    if vp
                        .insert(id(&t, side)?, bounded(&t, n, "vp", 999)?)
                        .is_some()
                    {
                        return Err(TextError::at(&t, "side given twice"));
                    }
                }
            }
            push(
                &mut s.victory.exits,
                ExitHex {
                    hex: hex(&w, w.text)?,
                    mp: f.number("mp", 99)?,
                    vp,
                },
                &head,
            )
        }
        "replace" => {
            let f = Fields::new(tokens, &["by", "case"], 1)?;
            let w = f.word(0, "a leader id")?;
            let r = Replacement {
                leader: id(&w, w.text)?,
                by: f.list("by")?,
                case: f.case()?,
            };
            if r.by.is_empty() {
                return Err(TextError::at(&head, "`replace` needs `by=`"));
            }
            push(&mut s.replacements, r, &head)
        }
        "hook" => {
            let keys: Vec<&str> = tokens[1..]
                .iter()
                .filter_map(|t| text::key_value(t).map(|(k, _)| k))
                .collect();
            let f = Fields::new(tokens, &keys, 1)?;
            let w = f.word(0, "a hook name")?;
            let kind: HookKind = named(&w, "hook")?;
            if s.hooks.iter().any(|h| h.kind == kind) {
                return Err(TextError::at(&w, "hook given twice"));
            }
            let params = f
                .values
                .iter()
                .filter(|(k, _)| **k != "case")
                .map(|(k, (_, v))| (k.to_string(), v.to_string()))
                .collect();
            push(
                &mut s.hooks,
                Hook {
                    kind,
                    case: f.case()?,
                    params,
                },
                &head,
            )
        }
        other => Err(TextError::at(
            &head,
            format!(
                "unknown line `{other}` (name, battle, map, oob, north, side, first-player, skip-player-turn, length, area, setup, restrict, option, arrive, victory, victory-level, vp-loss, vp-leader, vp-bce, victory-hex, victory-hexes, victory-tally, victory-band, victory-check, vp-battery, vp-casualties, vp-reserve, exit, replace, hook, reserves, reserve, only-arrivals, night, assault-plan, plan-area, plan-division, plan-attach, plan-cavalry)"
            ),
        )),
    }
}
