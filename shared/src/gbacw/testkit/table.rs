//! A GBACW table driven through `decide` and `evolve` ([`T`]), and the
//! words the rule tests write positions and actions in: hexes by number,
//! counters by id, facings by their flat-map word.

use crate::engine::{ActionContext, Dice, RuleError, Ruleset};
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::event::FireReport;
use crate::gbacw::ruleset::state::FireShare;
use crate::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent, GbacwState};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};

/// The first side's seat in every shipped battle (the Union).
pub const UNION: SeatId = SeatId(0);
/// The second side's seat (the Confederates).
pub const REBEL: SeatId = SeatId(1);

/// A hex by its printed number (`"0305"`); panics on a malformed one.
pub fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

/// A counter by its id in the order of battle (`"5-conn"`), unchecked, so
/// that a test may name a counter no battle has.
pub fn id(s: &str) -> CounterId {
    CounterId(s.to_string())
}

pub fn ids(s: &[&str]) -> Vec<CounterId> {
    s.iter().map(|x| id(x)).collect()
}

/// A facing by its flat-map word.
pub fn dir(word: &str) -> Facing {
    Facing::from_name(crate::gbacw::map::Orientation::Flat, word).unwrap()
}

/// A table on a shipped battle, driven through `decide` and `evolve`:
/// the ruleset and its state, both open to the test.
#[derive(Clone)]
pub struct T {
    pub rs: Gbacw,
    pub s: GbacwState,
    /// Die faces still to come, in order, for [`T::act`] (see [`T::script`]).
    pub script: VecDeque<u16>,
}

impl Default for T {
    fn default() -> Self {
        T::new()
    }
}

impl T {
    /// The test battle at its set-up.
    pub fn new() -> T {
        T::battle("test")
    }

    /// The shipped battle `name` at its set-up. Each battle's ruleset is
    /// built once per test process and cloned (building it parses the
    /// map, the order of battle and the charts; Corinth's takes seconds).
    pub fn battle(name: &str) -> T {
        static BUILT: OnceLock<Mutex<HashMap<String, Gbacw>>> = OnceLock::new();
        let rs = {
            let mut built = BUILT
                .get_or_init(Mutex::default)
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            built
                .entry(name.to_string())
                .or_insert_with(|| {
                    Gbacw::new(&GbacwConfig {
                        battle: name.into(),
                        ..GbacwConfig::default()
                    })
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
                })
                .clone()
        };
        let s = rs.initial_state();
        T {
            rs,
            s,
            script: VecDeque::new(),
        }
    }

    /// A table of `config`, built afresh (readings and options vary).
    pub fn with(config: GbacwConfig) -> T {
        let rs = Gbacw::new(&config).unwrap();
        let s = rs.initial_state();
        T {
            rs,
            s,
            script: VecDeque::new(),
        }
    }

    /// Everyone off the map, to set up a case on an empty field.
    pub fn empty() -> T {
        let mut t = T::new();
        for u in t.s.units.values_mut() {
            u.hex = None;
        }
        for l in t.s.leaders.values_mut() {
            l.hex = None;
        }
        t
    }

    pub fn decide(&self, seat: SeatId, a: &GbacwAction) -> Result<Vec<GbacwEvent>, RuleError> {
        let ctx = ActionContext {
            seat,
            seq: 1,
            by_default: false,
        };
        self.rs.decide(&self.s, &ctx, a, &mut Dice::none())
    }

    /// Apply `a`, which must be accepted (and roll no dice).
    pub fn ok(&mut self, seat: SeatId, a: GbacwAction) -> Vec<GbacwEvent> {
        self.apply(seat, false, a, &mut Dice::none())
    }

    /// `a` must be refused by the rule `rule`; nothing changes.
    pub fn refused(&self, seat: SeatId, a: GbacwAction, rule: &str) -> RuleError {
        let e = self
            .decide(seat, &a)
            .expect_err(&format!("{a:?} should be refused by {rule}"));
        assert_eq!(e.rule, rule, "{e}");
        e
    }

    /// `a` must be refused by the rule `rule`, with `words` in the
    /// message (the counter or place the player is told about).
    pub fn refused_saying(&self, seat: SeatId, a: GbacwAction, rule: &str, words: &str) {
        let e = self.refused(seat, a, rule);
        assert!(e.message.contains(words), "{e}");
    }

    /// Apply `a` as the server's default on a timeout (`by_default`, with
    /// seeded dice), which must be accepted: a default is never refused.
    pub fn by_default(&mut self, seat: SeatId, a: GbacwAction) -> Vec<GbacwEvent> {
        let mut dice = Dice::from_stream(crate::dice::DiceStream::from_seed(b"default"));
        self.apply(seat, true, a, &mut dice)
    }

    /// Decide `a` with `dice` and fold its events in; panics on a refusal.
    fn apply(
        &mut self,
        seat: SeatId,
        by_default: bool,
        a: GbacwAction,
        dice: &mut Dice,
    ) -> Vec<GbacwEvent> {
        let ctx = ActionContext {
            seat,
            seq: 1,
            by_default,
        };
        let events = self
            .rs
            .decide(&self.s, &ctx, &a, dice)
            .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
        for e in &events {
            self.rs.evolve(&mut self.s, e);
        }
        events
    }

    pub fn put(&mut self, unit: &str, hex: &str, facing: &str, formation: Formation) {
        let u = self.s.units.get_mut(&id(unit)).unwrap();
        u.hex = Some(n(hex));
        u.facing = dir(facing);
        u.status.formation = formation;
    }

    /// Apply `a` with dice from a stream seeded by `seed`; returns the
    /// events and every die the resolution drew, in order.
    pub fn roll(&mut self, seat: SeatId, a: GbacwAction, seed: u64) -> (Vec<GbacwEvent>, Vec<u16>) {
        let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
        let mut dice = Dice::from_stream(stream);
        let events = self.apply(seat, false, a, &mut dice);
        let drawn = dice
            .into_stream()
            .map(|s| s.into_drawn().iter().map(|d| d.value).collect())
            .unwrap_or_default();
        (events, drawn)
    }

    /// The dice to come, in order: every action [`T::act`] applies that
    /// rolls takes its faces from the front of this script, the action
    /// itself and then each decision it leaves pending (a morale check
    /// after a retreat, retreat fire, …), exactly as the rulebook's case
    /// reads them off its tables. Appends to what is left.
    pub fn script(&mut self, faces: &[u16]) -> &mut Self {
        self.script.extend(faces.iter().copied());
        self
    }

    /// The scripted faces not yet rolled (a test that expects a roll it
    /// scripted checks this is empty).
    pub fn dice_left(&self) -> Vec<u16> {
        self.script.iter().copied().collect()
    }

    /// Apply `a`, which must be accepted: with the next scripted dice if
    /// the ruleset says it rolls (running out of script is a failure that
    /// names the die asked for), with none otherwise.
    pub fn act(&mut self, seat: SeatId, a: GbacwAction) -> Vec<GbacwEvent> {
        let ctx = ActionContext {
            seat,
            seq: 1,
            by_default: false,
        };
        if !self.rs.rolls_dice(&self.s, &ctx, &a) {
            return self.apply(seat, false, a, &mut Dice::none());
        }
        let mut dice = Dice::scripted(std::mem::take(&mut self.script));
        let events = self
            .rs
            .decide(&self.s, &ctx, &a, &mut dice)
            .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
        for e in &events {
            self.rs.evolve(&mut self.s, e);
        }
        self.script = dice.into_script().map(|s| s.faces).unwrap_or_default();
        events
    }

    /// `a` applied with the next scripted dice, or its refusal (nothing
    /// changes then; the script is kept).
    pub fn try_act(&mut self, seat: SeatId, a: GbacwAction) -> Result<Vec<GbacwEvent>, RuleError> {
        let ctx = ActionContext {
            seat,
            seq: 1,
            by_default: false,
        };
        let mut dice = if self.rs.rolls_dice(&self.s, &ctx, &a) {
            Dice::scripted(self.script.clone())
        } else {
            Dice::none()
        };
        let events = self.rs.decide(&self.s, &ctx, &a, &mut dice)?;
        for e in &events {
            self.rs.evolve(&mut self.s, e);
        }
        if let Some(s) = dice.into_script() {
            self.script = s.faces;
        }
        Ok(events)
    }

    /// Turn `unit` to face `toward` (an adjacent hex).
    pub fn face_towards(&mut self, unit: &str, toward: &str) {
        let from = self.hex(unit).unwrap();
        let d = self.rs.game().map.grid.direction(from, n(toward)).unwrap();
        self.s.units.get_mut(&id(unit)).unwrap().facing = Facing::new(d);
    }

    pub fn put_leader(&mut self, leader: &str, hex: &str) {
        self.s.leaders.get_mut(&id(leader)).unwrap().hex = Some(n(hex));
    }

    /// Where a unit or a leader is.
    pub fn hex(&self, unit: &str) -> Option<HexNumber> {
        let c = id(unit);
        self.s
            .units
            .get(&c)
            .map(|u| u.hex)
            .unwrap_or_else(|| self.s.leaders[&c].hex)
    }

    pub fn spent(&self, unit: &str) -> Mp {
        self.s.units[&id(unit)].moved.mp
    }

    pub fn phase(&self) -> Option<Phase> {
        match self.s.clock.step {
            Step::Phase { phase, .. } => Some(phase),
            _ => None,
        }
    }

    /// End phases until the acting seat is at `phase` of `side`'s Player-Turn.
    pub fn advance_to(&mut self, seat: SeatId, phase: Phase) {
        for _ in 0..100 {
            let phasing = self
                .rs
                .phasing_side(self.s.clock)
                .map(|s| self.rs.seat_of(s));
            if self.phase() == Some(phase) && phasing == Some(seat) {
                return;
            }
            let actor = self.rs.acting_seat(&self.s).unwrap();
            self.ok(actor, GbacwAction::EndPhase);
        }
        panic!("never reached {phase:?} for {seat}");
    }

    /// End phases (a Corinth Pre-Dawn Barrage by finishing it, 26.4), each
    /// by the seat that acts and with dice seeded by the Game-Turn, until
    /// `stop` holds; at most 600 actions.
    pub fn end_phases_until(&mut self, stop: impl Fn(&T) -> bool) {
        for _ in 0..600 {
            if stop(self) {
                return;
            }
            let actor = self.rs.acting_seat(&self.s).expect("someone acts");
            let action = if self.s.night.barrage.is_some() {
                GbacwAction::EndBarrage
            } else {
                GbacwAction::EndPhase
            };
            self.roll(actor, action, u64::from(self.s.clock.turn));
        }
        panic!("never got there");
    }

    pub fn mv(&mut self, seat: SeatId, pieces: &[&str], path: &[&str]) -> Vec<GbacwEvent> {
        self.ok(seat, mv(pieces, path))
    }
}

/// A fire declaration (9.42): `firers` as (unit, points).
pub fn fire(target: &str, firers: &[(&str, u8)]) -> GbacwAction {
    GbacwAction::DeclareFire {
        target: n(target),
        firers: firers
            .iter()
            .map(|(u, p)| FireShare {
                unit: id(u),
                points: *p,
            })
            .collect(),
    }
}

/// The fire results among `events`.
pub fn fire_reports(events: &[GbacwEvent]) -> Vec<FireReport> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::FireResolved(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// A move of `pieces` along `path` (the hexes entered, not the start).
pub fn mv(pieces: &[&str], path: &[&str]) -> GbacwAction {
    GbacwAction::Move {
        pieces: ids(pieces),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

/// A set-up placement (5.1): `unit` at `hex` in `formation`, facing north.
pub fn place(unit: &str, hex: &str, formation: Formation) -> GbacwAction {
    GbacwAction::PlaceUnit {
        unit: id(unit),
        hex: n(hex),
        facing: dir("n"),
        formation,
    }
}

/// An arrival (reinforcements, 5.3): `piece` enters at `hex` facing south.
pub fn arrive(piece: &str, hex: &str) -> GbacwAction {
    GbacwAction::Arrive {
        piece: id(piece),
        hex: n(hex),
        facing: dir("s"),
    }
}

/// Movement Points in halves (`mp(3)` is 1½).
pub fn mp(halves: u16) -> Mp {
    Mp(halves)
}
