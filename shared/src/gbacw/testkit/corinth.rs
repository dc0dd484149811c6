//! *The Battle of Corinth* positions the engine's case tests and the
//! client's kittests both start from: the Historical Scenario after its
//! set-up, the night it reaches when the Confederates hold enough victory
//! hexes, the Pre-Dawn Barrage with a battery on a target; and the
//! Confederate counters every assault plan (29.2) places.

use super::table::{REBEL, T, id, n};
use crate::engine::{ActionContext, Dice, Ruleset};
use crate::gbacw::map::{HexNumber, Terrain};
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::GbacwAction;
use crate::gbacw::ruleset::plan::{AssaultPlan, PlannedDivision};

/// The leaders and the supply reserve a plan attaches to a division
/// (Corinth 29.26).
pub const CORINTH_ATTACHED: [&str; 5] =
    ["hoxton", "sengstak", "price", "van-dorn", "supply-reserve"];

/// The cavalry a plan sends through an area (Corinth 29.27).
pub const CORINTH_CAVALRY: [&str; 7] = [
    "armstrong",
    "2-ark-cav",
    "2-mo-cav",
    "adams-cav",
    "jackson",
    "1-miss-cav",
    "7-tenn-cav",
];

/// The victory hexes whose loss keeps the game going past the first day
/// (the Hotel, four primary redans and 3844: 16 points, 31.2).
pub const NIGHT_HEXES: [&str; 6] = ["2437", "1934", "1838", "1942", "2729", "3844"];

/// Division `d` through assault area `area` on Game-Turn `turn` (29.21).
pub fn division(d: &str, area: &str, turn: u16) -> PlannedDivision {
    PlannedDivision {
        division: id(d),
        area: id(area),
        turn,
    }
}

/// An assault plan (29.2): `divisions`, every [`CORINTH_ATTACHED`]
/// counter with the division `attached_to`, all the [`CORINTH_CAVALRY`]
/// through the area `cavalry_through`.
pub fn assault_plan(
    divisions: Vec<PlannedDivision>,
    attached_to: &str,
    cavalry_through: &str,
) -> AssaultPlan {
    AssaultPlan {
        divisions,
        attached: CORINTH_ATTACHED
            .iter()
            .map(|c| (id(c), id(attached_to)))
            .collect(),
        cavalry: CORINTH_CAVALRY
            .iter()
            .map(|c| (id(c), id(cavalry_through)))
            .collect(),
    }
}

/// The Historical Scenario at the Union set-up.
pub fn corinth() -> T {
    T::battle("corinth")
}

/// After the default Union set-up: the Union Player-Turn of Game-Turn 2.
pub fn corinth_started() -> T {
    let mut t = corinth();
    t.ok(super::UNION, GbacwAction::EndSetUp);
    t
}

/// The Confederates take these victory hexes: whatever Union unit stands
/// there steps aside to a free hex of row 20 (no victory hex), and the
/// hex is theirs (31.1: the last to occupy it).
pub fn give(t: &mut T, hexes: &[&str]) {
    let victory: Vec<HexNumber> =
        t.rs.game()
            .scenario
            .victory
            .hexes
            .iter()
            .map(|v| v.hex)
            .collect();
    let mut spare = (10..30u8)
        .filter_map(|c| HexNumber::new(c, 20))
        .filter(|h| !victory.contains(h));
    for h in hexes {
        let there: Vec<CounterId> =
            t.s.units
                .iter()
                .filter(|(_, u)| u.hex == Some(n(h)))
                .map(|(id, _)| id.clone())
                .collect();
        for u in there {
            let to = spare
                .by_ref()
                .find(|x| t.s.units.values().all(|o| o.hex != Some(*x)))
                .unwrap();
            t.s.units.get_mut(&u).unwrap().hex = Some(to);
        }
        t.s.progress.hex_control.insert(n(h), id("confederate"));
    }
}

/// Corinth after the day: the first-day total keeps the game going
/// ([`NIGHT_HEXES`] given to the Confederates).
pub fn night_game() -> T {
    let mut t = corinth_started();
    give(&mut t, &NIGHT_HEXES);
    t
}

/// End phases until Game-Turn `turn` begins (or the game ends).
pub fn to_turn(t: &mut T, turn: u16) {
    while t.s.clock.turn < turn && !t.s.over {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        // Corinth 26.4: the Pre-Dawn Barrage is passed by finishing it.
        let action = if t.s.night.barrage.is_some() {
            GbacwAction::EndBarrage
        } else {
            GbacwAction::EndPhase
        };
        let (events, _) = t.roll(actor, action, u64::from(t.s.clock.turn));
        assert!(!events.is_empty());
    }
}

/// End phases until the Pre-Dawn Barrage opens (at most 200).
pub fn to_barrage(t: &mut T) {
    for _ in 0..200 {
        if t.s.night.barrage.is_some() {
            return;
        }
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.roll(actor, GbacwAction::EndPhase, u64::from(t.s.clock.turn));
    }
    panic!("the barrage never opened");
}

/// A hex whose every hex within `radius` is clear, level with it and
/// empty: nothing there blocks a line of sight or changes a fire.
pub fn open_ground(t: &T, radius: u32) -> HexNumber {
    let map = &t.rs.game().map;
    map.hexes()
        .map(|(h, _)| h)
        .find(|x| {
            map.hexes().all(|(h, info)| {
                map.grid.distance(*x, h) > radius
                    || (info.terrain.len() == 1
                        && info.has(Terrain::Clear)
                        && info.level == map.hex(*x).unwrap().level
                        && t.s.units.values().all(|u| u.hex != Some(h)))
            })
        })
        .expect("open ground")
}

/// Bryan's battery fires its barrage at `target` (26.42).
pub fn bryan_fires(target: HexNumber) -> GbacwAction {
    GbacwAction::BarrageFire {
        target,
        firers: vec![id("bryan")],
    }
}

/// The barrage open, 21 Mo in line on open ground and Bryan's battery
/// (Confederate, 4 guns) unlimbered two to four hexes from it, facing it,
/// where the engine accepts its fire; the battery's hex. 21 Mo's hex is
/// `t.hex("21-mo")`.
pub fn barrage_on_21_mo() -> (T, HexNumber) {
    let mut t = night_game();
    to_turn(&mut t, 20);
    t.s.progress.to_arrive.remove(&id("bryan"));
    t.s.progress.to_arrive.remove(&id("18-ark"));
    let grid = t.rs.game().map.grid.clone();
    let target = open_ground(&t, 4);
    t.put("21-mo", &target.to_string(), "n", Formation::Line);
    to_barrage(&mut t);
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    let hexes: Vec<HexNumber> = t.rs.game().map.hexes().map(|(h, _)| h).collect();
    for k in 2..=4u32 {
        for b in hexes.iter().copied() {
            if grid.distance(b, target) != k || t.s.units.values().any(|u| u.hex == Some(b)) {
                continue;
            }
            let toward = grid
                .neighbours_on_map(b)
                .into_iter()
                .map(|(_, h)| h)
                .min_by_key(|h| grid.distance(*h, target))
                .unwrap();
            t.put("bryan", &b.to_string(), "n", Formation::Unlimbered);
            t.face_towards("bryan", &toward.to_string());
            let ctx = ActionContext {
                seat: REBEL,
                seq: 1,
                by_default: false,
            };
            let mut dice = Dice::from_stream(crate::dice::DiceStream::from_seed(b"check"));
            if t.rs
                .decide(&t.s, &ctx, &bryan_fires(target), &mut dice)
                .is_ok()
            {
                return (t, b);
            }
        }
    }
    panic!("no hex from which Bryan sees 21 Mo");
}
