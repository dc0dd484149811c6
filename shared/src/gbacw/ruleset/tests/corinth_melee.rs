//! Corinth's BCE loss (25.0), Lovell's reluctance (30.4), the melee
//! initiation gate (22.0), retreat directions (27.0) and dismounted
//! cavalry in melee (21.41, 21.42), through `decide` and `evolve`. Each
//! case is set up in the woods around 1325–1426, well away from the
//! Union's historical deployment, on the Confederate Player-Turn of
//! Game-Turn 3 unless a case needs another.

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::exclusive::bce_loss;

/// Corinth after the default Union set-up (built once, cloned).
pub(super) fn base() -> T {
    static BASE: std::sync::OnceLock<(Gbacw, GbacwState)> = std::sync::OnceLock::new();
    let (rs, s) = BASE.get_or_init(|| {
        let mut t = super::corinth::corinth();
        t.ok(UNION, GbacwAction::EndSetUp);
        // Past the Confederate Movement Phase of Game-Turn 3 before the
        // cases place their pieces: a Movement Phase would hold a lone
        // brigade commander placed by a case to 17.52 (with 21.2,
        // Corinth's brigade commanders move freely).
        t.advance_to(REBEL, Phase::OffensiveFire);
        (t.rs, t.s)
    });
    T {
        rs: rs.clone(),
        s: s.clone(),
        script: Default::default(),
    }
}

impl T {
    /// Take `unit` off the list of arrivals (so its losses count) and put
    /// it on `hex`.
    pub(super) fn corinth_unit(&mut self, unit: &str, hex: &str, formation: Formation) {
        self.s.progress.to_arrive.remove(&id(unit));
        self.put(unit, hex, "n", formation);
    }

    pub(super) fn corinth_leader(&mut self, leader: &str, hex: &str) {
        self.s.progress.to_arrive.remove(&id(leader));
        self.put_leader(leader, hex);
    }

    /// `unit` loses `points`; one not yet on the map is put in the rear
    /// first (a unit off the map counts as wholly lost, 18.0).
    fn hit(&mut self, unit: &str, points: u8) {
        if self.hex(unit).is_none() {
            let rear = ["1420", "1520", "1620", "1720", "1421", "1521", "1621"]
                .into_iter()
                .find(|h| !self.s.units.values().any(|u| u.hex == Some(n(h))))
                .unwrap();
            self.corinth_unit(unit, rear, Formation::Line);
        }
        let e = GbacwEvent::UnitHit {
            unit: id(unit),
            points,
        };
        self.rs.evolve(&mut self.s, &e);
    }

    /// Rust's brigade (limit 8) loses 31 Ala's five points and 4 Ala Bn's
    /// three: at its BCE limit.
    pub(super) fn break_rust(&mut self) {
        self.hit("31-ala", 5);
        self.hit("4-ala-bn", 3);
        assert!(self.rs.brigade_at_bce_limit(&self.s, &id("rust")));
    }
}

pub(super) fn melee(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareMelee {
        target: n(target),
        attackers: ids(attackers),
    }
}

/// 9 Ark and 7 Ky (Rust) in 1325 and 1425, 15 Miss (Bowen) in 1426;
/// 52 Ill (Hackleman) in 1326 facing them. Nobody else within reach.
pub(super) fn field(broken: bool) -> T {
    let mut t = base();
    if broken {
        t.break_rust();
    }
    t.corinth_unit("9-ark", "1325", Formation::Line);
    t.corinth_unit("7-ky", "1425", Formation::Line);
    t.corinth_unit("15-miss", "1426", Formation::Line);
    t.corinth_unit("52-ill", "1326", Formation::Line);
    // Their brigade commanders, near enough to keep them in command, not
    // stacked with them.
    t.corinth_leader("rust", "1323");
    t.corinth_leader("bowen", "1428");
    t.corinth_leader("hackleman", "1328");
    for u in ["9-ark", "7-ky", "15-miss"] {
        t.face_towards(u, "1326");
    }
    t.face_towards("52-ill", "1325");
    let grid = &t.rs.game().map.grid;
    for (other, u) in &t.s.units {
        let Some(h) = u.hex else { continue };
        if ["9-ark", "7-ky", "15-miss", "52-ill"].contains(&other.0.as_str()) {
            continue;
        }
        assert!(
            grid.distance(h, n("1326")) > 4,
            "{other} at {h} is too near the field: {:?}",
            t.s.units
                .values()
                .filter_map(|u| u.hex)
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
        );
    }
    t
}

// --- Corinth 25.1: the effects of BCE loss ---------------------------------

#[test]
fn corinth_25_11_a_broken_brigade_adds_one_to_infantry_morale_never_artillery() {
    let mut t = field(false);
    t.corinth_unit("hudson", "1224", Formation::Unlimbered);
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("9-ark")), 0);
    t.break_rust();
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("9-ark")), 1);
    // Hudson's battery is Rust's: artillery is never affected.
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("hudson")), 0);
    // Bowen's brigade has lost nothing.
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("15-miss")), 0);
}

#[test]
fn corinth_25_12_a_broken_brigade_may_not_initiate_melee_but_fights_on_engaged() {
    let mut t = field(true);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.refused(REBEL, melee("1326", &["9-ark"]), "Corinth 25.12");
    t.refused(REBEL, melee("1326", &["15-miss", "7-ky"]), "Corinth 25.12");
    t.s.units
        .get_mut(&id("9-ark"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Engaged);
    assert!(t.decide(REBEL, &melee("1326", &["9-ark"])).is_ok());
    // Bowen's unit melees: its brigade has not lost BCE.
    let t = field(true);
    let mut t = t;
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    assert!(t.decide(REBEL, &melee("1326", &["15-miss"])).is_ok());
}

#[test]
fn corinth_25_14_a_broken_brigade_fires_one_column_left_even_combined() {
    let column = |broken: bool, firers: &[(&str, u8)]| {
        let mut t = field(broken);
        t.advance_to(REBEL, Phase::OffensiveFire);
        t.ok(REBEL, fire("1326", firers));
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 3);
        let r = fire_reports(&events).remove(0);
        (r.column, r.strength_columns_left)
    };
    let (c0, left0) = column(false, &[("9-ark", 4), ("15-miss", 4)]);
    let (c1, left1) = column(true, &[("9-ark", 4), ("15-miss", 4)]);
    assert_eq!((left0, left1), (0, 1));
    assert_eq!(c1 + 1, c0);
    // Bowen's unit alone is not shifted.
    assert_eq!(column(true, &[("15-miss", 4)]).1, 0);
}

#[test]
fn corinth_25_13_a_broken_brigades_routed_unit_rallies_only_by_die() {
    let setup = |leader: Option<(&str, &str)>| {
        let mut t = field(true);
        t.s.units
            .get_mut(&id("9-ark"))
            .unwrap()
            .status
            .markers
            .insert(Marker::Rout);
        // Rust two hexes off (ER 4) unless placed with it.
        if let Some((l, h)) = leader {
            t.corinth_leader(l, h);
        }
        t.advance_to(REBEL, Phase::Rally);
        t
    };
    let rally = GbacwAction::Rally { unit: id("9-ark") };
    let ctx = ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    // With Van Dorn (an army commander): automatic.
    let mut t = setup(Some(("van-dorn", "1325")));
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &rally));
    let events = t.ok(REBEL, rally.clone());
    assert!(events.contains(&GbacwEvent::RallyTried {
        unit: id("9-ark"),
        die: None,
        rallied: true
    }));
    // In Rust's ER: a Rally Point and a die, +1 (25.11) against morale 4.
    for seed in 0..20 {
        let mut t = setup(None);
        assert!(t.rs.rolls_dice(&t.s, &ctx, &rally));
        let (events, drawn) = t.roll(REBEL, rally.clone(), seed);
        let die = drawn[0] as u8;
        assert_eq!(
            events,
            vec![
                GbacwEvent::RallyPointSpent { leader: id("rust") },
                GbacwEvent::RallyTried {
                    unit: id("9-ark"),
                    die: Some(die),
                    rallied: die < 4
                }
            ]
        );
    }
    // Stacked with Lovell (a division commander): −1, no Rally Point.
    for seed in 0..20 {
        let mut t = setup(Some(("lovell", "1325")));
        let (events, drawn) = t.roll(REBEL, rally.clone(), seed);
        let die = drawn[0] as u8;
        assert_eq!(
            events,
            vec![GbacwEvent::RallyTried {
                unit: id("9-ark"),
                die: Some(die),
                rallied: die <= 4
            }]
        );
    }
    // Rust out of reach: refused, citing Corinth's case.
    let mut t = setup(None);
    t.put_leader("rust", "1319");
    t.refused(REBEL, rally, "Corinth 25.13");
}

#[test]
fn corinth_25_3_artillery_losses_never_count_toward_bce() {
    let mut t = field(false);
    t.corinth_unit("hudson", "1224", Formation::Unlimbered);
    let e = GbacwEvent::UnitHit {
        unit: id("hudson"),
        points: 5,
    };
    t.rs.evolve(&mut t.s, &e);
    let rust =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == id("rust"))
            .unwrap();
    assert_eq!(rust.losses, 0);
    t.hit("9-ark", 2);
    let rust =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == id("rust"))
            .unwrap();
    assert_eq!(rust.losses, 2);
}

// --- Corinth 30.4: Lovell's reluctance -------------------------------------

#[test]
fn corinth_30_4_lovells_three_brigades_at_ten_casualties_all_lose_bce() {
    let mut t = field(false);
    // 4 + 3 + 2: nine, no brigade at its own limit (8, 9, 8).
    t.hit("31-ala", 4);
    t.hit("33-miss", 3);
    t.hit("6-miss", 2);
    for b in ["rust", "villepigue", "bowen"] {
        assert!(!bce_loss::brigade_broken(&t.rs, &t.s, &id(b)), "{b}");
    }
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("15-miss")), 0);
    // The tenth casualty: all three suffer 25.1, none at its own limit, so
    // no BCE Victory Points (no `BceLost`).
    t.hit("15-miss", 1);
    for b in ["rust", "villepigue", "bowen"] {
        assert!(bce_loss::brigade_broken(&t.rs, &t.s, &id(b)), "{b}");
        assert!(!t.rs.brigade_at_bce_limit(&t.s, &id(b)), "{b}");
    }
    assert_eq!(bce_loss::morale_modifier(&t.rs, &t.s, &id("15-miss")), 1);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.refused(REBEL, melee("1326", &["15-miss"]), "Corinth 25.12");
    // Other divisions are untouched; the Free Set-Up has no 30.4.
    assert!(!bce_loss::brigade_broken(&t.rs, &t.s, &id("moore")));
}

#[test]
fn corinth_30_4_the_free_set_up_has_no_divisional_limit() {
    let rs = Gbacw::new(&GbacwConfig {
        battle: "corinth_free".into(),
        ..GbacwConfig::default()
    })
    .unwrap();
    assert!(
        rs.game()
            .scenario
            .hook(crate::gbacw::scenario::HookKind::DivisionalBce)
            .is_none()
    );
    assert!(
        rs.game()
            .scenario
            .hook(crate::gbacw::scenario::HookKind::BceLoss)
            .is_some()
    );
}

// --- Corinth 25.2: brigade retreat -----------------------------------------

/// Rust broken, Rust in 1323 (ER 4): 9 Ark (1325) and 7 Ky (1425) as in
/// the field; 35 Ala pinned in 1324; 3 Ky routed in 1224; 4 Ala Bn out of
/// the radius in 1318 (Rust's radius of 4 does not reach it). 52 Ill in
/// 1326 is the enemy.
pub(super) fn brigade_field() -> T {
    let mut t = field(true);
    t.corinth_unit("35-ala", "1324", Formation::Line);
    t.corinth_unit("3-ky", "1224", Formation::Line);
    t.corinth_unit("4-ala-bn", "1318", Formation::Line);
    let mark = |t: &mut T, u: &str, m: Marker| {
        t.s.units.get_mut(&id(u)).unwrap().status.markers.insert(m);
    };
    // Marked on the Phase itself: the Phases passed on the way would
    // lift a pin and move a rout.
    to_union_melee(&mut t);
    mark(&mut t, "35-ala", Marker::Pin);
    mark(&mut t, "3-ky", Marker::Rout);
    t
}

/// On to the Union Melee Phase, Hackleman joining 52 Ill first: alone he
/// would have to in the Union Movement Phase (17.52).
fn to_union_melee(t: &mut T) {
    t.corinth_leader("hackleman", "1326");
    t.advance_to(UNION, Phase::Melee);
}

/// 9 Ark's morale check (a melee "R" result, 13.2) with dice seeded by
/// `seed`: the events.
pub(super) fn check_9_ark(t: &T, seed: u64) -> Vec<GbacwEvent> {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::check_morale};
    let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
    let mut dice = Dice::from_stream(stream);
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    check_morale(&t.rs, &mut u, &mut roll, &id("9-ark"));
    roll.finish().unwrap();
    u.events
}

/// How far `unit` retreated, or was ordered to (its owner choosing the
/// path, 14.4).
pub(super) fn retreated(events: &[GbacwEvent], unit: &str) -> Option<usize> {
    events.iter().find_map(|e| match e {
        GbacwEvent::UnitRetreated { unit: u, path } if *u == id(unit) => Some(path.len()),
        GbacwEvent::RetreatOrdered(o) if o.unit == id(unit) => Some(usize::from(o.length)),
        _ => None,
    })
}

#[test]
fn corinth_25_2_a_broken_brigade_retreats_when_one_of_its_units_routs_in_the_radius() {
    let mut t = brigade_field();
    // 25.23's withdrawal fire on 7 Ky (in 52 Ill's ZOC) would hold its
    // retreat for the Union's answer: corinth_batteries tests it.
    t.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::BrigadeRetreatFire);
    let (seed, events) = (0..200)
        .map(|s| (s, check_9_ark(&t, s)))
        .find(|(_, e)| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::BrigadeRetreated { .. }))
        })
        .expect("9 Ark (morale 4, +1 of 25.11) fails a check within 200 seeds");
    let brigade = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::BrigadeRetreated {
                brigade,
                trigger,
                units,
            } => Some((brigade.clone(), trigger.clone(), units.clone())),
            _ => None,
        })
        .unwrap();
    // 25.22: pinned 35 Ala stays; 4 Ala Bn is outside the radius.
    assert_eq!(brigade.0, id("rust"), "seed {seed}");
    assert_eq!(brigade.1, id("9-ark"));
    let mut units = brigade.2.clone();
    units.sort();
    // 31 Ala, put in the rear (1420) when it lost its points, is inside
    // the radius too.
    assert_eq!(units, ids(&["3-ky", "31-ala", "7-ky"]));
    // 25.25: the trigger routs its normal three hexes.
    assert_eq!(retreated(&events, "9-ark"), Some(3));
    // 25.21: the routed retreat three; the others two, then a check.
    assert_eq!(retreated(&events, "3-ky"), Some(3));
    assert_eq!(retreated(&events, "7-ky"), Some(2));
    let after = events
        .iter()
        .skip_while(|e| !matches!(e, GbacwEvent::UnitRetreated { unit, .. } if *unit == id("7-ky")))
        .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("7-ky")));
    assert!(after, "7 Ky checks morale after its two hexes");
    assert_eq!(retreated(&events, "35-ala"), None);
    assert_eq!(retreated(&events, "4-ala-bn"), None);
}

#[test]
fn corinth_25_25_brigade_retreat_at_most_once_a_phase() {
    let mut t = brigade_field();
    let events = (0..200)
        .map(|s| check_9_ark(&t, s))
        .find(|e| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::BrigadeRetreated { .. }))
        })
        .unwrap();
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    // Rallied and routed again in the same Phase: no second retreat.
    t.s.units
        .get_mut(&id("9-ark"))
        .unwrap()
        .status
        .markers
        .remove(&Marker::Rout);
    for s in 0..200 {
        let e = check_9_ark(&t, s);
        assert!(
            !e.iter()
                .any(|x| matches!(x, GbacwEvent::BrigadeRetreated { .. })),
            "seed {s}"
        );
    }
    // Unbroken, a rout is only the unit's own.
    let t = {
        let mut t = field(false);
        to_union_melee(&mut t);
        t
    };
    for s in 0..50 {
        let e = check_9_ark(&t, s);
        assert!(
            !e.iter()
                .any(|x| matches!(x, GbacwEvent::BrigadeRetreated { .. }))
        );
    }
}

// --- Corinth 22.0: the melee initiation gate -------------------------------

use crate::gbacw::ruleset::corinth::melee_gate::GateCheck;

pub(super) fn gate_checks(events: &[GbacwEvent]) -> Vec<GateCheck> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MeleeGateChecked(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// The field on the Confederate Retreat Before Melee Phase of Game-Turn 3
/// (29.62's turns): 52 Ill faces 9 Ark (1325).
///
/// 15 Miss (1426) faces north, not 52 Ill: 1326 stays in its front (it
/// may still melee it, from 52 Ill's enfilade hex), and 1327 leaves its
/// Zone of Control. 1327 is 52 Ill's one step nearer the town that is out
/// of every Confederate ZOC: Corinth 27.2 holds its retreat before melee
/// to the town's direction, and 12.82 keeps it out of enemy ZOCs; with
/// 15 Miss facing 52 Ill, both 1426 and 1327 were closed and the only way
/// out (1226) led away from the town.
pub(super) fn gate_field() -> T {
    let mut t = field(false);
    t.face_towards("52-ill", "1325");
    t.face_towards("15-miss", "1425");
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    assert!(t.s.clock.turn <= 8);
    t
}

fn rebel_ctx() -> ActionContext {
    ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    }
}

fn union_ctx() -> ActionContext {
    ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    }
}

/// 52 Ill's retreat before melee: one hex south (1327), toward the town
/// (Corinth 27.2) and out of the Confederate Zones of Control
/// ([`gate_field`]).
pub(super) fn back() -> GbacwAction {
    GbacwAction::RetreatBeforeMelee {
        units: ids(&["52-ill"]),
        path: vec![n("1327")],
    }
}

#[test]
fn corinth_22_1_a_defender_without_a_leader_checks_to_retreat_before_melee() {
    let mut seen = [false, false];
    for seed in 0..60 {
        let mut t = gate_field();
        t.ok(REBEL, melee("1326", &["9-ark"]));
        assert!(t.rs.rolls_dice(&t.s, &union_ctx(), &back()));
        let out = t.s.command.out_of_command.contains(&id("52-ill"));
        let (events, _) = t.roll(UNION, back(), seed);
        let checks = gate_checks(&events);
        assert_eq!(checks.len(), 1, "{events:?}");
        let c = &checks[0];
        assert!(!c.attacking);
        assert_eq!(c.unit, id("52-ill"));
        // 29.62: +1 for the Union on Game-Turns 1-8; 9 Ark attacks through
        // 52 Ill's front (no enfilade); +1 if out of command.
        assert_eq!(c.modifier, 1 + i8::from(out));
        assert_eq!(
            c.passed,
            i16::from(c.die) + i16::from(c.modifier) <= i16::from(c.rating)
        );
        if c.passed {
            // The Standard retreat goes on (withdrawal fire offered first).
            assert!(t.s.decision.is_some() || t.hex("52-ill") == Some(n("1327")));
        } else {
            // 22.0 step 4: "it may not retreat at all": the answer is over.
            assert_eq!(events.last(), Some(&GbacwEvent::RbmAnswered));
            assert!(t.s.rbm.is_none());
            assert_eq!(t.hex("52-ill"), Some(n("1326")));
        }
        seen[usize::from(c.passed)] = true;
        if seen == [true, true] {
            break;
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn corinth_22_1_a_retreat_before_melee_naming_a_leader_is_refused_not_a_panic() {
    // Found by the whole games' mutated actions (tests/src/gbacw_mutants.rs):
    // 22.1's check read the named counters' unit cards before 12.8 asked
    // whether the melee threatened them.
    let mut t = gate_field();
    t.put_leader("hackleman", "1326");
    t.ok(REBEL, melee("1326", &["9-ark"]));
    for named in ["hackleman", "nobody"] {
        let a = GbacwAction::RetreatBeforeMelee {
            units: ids(&[named]),
            path: vec![n("1327")],
        };
        t.refused(UNION, a, "GBACW 12.8");
    }
}

#[test]
fn corinth_22_0_units_stacked_with_a_leader_retreat_and_melee_without_a_check() {
    // Defender with Hackleman: the Standard retreat, no 22.1 check.
    let mut t = gate_field();
    t.put_leader("hackleman", "1326");
    t.ok(REBEL, melee("1326", &["9-ark"]));
    let (events, _) = t.roll(UNION, back(), 1);
    assert!(gate_checks(&events).is_empty());
    // Attacker with Rust: it must melee, no 22.2 check.
    let mut t = gate_field();
    t.put_leader("rust", "1325");
    t.ok(REBEL, melee("1326", &["9-ark"]));
    t.ok(UNION, GbacwAction::StandFast);
    t.advance_to(REBEL, Phase::Melee);
    let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 1);
    assert!(gate_checks(&events).is_empty());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MeleeResolved(r) if r.target == n("1326")))
    );
}

#[test]
fn corinth_22_2_an_attacker_without_a_leader_checks_to_melee() {
    let mut seen = [false, false];
    for seed in 0..60 {
        let mut t = gate_field();
        t.ok(REBEL, melee("1326", &["9-ark"]));
        t.ok(UNION, GbacwAction::StandFast);
        t.advance_to(REBEL, Phase::Melee);
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, seed);
        let checks = gate_checks(&events);
        assert_eq!(checks.len(), 1, "{events:?}");
        let c = &checks[0];
        assert!(c.attacking);
        assert_eq!(
            (c.unit.clone(), c.stack.clone()),
            (id("9-ark"), ids(&["9-ark"]))
        );
        // 29.62: −1 for the Confederates on Game-Turns 1-8; 9 Ark is in
        // front of 52 Ill (no enfilade), neither side out of ammunition.
        assert_eq!(c.modifier, -1);
        assert_eq!(
            c.passed,
            i16::from(c.die) + i16::from(c.modifier) <= i16::from(c.rating)
        );
        let fought = events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MeleeResolved(r) if r.target == n("1326")));
        // "If the result is greater, it may not attack at all."
        assert_eq!(fought, c.passed);
        seen[usize::from(c.passed)] = true;
        if seen == [true, true] {
            break;
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn corinth_22_2_from_an_enfilade_hex_minus_one_and_22_1_plus_one() {
    // 15 Miss in 1426 is behind 52 Ill's right (it faces 1325).
    let mut t = gate_field();
    t.ok(REBEL, melee("1326", &["15-miss"]));
    let out = t.s.command.out_of_command.contains(&id("52-ill"));
    let (events, _) = t.roll(UNION, back(), 4);
    let c = gate_checks(&events).remove(0);
    assert_eq!(c.modifier, 2 + i8::from(out), "enfiladed +1, Union +1");
    let mut t = gate_field();
    t.ok(REBEL, melee("1326", &["15-miss"]));
    t.ok(UNION, GbacwAction::StandFast);
    t.advance_to(REBEL, Phase::Melee);
    let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 4);
    let c = gate_checks(&events).remove(0);
    assert_eq!(c.modifier, -2, "enfilade hex −1, Confederate −1");
}

#[test]
fn corinth_22_4_routed_or_pinned_targets_are_meleed_without_a_check() {
    for m in [Marker::Pin, Marker::Rout] {
        let mut t = gate_field();
        t.s.units
            .get_mut(&id("52-ill"))
            .unwrap()
            .status
            .markers
            .insert(m);
        t.ok(REBEL, melee("1326", &["9-ark"]));
        // Pinned or routed, it may not retreat before melee (12.87).
        if t.s.rbm.is_some() {
            t.ok(UNION, GbacwAction::StandFast);
        }
        t.advance_to(REBEL, Phase::Melee);
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 2);
        assert!(gate_checks(&events).is_empty(), "{m:?}");
    }
}

#[test]
fn corinth_22_0_the_gate_is_the_scenarios_cedar_mountain_has_none() {
    let t = super::cedar_rules::field();
    assert!(
        t.rs.game()
            .scenario
            .hook(crate::gbacw::scenario::HookKind::MeleeInitiation)
            .is_none()
    );
    let _ = rebel_ctx();
}

// --- Corinth 27.0: retreat directions --------------------------------------

use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::effects::retreat_options;

/// The hexes of `area` on the map.
fn area(t: &T, name: &str) -> std::collections::BTreeSet<HexNumber> {
    t.rs.game()
        .map
        .areas()
        .filter(|(n, _)| *n == name)
        .flat_map(|(_, h)| h.iter().copied())
        .collect()
}

fn nearest(t: &T, goal: &std::collections::BTreeSet<HexNumber>, h: HexNumber) -> u32 {
    let grid = &t.rs.game().map.grid;
    goal.iter().map(|g| grid.distance(h, *g)).min().unwrap()
}

/// Every option goes no step away from `goal` and ends nearer.
fn toward(t: &T, unit: &str, goal: &std::collections::BTreeSet<HexNumber>, kind: RetreatKind) {
    let start = t.hex(unit).unwrap();
    let length = if kind == RetreatKind::Rout { 3 } else { 2 };
    let options = retreat_options(&t.rs, &t.s, &id(unit), length, kind);
    assert!(!options.is_empty(), "{unit} has somewhere to go");
    for p in &options {
        let mut at = nearest(t, goal, start);
        for h in p {
            let d = nearest(t, goal, *h);
            assert!(d <= at, "{unit}: {p:?} steps away from its goal");
            at = d;
        }
        assert!(at < nearest(t, goal, start), "{unit}: {p:?} is no retreat");
    }
}

#[test]
fn corinth_27_1_confederates_retreat_toward_the_assault_area_they_entered_by() {
    let mut t = field(false);
    // 9 Ark entered by 0118 (Assault Area E, on the west edge).
    t.s.entered_at.insert(id("9-ark"), n("0118"));
    toward(&t, "9-ark", &area(&t, "assault-e"), RetreatKind::Rout);
    toward(
        &t,
        "9-ark",
        &area(&t, "assault-e"),
        RetreatKind::MeleeResult,
    );
    // Had it entered by Area C (the north edge), it goes north instead.
    t.s.entered_at.insert(id("9-ark"), n("1401"));
    toward(&t, "9-ark", &area(&t, "assault-c"), RetreatKind::Rout);
}

#[test]
fn corinth_27_2_the_union_retreats_toward_corinth_else_the_south_east_corner() {
    let mut t = field(false);
    let town: std::collections::BTreeSet<HexNumber> =
        t.rs.game()
            .map
            .hexes()
            .filter(|(_, h)| {
                h.terrain
                    .iter()
                    .any(|x| format!("{x:?}").to_lowercase().contains("town"))
            })
            .map(|(n, _)| n)
            .collect();
    assert!(town.contains(&n("2737")));
    toward(&t, "52-ill", &town, RetreatKind::Rout);
    // In the town already, no step leads nearer it: toward 3945.
    t.corinth_unit("52-ill", "2737", Formation::Line);
    let corner = std::collections::BTreeSet::from([n("3945")]);
    toward(&t, "52-ill", &corner, RetreatKind::Rout);
}

#[test]
fn corinth_27_1_a_confederate_retreating_off_the_map_is_eliminated_not_captured() {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::retreat};
    let mut t = field(false);
    t.corinth_unit("9-ark", "0118", Formation::Line);
    t.s.entered_at.insert(id("9-ark"), n("0118"));
    let mut dice = Dice::none();
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    retreat(&t.rs, &mut u, &mut roll, &id("9-ark"), 3, RetreatKind::Rout);
    roll.finish().unwrap();
    assert_eq!(
        u.events,
        vec![GbacwEvent::UnitRemoved {
            unit: id("9-ark"),
            captured: false
        }]
    );
}

#[test]
fn corinth_27_0_the_entry_hex_is_remembered_on_arrival() {
    let mut t = field(false);
    let e = GbacwEvent::UnitArrived {
        unit: id("6-miss"),
        hex: n("0118"),
        facing: dir("s"),
        formation: Formation::Column,
        cost: mp(2),
    };
    t.rs.evolve(&mut t.s, &e);
    assert_eq!(t.s.entered_at.get(&id("6-miss")), Some(&n("0118")));
}

// --- Corinth 21.41, 21.42: dismounted cavalry in melee ---------------------

#[test]
fn corinth_21_41_dismounted_cavalry_melees_only_cavalry_artillery_and_wagons() {
    let trooper = |target: &str, formation: Formation| {
        let mut t = gate_field();
        t.s.units.get_mut(&id("52-ill")).unwrap().hex = None;
        t.corinth_unit(target, "1326", formation);
        t.corinth_unit("2-ark-cav", "1325", Formation::Dismounted);
        t.corinth_leader("armstrong", "1323");
        t.face_towards("2-ark-cav", "1326");
        t.s.command.out_of_command.clear();
        t
    };
    let t = trooper("52-ill", Formation::Line);
    t.refused(REBEL, melee("1326", &["2-ark-cav"]), "Corinth 21.41");
    let t = trooper("7-ill-cav", Formation::Mounted);
    t.refused(REBEL, melee("1326", &["2-ark-cav"]), "Corinth 21.41");
    for (target, formation) in [
        ("7-ill-cav", Formation::Dismounted),
        ("supply-davies", Formation::Wagon),
    ] {
        let t = trooper(target, formation);
        assert!(
            t.decide(REBEL, &melee("1326", &["2-ark-cav"])).is_ok(),
            "{target}"
        );
    }
}

#[test]
fn corinth_21_42_dismounted_cavalry_meleed_by_infantry_must_retreat_without_a_check() {
    let mut t = gate_field();
    t.s.units.get_mut(&id("52-ill")).unwrap().hex = None;
    t.corinth_unit("7-ill-cav", "1326", Formation::Dismounted);
    t.face_towards("7-ill-cav", "1325");
    t.ok(REBEL, melee("1326", &["9-ark"]));
    t.refused(UNION, GbacwAction::StandFast, "Corinth 21.42");
    // South, toward the town (27.2; 1226 would lead away from it).
    let go = GbacwAction::RetreatBeforeMelee {
        units: ids(&["7-ill-cav"]),
        path: vec![n("1327")],
    };
    let (events, _) = t.roll(UNION, go, 3);
    // 21.42: "no Morale Check is necessary" for the 22.0 gate either.
    assert!(gate_checks(&events).is_empty());
}

#[test]
fn corinth_22_35_no_melee_that_would_overstack_the_defenders_hex() {
    // 1326 is woods: 8 points. 9 Ark (4) and 7 Ky (4) fit; 15 Miss (5)
    // more would not.
    let mut t = gate_field();
    for a in ["9-ark", "7-ky"] {
        t.ok(REBEL, melee("1326", &[a]));
        if t.s.rbm.is_some() {
            t.ok(UNION, GbacwAction::StandFast);
        }
    }
    t.refused(REBEL, melee("1326", &["15-miss"]), "Corinth 22.35");
}

#[test]
fn corinth_27_3_into_an_assault_area_with_cavalry_held_it_waits_off_the_map() {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::retreat};
    // Lovell through F on Game-Turn 4 with every cavalry unit held there.
    let mut t = super::corinth_setup::free_after_plot();
    t.ok(UNION, GbacwAction::EndSetUp);
    // 6 Miss (Lovell's) came in by 0140, in Area F on the west edge, lost
    // a point, and must rout from there.
    t.corinth_unit("6-miss", "0140", Formation::Line);
    t.s.entered_at.insert(id("6-miss"), n("0140"));
    t.hit("6-miss", 1);
    let lost = t.rs.strength_lost(&t.s, &id("6-miss"));
    assert_eq!(lost, 1);
    let run = |t: &T| {
        let mut dice = Dice::none();
        let mut u = Unfold::new(&t.s);
        let mut roll = Roller::new(&mut dice);
        retreat(
            &t.rs,
            &mut u,
            &mut roll,
            &id("6-miss"),
            3,
            RetreatKind::Rout,
        );
        roll.finish().unwrap();
        u.events
    };
    let events = run(&t);
    assert_eq!(
        events,
        vec![GbacwEvent::HeldOffMap {
            unit: id("6-miss"),
            area: id("assault-f")
        }]
    );
    let mut held = t.s.clone();
    for e in &events {
        t.rs.evolve(&mut held, e);
    }
    // Off the map, among the arrivals, its loss still counted.
    assert_eq!(held.units[&id("6-miss")].hex, None);
    assert!(held.progress.to_arrive.contains(&id("6-miss")));
    assert_eq!(t.rs.strength_lost(&held, &id("6-miss")), lost);
    // From Lovell's turn it may enter again through Area F.
    held.clock.turn = 5;
    let hexes =
        crate::gbacw::ruleset::decide::arrival::entry_hexes(&t.rs, &held, &id("6-miss")).unwrap();
    assert!(hexes.iter().all(|h| area(&t, "assault-f").contains(h)));
    // With the cavalry entered (none held), it is eliminated.
    for c in crate::gbacw::testkit::corinth::CORINTH_CAVALRY {
        t.s.progress.to_arrive.remove(&id(c));
    }
    assert_eq!(
        run(&t),
        vec![GbacwEvent::UnitRemoved {
            unit: id("6-miss"),
            captured: false
        }]
    );
}
