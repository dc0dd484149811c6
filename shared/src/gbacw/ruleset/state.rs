//! The GBACW game state: where every counter is and how it stands, the
//! sequence-of-play position, the Initial Command Phase's findings and the
//! decision waiting on a seat. Ordered maps only, so the encoding is the
//! same on every machine.

use crate::gbacw::charts::Mp;
use crate::gbacw::command::DivisionLinks;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, UnitStatus};
use crate::gbacw::sequence::Clock;
use crate::ids::SeatId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a counter has done in the current Movement Phase; cleared when a
/// Movement Phase begins (5.11: unused points are never saved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    /// Movement Points spent: moving and changing formation (6.0).
    pub mp: Mp,
    /// Hexes entered, for the one-hex limits (5.2, 17.11, 17.21).
    pub hexes: u8,
    /// GBACW 6.22: cavalry mount or dismount only at the end of their
    /// Movement Phase; after that they neither move nor change formation.
    pub finished: bool,
}

/// A combat unit in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// `None` while the unit is not on the map.
    pub hex: Option<HexNumber>,
    /// GBACW 7.0: the hexside the top of the counter faces.
    pub facing: Facing,
    pub status: UnitStatus,
    pub moved: Moved,
    /// Strength Points (or guns) lost to combat (9.81, 9.82): with
    /// `captured` and the strength left, they add up to the printed
    /// strength.
    pub killed: u8,
    /// Strength Points taken prisoner: a unit with no retreat path is
    /// captured whole (13.31, 14.1).
    pub captured: u8,
    /// GBACW 13.14: a green unit's rating, fixed the first time it checks
    /// morale; `None` until then (and for rated units, which keep theirs).
    pub rating: Option<u8>,
}

/// GBACW 17.71: what became of a leader taken out of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Casualty {
    Killed,
    Wounded,
    Captured,
}

/// A leader in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderState {
    /// `None` while the leader is not on the map.
    pub hex: Option<HexNumber>,
    pub moved: Moved,
    /// Division commanders: Command Points spent this Player-Turn (17.22).
    pub cp_spent: u8,
    /// Brigade commanders: the division commander who augmented his
    /// Effectiveness Radius this Player-Turn, and by how many hexes (17.22).
    pub augmented: Option<(CounterId, u8)>,
    pub casualty: Option<Casualty>,
}

/// GBACW 17.0: what the Initial Command Phase found, for the rest of the
/// phasing player's Player-Turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandCheck {
    /// Units outside their brigade commander's Effectiveness Radius, not
    /// independent and not stacked with a leader (17.11, 5.2, 6.21).
    pub out_of_command: BTreeSet<CounterId>,
    /// Brigade commanders outside their division commander's Divisional
    /// Integrity Radius, neither detached nor independent (17.21).
    pub out_of_radius: BTreeSet<CounterId>,
}

/// What set off withdrawal fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// GBACW 10.1: units leave a hex in the firers' Zones of Control.
    Leaving,
    /// GBACW 6.24: a unit changes formation in the firers' Zones of Control.
    FormationChange,
    /// GBACW 6.23: a battery limbers or unlimbers in range and sight of
    /// the firers' small arms.
    Limbering,
}

impl Trigger {
    pub fn rule(self) -> &'static str {
        match self {
            Trigger::Leaving => "GBACW 10.1",
            Trigger::FormationChange => "GBACW 6.24",
            Trigger::Limbering => "GBACW 6.23",
        }
    }
}

/// The action a withdrawal-fire decision interrupted, carried on once
/// the firing seat has answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resume {
    /// The rest of a move: `pieces` enter `path` in order from the
    /// decision's hex.
    Move {
        pieces: Vec<CounterId>,
        path: Vec<HexNumber>,
    },
    /// The formation change.
    Formation { unit: CounterId, to: Formation },
    /// GBACW 12.83: a retreat before melee from the decision's hex along
    /// `path`; `checks` are the units that check morale afterwards.
    RetreatBeforeMelee {
        units: Vec<CounterId>,
        path: Vec<HexNumber>,
        checks: Vec<CounterId>,
    },
    /// Corinth 25.23: `unit`'s brigade retreat along `path` from the
    /// decision's hex (`check`: a morale check at its end, 25.2), then the
    /// rest of the brigade's `run`.
    BrigadeRetreat {
        unit: CounterId,
        path: Vec<HexNumber>,
        check: bool,
        run: super::exclusive::BrigadeRun,
    },
    /// Corinth 24.21 with GBACW 10.1: the rest of `battery`'s crew's move
    /// (away from its guns, `MoveCrew`) from the decision's hex along
    /// `path`.
    CrewMove {
        battery: CounterId,
        path: Vec<HexNumber>,
    },
}

/// Withdrawal fire offered to the non-moving seat (10.1, 6.23, 6.24): a
/// pending decision with decline as its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalDecision {
    /// The seat that may fire.
    pub seat: SeatId,
    pub trigger: Trigger,
    /// The hex the targets are in (range 1 for 10.1, 10.11).
    pub hex: HexNumber,
    /// The units that would be fired on (10.13, 10.14: the whole stack
    /// if all of it leaves, else the units that stay).
    pub targets: Vec<CounterId>,
    /// The enemy units that may fire, each once (10.19).
    pub firers: Vec<CounterId>,
    /// For 10.1: the hex the movers face and enter next (10.16: the firer
    /// may enfilade them).
    pub toward: Option<HexNumber>,
    pub resume: Resume,
}

/// The whole GBACW state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GbacwState {
    pub clock: Clock,
    pub units: BTreeMap<CounterId, UnitState>,
    pub leaders: BTreeMap<CounterId, LeaderState>,
    /// GBACW 17.6: by division commander, the original brigade detached
    /// from his division and the foreign brigade attached to it.
    pub links: BTreeMap<CounterId, DivisionLinks>,
    /// The findings of the current Player-Turn's Initial Command Phase.
    pub command: CommandCheck,
    /// Withdrawal fire offered and not yet answered.
    pub decision: Option<WithdrawalDecision>,
    /// The last Game-Turn is over.
    pub over: bool,
    /// GBACW 9.42: the fire attacks declared in the current Fire Phase,
    /// all rolled together when the phase ends.
    pub fire_plan: Vec<PlannedFire>,
    /// GBACW 17.13: Rally Points each brigade commander has spent in the
    /// current Rally Phase.
    pub rally_points: BTreeMap<CounterId, u8>,
    /// GBACW 13.5: routed units that tried to rally in the current Rally
    /// Phase (one attempt each).
    pub rally_tried: BTreeSet<CounterId>,
    /// GBACW 12.22, 12.26: the hexes each unit fired at in this
    /// Player-Turn's Offensive Fire Phase.
    pub fired_at: BTreeMap<CounterId, Vec<HexNumber>>,
    /// GBACW 12.8: the melees declared this Player-Turn, resolved in the
    /// Melee Phase.
    pub melees: Vec<DeclaredMelee>,
    /// GBACW 12.8: a melee just declared; the defender answers at once.
    pub rbm: Option<RbmOffer>,
    /// GBACW 14.4: retreats whose path the owner chooses, in order.
    pub retreats: Vec<RetreatOrder>,
    /// A historical scenario's set-up, reinforcements, exits and victory
    /// record (Cedar Mountain 26.0, 27.0).
    pub progress: super::progress::ScenarioProgress,
    /// Cedar Mountain 21.43: cornfield hexes blown down (clear for the rest
    /// of the game).
    #[serde(default)]
    pub corn_down: BTreeSet<HexNumber>,
    /// GBACW 16.23: where each unit on the map stood when the current (or
    /// last) Movement Phase began, for the charge's four hexes.
    #[serde(default)]
    pub movement_start: BTreeMap<CounterId, HexNumber>,
    /// GBACW 17.8: who leads now that leaders have been lost.
    #[serde(default)]
    pub succession: LeaderSuccession,
    /// GBACW 12.85: an advance into a hex vacated by retreat before melee,
    /// offered to the would-be attackers' seat.
    #[serde(default)]
    pub advance: Option<AdvanceOffer>,
    /// GBACW 11.33: where each unit stood when the current Game-Turn
    /// began, and the batteries that have fired in it.
    #[serde(default)]
    pub turn_start: BTreeMap<CounterId, HexNumber>,
    #[serde(default)]
    pub fired_this_turn: BTreeSet<CounterId>,
    /// GBACW 10.2: retreats halted where they entered an enemy ZOC, the
    /// other seat offered retreat fire, in order.
    #[serde(default)]
    pub retreat_fire: Vec<RetreatFireOffer>,
    /// Corinth 24.1, 24.13: fouled batteries, unfouling tries, rapid fire
    /// in a row.
    #[serde(default)]
    pub rapid_fire: super::exclusive::RapidFireState,
    /// Corinth 29.44.4: the artillery park has been freed (for good).
    #[serde(default)]
    pub park_freed: bool,
    /// Corinth 29.53 (solitaire): the last Game-Turn whose Division
    /// Arrival Table was rolled.
    #[serde(default)]
    pub solitaire_rolled: u16,
    /// Corinth 29.47: reinforcements attacked (free to leave column).
    #[serde(default)]
    pub reinforcements_attacked: BTreeSet<CounterId>,
    /// Corinth 25.25: by brigade, the clock (Game-Turn and Phase) of its
    /// last brigade retreat: once per Phase.
    #[serde(default)]
    pub brigade_retreats: BTreeMap<CounterId, Clock>,
    /// Corinth 27.1: the hex each reinforcement entered the map by (its
    /// Assault Area is where it retreats toward).
    #[serde(default)]
    pub entered_at: BTreeMap<CounterId, HexNumber>,
    /// Corinth 27.3: units retreated off the map into an Assault Area
    /// where a cavalry unit is held: off the map, not eliminated, waiting
    /// to enter again (they are back among the arrivals).
    #[serde(default)]
    pub held_off_map: std::collections::BTreeSet<CounterId>,
    /// Corinth 26.2, 26.3: what the night rules remember.
    #[serde(default)]
    pub night: super::exclusive::NightRecord,
    /// Corinth 22.33: leaders used to bypass a morale check, bound to
    /// those units until the next Movement Phase.
    #[serde(default)]
    pub leader_bindings: Vec<super::exclusive::LeaderBinding>,
    /// Corinth 25.26: a brigade retreat's batteries offered the retreat,
    /// waiting for their owner's answer.
    #[serde(default)]
    pub battery_retreat: Option<super::exclusive::BatteryRetreatOffer>,
    /// Corinth 24.21: by battery, the hex its routed crew stands in while
    /// it is away from its guns (the battery carries the Crew marker).
    #[serde(default)]
    pub crews_away: BTreeMap<CounterId, HexNumber>,
    /// Corinth 25.23: brigade retreats held back, in the order they were
    /// set off, because a unit of theirs would draw withdrawal fire while
    /// another withdrawal-fire decision waits (the engine offers one shot
    /// at a time). Each goes on, from the unit that waits, once no
    /// decision waits (`brigade_retreat::resume_held`).
    #[serde(default)]
    pub held_brigade_runs: Vec<super::exclusive::BrigadeRun>,
    /// Corinth 24.21, GBACW 13.54: crews away from their guns that have
    /// rallied where they stand (the others away are routed). The battery
    /// keeps the Crew marker until its crew walks back in.
    #[serde(default)]
    pub crews_rallied: std::collections::BTreeSet<CounterId>,
    /// Corinth 24.21, GBACW 5.11: by battery, the clock of the Movement
    /// Phase its crew away last moved in (one move a phase).
    #[serde(default)]
    pub crews_moved: BTreeMap<CounterId, crate::gbacw::sequence::Clock>,
    /// GBACW 12.94 option 3: this Player-Turn's withdrawals from an
    /// engagement, the hex withdrawn from and the engaged enemy's hexes
    /// ("Option 3 may not be combined with options 1 or 2").
    #[serde(default)]
    pub engaged_withdrawals: Vec<(HexNumber, Vec<HexNumber>)>,
    /// GBACW 13.43: leaders whose stack's top unit routed, each asked in
    /// turn whether he goes with it or stays.
    #[serde(default)]
    pub leader_routs: Vec<LeaderRoutOffer>,
    /// GBACW 13.43, 17.74: by leader, the routed unit he chose to retreat
    /// with while its retreat was still to come: he ends where it ends
    /// (folded from its `UnitRetreated`). Cleared as the phase changes.
    #[serde(default)]
    pub leaders_following: BTreeMap<CounterId, CounterId>,
    /// GBACW 8.41: by hex, the stacking order a player set, top first.
    /// A hex's units not listed lie beneath the listed ones in id order,
    /// which is the whole order where no one has changed it
    /// ([`super::stack_order`]); a unit that leaves its hex leaves the list.
    #[serde(default)]
    pub stack_order: BTreeMap<HexNumber, Vec<CounterId>>,
    /// GBACW 8.41: the stacks whose top unit ran out of ammunition in the
    /// Fire Phase just ended, their owner offered a change of order.
    #[serde(default)]
    pub restack: Option<RestackOffer>,
    /// GBACW 11.18: by wagon, the crew it was given ("The morale and
    /// weapon type of the new crew should be noted on the OB Roster").
    #[serde(default)]
    pub recrewed: BTreeMap<CounterId, NewCrew>,
}

/// GBACW 8.41: "If the top unit runs out of ammunition (see 11.0), the
/// Player may change the stacking order at the end of the Fire Phase in
/// which depletion occurred." `seat` may put another unit on top in
/// `hexes` until it says it is done (the default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestackOffer {
    pub seat: SeatId,
    pub hexes: Vec<HexNumber>,
}

/// GBACW 11.18: a wagon's new crew, one Strength Point of `from`, with
/// its morale and weapon type as noted on the roster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewCrew {
    pub from: CounterId,
    pub morale: crate::gbacw::oob::Morale,
    pub weapon: Option<String>,
}

/// GBACW 13.43: "Leaders in a stack may choose to retreat with a routed
/// unit or remain with the unit beneath (and take their chances there)."
/// `leader`, in `hex`, where `unit` (the stack's top unit) routed while
/// units beneath it held; `seat` (his owner) answers. The default: he
/// stays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderRoutOffer {
    pub seat: SeatId,
    pub leader: CounterId,
    pub unit: CounterId,
    pub hex: HexNumber,
}

/// GBACW 10.2: `unit`, retreating, has entered the Zone of Control of
/// `firers` in `hex`; their seat may fire retreat fire (a pending decision
/// whose default is not to), then the retreat goes on along `rest`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetreatFireOffer {
    pub seat: SeatId,
    pub unit: CounterId,
    pub hex: HexNumber,
    pub firers: Vec<CounterId>,
    pub rest: Vec<HexNumber>,
    /// Enemy units already offered a shot in this retreat (10.2: once).
    pub offered: Vec<CounterId>,
    /// Enemy units whose ZOC held the hex the retreat began in: they did
    /// not see it enter their ZOC (10.2: "other than the unit which
    /// caused the retreat").
    pub at_start: Vec<CounterId>,
    /// At the end of `rest` the unit goes off the map (a retreat that
    /// reached its goal with hexes left:
    /// `BattleRules::retreat_leaves_at_goal`).
    #[serde(default)]
    pub leaves_map: bool,
}

/// GBACW 12.85: the units that were going to melee `hex` may advance into
/// it now that its defenders retreated before melee; a pending decision
/// whose default is not to advance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvanceOffer {
    pub seat: SeatId,
    pub hex: HexNumber,
    pub units: Vec<CounterId>,
}

/// GBACW 17.8–17.85: the command changes battlefield losses brought.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderSuccession {
    /// GBACW 17.81: brigade commanders' counters on their REPL side.
    pub flipped: BTreeSet<CounterId>,
    /// GBACW 17.83: by division, the brigade commander promoted to lead it.
    pub promoted: BTreeMap<CounterId, CounterId>,
    /// GBACW 17.83: by brigade (its original commander's id), the pool's
    /// replacement counter leading it since its commander was promoted.
    pub stand_ins: BTreeMap<CounterId, CounterId>,
    /// Leaders lost for good and already succeeded (a division commander
    /// replaced by promotion): no further succession for them.
    pub replaced: BTreeSet<CounterId>,
    /// GBACW 17.82: losses of counters that came back (flipped or
    /// redeployed), "recorded on paper" for Victory Points.
    pub past_losses: Vec<(CounterId, Casualty)>,
    /// Corinth 28.32: by division, the brigade commander its owner chose
    /// on a full tie ("If there is still a tie, the player has his
    /// choice"), until the promotion is carried out.
    #[serde(default)]
    pub chosen: BTreeMap<CounterId, CounterId>,
}

/// How a lost leader was succeeded (17.81–17.83).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SuccessionKind {
    /// GBACW 17.81: the brigade commander's counter flipped to its REPL side.
    Flip,
    /// GBACW 17.82: a replacement lost comes back, the same ratings.
    Redeploy,
    /// GBACW 17.83, 17.85: `promoted` now leads `division`; `stand_in`
    /// (from the pool) leads his brigade, when the pool had one.
    Promote {
        division: CounterId,
        promoted: CounterId,
        stand_in: Option<CounterId>,
    },
}

/// GBACW 17.8: one succession carried out in the owner's Final Command
/// Phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuccessionRecord {
    /// The leader lost.
    pub lost: CounterId,
    pub kind: SuccessionKind,
    /// The counter placed on the map, and where: the lost counter itself
    /// (flipped or redeployed) or the stand-in.
    pub placed: Option<(CounterId, HexNumber)>,
}

/// GBACW 14.4: a unit must retreat and has a choice of legal paths; the
/// owning seat picks one (a pending decision whose default is the first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetreatOrder {
    pub unit: CounterId,
    pub seat: SeatId,
    pub length: u8,
    /// A rout retreat (13.31: may pass enemy ZOCs), else a melee result's
    /// (12.92: never into an enemy ZOC).
    pub rout: bool,
    /// GBACW 12.92: "At the end of the retreat, the owning Player conducts
    /// a morale check": a melee result's retreat checks once the owner has
    /// retreated the unit, not before.
    #[serde(default)]
    pub check: bool,
    /// The unit lost Strength Points in that melee (13.33: a routed unit
    /// that "suffers additional casualties" routs again, without a check).
    #[serde(default)]
    pub lost: bool,
    /// GBACW 14.3: the unit was displaced by a friend's retreat (its path
    /// is chosen as a displaced unit's: the reading
    /// `displace-away-from-enemy`).
    #[serde(default)]
    pub displaced: bool,
}

/// A melee declared in the Retreat Before Melee Phase (12.8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredMelee {
    pub target: HexNumber,
    pub attackers: Vec<CounterId>,
    /// GBACW 16.2: a cavalry charge (every attacker mounted and charging).
    #[serde(default)]
    pub charge: bool,
}

/// GBACW 12.8: the defender's chance to retreat before melee: a pending
/// decision with standing fast as its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RbmOffer {
    pub seat: SeatId,
    pub target: HexNumber,
    /// The units in the target hex that may retreat.
    pub threatened: Vec<CounterId>,
}

/// One firer's part in a fire attack.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FireShare {
    pub unit: CounterId,
    /// GBACW 9.45: the Strength Points (guns for a battery) of its current
    /// strength it puts into this attack, before range.
    pub points: u8,
}

/// A fire attack declared in a Fire Phase (9.0, 9.41).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedFire {
    pub target: HexNumber,
    pub firers: Vec<FireShare>,
    /// GBACW 9.41, 9.44: artillery and small arms are never combined; the
    /// kind says which of a hex's two allowed attacks this is.
    pub artillery: bool,
    /// Corinth 24.1: made rapid fire (`RapidFire`).
    #[serde(default)]
    pub rapid: bool,
}
