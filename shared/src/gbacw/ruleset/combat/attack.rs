//! GBACW 9.0, 9.1, 9.14/9.15, 9.41, 9.5x, 8.32, 7.23: one attack's
//! strength, Fire CRT row and column, from the state.

use super::MAX_SHIFT;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::WeaponKind;
use crate::gbacw::facing::{Facing, is_enfiladed};
use crate::gbacw::fire::{
    Attack, ColumnShifts, FireStrength, density_shift, fire_row, terrain_shift,
    unit_fire_strength_read,
};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Marker, Unit, UnitStatus};
use crate::gbacw::options::RuleOptions;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::FireReport;
use crate::gbacw::ruleset::state::{FireShare, GbacwState};
use crate::gbacw::tables::{FireCrt, FireResult};

/// An attack ready to roll: what the CRT needs and what the report shows.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub target: HexNumber,
    /// The units that can be hit, top first (8.21, 8.41: the hex's stack
    /// in its order; for withdrawal fire only the targets of 10.13/10.14).
    pub stack: Vec<CounterId>,
    pub firers: Vec<CounterId>,
    pub artillery: bool,
    /// The farthest firer, for 13.44 (artillery at three hexes or more).
    pub max_range: u32,
    pub attack: Attack,
    /// Cedar Mountain 24.13: Fire Strength columns to the left for a firer
    /// of a brigade that has lost BCE (before the 9.51 shifts: it moves
    /// the strength column itself, so the cap does not hold it).
    pub strength_columns_left: u8,
    /// Corinth 23.1 (−1 solely across the works) and 21.3 (+1 for
    /// sharpshooters alone): added to the fire die, which stays in 1–6.
    pub die_modifier: i8,
    /// Corinth 24.1: a rapid fire (its batteries roll for fouling after).
    pub rapid: bool,
}

impl Prepared {
    /// GBACW 9.0, 9.51: the report of this attack for a die. The cap
    /// holds the net of all shifts, or only terrain's under the
    /// `cap-terrain-only` reading.
    pub fn roll(&self, crt: &FireCrt, die: u8, options: RuleOptions) -> FireReport {
        let total = self
            .attack
            .firers
            .iter()
            .fold(FireStrength::ZERO, |a, b| a + *b);
        let s = self.attack.shifts;
        let cap = i32::from(MAX_SHIFT);
        let net = if options.cap_terrain_only {
            s.terrain.clamp(-cap, cap) + s.density + i32::from(s.enfiladed)
        } else {
            (s.terrain + s.density + i32::from(s.enfiladed)).clamp(-cap, cap)
        };
        let base = FireCrt::shifted(
            crt.column(self.attack.row, total.whole()),
            -i32::from(self.strength_columns_left),
        );
        let column = FireCrt::shifted(base, net);
        let narrow = |v: i32| i8::try_from(v.clamp(-99, 99)).unwrap_or(0);
        FireReport {
            target: self.target,
            firers: self.firers.clone(),
            strength: total.whole(),
            row: self.attack.row,
            terrain_shift: narrow(s.terrain),
            density_shift: narrow(s.density),
            enfilade: s.enfiladed,
            net_shift: narrow(net),
            column: u8::try_from(column + 1).unwrap_or(u8::MAX),
            die,
            result: crt
                .result(column, self.modified_die(die))
                .unwrap_or(FireResult::NoEffect),
            strength_columns_left: self.strength_columns_left,
            die_modifier: self.die_modifier,
        }
    }

    /// The die read on the CRT: the natural die plus the modifier, within
    /// 1–6 (Corinth 23.1: "less than one are treated as one"; 21.3:
    /// "greater than 6 are treated as 6").
    pub fn modified_die(&self, die: u8) -> u8 {
        u8::try_from((i16::from(die) + i16::from(self.die_modifier)).clamp(1, 6)).unwrap_or(die)
    }
}

fn refuse(rule: &str, message: String) -> RuleError {
    crate::gbacw::ruleset::err(rule, RuleCode::Illegal, message)
}

/// Build an attack by `firers` (each with its share, 9.45) on the units of
/// the other side in `target` — or only on `only` (withdrawal fire:
/// 10.13, 10.14). `facing_as` turns the targets for enfilade (10.16: a
/// unit withdrawing faces the hex it is about to enter). Checks range
/// (9.23) and that a target is there; eligibility, sight and hexsides are
/// the caller's (they differ between Fire Phases and withdrawal fire).
pub(crate) fn prepare(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    firers: &[FireShare],
    only: Option<&[CounterId]>,
    facing_as: Option<Facing>,
) -> Result<Prepared, RuleError> {
    prepare_with(rs, state, target, firers, only, facing_as, false)
}

/// [`prepare`]; with `beyond_range`, a firer farther than its weapon's
/// maximum range fires at its longest band's strength instead of being
/// refused (Cedar Mountain 22.2: scattered fire "is still executed
/// normally" outside the battery's maximum range).
pub(crate) fn prepare_with(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    firers: &[FireShare],
    only: Option<&[CounterId]>,
    facing_as: Option<Facing>,
    beyond_range: bool,
) -> Result<Prepared, RuleError> {
    let board = Board::new(rs, state);
    let game = &rs.game;
    let first = firers
        .first()
        .ok_or_else(|| refuse("GBACW 9.0", "name at least one firer".into()))?;
    let firing_side = &game.oob.units[&first.unit].side;
    let mut stack: Vec<CounterId> = match only {
        Some(ids) => {
            let mut v: Vec<CounterId> = ids
                .iter()
                .filter(|id| state.units.get(*id).is_some_and(|u| u.hex == Some(target)))
                .cloned()
                .collect();
            v.sort();
            // GBACW 8.41: top first.
            crate::gbacw::ruleset::stack_order::sort(state, target, &mut v, |id| id);
            v
        }
        None => {
            let enemy = rs.enemy_of(firing_side);
            board.units_of(target, enemy).into_iter().cloned().collect()
        }
    };
    // A lone piece of the battle's own fired on (hook `lone_target`); the
    // attack names it. Withdrawal and retreat fire name it among `only`
    // (10.13, 10.2).
    let crew = if stack.is_empty() {
        rs.battle()
            .lone_target(rs, state, target, rs.enemy_of(firing_side))
            .filter(|(battery, _, _)| only.is_none_or(|ids| ids.contains(battery)))
    } else {
        None
    };
    if let Some((battery, _, _)) = &crew {
        stack = vec![battery.clone()];
    }
    if stack.is_empty() {
        return Err(refuse(
            "GBACW 9.0",
            format!("there is no enemy unit to fire at in {target}"),
        ));
    }
    let pairs: Vec<(&Unit, &UnitStatus)> = match &crew {
        Some((_, unit, status)) => vec![(unit, status)],
        None => stack
            .iter()
            .map(|id| (&game.oob.units[id], &state.units[id].status))
            .collect(),
    };
    let hit = crate::gbacw::fire::result_target(&pairs).unwrap_or(0);
    let (hit_unit, hit_status) = pairs[hit];
    let hit_state = &state.units[&stack[hit]];

    let mut strengths = Vec::new();
    let mut hexes = Vec::new();
    let mut artillery = None;
    let mut max_range = 0;
    let mut enfiladed = false;
    for share in firers {
        let u = state.units.get(&share.unit).ok_or_else(|| {
            crate::gbacw::ruleset::err(
                "GBACW 3.3",
                RuleCode::NotFound,
                format!("there is no unit {}", share.unit),
            )
        })?;
        let unit = &game.oob.units[&share.unit];
        let from = u
            .hex
            .ok_or_else(|| refuse("GBACW 9.0", format!("{} is not on the map", share.unit)))?;
        let weapon = unit
            .weapon
            .as_deref()
            .and_then(|w| game.charts.range.weapon(w))
            .ok_or_else(|| refuse("GBACW 9.21", format!("{} has no weapon", share.unit)))?;
        let is_artillery = weapon.kind.value == WeaponKind::Artillery;
        // GBACW 9.41: artillery and small arms are never combined.
        if *artillery.get_or_insert(is_artillery) != is_artillery {
            return Err(refuse(
                "GBACW 9.41",
                "infantry and artillery fire are never combined in one attack".into(),
            ));
        }
        let range = game.map.grid.distance(from, target);
        max_range = max_range.max(range);
        let read_at = if beyond_range {
            range.min(weapon.max_range())
        } else {
            range
        };
        let s = unit_fire_strength_read(
            weapon,
            share.points,
            read_at,
            u.status.crew,
            rs.options.half_crew_halves_final,
        )
        .ok_or_else(|| {
            refuse(
                "GBACW 9.23",
                format!(
                    "{target} is {range} hexes from {}: beyond its weapon's range of {}",
                    share.unit,
                    weapon.max_range()
                ),
            )
        })?;
        strengths.push(s);
        hexes.push(from);
        // GBACW 7.23, 10.16: fire into a rear hexside enfilades.
        // Corinth 23.21: a redan's enfilade hexsides are its rear.
        let facing = facing_as.unwrap_or(rs.battle().facing_in(rs, target, hit_state.facing));
        enfiladed |= is_enfiladed(
            &game.map.grid,
            target,
            facing,
            hit_status.formation,
            hit_status.markers.contains(&Marker::Rout),
            from,
        );
    }
    let artillery = artillery.unwrap_or(false);
    let whole_stack: Vec<(&Unit, &UnitStatus)> = board
        .units_of(target, &hit_unit.side)
        .into_iter()
        .map(|id| (&game.oob.units[id], &state.units[id].status))
        .collect();
    let shifts = ColumnShifts {
        // The battle's own rule here (hook `ground`).
        terrain: terrain_shift(
            &rs.battle().ground(rs, state),
            &game.charts.combat,
            target,
            &hexes,
        ) + rs.battle().fire_shift(rs, target, &hexes),
        // GBACW 8.32, 8.22: density counts the whole stack in the hex.
        density: density_shift(
            &whole_stack,
            &game.charts.stacking.points,
            &rs.tables.density,
        ),
        enfiladed,
    };
    let strength_columns_left = crate::gbacw::ruleset::exclusive::bce_loss::fire_columns_left(
        rs,
        state,
        &firers.iter().map(|f| f.unit.clone()).collect::<Vec<_>>(),
    );
    let firer_ids: Vec<CounterId> = firers.iter().map(|f| f.unit.clone()).collect();
    // The battle's own rule here (hook `fire_die_modifier`).
    let die_modifier = rs
        .battle()
        .fire_die_modifier(rs, target, &firer_ids, &hexes);
    Ok(Prepared {
        strength_columns_left,
        die_modifier,
        rapid: false,
        target,
        stack,
        firers: firers.iter().map(|f| f.unit.clone()).collect(),
        artillery,
        max_range,
        attack: Attack {
            firers: strengths,
            row: fire_row(artillery, &hit_unit.kind),
            shifts,
        },
    })
}
