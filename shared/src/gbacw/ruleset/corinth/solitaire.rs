//! Corinth 29.5: the Free Set-Up's solitaire version. The Confederate
//! assault is not plotted (29.2) but rolled, with the engine's ordinary
//! commit-reveal dice, so the player (who holds both seats) cannot foresee
//! it:
//!
//! - 29.51: before the Union sets up, `SolitaireRoll` rolls which of Maury
//!   (1-3) and Hebert (4-6) enters on Game-Turn 1 and its Assault Area on
//!   the Area Determination Table (29.57); 29.55: a die for each 29.26
//!   counter (1-3 Maury, 4-6 Hebert). The cavalry is split as evenly as
//!   possible among the divisions (seven counters: three, two, two, in
//!   the scenario's order) and waits at its division's area (29.27).
//! - 29.53: at the start of every Confederate Movement Phase, before
//!   anything else, `SolitaireRoll` rolls the Division Arrival Table
//!   (29.56) for each division not yet in, and 29.57 for each that enters.
//! - 29.54: a division still out on Game-Turn `all-by=` (6) enters then
//!   (the area is still rolled).
//!
//! The rolled entries go into the same assault plan the two-player game
//! plots (`plan::AssaultPlan`), public from the start (nothing is secret
//! from a solitaire player), so arrivals, reveals and 29.41 work as in the
//! two-player game. The first division enters through its area in the
//! Game-Turn 1 Movement Phase (29.3) rather than being set up in its first
//! row before the Union sets up (29.51): the Union sees where it will
//! come, which is what the early set-up is for.
//!
//! The tables 29.56 and 29.57 are on the mapsheet, which no seed holds:
//! `assets/gbacw/corinth/solitaire.toml` holds provisional ones, each value
//! with its reason.

use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::plan::{AssaultPlan, PlannedDivision};
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{HookKind, PlanSpec, Scenario};
use crate::gbacw::sequence::{Phase, Step};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The tables (reviewed text).
pub const SOLITAIRE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/solitaire.toml"
));

const FORMAT: &str = "corinth-solitaire 1";

/// A die roll choosing a division (29.51, 29.55).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub division: String,
    pub dice: Vec<u8>,
    pub why: String,
}

/// One cell of the Division Arrival Table (29.56).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrivalRow {
    pub turn: u16,
    pub division: String,
    pub dice: Vec<u8>,
    pub why: String,
}

/// One row of the Area Determination Table (29.57): Game-Turns `from` to
/// `to` (none: and later), the area for each die 1-6.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AreaRow {
    pub from: u16,
    #[serde(default)]
    pub to: Option<u16>,
    pub areas: Vec<String>,
    pub why: String,
}

/// Corinth 29.51, 29.55, 29.56, 29.57.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolitaireTables {
    pub format: String,
    pub provisional: bool,
    pub first: Vec<Choice>,
    pub attach: Vec<Choice>,
    pub arrival: Vec<ArrivalRow>,
    pub area: Vec<AreaRow>,
}

/// One division's roll at the start of a Confederate Movement Phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivisionRoll {
    pub division: CounterId,
    /// The Division Arrival Table's die; `None` when 29.54 brings it in.
    pub die: Option<u8>,
    /// The Area Determination Table's die and the entry, if it enters.
    pub area_die: Option<u8>,
    pub entry: Option<PlannedDivision>,
}

impl SolitaireTables {
    /// Parse and check against `scenario`: the format; every die of 29.51
    /// and 29.55 once, naming a division that may take the 29.26
    /// counters; arrival dice 1-6 for known divisions; each area row six
    /// known areas none used before the plan lets it (29.22), the rows
    /// covering every Game-Turn in order.
    pub fn load(input: &str, scenario: &Scenario) -> Result<Self, String> {
        let t: SolitaireTables = crate::gbacw::charts::source::from_toml(input, "solitaire tables")
            .map_err(|e| e.to_string())?;
        if t.format != FORMAT {
            return Err(format!("format `{}`, expected `{FORMAT}`", t.format));
        }
        let spec = scenario
            .plan
            .as_ref()
            .ok_or("the solitaire scenario needs its `assault-plan` lines")?;
        let known = |d: &str| spec.divisions.iter().any(|x| x.0 == d);
        for (what, choices) in [("first", &t.first), ("attach", &t.attach)] {
            let mut seen = [false; 6];
            for c in choices {
                if !spec.attach_to.iter().any(|x| x.0 == c.division) {
                    return Err(format!("{what}: `{}` may not take them", c.division));
                }
                for d in &c.dice {
                    let i = usize::from(d.wrapping_sub(1));
                    if i >= 6 || seen[i] {
                        return Err(format!("{what}: die {d} out of 1-6 or given twice"));
                    }
                    seen[i] = true;
                }
            }
            if seen.contains(&false) {
                return Err(format!("{what}: not every die 1-6 is given"));
            }
        }
        for r in &t.arrival {
            if !known(&r.division) || r.dice.iter().any(|d| !(1..=6).contains(d)) {
                return Err(format!(
                    "arrival turn {}: `{}` or its dice",
                    r.turn, r.division
                ));
            }
        }
        let mut next = 1;
        for r in &t.area {
            if r.from != next || r.areas.len() != 6 {
                return Err(format!(
                    "area rows must follow on from Game-Turn {next} with six areas each"
                ));
            }
            for a in &r.areas {
                let from = spec
                    .areas
                    .iter()
                    .find(|(x, _)| x.0 == *a)
                    .map(|(_, f)| *f)
                    .ok_or_else(|| format!("area `{a}` is not a plan area"))?;
                if from > r.from {
                    return Err(format!(
                        "area `{a}` may be used from Game-Turn {from}, not {}",
                        r.from
                    ));
                }
            }
            match r.to {
                Some(to) => next = to + 1,
                None => next = u16::MAX,
            }
        }
        if next != u16::MAX {
            return Err("the last area row must have no `to` (and later)".into());
        }
        Ok(t)
    }

    fn pick(choices: &[Choice], die: u8) -> Option<&str> {
        choices
            .iter()
            .find(|c| c.dice.contains(&die))
            .map(|c| c.division.as_str())
    }

    fn enters(&self, turn: u16, division: &CounterId, die: u8) -> bool {
        self.arrival
            .iter()
            .any(|r| r.turn == turn && r.division == division.0 && r.dice.contains(&die))
    }

    /// 29.57, with 29.21's different areas: the rolled area, else the
    /// next of its row not taken by `taken`.
    fn area(&self, turn: u16, die: u8, taken: &[&CounterId]) -> Option<CounterId> {
        let row = self
            .area
            .iter()
            .find(|r| r.from <= turn && r.to.is_none_or(|to| turn <= to))?;
        let start = usize::from(die.clamp(1, 6) - 1);
        (0..6)
            .map(|i| &row.areas[(start + i) % 6])
            .find(|a| !taken.iter().any(|t| t.0 == **a))
            .map(|a| CounterId(a.clone()))
    }
}

static TABLES: OnceLock<Option<SolitaireTables>> = OnceLock::new();

/// Check the tables when a scenario plays 29.5 (at `Gbacw::new`).
pub(crate) fn check_for(scenario: &Scenario) -> Result<(), String> {
    if scenario.hook(HookKind::Solitaire).is_none() {
        return Ok(());
    }
    SolitaireTables::load(SOLITAIRE, scenario)
        .map(|_| ())
        .map_err(|e| format!("solitaire.toml: {e}"))
}

fn tables(rs: &Gbacw) -> Option<&'static SolitaireTables> {
    TABLES
        .get_or_init(|| SolitaireTables::load(SOLITAIRE, &rs.game.scenario).ok())
        .as_ref()
}

/// Whether this battle is the solitaire version.
pub(crate) fn active(rs: &Gbacw) -> bool {
    rs.game.scenario.hook(HookKind::Solitaire).is_some()
}

fn spec(rs: &Gbacw) -> Result<(&PlanSpec, &'static SolitaireTables), RuleError> {
    let broken = || {
        err(
            &rs.case_rule("29.5"),
            RuleCode::Internal,
            "the solitaire tables or the plan lines are missing",
        )
    };
    let spec = rs.game.scenario.plan.as_ref().ok_or_else(broken)?;
    Ok((spec, tables(rs).ok_or_else(broken)?))
}

fn die(dice: &mut Dice) -> Result<u8, RuleError> {
    Ok(u8::try_from(dice.roll(6)?).unwrap_or(6))
}

/// 29.27, 29.55: the division each cavalry counter goes with, as evenly
/// as possible, in the scenario's order.
fn cavalry_division(spec: &PlanSpec, index: usize) -> &CounterId {
    &spec.divisions[index % spec.divisions.len()]
}

/// The cavalry of `division`, at `area`.
fn cavalry_of(
    spec: &PlanSpec,
    division: &CounterId,
    area: &CounterId,
) -> Vec<(CounterId, CounterId)> {
    spec.cavalry
        .iter()
        .enumerate()
        .filter(|(i, _)| cavalry_division(spec, *i) == division)
        .map(|(_, c)| (c.clone(), area.clone()))
        .collect()
}

/// 29.51, 29.55: the solitaire game's first roll, in place of the plot.
pub(crate) fn start(rs: &Gbacw, dice: &mut Dice) -> Result<Vec<GbacwEvent>, RuleError> {
    let (spec, t) = spec(rs)?;
    let first_die = die(dice)?;
    let first = CounterId(
        SolitaireTables::pick(&t.first, first_die)
            .unwrap_or("hebert")
            .to_string(),
    );
    let area_die = die(dice)?;
    let area = t.area(1, area_die, &[]).ok_or_else(|| {
        err(
            &rs.case_rule("29.57"),
            RuleCode::Internal,
            "no Game-Turn 1 row",
        )
    })?;
    let mut attach_dice = Vec::new();
    let mut attached = BTreeMap::new();
    for c in &spec.attach {
        let d = die(dice)?;
        attach_dice.push(d);
        let to = SolitaireTables::pick(&t.attach, d).unwrap_or("hebert");
        attached.insert(c.clone(), CounterId(to.to_string()));
    }
    let entry = PlannedDivision {
        division: first.clone(),
        area: area.clone(),
        turn: 1,
    };
    let plan = AssaultPlan {
        divisions: vec![entry],
        attached,
        cavalry: cavalry_of(spec, &first, &area).into_iter().collect(),
    };
    Ok(vec![GbacwEvent::SolitaireStarted {
        plan,
        dice: [vec![first_die, area_die], attach_dice].concat(),
    }])
}

/// Whether 29.53's roll is due now: the Confederate Movement Phase has
/// begun and not rolled this Game-Turn, and a division is still out.
pub(crate) fn roll_due(rs: &Gbacw, state: &GbacwState) -> bool {
    if !active(rs) || state.progress.setting_up.is_some() {
        return false;
    }
    let Some(spec) = &rs.game.scenario.plan else {
        return false;
    };
    let Some(plan) = state
        .progress
        .assault
        .as_ref()
        .and_then(|a| a.plan.as_ref())
    else {
        return false;
    };
    matches!(
        state.clock.step,
        Step::Phase {
            phase: Phase::Movement,
            ..
        }
    ) && rs.phasing_side(state.clock) == Some(&spec.side)
        && state.solitaire_rolled < state.clock.turn
        && plan.divisions.len() < spec.divisions.len()
}

/// 29.53, 29.54: the Division Arrival Table for each division still out,
/// and the Area Determination Table for each that enters.
pub(crate) fn roll(
    rs: &Gbacw,
    state: &GbacwState,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (spec, t) = spec(rs)?;
    let turn = state.clock.turn;
    let all_by = rs
        .game
        .scenario
        .hook(HookKind::Solitaire)
        .and_then(|h| h.number("all-by"))
        .unwrap_or(6);
    let plan = state
        .progress
        .assault
        .as_ref()
        .and_then(|a| a.plan.as_ref())
        .cloned()
        .unwrap_or_default();
    let mut taken: Vec<CounterId> = plan
        .divisions
        .iter()
        .filter(|d| d.turn == turn)
        .map(|d| d.area.clone())
        .collect();
    let mut rolls = Vec::new();
    let mut cavalry = BTreeMap::new();
    for division in &spec.divisions {
        if plan.division(division).is_some() {
            continue;
        }
        let (die_rolled, enters) = if turn >= all_by {
            (None, true)
        } else {
            let d = die(dice)?;
            (Some(d), t.enters(turn, division, d))
        };
        let mut r = DivisionRoll {
            division: division.clone(),
            die: die_rolled,
            area_die: None,
            entry: None,
        };
        if enters {
            let d = die(dice)?;
            let refs: Vec<&CounterId> = taken.iter().collect();
            let area = t.area(turn, d, &refs).ok_or_else(|| {
                err(
                    &rs.case_rule("29.57"),
                    RuleCode::Internal,
                    format!("no free area on Game-Turn {turn}"),
                )
            })?;
            taken.push(area.clone());
            cavalry.extend(cavalry_of(spec, division, &area));
            r.area_die = Some(d);
            r.entry = Some(PlannedDivision {
                division: division.clone(),
                area,
                turn,
            });
        }
        rolls.push(r);
    }
    Ok(vec![GbacwEvent::SolitaireRolled {
        turn,
        rolls,
        cavalry,
    }])
}

pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::SolitaireStarted { plan, .. } => {
            let first = plan.divisions.first().cloned().unwrap_or(PlannedDivision {
                division: CounterId(String::new()),
                area: CounterId(String::new()),
                turn: 1,
            });
            state.progress.assault = Some(crate::gbacw::ruleset::plan::AssaultState {
                commitment: [0; 32],
                plan: Some(plan.clone()),
                salt: None,
                announced: first,
                revealed: Vec::new(),
                // Nothing is secret from a solitaire player.
                opened: true,
            });
        }
        GbacwEvent::SolitaireRolled {
            turn,
            rolls,
            cavalry,
        } => {
            state.solitaire_rolled = *turn;
            if let Some(plan) = state
                .progress
                .assault
                .as_mut()
                .and_then(|a| a.plan.as_mut())
            {
                plan.divisions
                    .extend(rolls.iter().filter_map(|r| r.entry.clone()));
                plan.cavalry
                    .extend(cavalry.iter().map(|(c, a)| (c.clone(), a.clone())));
            }
        }
        _ => {}
    }
}
