//! The plain-text order-of-battle format: one line per counter, grouped
//! under the side that owns them, leaders before the units they command.
//!
//! ```text
//! gbacw-oob 1
//! name "Test order of battle"
//! side union name="Union"
//! army banks name="Banks" cp=1
//! division williams name="Williams" army=banks dir=6 cp=2
//! brigade crawford name="Crawford" division=williams er=5 rally=2 promoted=5 repl=3/1/4
//! brigade bayard name="Bayard" indpnt er=3 rally=1 repl=2/1
//! replacement u-repl name="Brigade Cmdr" er=2 rally=1 promoted=2
//! infantry 5-conn name="5 Conn" brigade=crawford morale=5 weapon=R strength=6
//! cavalry 1-me-c name="1 Me c" indpnt morale=? weapon=C strength=5
//! battery 4-me name="4 Me" indpnt morale=4 weapon=TA guns=6 rounds=20
//! wagon supply-u name="Supply" morale=4 weapon=R strength=1 small-arms=10 artillery=6
//! ```
//!
//! Optional keys added for the battle files (older files stay valid):
//! `bce=LIMIT/TOTAL bce-vp=N` on a brigade copies its OB Roster record
//! ("13 of 18 = 17 VP's", 17.5, Cedar Mountain 27.21); `roster=N` on a unit
//! gives the roster's strength boxes where the roster prints them
//! (independent units, batteries), so [`super::roster`] can compare them
//! with the counter; `mounted-morale=N` on a cavalry counter is the morale
//! printed on its mounted side when it differs from `morale=` (the
//! dismounted front, Cedar Mountain 21.1).
//!
//! Optional keys for Corinth's exclusive rules (older files stay valid;
//! kept in [`Oob::extras`](super::Oob::extras)): `rank=col|bg|mg|gen` on a
//! leader (Corinth 20.2, used by 28.32; `gen` is the single Confederate
//! general's symbol); `bce-day2=N` on a brigade with `bce=`, the roster's
//! second-day limit (Corinth 26.31); the flag `sharpshooter` on an infantry
//! or cavalry counter printed "SS" (Corinth 21.3); and `provisional="why"`
//! on any counter line whose values are not all printed in the seeds.
//!
//! `indpnt` marks an independent brigade or unit (5.3, 17.66); wagons are
//! always independent (11.13). `morale=?` is a green unit (13.12). A
//! `repl=ER/RALLY[/PROMOTED]` gives a brigade counter's replacement side
//! (17.81). Weapon codes must be on the Range Effects Chart with the right
//! kind (9.21). Errors name line and column; input is size-limited.

use super::counter::{Command, CounterId, Morale, Unit, UnitKind};
use super::leader::{BrigadeRatings, Leader, LeaderRole};
use super::roster::Bce;
use super::{CounterExtras, Oob, Rank};
use crate::gbacw::charts::{RangeChart, WeaponKind};
use crate::gbacw::text::{self, TextError, Token};
use std::collections::BTreeMap;

/// Largest order-of-battle file accepted.
pub const MAX_OOB_BYTES: usize = 256 * 1024;
/// Most counters (units and leaders) in one order of battle.
pub const MAX_COUNTERS: usize = 2000;

const FORMAT: &str = "gbacw-oob 1";

/// Parse an order of battle, checking weapon codes against `range`.
pub fn parse_oob(input: &str, range: &RangeChart) -> Result<Oob, TextError> {
    text::check_size(input, MAX_OOB_BYTES, "order of battle")?;
    let mut p = Parser {
        range,
        oob: Oob::default(),
        side: None,
        last_line: 0,
    };
    let mut seen_format = false;
    for tokens in text::lines(input) {
        let tokens = tokens?;
        let head = tokens[0];
        p.last_line = head.line;
        if !seen_format {
            let words: Vec<&str> = tokens.iter().map(|t| t.text).collect();
            if words.join(" ") != FORMAT {
                return Err(TextError::at(
                    &head,
                    format!("an order of battle starts with `{FORMAT}`"),
                ));
            }
            seen_format = true;
            continue;
        }
        p.line(&tokens)?;
    }
    if !seen_format {
        return Err(TextError::line(
            1,
            format!("empty order of battle: expected `{FORMAT}`"),
        ));
    }
    if p.oob.sides.len() != 2 {
        return Err(TextError::line(
            p.last_line,
            format!(
                "an order of battle has two sides, found {}",
                p.oob.sides.len()
            ),
        ));
    }
    Ok(p.oob)
}

struct Parser<'r> {
    range: &'r RangeChart,
    oob: Oob,
    /// The side the following counters belong to.
    side: Option<CounterId>,
    last_line: usize,
}

/// A line's `key=value` words and bare flags, each kept with its token.
struct Fields<'a> {
    head: Token<'a>,
    values: BTreeMap<&'a str, (Token<'a>, &'a str)>,
    flags: BTreeMap<&'a str, Token<'a>>,
}

impl<'a> Fields<'a> {
    fn new(
        head: Token<'a>,
        tokens: &[Token<'a>],
        allowed: &[&str],
        allowed_flags: &[&str],
    ) -> Result<Self, TextError> {
        let mut values = BTreeMap::new();
        let mut flags = BTreeMap::new();
        for t in tokens {
            match text::key_value(t) {
                Some((k, v)) => {
                    if !allowed.contains(&k) {
                        return Err(TextError::at(
                            t,
                            format!("unknown key `{k}` here (expected {})", allowed.join(", ")),
                        ));
                    }
                    if values.insert(k, (*t, v)).is_some() {
                        return Err(TextError::at(t, format!("`{k}` given twice")));
                    }
                }
                None => {
                    if !allowed_flags.contains(&t.text) {
                        return Err(TextError::at(t, format!("unexpected `{}`", t.text)));
                    }
                    flags.insert(t.text, *t);
                }
            }
        }
        Ok(Fields {
            head,
            values,
            flags,
        })
    }

    fn get(&self, key: &str) -> Option<(Token<'a>, &'a str)> {
        self.values.get(key).copied()
    }

    fn need(&self, key: &str) -> Result<(Token<'a>, &'a str), TextError> {
        self.get(key).ok_or_else(|| {
            TextError::at(&self.head, format!("`{}` needs `{key}=`", self.head.text))
        })
    }

    fn number(&self, key: &str, range: std::ops::RangeInclusive<u16>) -> Result<u16, TextError> {
        let (t, v) = self.need(key)?;
        number_in(&t, v, key, range)
    }

    fn small(&self, key: &str, max: u8) -> Result<u8, TextError> {
        let n = self.number(key, 0..=u16::from(max))?;
        Ok(u8::try_from(n).unwrap_or(max))
    }

    fn flag(&self, name: &str) -> Option<Token<'a>> {
        self.flags.get(name).copied()
    }
}

fn number_in(
    t: &Token<'_>,
    v: &str,
    key: &str,
    range: std::ops::RangeInclusive<u16>,
) -> Result<u16, TextError> {
    let n: u16 = text::number(t, v, key)?;
    if !range.contains(&n) {
        return Err(TextError::at(
            t,
            format!("`{key}` must be {} to {}", range.start(), range.end()),
        ));
    }
    Ok(n)
}

/// `ER/RALLY[/PROMOTED]`.
fn ratings(t: &Token<'_>, v: &str) -> Result<BrigadeRatings, TextError> {
    let parts: Vec<&str> = v.split('/').collect();
    let n = |s: &str| -> Result<u8, TextError> {
        let x = number_in(t, s, "rating", 0..=20)?;
        Ok(u8::try_from(x).unwrap_or(20))
    };
    match parts.as_slice() {
        [er, rally] => Ok(BrigadeRatings {
            effectiveness_radius: n(er)?,
            rally: n(rally)?,
            promoted_radius: None,
        }),
        [er, rally, promoted] => Ok(BrigadeRatings {
            effectiveness_radius: n(er)?,
            rally: n(rally)?,
            promoted_radius: Some(n(promoted)?),
        }),
        _ => Err(TextError::at(
            t,
            "write replacement ratings as ER/RALLY or ER/RALLY/PROMOTED",
        )),
    }
}

const LEADER_KEYS: &[&str] = &[
    "name", "cp", "army", "dir", "division", "er", "rally", "promoted", "repl", "bce", "bce-vp",
];
const UNIT_KEYS: &[&str] = &[
    "name",
    "brigade",
    "morale",
    "weapon",
    "strength",
    "guns",
    "rounds",
    "small-arms",
    "artillery",
    "roster",
    "mounted-morale",
];

impl Parser<'_> {
    fn line(&mut self, tokens: &[Token<'_>]) -> Result<(), TextError> {
        let head = tokens[0];
        if head.text == "name" {
            let [_, v] = tokens else {
                return Err(TextError::at(&head, "`name` takes one quoted value"));
            };
            if !self.oob.name.is_empty() {
                return Err(TextError::at(&head, "`name` given twice"));
            }
            self.oob.name = v.text.trim_matches('"').to_string();
            return Ok(());
        }
        let id_t = tokens
            .get(1)
            .ok_or_else(|| TextError::at(&head, format!("`{}` needs an id", head.text)))?;
        let id = CounterId::parse(id_t.text).ok_or_else(|| {
            TextError::at(id_t, "an id is 1-32 lower-case letters, digits, `-` or `_`")
        })?;
        if self.oob.units.contains_key(&id)
            || self.oob.leaders.contains_key(&id)
            || self.oob.sides.contains_key(&id)
        {
            return Err(TextError::at(id_t, format!("id `{id}` already used")));
        }
        if self.oob.units.len() + self.oob.leaders.len() >= MAX_COUNTERS {
            return Err(TextError::at(
                &head,
                format!("more than {MAX_COUNTERS} counters"),
            ));
        }
        // The Corinth keys are read apart, so the Standard keys' checks
        // below stay as they were.
        let (extra, rest): (Vec<Token<'_>>, Vec<Token<'_>>) =
            tokens[2..].iter().partition(|t| is_extra(t));
        let rest = &rest[..];
        if head.text == "side" {
            if let Some(t) = extra.first() {
                return Err(TextError::at(t, "a side line takes only `name=`"));
            }
            let f = Fields::new(head, rest, &["name"], &[])?;
            let name = f.need("name")?.1.to_string();
            self.oob.sides.insert(id.clone(), name);
            self.side = Some(id);
            return Ok(());
        }
        let side = self
            .side
            .clone()
            .ok_or_else(|| TextError::at(&head, "declare a `side` before its counters"))?;
        match head.text {
            "army" | "division" | "brigade" | "replacement" => {
                let f = Fields::new(head, rest, LEADER_KEYS, &["indpnt"])?;
                let x = extras(head, &extra, f.get("bce").is_some())?;
                let role = self.leader_role(&f, &side)?;
                if let Some(bce) = bce(&f)? {
                    if let Some(day2) = x.bce_day2 {
                        // Corinth 26.32: the limit only grows, never past the total.
                        if day2 < bce.limit || day2 > bce.total {
                            let t = extra.iter().find(|t| t.text.starts_with("bce-day2="));
                            return Err(TextError::at(
                                t.unwrap_or(&head),
                                "`bce-day2=` lies between the first-day limit and the total",
                            ));
                        }
                    }
                    self.oob.bce.insert(id.clone(), bce);
                }
                if x.bce_day2.is_some() && head.text != "brigade" {
                    return Err(TextError::at(&head, "only a brigade has a BCE limit"));
                }
                if x != CounterExtras::default() {
                    self.oob.extras.insert(id.clone(), x);
                }
                let name = f.need("name")?.1.to_string();
                self.oob.leaders.insert(
                    id.clone(),
                    Leader {
                        id,
                        side,
                        name,
                        role,
                    },
                );
            }
            "infantry" | "cavalry" | "battery" | "wagon" => {
                let f = Fields::new(head, rest, UNIT_KEYS, &["indpnt"])?;
                let x = extras(head, &extra, false)?;
                let unit = self.unit(&f, id.clone(), side)?;
                if x != CounterExtras::default() {
                    self.oob.extras.insert(id.clone(), x);
                }
                self.oob.units.insert(id, unit);
            }
            other => {
                return Err(TextError::at(
                    &head,
                    format!(
                        "unknown line `{other}` (side, army, division, brigade, replacement, infantry, cavalry, battery, wagon)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A reference to an earlier leader of the same side with the given role.
    fn superior(
        &self,
        f: &Fields<'_>,
        key: &str,
        side: &CounterId,
        is_role: fn(&LeaderRole) -> bool,
    ) -> Result<Option<CounterId>, TextError> {
        let Some((t, v)) = f.get(key) else {
            return Ok(None);
        };
        let found = CounterId::parse(v)
            .and_then(|id| self.oob.leaders.get(&id))
            .filter(|l| &l.side == side && is_role(&l.role));
        match found {
            Some(l) => Ok(Some(l.id.clone())),
            None => Err(TextError::at(
                &t,
                format!("no {key} `{v}` of this side declared above"),
            )),
        }
    }

    fn only(f: &Fields<'_>, keys: &[&str]) -> Result<(), TextError> {
        if let Some((k, (t, _))) = f.values.iter().find(|(k, _)| !keys.contains(k)) {
            return Err(TextError::at(
                t,
                format!("`{k}` does not apply to a {}", f.head.text),
            ));
        }
        if let Some(t) = f.flag("indpnt").filter(|_| !keys.contains(&"indpnt")) {
            return Err(TextError::at(
                &t,
                format!("`indpnt` does not apply to a {}", f.head.text),
            ));
        }
        Ok(())
    }

    fn leader_role(&self, f: &Fields<'_>, side: &CounterId) -> Result<LeaderRole, TextError> {
        let brigade_ratings = |f: &Fields<'_>| -> Result<BrigadeRatings, TextError> {
            Ok(BrigadeRatings {
                effectiveness_radius: f.small("er", 20)?,
                rally: f.small("rally", 20)?,
                promoted_radius: match f.get("promoted") {
                    Some(_) => Some(f.small("promoted", 20)?),
                    None => None,
                },
            })
        };
        Ok(match f.head.text {
            "army" => {
                Self::only(f, &["name", "cp"])?;
                LeaderRole::Army {
                    command_points: f.small("cp", 20)?,
                }
            }
            "division" => {
                Self::only(f, &["name", "army", "dir", "cp"])?;
                LeaderRole::Division {
                    army: self
                        .superior(f, "army", side, |r| matches!(r, LeaderRole::Army { .. }))?,
                    integrity_radius: f.small("dir", 20)?,
                    command_points: f.small("cp", 20)?,
                }
            }
            "brigade" => {
                Self::only(
                    f,
                    &[
                        "name", "division", "er", "rally", "promoted", "repl", "indpnt", "bce",
                        "bce-vp",
                    ],
                )?;
                let division = self.superior(f, "division", side, |r| {
                    matches!(r, LeaderRole::Division { .. })
                })?;
                let indpnt = f.flag("indpnt");
                match (&division, indpnt) {
                    (Some(_), Some(t)) => {
                        return Err(TextError::at(
                            &t,
                            "a brigade is either in a division or `indpnt`, not both",
                        ));
                    }
                    (None, None) => {
                        return Err(TextError::at(
                            &f.head,
                            "a brigade needs `division=` or `indpnt` (17.66)",
                        ));
                    }
                    _ => {}
                }
                LeaderRole::Brigade {
                    division,
                    ratings: brigade_ratings(f)?,
                    replacement: match f.get("repl") {
                        Some((t, v)) => Some(ratings(&t, v)?),
                        None => None,
                    },
                }
            }
            _ => {
                Self::only(f, &["name", "er", "rally", "promoted"])?;
                LeaderRole::Replacement {
                    ratings: brigade_ratings(f)?,
                }
            }
        })
    }

    fn unit(&self, f: &Fields<'_>, id: CounterId, side: CounterId) -> Result<Unit, TextError> {
        let common = ["name", "morale", "weapon"];
        let (kind, strength, expected_weapon) = match f.head.text {
            "infantry" | "cavalry" => {
                Self::only(
                    f,
                    &[
                        &common[..],
                        &["brigade", "strength", "indpnt", "roster", "mounted-morale"],
                    ]
                    .concat(),
                )?;
                let kind = if f.head.text == "infantry" {
                    UnitKind::Infantry
                } else {
                    UnitKind::Cavalry
                };
                (kind, f.number("strength", 1..=40)?, WeaponKind::SmallArms)
            }
            "battery" => {
                Self::only(
                    f,
                    &[
                        &common[..],
                        &["brigade", "guns", "rounds", "indpnt", "roster"],
                    ]
                    .concat(),
                )?;
                let rounds = f.number("rounds", 0..=999)?;
                (
                    UnitKind::Battery { rounds },
                    f.number("guns", 1..=24)?,
                    WeaponKind::Artillery,
                )
            }
            _ => {
                Self::only(
                    f,
                    &[&common[..], &["strength", "small-arms", "artillery"]].concat(),
                )?;
                let kind = UnitKind::Wagon {
                    small_arms: f.number("small-arms", 0..=999)?,
                    artillery: f.number("artillery", 0..=999)?,
                };
                (kind, f.number("strength", 1..=40)?, WeaponKind::SmallArms)
            }
        };
        // GBACW 5.3 / 11.13: independent units need no brigade; wagons always are.
        let brigade = self.superior(f, "brigade", &side, |r| {
            matches!(r, LeaderRole::Brigade { .. })
        })?;
        let command = match (brigade, f.flag("indpnt"), &kind) {
            (_, _, UnitKind::Wagon { .. }) => Command::Independent,
            (Some(_), Some(t), _) => {
                return Err(TextError::at(
                    &t,
                    "a unit is either in a brigade or `indpnt`, not both",
                ));
            }
            (Some(b), None, _) => Command::Brigade(b),
            (None, Some(_), _) => Command::Independent,
            (None, None, _) => {
                return Err(TextError::at(
                    &f.head,
                    "a unit needs `brigade=` or `indpnt` (5.3)",
                ));
            }
        };
        let (mt, mv) = f.need("morale")?;
        let morale = if mv == "?" {
            Morale::Green
        } else {
            Morale::Rated(u8::try_from(number_in(&mt, mv, "morale", 1..=5)?).unwrap_or(5))
        };
        let weapon = match f.get("weapon") {
            Some((t, code)) => {
                let w = self.range.weapon(code).ok_or_else(|| {
                    TextError::at(
                        &t,
                        format!("weapon `{code}` is not on the Range Effects Chart (9.21)"),
                    )
                })?;
                if w.kind.value != expected_weapon {
                    return Err(TextError::at(
                        &t,
                        format!("a {} cannot carry weapon `{code}`", f.head.text),
                    ));
                }
                Some(code.to_string())
            }
            None => None,
        };
        let roster_strength = match f.get("roster") {
            Some(_) => Some(f.small("roster", 40)?),
            None => None,
        };
        let mounted_morale = match f.get("mounted-morale") {
            Some((t, _)) if f.head.text != "cavalry" => {
                return Err(TextError::at(&t, "only cavalry has a mounted side (6.14)"));
            }
            Some((t, v)) => {
                Some(u8::try_from(number_in(&t, v, "mounted-morale", 1..=5)?).unwrap_or(5))
            }
            None => None,
        };
        Ok(Unit {
            id,
            side,
            designation: f.need("name")?.1.to_string(),
            kind,
            command,
            morale,
            weapon,
            strength: u8::try_from(strength).unwrap_or(u8::MAX),
            roster_strength,
            mounted_morale,
        })
    }
}

/// A brigade's `bce=LIMIT/TOTAL` and `bce-vp=N`: both or neither.
fn bce(f: &Fields<'_>) -> Result<Option<Bce>, TextError> {
    match (f.get("bce"), f.get("bce-vp")) {
        (None, None) => Ok(None),
        (Some((t, v)), vp) => {
            let Some((limit, total)) = v.split_once('/') else {
                return Err(TextError::at(
                    &t,
                    "write the BCE record as LIMIT/TOTAL, e.g. `bce=13/18`",
                ));
            };
            let limit = number_in(&t, limit, "bce limit", 1..=200)?;
            let total = number_in(&t, total, "bce total", 1..=200)?;
            if limit > total {
                return Err(TextError::at(
                    &t,
                    "the BCE limit cannot exceed the brigade's total",
                ));
            }
            let victory_points = match vp {
                Some((vt, vv)) => number_in(&vt, vv, "bce-vp", 0..=999)?,
                None => {
                    return Err(TextError::at(
                        &t,
                        "`bce=` needs `bce-vp=` (the roster prints both)",
                    ));
                }
            };
            Ok(Some(Bce {
                limit,
                total,
                victory_points,
            }))
        }
        (None, Some((t, _))) => Err(TextError::at(&t, "`bce-vp=` needs `bce=LIMIT/TOTAL`")),
    }
}

/// Whether a word is one of the optional Corinth keys or flags.
fn is_extra(t: &Token<'_>) -> bool {
    t.text == "sharpshooter"
        || ["rank=", "bce-day2=", "provisional="]
            .iter()
            .any(|k| t.text.starts_with(k))
}

/// The Corinth keys of one counter line (see the module comment). `has_bce`
/// says whether the line gives `bce=`, which `bce-day2=` needs.
fn extras(
    head: Token<'_>,
    tokens: &[Token<'_>],
    has_bce: bool,
) -> Result<CounterExtras, TextError> {
    let leader = matches!(head.text, "army" | "division" | "brigade" | "replacement");
    let mut x = CounterExtras::default();
    let mut seen = std::collections::BTreeSet::new();
    for t in tokens {
        let (key, value) = text::key_value(t).unwrap_or((t.text, ""));
        if !seen.insert(key) {
            return Err(TextError::at(t, format!("`{key}` given twice")));
        }
        match key {
            "rank" if leader => {
                x.rank = Some(Rank::from_word(value).ok_or_else(|| {
                    TextError::at(t, "rank is `col`, `bg`, `mg` or `gen` (Corinth 20.2)")
                })?);
            }
            "bce-day2" if head.text == "brigade" && has_bce => {
                x.bce_day2 = Some(number_in(t, value, "bce-day2", 1..=200)?);
            }
            "bce-day2" if head.text == "brigade" => {
                return Err(TextError::at(t, "`bce-day2=` needs `bce=LIMIT/TOTAL`"));
            }
            "sharpshooter" if matches!(head.text, "infantry" | "cavalry") => {
                x.sharpshooter = true;
            }
            "provisional" if !value.is_empty() => x.provisional = Some(value.to_string()),
            "provisional" => return Err(TextError::at(t, "`provisional=` needs a reason")),
            _ => {
                return Err(TextError::at(
                    t,
                    format!("`{key}` does not apply to a {}", head.text),
                ));
            }
        }
    }
    Ok(x)
}
