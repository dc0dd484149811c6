//! The GBACW deltas and how they fold into a state.

use super::progress::HexRecord;
use super::state::{
    AdvanceOffer, Casualty, CommandCheck, DeclaredMelee, GbacwState, LeaderRoutOffer, Moved,
    NewCrew, PlannedFire, RbmOffer, RestackOffer, RetreatFireOffer, RetreatOrder, SuccessionKind,
    SuccessionRecord, WithdrawalDecision,
};
use crate::gbacw::charts::Mp;
use crate::gbacw::command::DivisionLinks;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::oob::{Crew, Marker, UnitStatus};
use crate::gbacw::sequence::{Clock, Phase, Step};
use crate::gbacw::tables::{AmmoLoss, FireResult, FireRow, MeleeResult};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GbacwEvent {
    /// GBACW 4.0: the sequence of play moved on to `clock`.
    PhaseChanged { clock: Clock },
    /// The last Game-Turn is over.
    GameEnded,
    /// GBACW 17.0: the Initial Command Phase's findings.
    CommandChecked(CommandCheck),
    /// GBACW 17.22.
    CommandPointsSpent {
        division: CounterId,
        brigade: CounterId,
        points: u8,
    },
    /// GBACW 17.6: a division's detached and attached brigades now.
    LinksChanged {
        division: CounterId,
        links: DivisionLinks,
    },
    /// A unit entered `to` facing `facing`, paying `cost`.
    UnitMoved {
        unit: CounterId,
        to: HexNumber,
        facing: Facing,
        cost: Mp,
    },
    /// A leader entered `to`, paying `cost`.
    LeaderMoved {
        leader: CounterId,
        to: HexNumber,
        cost: Mp,
    },
    /// GBACW 7.12, 8.42.
    FacingChanged { unit: CounterId, facing: Facing },
    /// GBACW 6.0, 6.22; `finished` for cavalry (6.22: at the end of movement).
    FormationChanged {
        unit: CounterId,
        to: Formation,
        cost: Mp,
        finished: bool,
    },
    /// GBACW 17.53: a leader whose units were eliminated by fire, unhurt,
    /// is placed on the nearest combat unit of his command, in `hex`.
    LeaderRejoined { leader: CounterId, hex: HexNumber },
    /// GBACW 17.75: an enemy leader alone in a hex a unit entered.
    LeaderLost {
        leader: CounterId,
        casualty: Casualty,
    },
    /// GBACW 10.1, 6.23, 6.24: withdrawal fire offered to the other seat.
    WithdrawalFireOffered(WithdrawalDecision),
    /// The firing seat declined; the interrupted action goes on.
    WithdrawalFireDeclined,
    /// GBACW 10.11: the firing seat fired; the resolution follows.
    WithdrawalFireAnswered,
    /// GBACW 9.0: an attack joins the Fire Phase's plan.
    FireDeclared(PlannedFire),
    /// A declared attack is taken back.
    FireCancelled { index: u16 },
    /// GBACW 9.42: the plan has been rolled; it is empty again.
    FirePlanCleared,
    /// GBACW 9.0–9.6: one attack rolled on the Fire CRT, every input shown
    /// (the state does not change: the effects follow as their own events).
    FireResolved(FireReport),
    /// GBACW 9.81, 8.21: Strength Points (guns for a battery: 9.82) lost.
    UnitHit { unit: CounterId, points: u8 },
    /// GBACW 9.82, 15.12: a battery's or wagon's crew loses a step.
    CrewHit { unit: CounterId, crew: Crew },
    /// GBACW 11.3: a battery fired one round.
    RoundFired { unit: CounterId },
    /// A unit's markers now (pin, rout, engaged, ammunition depleted).
    MarkersSet {
        unit: CounterId,
        markers: BTreeSet<Marker>,
    },
    /// GBACW 13.14: a green unit saw the elephant.
    MoraleRated { unit: CounterId, rating: u8 },
    /// GBACW 13.2: a morale check (or 9.88's pin roll), shown.
    MoraleChecked {
        unit: CounterId,
        rating: u8,
        die: u8,
        modifier: i8,
        failed: bool,
    },
    /// GBACW 13.31, 14.0: a unit retreated along `path` (no Movement Points).
    UnitRetreated {
        unit: CounterId,
        path: Vec<HexNumber>,
    },
    /// A unit leaves play: destroyed (no strength or no crew left, 15.12)
    /// or captured whole (13.31, 14.1: no retreat path).
    UnitRemoved { unit: CounterId, captured: bool },
    /// GBACW 17.72, 17.76: a leader's casualty roll (2d6), whatever it gave.
    LeaderRolled {
        leader: CounterId,
        roll: u8,
        casualty: Option<Casualty>,
    },
    /// GBACW 17.13: a brigade commander spent a Rally Point.
    RallyPointSpent { leader: CounterId },
    /// GBACW 13.5: a routed unit tried to rally.
    RallyTried {
        unit: CounterId,
        die: Option<u8>,
        rallied: bool,
    },
    /// GBACW 12.8: a melee declared; the defender is offered retreat.
    MeleeDeclared(DeclaredMelee, RbmOffer),
    /// The defender answered (retreated or stood).
    RbmAnswered,
    /// GBACW 12.0, 12.98: one melee rolled, every input shown.
    MeleeResolved(MeleeReport),
    /// GBACW 12.93: Strength Points (or guns) taken prisoner.
    PointsCaptured { unit: CounterId, points: u8 },
    /// GBACW 12.24, 6.11: a meleed or fired-on column goes into line.
    FormationSet { unit: CounterId, to: Formation },
    /// The Melee Phase is over: declarations and engagements not renewed
    /// are done with.
    MeleesCleared,
    /// GBACW 11.23–11.34: a wagon gave `amount` (a box, or rounds); the
    /// wagon's supply track and the unit now.
    Resupplied {
        wagon: CounterId,
        unit: CounterId,
        amount: u16,
        wagon_supply: (u16, u16),
        unit_status: UnitStatus,
    },
    /// GBACW 14.4: a unit must retreat and its owner chooses the path.
    RetreatOrdered(RetreatOrder),
    // --- Historical scenarios (folded by `progress::evolve`). ---
    /// Cedar Mountain 26.2: a unit set up (or set up again) before play.
    UnitPlaced {
        unit: CounterId,
        hex: HexNumber,
        facing: Facing,
        formation: Formation,
    },
    /// Cedar Mountain 26.2: a leader set up with his command.
    LeaderPlaced { leader: CounterId, hex: HexNumber },
    /// A side finished its set-up: `next` sets up now, or play begins.
    SetUpEnded { next: Option<CounterId> },
    /// Cedar Mountain 26.4, 26.46: a reinforcement entered at `hex`,
    /// paying `cost` for its place in the column.
    UnitArrived {
        unit: CounterId,
        hex: HexNumber,
        facing: Facing,
        formation: Formation,
        cost: Mp,
    },
    /// Cedar Mountain 26.4: a leader entered with the reinforcements.
    LeaderArrived {
        leader: CounterId,
        hex: HexNumber,
        cost: Mp,
    },
    /// Cedar Mountain 26.44: an entry hex held by the enemy when
    /// reinforcements were due there.
    EntryBlocked { hex: HexNumber, turn: u16 },
    /// The entry hex is clear again.
    EntryCleared { hex: HexNumber },
    /// Cedar Mountain 27.23: a unit left the map through an exit hex.
    UnitExited { unit: CounterId },
    /// Cedar Mountain 27.22: a combat unit of `side` occupied a victory hex.
    VictoryHexTaken { hex: HexNumber, side: CounterId },
    /// Cedar Mountain 27.22: the victory hexes scored at the end of a
    /// Player-Turn.
    VictoryHexesRecorded(HexRecord),
    // --- Added after the first logs (kept last so that older variants keep
    // their encoding): BCE (18.0) and Cedar Mountain 21.43, 22.0. ---
    /// GBACW 18.0: every box of the brigade's BCE track left of its
    /// Victory Point award is now marked (shown; the losses that marked
    /// them are already folded in: `ruleset/bce.rs`).
    BceLost { brigade: CounterId },
    /// Cedar Mountain 22.0: a battery firing at nine hexes or more rolled
    /// on the Overshoot Table (and, scattered, on the Scatter Diagram:
    /// `lands` is where its fire fell, `None` off the map). Shown only.
    OvershootRolled {
        battery: CounterId,
        target: HexNumber,
        range: u8,
        die: u8,
        accurate: bool,
        scatter_die: Option<u8>,
        lands: Option<HexNumber>,
    },
    /// Cedar Mountain 21.43: the corn of `hex` is blown down: clear from now on.
    CornBlownDown { hex: HexNumber },
    // --- Standard Rules part 2, second half (issue 5). ---
    /// GBACW 15.2: a battery that lost guns to artillery fire rolled for
    /// its caissons: `die` 1 is a hit, and `rounds_lost` (a second die,
    /// never more than it had) are gone.
    CaissonRolled {
        unit: CounterId,
        die: u8,
        rounds_lost: u16,
    },
    /// GBACW 17.8–17.85: a lost leader succeeded (flipped, redeployed or
    /// replaced by promotion) in the owner's Final Command Phase.
    LeaderSucceeded(SuccessionRecord),
    /// GBACW 12.85: the would-be attackers may advance into the vacated hex.
    AdvanceOffered(AdvanceOffer),
    /// The advance was taken (the moves follow) or declined.
    AdvanceAnswered,
    /// GBACW 10.2: a retreat halted in an enemy ZOC; retreat fire offered.
    RetreatFireOffered(RetreatFireOffer),
    /// The retreat fire offer was answered (the fire and the rest of the
    /// retreat follow as their own events).
    RetreatFireAnswered,
    /// GBACW 11.33: rounds moved from one battery to another.
    RoundsTransferred {
        from: CounterId,
        to: CounterId,
        rounds: u16,
    },
    // --- Corinth's scenarios. ---
    /// Corinth 30.34: a commitment roll for a reserve.
    ReserveRolled {
        reserve: CounterId,
        roll: u8,
        committed: bool,
    },
    /// Corinth 30.33, 30.35: a reserve committed without a roll (attacked,
    /// or from Game-Turn 15 at the player's wish).
    ReserveCommitted { reserve: CounterId, case: String },
    /// Corinth 31.2: the first day's victory determination.
    DayDetermined(super::progress::DayRecord),
    /// Corinth 30.5: the heat roll at the start of a Game-Turn; doubles
    /// skip it.
    HeatRolled {
        turn: u16,
        dice: [u8; 2],
        skipped: bool,
    },
    /// Corinth 29.2: the assault plan is plotted: its commitment for all,
    /// the plan and salt only for the plotting seat (`None` elsewhere);
    /// 29.23's announced division for all.
    AssaultPlotted {
        commitment: [u8; 32],
        plan: Option<super::plan::AssaultPlan>,
        salt: Option<[u8; 32]>,
        announced: super::plan::PlannedDivision,
    },
    /// Corinth 29.31: a division's first counter is on the map: its area
    /// and turn are public.
    DivisionRevealed(super::plan::PlannedDivision),
    /// The whole plan and salt, public, to check against the commitment.
    PlanOpened {
        plan: super::plan::AssaultPlan,
        salt: [u8; 32],
    },
    /// Corinth 29.43: the brigades set up near the Hotel are frozen.
    BrigadesFrozen { brigades: BTreeSet<CounterId> },
    /// Corinth 29.43: one of their units was attacked: all are active.
    BrigadesThawed { case: String },
    /// The game's first fire or melee (Corinth 29.43 counts from it).
    FirstCombat { turn: u16 },
    /// Corinth 24.1: declared attack `index` is rapid fire.
    FireMadeRapid { index: u16 },
    /// Corinth 24.1, 24.13: a battery's fouling roll after rapid fire
    /// (`modifier` added for the phases in a row before this one;
    /// `consecutive` counts this one too).
    FoulingRolled {
        unit: CounterId,
        die: u8,
        modifier: u8,
        fouled: bool,
        consecutive: u8,
    },
    /// Corinth 24.1: a fouled battery's unfouling roll.
    UnfoulRolled {
        unit: CounterId,
        die: u8,
        unfouled: bool,
    },
    /// Corinth 29.44.4: a Confederate unit came within six hexes of a
    /// Corinth hex: the artillery park may move and fire.
    ParkFreed { case: String },
    /// Corinth 29.51, 29.55 (solitaire): the first division's entry, the
    /// 29.26 counters' divisions and the cavalry's areas, from `dice`
    /// (first division, area, then one per 29.26 counter).
    SolitaireStarted {
        plan: super::plan::AssaultPlan,
        dice: Vec<u8>,
    },
    /// Corinth 29.53, 29.54, 29.57 (solitaire): this Game-Turn's Division
    /// Arrival rolls; the entering divisions' cavalry to their areas.
    SolitaireRolled {
        turn: u16,
        rolls: Vec<super::exclusive::DivisionRoll>,
        cavalry: BTreeMap<CounterId, CounterId>,
    },
    /// Corinth 29.47: these reinforcements were attacked: they may leave
    /// column.
    ReinforcementsAttacked {
        units: BTreeSet<CounterId>,
        case: String,
    },
    /// Corinth 25.2: `trigger` routed and its broken brigade retreats:
    /// `units` retreat (each move and check follows as its own events).
    BrigadeRetreated {
        brigade: CounterId,
        trigger: CounterId,
        units: Vec<CounterId>,
    },
    /// Corinth 22.1, 22.2: a morale check to retreat before melee or to
    /// melee; a failed attacking stack leaves the melee.
    MeleeGateChecked(super::exclusive::GateCheck),
    /// Corinth 27.3: `unit` retreated off the map into the Assault Area
    /// `area`, where a cavalry unit is held: it waits off the map and may
    /// enter again through it.
    HeldOffMap { unit: CounterId, area: CounterId },
    /// Corinth 26.2: one regiment's straggler recovery roll.
    StragglerRolled(super::exclusive::StragglerRoll),
    /// Corinth 26.3: the BCE Recovery Interphase.
    BceRecovered(super::exclusive::BceRecovery),
    /// Corinth 26.41: the Pre-Dawn Barrage Interphase opens; `side` fires.
    BarrageBegun { side: CounterId },
    /// Corinth 26.42: one barrage attack's die (the report and effects
    /// follow as in regular fire).
    BarrageRolled(super::exclusive::BarrageRoll),
    /// Corinth 26.43: a side has finished; `next` fires now, or (`None`)
    /// the interphase is over.
    BarrageEnded { next: Option<CounterId> },
    /// Corinth 22.33: a leader used to bypass a morale check stays with
    /// those units until the next Movement Phase.
    LeaderBound(super::exclusive::LeaderBinding),
    /// Corinth 25.26: a brigade retreat's batteries offered the retreat.
    BatteryRetreatOffered(super::exclusive::BatteryRetreatOffer),
    /// Corinth 25.26: their owner answered (the retreat, if any, follows).
    BatteryRetreatAnswered,
    /// Corinth 24.21: the crew of unlimbered `battery` routed away from its
    /// guns along `path` (the guns stay, under the Crew marker).
    CrewRouted {
        battery: CounterId,
        path: Vec<HexNumber>,
    },
    /// Corinth 25.23: this brigade retreat is held back (its first unit
    /// would draw withdrawal fire while another shot waits); it goes on
    /// once that one is answered.
    BrigadeRetreatHeld(super::exclusive::BrigadeRun),
    /// Corinth 25.23: the first held brigade retreat (of `brigade`) goes
    /// on now.
    BrigadeRetreatResumed { brigade: CounterId },
    /// Corinth 24.21: `battery`'s crew, away, moved along `path`; `rejoined`
    /// when it ended back in its guns' hex (the Crew marker comes off).
    CrewMoved {
        battery: CounterId,
        path: Vec<HexNumber>,
        rejoined: bool,
    },
    /// GBACW 12.94 option 3: engaged units withdrew from `from`, where
    /// they were engaged with the enemy in `enemy`; for the rest of the
    /// Player-Turn option 3 "may not be combined with options 1 or 2".
    EngagedWithdrawn {
        from: HexNumber,
        enemy: Vec<HexNumber>,
    },
    /// GBACW 11.12, 11.34: artillery fire's number on `wagon`, read as the
    /// `column` of the Ammunition Loss Table with `die`: `loss` comes off
    /// the wagon's supply track (a `WE` is followed by the wagon's removal).
    WagonAmmoLost {
        wagon: CounterId,
        column: u8,
        die: u8,
        loss: AmmoLoss,
    },
    /// GBACW 11.12, 11.17, 11.1: `wagon`'s crew left it — it routed away
    /// (`routed`), or retreated after melee — and the wagon stays where it
    /// is, turned over: uncrewed.
    WagonCrewLeft { wagon: CounterId, routed: bool },
    /// GBACW 13.43: a leader is asked whether he retreats with the routed
    /// top unit of his stack or stays with the units beneath.
    LeaderRoutOffered(LeaderRoutOffer),
    /// GBACW 13.43, 17.74: `leader` goes with routed `unit` (`go`) or
    /// stays. Going, he is placed in `to` when the unit has already
    /// retreated there; with its retreat still to come, he goes with it
    /// (`to` is `None`) and ends where it ends.
    LeaderRoutAnswered {
        leader: CounterId,
        unit: CounterId,
        go: bool,
        to: Option<HexNumber>,
    },
    /// GBACW 8.41: the stacking order of `hex` is now `order` (the side's
    /// units there, top first).
    StackReordered {
        hex: HexNumber,
        order: Vec<CounterId>,
    },
    /// GBACW 8.41: the top unit of a stack ran out of ammunition in the
    /// Fire Phase just ended: its owner may change the order.
    RestackOffered(RestackOffer),
    /// GBACW 8.41: the owner is done changing the order.
    RestackDone,
    /// GBACW 11.18: `crew.from` gives one Strength Point to crew `wagon`.
    WagonRecrewed { wagon: CounterId, crew: NewCrew },
    /// Corinth 28.32: on a full tie its owner chose `leader` to be
    /// promoted to command `division`.
    PromotionChosen {
        division: CounterId,
        leader: CounterId,
    },
}

/// What one melee came to on the Melee CRT (12.0–12.98).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeReport {
    pub target: HexNumber,
    pub attackers: Vec<CounterId>,
    pub defenders: Vec<CounterId>,
    pub attack: i32,
    pub defence: i32,
    pub differential: i32,
    pub die: u8,
    pub result: MeleeResult,
    /// GBACW 12.97: both sides would have gone; engaged instead.
    pub mutual_elimination: bool,
}

impl MeleeReport {
    /// GBACW 12.98 (note): the Melee Results Table column read, the
    /// differential clamped to the printed −4…+6 (`differential` is the
    /// raw Final Combat Differential, which may lie beyond the table).
    pub fn column(&self) -> i32 {
        use crate::gbacw::tables::melee::{MAX_DIFFERENTIAL, MIN_DIFFERENTIAL};
        self.differential.clamp(MIN_DIFFERENTIAL, MAX_DIFFERENTIAL)
    }
}

/// What one fire attack came to on the Fire CRT (9.0–9.6), for the log
/// and the client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireReport {
    pub target: HexNumber,
    pub firers: Vec<CounterId>,
    /// GBACW 9.41: the total final strength, whole part (fractions dropped).
    pub strength: u32,
    pub row: FireRow,
    /// GBACW 9.51, 8.32, 7.23: the shifts, and the net after the cap.
    pub terrain_shift: i8,
    pub density_shift: i8,
    pub enfilade: bool,
    pub net_shift: i8,
    /// The CRT column read, 1-based as printed.
    pub column: u8,
    pub die: u8,
    pub result: FireResult,
    /// Cedar Mountain 24.13: Fire Strength columns moved left because a
    /// firer's brigade has lost BCE.
    #[serde(default)]
    pub strength_columns_left: u8,
    /// Corinth 23.1, 21.3: added to `die` (the natural die) before the CRT
    /// is read; the result read 1–6.
    #[serde(default)]
    pub die_modifier: i8,
}

/// Fold one event into a state (the full one or any viewer's copy).
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    use GbacwEvent as E;
    // The exclusive rules' record of every event (who moved or fired,
    // leaders bound to units).
    super::exclusive::note(state, event);
    match event {
        E::PhaseChanged { clock } => {
            // 11.33: a new Game-Turn: where everyone stands, none fired.
            if clock.turn != state.clock.turn || state.turn_start.is_empty() {
                state.turn_start = state
                    .units
                    .iter()
                    .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
                    .collect();
                state.fired_this_turn.clear();
            }
            state.clock = *clock;
            state.leaders_following.clear();
            // Corinth 24.1: one unfouling try per battery per Fire Phase.
            state.rapid_fire.unfoul_tried.clear();
            if let Step::Phase { phase, .. } = clock.step {
                match phase {
                    // 5.11: allowances start afresh each Movement Phase.
                    Phase::Movement => {
                        for u in state.units.values_mut() {
                            u.moved = Moved::default();
                        }
                        // 16.23: a charge counts from where the phase began.
                        state.movement_start = state
                            .units
                            .iter()
                            .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
                            .collect();
                        for l in state.leaders.values_mut() {
                            l.moved = Moved::default();
                        }
                    }
                    // 17.13, 13.5: Rally Points and attempts are per phase.
                    Phase::Rally => {
                        state.rally_points.clear();
                        state.rally_tried.clear();
                    }
                    // 17.0, 17.22: command is found anew each Player-Turn.
                    Phase::InitialCommand => {
                        state.command = CommandCheck::default();
                        state.fired_at.clear();
                        state.melees.clear();
                        state.engaged_withdrawals.clear();
                        for l in state.leaders.values_mut() {
                            l.cp_spent = 0;
                            l.augmented = None;
                        }
                    }
                    _ => {}
                }
            }
        }
        E::GameEnded => state.over = true,
        E::CommandChecked(check) => state.command = check.clone(),
        E::CommandPointsSpent {
            division,
            brigade,
            points,
        } => {
            if let Some(d) = state.leaders.get_mut(division) {
                d.cp_spent = d.cp_spent.saturating_add(*points);
            }
            if let Some(b) = state.leaders.get_mut(brigade) {
                let before = b.augmented.as_ref().map_or(0, |(_, p)| *p);
                b.augmented = Some((division.clone(), before.saturating_add(*points)));
            }
        }
        E::LinksChanged { division, links } => {
            if *links == DivisionLinks::default() {
                state.links.remove(division);
            } else {
                state.links.insert(division.clone(), links.clone());
            }
        }
        E::UnitMoved {
            unit,
            to,
            facing,
            cost,
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = Some(*to);
                u.facing = *facing;
                u.moved.mp = u.moved.mp + *cost;
                u.moved.hexes = u.moved.hexes.saturating_add(1);
            }
        }
        E::LeaderMoved { leader, to, cost } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = Some(*to);
                l.moved.mp = l.moved.mp + *cost;
                l.moved.hexes = l.moved.hexes.saturating_add(1);
            }
        }
        E::FacingChanged { unit, facing } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.facing = *facing;
            }
        }
        E::FormationChanged {
            unit,
            to,
            cost,
            finished,
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.formation = *to;
                u.moved.mp = u.moved.mp + *cost;
                u.moved.finished |= *finished;
            }
        }
        E::LeaderRejoined { leader, hex } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = Some(*hex);
            }
        }
        E::LeaderLost { leader, casualty } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = None;
                l.casualty = Some(*casualty);
            }
        }
        E::WithdrawalFireOffered(d) => state.decision = Some(d.clone()),
        E::WithdrawalFireDeclined | E::WithdrawalFireAnswered => state.decision = None,
        E::FireDeclared(f) => {
            // GBACW 12.22: who fired at what in the Offensive Fire Phase.
            if let Step::Phase {
                phase: Phase::OffensiveFire,
                ..
            } = state.clock.step
            {
                for s in &f.firers {
                    state
                        .fired_at
                        .entry(s.unit.clone())
                        .or_default()
                        .push(f.target);
                }
            }
            state.fire_plan.push(f.clone());
        }
        E::FireCancelled { index } => {
            let i = usize::from(*index);
            if i < state.fire_plan.len() {
                let f = state.fire_plan.remove(i);
                for s in &f.firers {
                    if let Some(v) = state.fired_at.get_mut(&s.unit)
                        && let Some(k) = v.iter().position(|h| *h == f.target)
                    {
                        v.remove(k);
                        if v.is_empty() {
                            state.fired_at.remove(&s.unit);
                        }
                    }
                }
            }
        }
        E::FirePlanCleared => state.fire_plan.clear(),
        E::FireResolved(_)
        | E::MoraleChecked { .. }
        | E::BceLost { .. }
        | E::OvershootRolled { .. } => {}
        E::CornBlownDown { hex } => {
            state.corn_down.insert(*hex);
        }
        E::UnitHit { unit, points } => {
            if let Some(u) = state.units.get_mut(unit) {
                let taken = (*points).min(u.status.strength);
                u.status.strength -= taken;
                u.killed = u.killed.saturating_add(taken);
            }
        }
        E::CrewHit { unit, crew } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.crew = *crew;
            }
        }
        E::RoundFired { unit } => {
            state.fired_this_turn.insert(unit.clone());
            if let Some(u) = state.units.get_mut(unit) {
                u.status.rounds = u.status.rounds.saturating_sub(1);
            }
        }
        E::MarkersSet { unit, markers } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.markers = markers.clone();
            }
        }
        E::MoraleRated { unit, rating } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.rating = Some(*rating);
            }
        }
        // A second order for a unit already waiting replaces its first, in
        // its place in the queue (`combat::effects::retreat` merges them).
        E::RetreatOrdered(o) => match state.retreats.iter_mut().find(|x| x.unit == o.unit) {
            Some(waiting) => *waiting = o.clone(),
            None => state.retreats.push(o.clone()),
        },
        E::UnitRetreated { unit, path } => {
            state.retreats.retain(|o| o.unit != *unit);
            if let Some(u) = state.units.get_mut(unit)
                && let Some(last) = path.last()
            {
                u.hex = Some(*last);
                // GBACW 13.43, 17.74: a leader who chose to go with it.
                for (l, _) in state.leaders_following.iter().filter(|(_, x)| *x == unit) {
                    if let Some(ls) = state.leaders.get_mut(l) {
                        ls.hex = Some(*last);
                    }
                }
            }
        }
        E::UnitRemoved { unit, captured } => {
            state.retreats.retain(|o| o.unit != *unit);
            // Corinth 24.21: guns gone, no crew to come back.
            super::exclusive::evolve(state, event);
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = None;
                if *captured {
                    u.captured = u.captured.saturating_add(u.status.strength);
                    u.status.strength = 0;
                }
            }
        }
        E::LeaderRolled {
            leader, casualty, ..
        } => {
            if let Some(c) = casualty
                && let Some(l) = state.leaders.get_mut(leader)
            {
                l.hex = None;
                l.casualty = Some(*c);
            }
        }
        E::RallyPointSpent { leader } => {
            *state.rally_points.entry(leader.clone()).or_default() += 1;
        }
        E::MeleeDeclared(m, offer) => {
            state.melees.push(m.clone());
            state.rbm = Some(offer.clone());
        }
        E::RbmAnswered => state.rbm = None,
        E::MeleeResolved(_) => {}
        E::PointsCaptured { unit, points } => {
            if let Some(u) = state.units.get_mut(unit) {
                let taken = (*points).min(u.status.strength);
                u.status.strength -= taken;
                u.captured = u.captured.saturating_add(taken);
            }
        }
        E::FormationSet { unit, to } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.formation = *to;
            }
        }
        E::MeleesCleared => state.melees.clear(),
        E::Resupplied {
            wagon,
            unit,
            wagon_supply,
            unit_status,
            ..
        } => {
            if let Some(w) = state.units.get_mut(wagon) {
                w.status.supply = *wagon_supply;
            }
            if let Some(u) = state.units.get_mut(unit) {
                u.status = unit_status.clone();
            }
        }
        E::RallyTried { unit, rallied, .. } => {
            // Corinth 24.21: a crew away rallies where it stands; the
            // Crew marker stays on its guns until it walks back.
            let away = state.crews_away.contains_key(unit);
            super::exclusive::evolve(state, event);
            state.rally_tried.insert(unit.clone());
            if *rallied
                && !away
                && let Some(u) = state.units.get_mut(unit)
            {
                u.status.markers.remove(&Marker::Rout);
            }
        }
        E::CaissonRolled {
            unit, rounds_lost, ..
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.rounds = u.status.rounds.saturating_sub(*rounds_lost);
            }
        }
        E::RoundsTransferred { from, to, rounds } => {
            if let Some(u) = state.units.get_mut(from) {
                u.status.rounds = u.status.rounds.saturating_sub(*rounds);
            }
            if let Some(u) = state.units.get_mut(to) {
                u.status.rounds = u.status.rounds.saturating_add(*rounds);
            }
        }
        E::RetreatFireOffered(o) => state.retreat_fire.push(o.clone()),
        E::RetreatFireAnswered => {
            if !state.retreat_fire.is_empty() {
                state.retreat_fire.remove(0);
            }
        }
        E::AdvanceOffered(a) => state.advance = Some(a.clone()),
        E::AdvanceAnswered => state.advance = None,
        E::LeaderSucceeded(r) => {
            let s = &mut state.succession;
            let casualty = state.leaders.get(&r.lost).and_then(|l| l.casualty);
            match &r.kind {
                SuccessionKind::Flip | SuccessionKind::Redeploy => {
                    if r.kind == SuccessionKind::Flip {
                        s.flipped.insert(r.lost.clone());
                    }
                    if let Some(c) = casualty {
                        s.past_losses.push((r.lost.clone(), c));
                    }
                    if let Some(l) = state.leaders.get_mut(&r.lost) {
                        l.casualty = None;
                    }
                }
                SuccessionKind::Promote {
                    division,
                    promoted,
                    stand_in,
                } => {
                    s.replaced.insert(r.lost.clone());
                    s.promoted.insert(division.clone(), promoted.clone());
                    s.chosen.remove(division);
                    if let Some(x) = stand_in {
                        s.stand_ins.insert(promoted.clone(), x.clone());
                    }
                }
            }
            if let Some((who, hex)) = &r.placed
                && let Some(l) = state.leaders.get_mut(who)
            {
                l.hex = Some(*hex);
                l.moved = Moved::default();
                l.augmented = None;
                l.cp_spent = 0;
            }
        }
        E::UnitPlaced { .. }
        | E::LeaderPlaced { .. }
        | E::SetUpEnded { .. }
        | E::UnitArrived { .. }
        | E::LeaderArrived { .. }
        | E::EntryBlocked { .. }
        | E::EntryCleared { .. }
        | E::UnitExited { .. }
        | E::VictoryHexTaken { .. }
        | E::VictoryHexesRecorded(_)
        | E::ReserveRolled { .. }
        | E::ReserveCommitted { .. }
        | E::DayDetermined(_)
        | E::HeatRolled { .. }
        | E::BrigadesFrozen { .. }
        | E::BrigadesThawed { .. }
        | E::FirstCombat { .. } => super::progress::evolve(state, event),
        E::AssaultPlotted { .. } | E::DivisionRevealed(_) | E::PlanOpened { .. } => {
            super::plan::evolve(state, event)
        }
        E::FireMadeRapid { .. } | E::FoulingRolled { .. } | E::UnfoulRolled { .. } => {
            super::exclusive::evolve(state, event)
        }
        E::ParkFreed { .. } => state.park_freed = true,
        E::ReinforcementsAttacked { units, .. } => {
            state.reinforcements_attacked.extend(units.iter().cloned())
        }
        E::SolitaireStarted { .. } | E::SolitaireRolled { .. } => {
            super::exclusive::evolve(state, event)
        }
        E::BrigadeRetreated { brigade, .. } => {
            state.brigade_retreats.insert(brigade.clone(), state.clock);
        }
        E::MeleeGateChecked(_) => super::exclusive::evolve(state, event),
        E::HeldOffMap { unit, .. } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = None;
            }
            state.held_off_map.insert(unit.clone());
            state.progress.to_arrive.insert(unit.clone());
        }
        E::StragglerRolled(_) => super::exclusive::evolve(state, event),
        E::BceRecovered(_) => super::exclusive::evolve(state, event),
        E::BarrageBegun { .. } | E::BarrageRolled(_) | E::BarrageEnded { .. } => {
            super::exclusive::evolve(state, event)
        }
        // Folded by `exclusive::note` above.
        E::LeaderBound(_) => {}
        E::BatteryRetreatOffered(_) | E::BatteryRetreatAnswered => {
            super::exclusive::evolve(state, event)
        }
        E::CrewRouted { .. } | E::CrewMoved { .. } => super::exclusive::evolve(state, event),
        E::EngagedWithdrawn { from, enemy } => {
            state.engaged_withdrawals.push((*from, enemy.clone()))
        }
        E::WagonAmmoLost { wagon, loss, .. } => {
            if let Some(u) = state.units.get_mut(wagon) {
                crate::gbacw::ammo::apply_ammo_loss(&mut u.status, *loss);
            }
        }
        E::WagonCrewLeft { wagon, .. } => {
            if let Some(u) = state.units.get_mut(wagon) {
                u.status.crew = Crew::None;
            }
        }
        E::LeaderRoutOffered(o) => state.leader_routs.push(o.clone()),
        E::LeaderRoutAnswered {
            leader,
            unit,
            go,
            to,
        } => {
            state.leader_routs.retain(|o| o.leader != *leader);
            match (go, to) {
                (true, Some(h)) => {
                    if let Some(l) = state.leaders.get_mut(leader) {
                        l.hex = Some(*h);
                    }
                }
                (true, None) => {
                    state.leaders_following.insert(leader.clone(), unit.clone());
                }
                (false, _) => {}
            }
        }
        E::StackReordered { hex, order } => {
            state.stack_order.insert(*hex, order.clone());
        }
        E::RestackOffered(o) => state.restack = Some(o.clone()),
        E::RestackDone => state.restack = None,
        E::WagonRecrewed { wagon, crew } => {
            if let Some(u) = state.units.get_mut(&crew.from) {
                u.status.strength = u.status.strength.saturating_sub(1);
            }
            if let Some(u) = state.units.get_mut(wagon) {
                u.status.crew = Crew::Full;
            }
            state.recrewed.insert(wagon.clone(), crew.clone());
        }
        E::PromotionChosen { division, leader } => {
            state
                .succession
                .chosen
                .insert(division.clone(), leader.clone());
        }
        E::BrigadeRetreatHeld(run) => state.held_brigade_runs.push(run.clone()),
        E::BrigadeRetreatResumed { .. } => {
            if !state.held_brigade_runs.is_empty() {
                state.held_brigade_runs.remove(0);
            }
        }
    }
    // GBACW 8.41: a unit that left its hex leaves the order set there.
    super::stack_order::prune(state);
}
