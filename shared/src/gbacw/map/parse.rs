//! The plain-text map format: one line per hex that differs from the
//! default, one line per hexside with features, so a change to a map reads
//! as a one-line diff.
//!
//! ```text
//! gbacw-map 1                     # format and version: the first line
//! name "Test ground"
//! reconstruction "Not the printed map: ..."   # required, shown to players
//! orientation flat                # flat | pointy
//! offset even                     # even | odd: which columns sit half a hex down
//! columns 01-12                   # first-last column, inclusive
//! rows 01-10
//! levels 0=0 1=20 2=40            # elevation level = height in feet
//! default clear level=0           # every hex not listed below
//! hex 0203 woods orchard level=1 name="Mill"
//! hex 0204 level=1                # terrain from the default
//! side 0203/0204 stream ford      # features of one hexside, all on one line
//! side 0304/0305 crest:0304       # directed: crest names its higher hex
//! side 0506/0606 works:0506       # works, walls, redans name their inner hex
//! area assault-a 2501 2601 2701   # a named set of hexes printed on the map
//! ```
//!
//! `area` lines (optional, added for Corinth's Assault Areas, 29.1) name a
//! set of hexes the rules refer to as a whole; an area may span several
//! lines, and one hex may belong to several areas (Corinth 29.1: "hex 2501
//! is an entry hex for both Areas A and B").
//!
//! The header (everything before the first `hex` or `side`) must give the
//! grid; `default` is optional (clear, level 0). Errors name the line and
//! column, and the whole input is refused above [`MAX_MAP_BYTES`].

use super::coord::{Grid, HexNumber, Offset, Orientation};
use super::model::{HexInfo, Map};
use super::terrain::{SideFeature, SideKind, Terrain};
use crate::gbacw::names::Named;
use crate::gbacw::text::{self, TextError, Token};
use std::collections::{BTreeMap, BTreeSet};

/// Largest map file accepted: a 99x99 map with long lines fits in far less.
pub const MAX_MAP_BYTES: usize = 1 << 20;

const FORMAT: &str = "gbacw-map";
const VERSION: &str = "1";

/// Header fields gathered before the first hex or hexside line.
#[derive(Default)]
struct Header {
    name: Option<String>,
    reconstruction: Option<String>,
    orientation: Option<Orientation>,
    offset: Option<Offset>,
    cols: Option<(u8, u8)>,
    rows: Option<(u8, u8)>,
    levels: BTreeMap<u8, u16>,
    default: Option<HexInfo>,
}

/// Parse a map file. Never panics; the first error stops the parse.
pub fn parse_map(input: &str) -> Result<Map, TextError> {
    text::check_size(input, MAX_MAP_BYTES, "map file")?;
    let mut header = Header::default();
    let mut seen_format = false;
    // Filled once the header is complete (at the first hex/side line).
    let mut body: Option<Body> = None;
    let mut last_line = 0;

    for tokens in text::lines(input) {
        let tokens = tokens?;
        let head = tokens[0];
        last_line = head.line;
        if !seen_format {
            if head.text != FORMAT {
                return Err(TextError::at(
                    &head,
                    format!("a map file starts with `{FORMAT} {VERSION}`"),
                ));
            }
            match tokens.get(1) {
                Some(v) if v.text == VERSION && tokens.len() == 2 => {}
                Some(v) => {
                    return Err(TextError::at(
                        v,
                        format!("unsupported map format version `{}`", v.text),
                    ));
                }
                None => return Err(TextError::at(&head, "missing format version")),
            }
            seen_format = true;
            continue;
        }
        match head.text {
            "hex" | "side" | "area" => {
                if body.is_none() {
                    body = Some(Body::new(&header, &head)?);
                }
                let Some(b) = body.as_mut() else {
                    continue;
                };
                match head.text {
                    "hex" => b.hex_line(&tokens)?,
                    "side" => b.side_line(&tokens)?,
                    _ => b.area_line(&tokens)?,
                }
            }
            _ if body.is_some() => {
                return Err(TextError::at(
                    &head,
                    format!(
                        "`{}` belongs in the header, before the first hex or side line",
                        head.text
                    ),
                ));
            }
            _ => header_line(&mut header, &tokens)?,
        }
    }
    if !seen_format {
        return Err(TextError::line(
            1,
            format!("empty map file: expected `{FORMAT} {VERSION}`"),
        ));
    }
    let eof = Token {
        text: "",
        line: last_line,
        column: 1,
    };
    let body = match body {
        Some(b) => b,
        None => Body::new(&header, &eof)?,
    };
    Ok(body.finish(header))
}

fn one_arg<'a>(tokens: &[Token<'a>]) -> Result<Token<'a>, TextError> {
    match tokens {
        [_, arg] => Ok(*arg),
        [head] => Err(TextError::at(
            head,
            format!("`{}` needs a value", head.text),
        )),
        [_, _, extra, ..] => Err(TextError::at(extra, "unexpected extra value")),
        [] => Err(TextError::line(0, "empty line")),
    }
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(s)
}

fn header_line(h: &mut Header, tokens: &[Token<'_>]) -> Result<(), TextError> {
    let head = tokens[0];
    let once = |already: bool| -> Result<(), TextError> {
        if already {
            Err(TextError::at(&head, format!("`{}` given twice", head.text)))
        } else {
            Ok(())
        }
    };
    match head.text {
        "name" => {
            once(h.name.is_some())?;
            h.name = Some(unquote(one_arg(tokens)?.text).to_string());
        }
        "reconstruction" => {
            once(h.reconstruction.is_some())?;
            h.reconstruction = Some(unquote(one_arg(tokens)?.text).to_string());
        }
        "orientation" => {
            once(h.orientation.is_some())?;
            let v = one_arg(tokens)?;
            h.orientation = Some(match v.text {
                "flat" => Orientation::Flat,
                "pointy" => Orientation::Pointy,
                _ => return Err(TextError::at(&v, "orientation is `flat` or `pointy`")),
            });
        }
        "offset" => {
            once(h.offset.is_some())?;
            let v = one_arg(tokens)?;
            h.offset = Some(match v.text {
                "even" => Offset::Even,
                "odd" => Offset::Odd,
                _ => return Err(TextError::at(&v, "offset is `even` or `odd`")),
            });
        }
        "columns" => {
            once(h.cols.is_some())?;
            h.cols = Some(range(&one_arg(tokens)?)?);
        }
        "rows" => {
            once(h.rows.is_some())?;
            h.rows = Some(range(&one_arg(tokens)?)?);
        }
        "levels" => {
            once(!h.levels.is_empty())?;
            if tokens.len() < 2 {
                return Err(TextError::at(
                    &head,
                    "`levels` needs at least one LEVEL=FEET",
                ));
            }
            for t in &tokens[1..] {
                let (l, f) = t
                    .text
                    .split_once('=')
                    .ok_or_else(|| TextError::at(t, "write each level as LEVEL=FEET, e.g. 1=20"))?;
                let level: u8 = text::number(t, l, "level")?;
                let feet: u16 = text::number(t, f, "feet")?;
                if h.levels.insert(level, feet).is_some() {
                    return Err(TextError::at(t, format!("level {level} given twice")));
                }
            }
        }
        "default" => {
            once(h.default.is_some())?;
            let words = hex_words(&tokens[1..])?;
            if words.name.is_some() {
                return Err(TextError::at(&head, "the default hex has no name"));
            }
            if words.terrain.is_empty() {
                return Err(TextError::at(&head, "the default needs a terrain type"));
            }
            h.default = Some(words.or_default(&HexInfo {
                terrain: BTreeSet::new(),
                level: 0,
                name: None,
            }));
        }
        other => {
            return Err(TextError::at(
                &head,
                format!(
                    "unknown line `{other}` (expected a header field, `hex`, `side` or `area`)"
                ),
            ));
        }
    }
    Ok(())
}

/// `01-12`: an inclusive range of two-digit numbers.
fn range(t: &Token<'_>) -> Result<(u8, u8), TextError> {
    let (a, b) = t
        .text
        .split_once('-')
        .ok_or_else(|| TextError::at(t, "write a range as FIRST-LAST, e.g. 01-32"))?;
    let a: u8 = text::number(t, a, "range start")?;
    let b: u8 = text::number(t, b, "range end")?;
    if a > b || b > 99 {
        return Err(TextError::at(
            t,
            "a range runs from low to high, within 00-99",
        ));
    }
    Ok((a, b))
}

/// What a `hex` or `default` line says; unsaid parts come from the default.
struct HexWords {
    terrain: BTreeSet<Terrain>,
    level: Option<u8>,
    name: Option<String>,
}

impl HexWords {
    fn or_default(self, default: &HexInfo) -> HexInfo {
        HexInfo {
            terrain: if self.terrain.is_empty() {
                default.terrain.clone()
            } else {
                self.terrain
            },
            level: self.level.unwrap_or(default.level),
            name: self.name,
        }
    }
}

/// The terrain words and `level=`/`name=` of a `hex` or `default` line.
fn hex_words(tokens: &[Token<'_>]) -> Result<HexWords, TextError> {
    let mut terrain = BTreeSet::new();
    let mut level = None;
    let mut name = None;
    for t in tokens {
        if let Some((key, value)) = text::key_value(t) {
            match key {
                "level" if level.is_none() => level = Some(text::number(t, value, "level")?),
                "name" if name.is_none() => name = Some(value.to_string()),
                "level" | "name" => return Err(TextError::at(t, format!("`{key}` given twice"))),
                _ => {
                    return Err(TextError::at(
                        t,
                        format!("unknown key `{key}` (level, name)"),
                    ));
                }
            }
        } else {
            let kind = Terrain::from_name(t.text).ok_or_else(|| {
                let names = Terrain::name_list();
                TextError::at(
                    t,
                    format!("unknown terrain `{}` (one of {})", t.text, names),
                )
            })?;
            if !terrain.insert(kind) {
                return Err(TextError::at(t, format!("terrain `{kind}` given twice")));
            }
        }
    }
    Ok(HexWords {
        terrain,
        level,
        name,
    })
}

/// The hex and hexside lines, checked against the finished header.
struct Body {
    grid: Grid,
    default: HexInfo,
    levels: BTreeMap<u8, u16>,
    hexes: BTreeMap<HexNumber, HexInfo>,
    hex_lines: BTreeMap<HexNumber, usize>,
    sides: BTreeMap<super::coord::Hexside, BTreeSet<SideFeature>>,
    side_lines: BTreeMap<super::coord::Hexside, usize>,
    areas: BTreeMap<String, BTreeSet<HexNumber>>,
}

impl Body {
    fn new(h: &Header, at: &Token<'_>) -> Result<Self, TextError> {
        let missing =
            |what: &str| TextError::at(at, format!("the header must give `{what}` first"));
        let grid = Grid {
            orientation: h.orientation.ok_or_else(|| missing("orientation"))?,
            offset: h.offset.ok_or_else(|| missing("offset"))?,
            cols: h.cols.ok_or_else(|| missing("columns"))?,
            rows: h.rows.ok_or_else(|| missing("rows"))?,
        };
        if h.name.is_none() {
            return Err(missing("name"));
        }
        if h.reconstruction.is_none() {
            return Err(missing("reconstruction"));
        }
        if h.levels.is_empty() {
            return Err(missing("levels"));
        }
        let default = h.default.clone().unwrap_or_else(|| HexInfo {
            terrain: BTreeSet::from([Terrain::Clear]),
            level: 0,
            name: None,
        });
        if !h.levels.contains_key(&default.level) {
            return Err(TextError::at(
                at,
                format!(
                    "the default level {} has no height in `levels`",
                    default.level
                ),
            ));
        }
        Ok(Body {
            grid,
            default,
            levels: h.levels.clone(),
            hexes: BTreeMap::new(),
            hex_lines: BTreeMap::new(),
            sides: BTreeMap::new(),
            side_lines: BTreeMap::new(),
            areas: BTreeMap::new(),
        })
    }

    fn hex_number(&self, t: &Token<'_>, text: &str) -> Result<HexNumber, TextError> {
        HexNumber::parse(text)
            .ok_or_else(|| TextError::at(t, format!("`{text}` is not a four-digit hex number")))
    }

    fn hex_line(&mut self, tokens: &[Token<'_>]) -> Result<(), TextError> {
        let head = tokens[0];
        let num_t = tokens
            .get(1)
            .ok_or_else(|| TextError::at(&head, "`hex` needs a hex number"))?;
        let n = self.hex_number(num_t, num_t.text)?;
        if !self.grid.contains(n) {
            return Err(TextError::at(num_t, format!("hex {n} is off the map")));
        }
        if let Some(first) = self.hex_lines.get(&n) {
            return Err(TextError::at(
                num_t,
                format!("hex {n} already given on line {first}"),
            ));
        }
        let words = hex_words(&tokens[2..])?;
        if words.terrain.is_empty() && words.level.is_none() && words.name.is_none() {
            return Err(TextError::at(
                num_t,
                "a hex line says how the hex differs from the default",
            ));
        }
        let info = words.or_default(&self.default);
        if !self.levels.contains_key(&info.level) {
            let at = tokens
                .iter()
                .find(|t| t.text.starts_with("level="))
                .unwrap_or(num_t);
            return Err(TextError::at(
                at,
                format!("level {} has no height in `levels`", info.level),
            ));
        }
        self.hex_lines.insert(n, head.line);
        self.hexes.insert(n, info);
        Ok(())
    }

    fn side_line(&mut self, tokens: &[Token<'_>]) -> Result<(), TextError> {
        let head = tokens[0];
        let pair = tokens
            .get(1)
            .ok_or_else(|| TextError::at(&head, "`side` needs two hexes, e.g. 2437/2438"))?;
        let (a, b) = pair
            .text
            .split_once('/')
            .ok_or_else(|| TextError::at(pair, "write a hexside as HEX/HEX, e.g. 2437/2438"))?;
        let (a, b) = (self.hex_number(pair, a)?, self.hex_number(pair, b)?);
        let side = self
            .grid
            .hexside(a, b)
            .ok_or_else(|| TextError::at(pair, format!("{a} and {b} are not adjacent")))?;
        if !self.grid.contains(a) && !self.grid.contains(b) {
            return Err(TextError::at(
                pair,
                format!("hexside {side} is off the map"),
            ));
        }
        if let Some(first) = self.side_lines.get(&side) {
            return Err(TextError::at(
                pair,
                format!(
                    "hexside {side} already given on line {first}; list all its features on one line"
                ),
            ));
        }
        let mut features = BTreeSet::new();
        let mut kinds = BTreeSet::new();
        for t in &tokens[2..] {
            let (word, at) = match t.text.split_once(':') {
                Some((w, h)) => (w, Some(h)),
                None => (t.text, None),
            };
            let kind = SideKind::from_name(word).ok_or_else(|| {
                let names = SideKind::name_list();
                TextError::at(
                    t,
                    format!("unknown hexside feature `{word}` (one of {})", names),
                )
            })?;
            let side_hex = match (kind.is_directed(), at) {
                (true, Some(h)) => {
                    let h = self.hex_number(t, h)?;
                    if !side.touches(h) {
                        return Err(TextError::at(
                            t,
                            format!("{h} is not one of the hexes of {side}"),
                        ));
                    }
                    Some(h)
                }
                (true, None) => {
                    return Err(TextError::at(
                        t,
                        format!(
                            "`{word}` must name {}, e.g. {word}:{a}",
                            kind.side_meaning()
                        ),
                    ));
                }
                (false, Some(_)) => {
                    return Err(TextError::at(
                        t,
                        format!("`{word}` has no side; drop the `:`"),
                    ));
                }
                (false, None) => None,
            };
            if !kinds.insert(kind) {
                return Err(TextError::at(t, format!("`{word}` given twice")));
            }
            features.insert(SideFeature {
                kind,
                side: side_hex,
            });
        }
        if features.is_empty() {
            return Err(TextError::at(
                pair,
                "a side line needs at least one feature",
            ));
        }
        // A ford or bridge is a way over water: without the water the line
        // is surely a typo.
        let water = kinds.contains(&SideKind::Stream) || kinds.contains(&SideKind::Run);
        if let Some(t) = tokens[2..]
            .iter()
            .find(|t| t.text == "ford" || t.text == "bridge")
            .filter(|_| !water)
        {
            return Err(TextError::at(
                t,
                format!("`{}` needs a stream or run on the same hexside", t.text),
            ));
        }
        self.side_lines.insert(side, head.line);
        self.sides.insert(side, features);
        Ok(())
    }

    /// `area ID HEX...`: adds the hexes to the named area.
    fn area_line(&mut self, tokens: &[Token<'_>]) -> Result<(), TextError> {
        let head = tokens[0];
        let id = tokens
            .get(1)
            .ok_or_else(|| TextError::at(&head, "`area` needs a name, e.g. area assault-a 2501"))?;
        if id.text.is_empty()
            || !id
                .text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(TextError::at(
                id,
                "an area name is lower-case letters, digits and `-`",
            ));
        }
        if tokens.len() < 3 {
            return Err(TextError::at(id, "an area line lists at least one hex"));
        }
        let mut hexes = Vec::with_capacity(tokens.len() - 2);
        for t in &tokens[2..] {
            let n = self.hex_number(t, t.text)?;
            if !self.grid.contains(n) {
                return Err(TextError::at(t, format!("hex {n} is off the map")));
            }
            hexes.push(n);
        }
        self.areas
            .entry(id.text.to_string())
            .or_default()
            .extend(hexes);
        Ok(())
    }

    fn finish(mut self, h: Header) -> Map {
        for n in self.grid.hexes() {
            self.hexes.entry(n).or_insert_with(|| self.default.clone());
        }
        Map {
            name: h.name.unwrap_or_default(),
            reconstruction: h.reconstruction.unwrap_or_default(),
            grid: self.grid,
            level_feet: self.levels,
            hexes: self.hexes,
            sides: self.sides,
            areas: self.areas,
        }
    }
}
