//! What a GBACW player may ask for.

use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::state::FireShare;
use serde::{Deserialize, Serialize};

/// Most counters one `Move` carries, and most hexes in its path.
pub const MAX_PIECES: usize = 32;
pub const MAX_PATH: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GbacwAction {
    /// GBACW 5.0, 5.16: move units and leaders that share a hex, together,
    /// hex by hex into `path` (the start hex not included). Each unit faces
    /// the hex it enters (7.11).
    Move {
        pieces: Vec<CounterId>,
        path: Vec<HexNumber>,
    },
    /// GBACW 7.12, 8.42: turn the unit, and every friendly unit stacked
    /// with it, to `facing`. Free, in the Friendly Movement Phase.
    Face { unit: CounterId, facing: Facing },
    /// GBACW 6.0, 6.22: line/column, limber/unlimber, mount/dismount.
    ChangeFormation { unit: CounterId, to: Formation },
    /// GBACW 17.22: a division commander adds `points` hexes to the
    /// Effectiveness Radius of a brigade commander in his Divisional
    /// Integrity Radius.
    SpendCommandPoints {
        division: CounterId,
        brigade: CounterId,
        points: u8,
    },
    /// GBACW 17.61, 17.62: detach a brigade from its division (or release
    /// a brigade attached to one).
    Detach { brigade: CounterId },
    /// GBACW 17.64, 17.66: attach a detached or independent brigade to a
    /// division (its own original division takes it back).
    Attach {
        brigade: CounterId,
        division: CounterId,
    },
    /// GBACW 4.0: the acting player is done with this phase.
    EndPhase,
    /// The answer to withdrawal fire: these units fire (10.19: each once).
    WithdrawalFire { firers: Vec<CounterId> },
    /// The answer to withdrawal fire: no one fires. The default.
    DeclineWithdrawalFire,
    /// GBACW 9.0, 9.41, 9.45: in a Fire Phase, `firers` (each with the
    /// points it puts in) will fire at the enemy units in `target`. Every
    /// attack of the phase is rolled when the phase ends (9.42).
    DeclareFire {
        target: HexNumber,
        firers: Vec<FireShare>,
    },
    /// Take back the declared attack at `index` of the phase's plan.
    CancelFire { index: u16 },
    /// GBACW 13.52, 13.54, 17.13: in the friendly Rally Phase, a routed
    /// unit tries to rally (with a leader, a Rally Point or a die).
    Rally { unit: CounterId },
    /// GBACW 12.8, 12.2x: in the Retreat Before Melee Phase, `attackers`
    /// (adjacent) will melee the enemy in `target`; the defender answers
    /// at once.
    DeclareMelee {
        target: HexNumber,
        attackers: Vec<CounterId>,
    },
    /// GBACW 12.81, 12.82: the answer to a declared melee: `units` of the
    /// threatened stack retreat along `path` (one or two hexes).
    RetreatBeforeMelee {
        units: Vec<CounterId>,
        path: Vec<HexNumber>,
    },
    /// The answer to a declared melee: everyone stands. The default.
    StandFast,
    /// GBACW 11.23–11.25, 11.32: in the Ammunition Resupply Phase, a
    /// supply wagon resupplies a unit along a supply path.
    Resupply { wagon: CounterId, unit: CounterId },
    /// GBACW 14.4: the owner's choice of retreat path for a unit ordered
    /// to retreat (empty only when no legal path is left: it is captured).
    Retreat {
        unit: CounterId,
        path: Vec<HexNumber>,
    },
    // --- Historical scenarios. ---
    /// Cedar Mountain 26.2 (26.3): before Game-Turn 1, set up a unit (or
    /// set it up again elsewhere) in its Deployment Area, in any formation.
    PlaceUnit {
        unit: CounterId,
        hex: HexNumber,
        facing: Facing,
        formation: Formation,
    },
    /// Cedar Mountain 26.2: set up a leader with a unit he commands.
    PlaceLeader { leader: CounterId, hex: HexNumber },
    /// The set-up is done. Whatever is not placed yet is set up by the
    /// default deployment; this is also the default on timeout.
    EndSetUp,
    /// Cedar Mountain 26.4: in the owner's Movement Phase, a reinforcement
    /// (unit or leader) enters at `hex` (its entry hex, or under 26.44 the
    /// closest unblocked one), facing `facing`.
    Arrive {
        piece: CounterId,
        hex: HexNumber,
        facing: Facing,
    },
    /// Cedar Mountain 27.23: a unit in an exit hex leaves the map.
    ExitMap { unit: CounterId },
    // --- Standard Rules part 2, second half (issue 5). ---
    /// GBACW 16.2–16.24: in the Retreat Before Melee Phase, mounted
    /// cavalry `attackers` that began the Movement Phase within four hexes
    /// of `target` charge it through their front hexside; a melee at twice
    /// their strength (16.24), after which they rout (16.25).
    DeclareCharge {
        target: HexNumber,
        attackers: Vec<CounterId>,
    },
    /// GBACW 17.8: in the owner's Final Command Phase, carry out the
    /// succession to the lost leader `lost`, placing the new counter on a
    /// unit of its command in `hex`. What is not done by the end of the
    /// phase is done then, on the first such unit (17.84).
    ReplaceLeader { lost: CounterId, hex: HexNumber },
    /// GBACW 12.94 option 3: in the owner's Retreat Before Melee Phase,
    /// engaged `units` (sharing a hex) withdraw two hexes along `path`,
    /// each checking morale at the end; no withdrawal fire.
    WithdrawEngaged {
        units: Vec<CounterId>,
        path: Vec<HexNumber>,
    },
    /// GBACW 12.85: the answer to an advance offer: `units` (of those
    /// offered) advance into the vacated hex.
    Advance { units: Vec<CounterId> },
    /// The answer to an advance offer: no one advances. The default.
    DeclineAdvance,
    /// GBACW 10.2: the answer to a retreat fire offer: these units fire
    /// (each once per retreat).
    RetreatFire { firers: Vec<CounterId> },
    /// The answer to a retreat fire offer: no one fires. The default.
    DeclineRetreatFire,
    /// GBACW 11.33: in the Ammunition Resupply Phase, `rounds` rounds go
    /// from battery `from` to battery `to` (same weapon, same or adjacent
    /// hexes, neither having moved or fired this Game-Turn).
    TransferRounds {
        from: CounterId,
        to: CounterId,
        rounds: u16,
    },
    /// Corinth 30.34, 30.35: in the Union Initial Command Phase, try to
    /// commit a reserve (a die roll; from Game-Turn 15 without one).
    CommitReserve { reserve: CounterId },
    /// Corinth 29.2, 29.23: before the Union sets up, the Confederate
    /// plots the assault (kept secret: only its commitment is public) and
    /// announces one division entering on Game-Turn 1. `salt` is the
    /// client's own random choice.
    PlotAssault {
        plan: super::plan::AssaultPlan,
        salt: [u8; 32],
        announce: CounterId,
    },
    /// Corinth 24.1: in a Fire Phase, declared attack `index` (by L, N, HA,
    /// HB or HC batteries within three hexes of infantry or cavalry) is
    /// rapid fire: twice the guns, three rounds, a fouling roll after.
    RapidFire { index: u16 },
    /// Corinth 24.1: in a Fire Phase of its side, once per phase, the
    /// fouled battery `unit` tries to unfoul (a die: 1-3).
    Unfoul { unit: CounterId },
    /// Corinth 29.51, 29.53 (solitaire version): roll the Confederate
    /// assault — before the Union sets up, the first division, its area
    /// and the 29.26 counters; at the start of each Confederate Movement
    /// Phase, the Division Arrival Table for each division still out.
    SolitaireRoll,
    /// Corinth 26.42, 26.43: in the Pre-Dawn Barrage, `firers` (batteries,
    /// each its whole strength) fire at `target`, rolled at once.
    BarrageFire {
        target: HexNumber,
        firers: Vec<CounterId>,
    },
    /// Corinth 26.41, 26.43: the side firing in the Pre-Dawn Barrage has
    /// finished (the default; without an attack the Confederates fire no
    /// barrage and the Union may not either).
    EndBarrage,
    /// Corinth 25.26: the offered `batteries` (each once) retreat with their
    /// brigade, limbering first if unlimbered.
    RetreatBatteries { batteries: Vec<CounterId> },
    /// Corinth 25.26: the batteries stay. The default.
    DeclineBatteryRetreat,
    /// Corinth 24.21, GBACW 5.2, 13.32: in the Friendly Movement Phase,
    /// move `battery`'s crew, away from its guns, hex by hex into `path`
    /// (one hex while routed, Line infantry's allowance once rallied); the
    /// Crew marker comes off when it enters its guns' hex.
    MoveCrew {
        battery: CounterId,
        path: Vec<HexNumber>,
    },
    /// GBACW 13.43, 17.74: the answer to a leader's choice when his
    /// stack's top unit routed: `go` with the routed unit, or stay with
    /// the units beneath (the default).
    LeaderRout { leader: CounterId, go: bool },
    /// GBACW 8.41: put `unit` on top of its stack — in the friendly
    /// Movement Phase, or as the answer when the top unit of a stack ran
    /// out of ammunition in the Fire Phase just ended.
    PutOnTop { unit: CounterId },
    /// GBACW 8.41: the answer that ends the change of stacking order
    /// after a Fire Phase (the order stays as it is now). The default.
    StackOrderDone,
    /// GBACW 11.18: in the friendly Final Command Phase, `unit` (infantry
    /// or dismounted cavalry on the wagon's hex) gives one Strength Point
    /// to crew `wagon`, whose crew was eliminated.
    Recrew { wagon: CounterId, unit: CounterId },
    /// Corinth 28.32: the answer when brigade commanders tie for the
    /// command of lost `division` (the same rank and Effectiveness
    /// Radius): `leader` is the one promoted. "If there is still a tie,
    /// the player has his choice."
    ChoosePromotion {
        division: CounterId,
        leader: CounterId,
    },
}

/// Most firers in one attack and most attacks in one Fire Phase.
pub const MAX_FIRERS: usize = 32;
pub const MAX_ATTACKS: usize = 256;
