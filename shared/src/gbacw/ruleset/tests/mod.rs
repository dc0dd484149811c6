//! The GBACW ruleset through `decide` and `evolve`, on the test scenario.
//! Tests named `case_N_NN_…` test that case of the Standard Rules.

mod advance;
mod artillery;
mod cedar;
mod cedar_rules;
mod charge;
mod client_queries;
mod command;
mod corinth;
mod corinth_batteries;
mod corinth_command;
mod corinth_free;
mod corinth_leaders;
mod corinth_melee;
mod corinth_night;
mod corinth_set_up_batteries;
mod corinth_setup;
mod corinth_solo;
mod corinth_terrain;
mod displacement;
mod engaged;
mod fire;
mod formation;
mod melee;
mod melee_reach;
mod movement;
mod night_reach;
mod retreat_fire;
mod retreat_limits;
mod sequence;
mod succession;
mod withdrawal;

use super::*;
use crate::engine::{ActionContext, Dice, RuleError, Ruleset};
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

pub(super) const UNION: SeatId = SeatId(0);
pub(super) const REBEL: SeatId = SeatId(1);

pub(super) fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

pub(super) fn id(s: &str) -> CounterId {
    CounterId(s.to_string())
}

pub(super) fn ids(s: &[&str]) -> Vec<CounterId> {
    s.iter().map(|x| id(x)).collect()
}

/// A facing by its flat-map word.
pub(super) fn dir(word: &str) -> Facing {
    Facing::from_name(crate::gbacw::map::Orientation::Flat, word).unwrap()
}

/// A table on the test scenario, driven through `decide` and `evolve`.
pub(super) struct T {
    pub rs: Gbacw,
    pub s: GbacwState,
}

impl T {
    /// The test battle; the ruleset is built once and cloned (building it
    /// parses the map, the order of battle and the charts).
    pub fn new() -> T {
        static TEST: std::sync::OnceLock<Gbacw> = std::sync::OnceLock::new();
        let rs = TEST
            .get_or_init(|| Gbacw::new(&GbacwConfig::default()).unwrap())
            .clone();
        let s = rs.initial_state();
        T { rs, s }
    }

    pub fn with(config: GbacwConfig) -> T {
        let rs = Gbacw::new(&config).unwrap();
        let s = rs.initial_state();
        T { rs, s }
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

    /// Apply `a`, which must be accepted.
    pub fn ok(&mut self, seat: SeatId, a: GbacwAction) -> Vec<GbacwEvent> {
        let events = self
            .decide(seat, &a)
            .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
        for e in &events {
            self.rs.evolve(&mut self.s, e);
        }
        events
    }

    /// `a` must be refused by the rule `rule`; nothing changes.
    pub fn refused(&self, seat: SeatId, a: GbacwAction, rule: &str) -> RuleError {
        let e = self
            .decide(seat, &a)
            .expect_err(&format!("{a:?} should be refused by {rule}"));
        assert_eq!(e.rule, rule, "{e}");
        e
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
        let ctx = ActionContext {
            seat,
            seq: 1,
            by_default: false,
        };
        let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
        let mut dice = Dice::from_stream(stream);
        let events = self
            .rs
            .decide(&self.s, &ctx, &a, &mut dice)
            .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
        for e in &events {
            self.rs.evolve(&mut self.s, e);
        }
        let drawn = dice
            .into_stream()
            .map(|s| s.into_drawn().iter().map(|d| d.value).collect())
            .unwrap_or_default();
        (events, drawn)
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

    pub fn mv(&mut self, seat: SeatId, pieces: &[&str], path: &[&str]) -> Vec<GbacwEvent> {
        self.ok(seat, mv(pieces, path))
    }
}

/// A fire declaration (9.42): `firers` as (unit, points).
pub(super) fn fire(target: &str, firers: &[(&str, u8)]) -> GbacwAction {
    GbacwAction::DeclareFire {
        target: n(target),
        firers: firers
            .iter()
            .map(|(u, p)| crate::gbacw::ruleset::state::FireShare {
                unit: id(u),
                points: *p,
            })
            .collect(),
    }
}

/// The fire results among `events`.
pub(super) fn fire_reports(events: &[GbacwEvent]) -> Vec<crate::gbacw::ruleset::event::FireReport> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::FireResolved(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn mv(pieces: &[&str], path: &[&str]) -> GbacwAction {
    GbacwAction::Move {
        pieces: ids(pieces),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

pub(super) fn mp(halves: u16) -> Mp {
    Mp(halves)
}

#[test]
fn the_test_scenario_loads_and_sets_up() {
    let t = T::new();
    assert_eq!(t.rs.game().scenario.name, "Test battle");
    assert_eq!(t.hex("5-conn"), Some(n("0305")));
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("ne"));
    assert_eq!(
        t.s.units[&id("aleghny")].status.formation,
        Formation::Unlimbered
    );
    assert_eq!(t.hex("crawford"), Some(n("0305")));
    assert_eq!(t.hex("u-repl-1"), None);
    assert_eq!(t.rs.side_of(UNION).0, "union");
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    assert!(!t.rs.legal_actions(&t.s, UNION).is_empty());
    assert!(t.rs.legal_actions(&t.s, REBEL).is_empty());
}

#[test]
fn unknown_battles_and_readings_are_refused_by_name() {
    let e = Gbacw::new(&GbacwConfig {
        battle: "gettysburg".into(),
        ..GbacwConfig::default()
    })
    .unwrap_err();
    assert!(e.message.contains("gettysburg"), "{e}");
    let e = Gbacw::new(&GbacwConfig {
        readings_001: ["no-such-reading".to_string()].into(),
        ..GbacwConfig::default()
    })
    .unwrap_err();
    assert!(e.message.contains("no-such-reading"), "{e}");
    for (name, _, _) in EDITION_001 {
        Gbacw::new(&GbacwConfig {
            readings_001: [name.to_string()].into(),
            ..GbacwConfig::default()
        })
        .unwrap();
    }
}

#[test]
fn a_battle_whose_set_up_is_the_players_choice_loads_into_its_set_up_step() {
    let t = T::with(GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    });
    assert_eq!(t.s.progress.setting_up, Some(id("union")));
}

/// The test battle with `from` replaced by `to` in its scenario.
fn altered(from: &str, to: &str) -> Result<Game, String> {
    let base = crate::gbacw::battles::test::FILES;
    assert!(base.scenario.contains(from), "{from}");
    let text: &'static str = Box::leak(base.scenario.replace(from, to).into_boxed_str());
    Game::from_files(&crate::gbacw::battles::BattleFiles {
        scenario: text,
        ..base
    })
}

#[test]
fn the_set_up_is_checked_before_play() {
    let e = altered("units=10-me facing=ne", "units=10-me facing=east").unwrap_err();
    assert!(e.contains("facing `east`"), "{e}");
    let e = altered(
        "units=4-me facing=ne formation=limbered",
        "units=4-me facing=ne formation=line",
    )
    .unwrap_err();
    assert!(e.contains("cannot set up in line"), "{e}");
    let e = altered("setup hex=0805 units=10-va", "setup hex=0306 units=10-va").unwrap_err();
    assert!(e.contains("5.12"), "{e}");
    let e = altered("setup hex=0405 units=4-me", "setup hex=0208 units=4-me").unwrap_err();
    assert!(e.contains("5.19"), "{e}");
    let e = altered(
        "setup hex=0805 units=10-va",
        "setup hex=0306 units=ronald,10-va",
    )
    .unwrap_err();
    assert!(e.contains("placed 2 times"), "{e}");
    let e = altered(
        "units=10-me facing=ne formation=line",
        "units=10-me formation=line",
    )
    .unwrap_err();
    assert!(e.contains("no facing"), "{e}");
    let e = altered(
        "setup hex=1005 units=jackson",
        "setup hex=0305 units=jackson",
    )
    .unwrap_err();
    assert!(e.contains("among enemy units"), "{e}");
}

#[test]
fn view_is_the_whole_state_for_everyone() {
    use crate::ids::Viewer;
    let mut t = T::new();
    let before = t.s.clone();
    let events = t.ok(UNION, GbacwAction::EndPhase);
    for v in [Viewer::Seat(UNION), Viewer::Seat(REBEL), Viewer::Spectator] {
        let mut followed = t.rs.view(&before, v);
        for e in &events {
            let seen = t.rs.view_event(&before, e, v).unwrap();
            t.rs.evolve(&mut followed, &seen);
        }
        assert_eq!(followed, t.rs.view(&t.s, v));
    }
}
