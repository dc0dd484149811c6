//! What a scenario fixes for one game: who plays, how long, where each
//! counter starts or arrives, how the game is won and which exclusive rules
//! are on. The ruleset reads it; nothing here enforces a rule.

use crate::gbacw::map::HexNumber;
use crate::gbacw::names::named_enum;
use crate::gbacw::oob::{CounterId, Formation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A rule case as the exclusive rules number it (`"26.2"`), kept as text so
/// it reads the same in the file, in errors and in the client.
pub type Case = String;

/// One side: the OOB side it plays and the seat that plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The order of battle's side id.
    pub id: CounterId,
    /// The table seat that plays this side (a lobby name, `union`).
    pub seat: String,
    pub name: String,
}

/// Game length and how it was established.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Length {
    pub turns: u16,
    /// Minutes per Game-Turn (scale, e.g. Cedar Mountain 19.0).
    pub minutes: u16,
    /// Where the number comes from: a case, or how it was inferred.
    pub source: String,
}

/// A named set-up or entry area: a centre hex and every hex within
/// `radius` (Cedar Mountain 26.2: "the central, numbered hex and the six
/// adjacent"), or an explicit list of hexes (Corinth 30.11-30.14: hexrows,
/// a road, a run of hexes; 29.1: the map's Assault Areas).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    pub id: CounterId,
    pub name: String,
    /// For a listed area, its first hex.
    pub centre: HexNumber,
    pub radius: u8,
    /// Why a value not in the sources was chosen; `None` if printed.
    pub provisional: Option<String>,
    /// The area's hexes when it is a list rather than a circle (`hexes=`,
    /// or copied from the map's `area` line named by `map_area`).
    #[serde(default)]
    pub hexes: Vec<HexNumber>,
    /// The map's `area` line this area copies (Corinth 29.1: `assault-c`);
    /// filled into `hexes` when the battle loads.
    #[serde(default)]
    pub map_area: Option<String>,
    /// A circle that may run off the map edge, keeping its hexes on the
    /// map (Corinth 29.46: "within ten hexes of the Tishomingo Hotel").
    #[serde(default)]
    pub clipped: bool,
}

impl Area {
    /// Whether the area is a list of hexes (which may overlap other
    /// areas) rather than a circle.
    pub fn is_listed(&self) -> bool {
        !self.hexes.is_empty() || self.map_area.is_some()
    }
}

/// Where a counter starts the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// Anywhere in this area.
    Area(CounterId),
    /// On this hex.
    Hex(HexNumber),
    /// A leader stacked with a unit he commands (Cedar Mountain 26.2).
    WithCommand,
    /// Off the map, in the owner's pool (replacement leaders, 17.83).
    Pool,
}

/// One set-up line: these counters start at this place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub place: Place,
    pub units: Vec<CounterId>,
    pub case: Option<Case>,
    /// The facing of its units (7.0), a direction word of the map's
    /// orientation (`ne`; [`crate::gbacw::facing::direction_names`]), when
    /// the scenario fixes it rather than leaving it to the player.
    pub facing: Option<String>,
    /// The formation of its units (6.0), when the scenario fixes it.
    pub formation: Option<Formation>,
}

named_enum! {
    /// A set-up restriction the ruleset checks before play starts.
    pub enum RestrictionKind {
        /// Every counter of a set-up line is in its place (an area's hexes).
        InPlace = "in-place",
        /// A brigade leader with his brigade, a division leader with any
        /// brigade of his division, an army leader with any unit of his side.
        LeaderWithCommand = "leader-with-command",
        /// Set-up stacks obey the stacking limits of their hex.
        Stacking = "stacking",
        /// Units may set up in any formation.
        AnyFormation = "any-formation",
        /// Area set-up lines may use any area, each brigade kept together
        /// (Cedar Mountain 26.3 with 26.2).
        AnyArea = "any-area",
        /// At most one brigade plus one battery per area (Cedar Mountain 26.3).
        OneBrigadeAndBatteryPerArea = "one-brigade-and-battery-per-area",
        /// The named counters must set up in the named area.
        FixedArea = "fixed-area",
        /// The side has no counter on the map at the start.
        StartsOffMap = "starts-off-map",
        /// Units set up deployed: infantry in line, artillery unlimbered,
        /// cavalry mounted (Corinth 29.4, 30.1).
        DeployedFormation = "deployed-formation",
        /// At most `count` of the named counters set up in the area
        /// (Corinth 29.44: four independent batteries in the artillery park,
        /// the other seven in the redans).
        AtMost = "at-most",
        /// No unit within `count` hexes of the areas named in `units`,
        /// unless adjacent to and inside an outer works hexside (Corinth
        /// 29.41).
        AwayFromAreas = "away-from-areas",
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restriction {
    pub kind: RestrictionKind,
    pub case: Case,
    /// Applies only when this option is on (`None`: always).
    pub when: Option<CounterId>,
    /// For `fixed-area`: the area and its counters.
    pub area: Option<CounterId>,
    pub units: Vec<CounterId>,
    /// For `starts-off-map`: the side.
    pub side: Option<CounterId>,
    /// For `at-most`: how many.
    #[serde(default)]
    pub count: Option<u16>,
}

/// A scenario option the players choose when the table is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioOption {
    pub id: CounterId,
    pub name: String,
    pub case: Case,
    pub default_on: bool,
}

/// What an arriving unit pays to enter the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryCost {
    /// As the scenario's `column-entry` hook says (Cedar Mountain 26.4).
    #[default]
    Hook,
    /// A road column of its own: the k-th unit entering at the hex in a
    /// phase pays `first` + (k-1) x `step` (Corinth 30.13: ½, 1, 1½ ...).
    Column {
        first: crate::gbacw::charts::Mp,
        step: crate::gbacw::charts::Mp,
    },
    /// The Movement Point cost of the hex it is placed in (Corinth 29.31,
    /// 29.47: "pay the Movement Point costs of the first hex they enter").
    Terrain,
}

/// Reinforcements: these counters may enter at this hex from this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    pub turn: u16,
    /// The entry hex; for an arrival through areas, their first hex.
    pub hex: HexNumber,
    pub units: Vec<CounterId>,
    /// Brigade leaders whose brigades arrive detached from their division
    /// (17.6; Cedar Mountain roster: "Thomas enters detached").
    pub detached: Vec<CounterId>,
    pub case: Option<Case>,
    /// Enter through any hex of one of these areas instead of `hex`
    /// (Corinth 29.31: "the first row of hexes within the Area"; 30.2:
    /// Price "with either Maury or Hebert").
    #[serde(default)]
    pub areas: Vec<CounterId>,
    /// Its infantry enters in line rather than column (Corinth 29.3:
    /// "line (infantry), limbered (artillery) or mounted (cavalry)");
    /// otherwise column, limbered, mounted (Cedar Mountain 26.46).
    #[serde(default)]
    pub in_line: bool,
    #[serde(default)]
    pub entry: EntryCost,
    /// Corinth 29.2: the area and turn come from the secret assault plan:
    /// a division's id, `attached` (29.26) or `cavalry` (29.27).
    #[serde(default)]
    pub plan: Option<CounterId>,
}

/// Victory points for a kind of loss: eliminated (or killed) and captured,
/// and for leaders wounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossValue {
    pub wounded: u16,
    pub eliminated: u16,
    pub captured: u16,
}

named_enum! {
    /// What a loss schedule line prices.
    pub enum LossKind {
        /// Per infantry Strength Point.
        Infantry = "infantry",
        /// Per cavalry Strength Point.
        Cavalry = "cavalry",
        /// Per gun.
        Gun = "gun",
        /// Per battery crew (Cedar Mountain 27.21: nothing).
        Crew = "crew",
        /// Per brigade leader (a promoted one counts as a division leader).
        BrigadeLeader = "brigade-leader",
        /// Per division leader.
        DivisionLeader = "division-leader",
    }
}

/// A victory-point hex: worth `vp` to its controller each Game-Turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryHex {
    pub hex: HexNumber,
    /// Whole Victory Points (the half a `vp=0.5` line gives is in `halves`).
    pub vp: u16,
    /// The value in half points (Corinth 31.1: "Each Corinth hex ½ VP").
    #[serde(default)]
    pub halves: u16,
}

/// A hex through which units may leave the map (Cedar Mountain 27.23).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitHex {
    pub hex: HexNumber,
    /// Movement Points to leave from the hex.
    pub mp: u16,
    /// Victory points per combat unit or battery exited, by side.
    pub vp: BTreeMap<CounterId, u16>,
}

/// How the game is won.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    pub case: Option<Case>,
    /// Level name and the smallest VP difference that reaches it, in
    /// ascending order (`draw` 0, `marginal` 6, ...).
    pub levels: Vec<(String, u16)>,
    pub losses: BTreeMap<LossKind, LossValue>,
    /// Named leaders priced on their own (army commanders).
    pub leaders: BTreeMap<CounterId, LossValue>,
    /// The enemy scores a brigade's roster `bce-vp` when it reaches its
    /// BCE limit.
    pub bce_from_roster: bool,
    pub hexes: Vec<VictoryHex>,
    /// Victory hexes are scored after this side's player-turn.
    pub hexes_scored_after: Option<CounterId>,
    pub exits: Vec<ExitHex>,
    /// Victory hexes start controlled by this side (Corinth 31.1: "All
    /// hexes begin the game in Union control"); `None`: uncontrolled.
    #[serde(default)]
    pub hexes_start: Option<CounterId>,
    /// One side keeps the only total (Corinth 31.0); `None`: each side
    /// scores its own and the difference decides (Cedar Mountain 27.1).
    #[serde(default)]
    pub tally: Option<Tally>,
}

/// Corinth 31.0: "The Confederate player gains and loses Victory Points":
/// one running total, in half points, for `side`; what the enemy would
/// score is subtracted from it. Victory hexes count as controlled when the
/// total is taken (not per Game-Turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub side: CounterId,
    pub case: Case,
    /// The levels, lowest first: a name, the highest total (in half
    /// points) it covers (`None` for the last) and the side that wins it.
    pub bands: Vec<Band>,
    /// Points per battery captured or eliminated (31.1), added for the
    /// enemy's, subtracted for one's own.
    pub battery: u16,
    /// 31.1: the enemy's infantry and cavalry Strength Points lost less
    /// one's own, if positive, divided by this and rounded up (0: unused).
    pub casualties_per: u16,
    /// Corinth 30.36: points lost per reserve still uncommitted when the
    /// first day's total is taken.
    pub reserve: u16,
    /// Early determinations (31.2): after `turn`, the game ends if the
    /// total reaches `win` (the side wins) or falls to `lose` (the enemy
    /// wins); both in half points.
    pub checks: Vec<DayCheck>,
}

/// A level of victory on a [`Tally`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub name: String,
    /// The highest total in half points; `None`: no upper bound.
    pub to: Option<i32>,
    /// The side that wins at this level; `None`: a draw.
    pub winner: Option<CounterId>,
}

/// Corinth 31.2: the first day's victory determination.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayCheck {
    pub turn: u16,
    pub win: i32,
    pub lose: i32,
    pub case: Case,
}

/// Corinth 30.31: a reserve "unit" frozen until committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserve {
    pub id: CounterId,
    pub name: String,
    /// Every counter of it (30.31: "all the individual counters which
    /// make up each are in reserve").
    pub units: Vec<CounterId>,
    /// 30.34: a die roll at most this commits it.
    pub commit_on: u8,
    pub case: Case,
}

/// Corinth 30.3: the reserves and how they are committed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserves {
    pub side: Option<CounterId>,
    pub list: Vec<Reserve>,
    /// 30.34: the first Game-Turn of commitment rolls.
    pub from: u16,
    /// 30.34: most rolls per Game-Turn.
    pub per_turn: u8,
    /// 30.35: from this Game-Turn the player commits without a roll.
    pub automatic: u16,
    /// The last Game-Turn on which reserves are held (30.3: "for the
    /// entire first day"); after it every reserve is free.
    pub until: u16,
}

/// A Game-Turn on which one side may only bring in reinforcements
/// (Corinth 30.0: the Union Player-Turn of Game-Turn 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlyArrivals {
    pub turn: u16,
    pub side: CounterId,
    pub case: Case,
}

/// Corinth 29.2: what the secret assault plan fixes and how it is checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSpec {
    /// The side that plots.
    pub side: CounterId,
    pub case: Case,
    /// 29.24: every division enters by this Game-Turn.
    pub latest: u16,
    /// 29.21: if any division is held back, this one must be.
    pub reluctant: Option<CounterId>,
    /// 29.22: the Assault Areas and the first Game-Turn each may be used.
    pub areas: Vec<(CounterId, u16)>,
    /// The divisions plotted (29.2: Hebert, Maury, Lovell).
    pub divisions: Vec<CounterId>,
    /// 29.26: counters assigned to one of `attach_to`.
    pub attach: Vec<CounterId>,
    pub attach_to: Vec<CounterId>,
    /// 29.27: cavalry assigned to an area a division uses.
    pub cavalry: Vec<CounterId>,
}

/// Night Game-Turns (Corinth 26.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Night {
    pub from: u16,
    pub to: u16,
    pub case: Case,
}

/// A leader's successors, in order (17.8; Cedar Mountain 25.32/25.33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    pub leader: CounterId,
    pub by: Vec<CounterId>,
    pub case: Case,
}

named_enum! {
    /// Exclusive-rule switches the ruleset consults. A hook is off unless
    /// the scenario names it.
    pub enum HookKind {
        /// Cedar Mountain 21.1: dismounted cavalry morale 2, melee limits.
        DismountedCavalry = "dismounted-cavalry",
        /// Cedar Mountain 21.2: no supply wagons, ammunition rules off.
        NoAmmunition = "no-ammunition",
        /// Cedar Mountain 21.31: road/trail cost across crests and streams.
        PathsOverHexsides = "paths-over-hexsides",
        /// Cedar Mountain 21.32: a crest hex is on the higher level.
        CrestHexHigher = "crest-hex-higher",
        /// Cedar Mountain 21.33: steep crest paid only crossing the hexside.
        SteepCrest = "steep-crest",
        /// Cedar Mountain 21.34: all-lake hexsides impassable, fire crosses.
        LakeHexsides = "lake-hexsides",
        /// Cedar Mountain 21.35: runs cost more than streams.
        Runs = "runs",
        /// Cedar Mountain 21.4: cornfields block LOS and blow down.
        Cornfields = "cornfields",
        /// Cedar Mountain 22.0: overshoot at range 9 or more.
        ArtilleryOvershoot = "artillery-overshoot",
        /// Cedar Mountain 23.0: retreats only toward one's own lines.
        RetreatDirections = "retreat-directions",
        /// Cedar Mountain 24.0: effects of Brigade Combat Effectiveness loss.
        BceLoss = "bce-loss",
        /// Cedar Mountain 25.1/25.2: army commanders' Command Points add to
        /// a division leader's Divisional Integrity Radius.
        ArmyCommandPoints = "army-command-points",
        /// Cedar Mountain 25.31: army commanders are not replaced.
        ArmyNotReplaced = "army-not-replaced",
        /// Cedar Mountain 26.4: reinforcements enter as a road column.
        ColumnEntry = "column-entry",
        /// Cedar Mountain 26.42: a unit on the map never leaves it except by
        /// an exit hex; retreat off the map captures.
        NoLeavingMap = "no-leaving-map",
        /// Cedar Mountain 26.43: no command limits on the turn of entry.
        EntryTurnCommandFree = "entry-turn-command-free",
        /// Cedar Mountain 26.44: a blocked entry hex delays a turn.
        BlockedEntryDelay = "blocked-entry-delay",
        /// Corinth 30.5 (optional, `when=` its option): at the start of
        /// each Game-Turn in `turns=` (ranges) both players roll a die;
        /// doubles skip the turn and the next `rest=` turns are not rolled.
        Heat = "heat",
        /// Corinth 29.61 (30.6): through Game-Turn `until=`, `side=`'s
        /// routed units rally only by a die roll at most their morale, less
        /// 1 with a friendly commander stacked; with an army commander they
        /// rally automatically.
        AssaultImpetus = "assault-impetus",
        /// Corinth 29.43: `side=`'s brigades whose infantry and cavalry
        /// all set up within `radius=` hexes of `hex=` may not act until
        /// `after=` Game-Turns after the game's first combat, or until one
        /// of their units is attacked.
        HotelFreeze = "hotel-freeze",
        /// Corinth 23.1: a unit inside the outer works stands `height=` feet
        /// higher for sight; fire solely across works hexsides at it takes
        /// `die=` off the fire die (at least 1; 11.21 on the natural die).
        OuterWorks = "outer-works",
        /// Corinth 23.2: the redan occupant stands `height=` feet higher
        /// (23.28), is shifted a column left whenever fired on (23.24), and
        /// at most `melee-points=` attack into it (23.25).
        BatteryRedans = "battery-redans",
        /// Corinth 23.31: artillery, wagons and mounted cavalry enter a
        /// town hex only across a road hexside.
        TownRoadEntry = "town-road-entry",
        /// Corinth 21.3: sharpshooters alone add `bonus=` to the fire die.
        Sharpshooters = "sharpshooters",
        /// Corinth 24.1: rapid fire by the `weapons=` smoothbores.
        RapidFire = "rapid-fire",
        /// Corinth 24.3: the `units=` siege batteries move one hex a turn
        /// and enter woods only along a road or trail.
        SiegeGuns = "siege-guns",
        /// Corinth 24.24 (optional, `when=` its option): the `units=`
        /// batteries' crews always have melee strength 0.
        CrewMeleeZero = "crew-melee-zero",
        /// Corinth 29.42: `side=`'s eleven infantry and cavalry brigades
        /// set up four to seven within 10 hexes of an Assault Area and
        /// exactly three within 10 of the Tishomingo Hotel (checked when
        /// the set-up ends; the default deployment aims at it).
        BrigadeCounts = "brigade-counts",
        /// Corinth 29.44.1: `side=`'s brigade batteries set up within
        /// their brigade commander's Effectiveness Radius.
        BrigadeBatteries = "brigade-batteries",
        /// Corinth 29.44.4, 30.18: the `units=` batteries standing in
        /// `area=` may not move or fire through Game-Turn `until=`, unless
        /// an enemy unit of `side=` comes within `range=` hexes of a town
        /// hex (then for good).
        ParkFreeze = "park-freeze",
        /// Corinth 29.5: the solitaire version: the assault is rolled
        /// (`assets/gbacw/corinth/solitaire.toml`), every division in by
        /// Game-Turn `all-by=`.
        Solitaire = "solitaire",
        /// Corinth 30.13: `side=`'s `units=` end no Movement Phase within
        /// `distance=` hexes of an Assault Area while they can still get
        /// farther from it.
        KeepMoving = "keep-moving",
        /// Corinth 29.47: the `units=` reinforcements stay in column until
        /// within their brigade commander's Effectiveness Radius or
        /// attacked.
        ReinforcementColumn = "reinforcement-column",
        /// Corinth 30.4: the brigades of `division=` together taking
        /// `limit=` casualties all suffer the effects of BCE loss (the
        /// `bce-loss` hook's); no Victory Points for it.
        DivisionalBce = "divisional-bce",
        /// Corinth 22.0: units not stacked with a leader pass a morale
        /// check to retreat before melee (22.1) and to melee (22.2);
        /// `side-turns=` the Game-Turns of 22.1/22.2's side modifiers,
        /// `union=` and `confederate=` their signs.
        MeleeInitiation = "melee-initiation",
        /// Corinth 27.0: retreats go toward a goal: `confederate=` names
        /// the map areas (`assault-c,...`) a unit's entry hex picks its
        /// goal from (27.1); `union=` the goal hexes (the town, 27.2) and
        /// `union-else=` the fallback (the south-east corner); `off-map=`
        /// what becomes of a unit retreated off the map (`eliminated`).
        RetreatToward = "retreat-toward",
        /// Corinth 26.11, 26.12: on night Game-Turns Movement Allowances
        /// are `allowance=` times (1.5) and woods cost `woods=` (1) more.
        NightMovement = "night-movement",
        /// Corinth 26.15: melees still Engaged at the end of Game-Turn
        /// `turn=` retreat `hexes=` hexes in the Union Final Command Phase.
        NightEngagedRetreat = "night-engaged-retreat",
        /// Corinth 26.2: at the end of each night Game-Turn regiments that
        /// neither moved nor fired withdrawal fire regain a Strength Point
        /// on `roll=` (5) or more, less `day1-bce=` (1) if their brigade
        /// reached BCE on day 1.
        StragglerRecovery = "straggler-recovery",
        /// Corinth 26.3: after Game-Turn `after=` a brigade holding BCE
        /// takes its second-day limit (`bce-day2=` in the OOB).
        BceRecovery = "bce-recovery",
        /// Corinth 26.4: the Pre-Dawn Barrage after Game-Turn `after=`:
        /// batteries only, under `range=` (9) hexes, `die=` (-1).
        PreDawnBarrage = "pre-dawn-barrage",
        /// Corinth 21.2: divisional integrity (17.21) is not used: every
        /// brigade is independent.
        NoDivisionalIntegrity = "no-divisional-integrity",
        /// Corinth 28.11, 28.14, 28.21: army commanders' Command Points on
        /// any brigade commander within `within=` (3) hexes (`LEADER-reach=`
        /// limits an army commander to his divisions' brigades and the
        /// listed brigades); division commanders' on their own division's
        /// brigade commanders at any distance (they have no DIR).
        ArmyBrigadePoints = "army-brigade-points",
        /// Corinth 28.32: a lost division commander is replaced by his
        /// division's highest-ranked brigade commander (then the higher ER),
        /// who has `cp=` (1) Command Points.
        PromotionByRank = "promotion-by-rank",
        /// Corinth 21.43, 21.44: cavalry mount or dismount only inside
        /// their brigade commander's ER; mounted cavalry move freely.
        CavalryFormationInEr = "cavalry-formation-in-er",
        /// Corinth 22.33: a leader used to bypass a 22.0 morale check
        /// stays with those units (goes where their retreat takes them).
        LeaderStays = "leader-stays",
        /// Corinth 30.18: with Stanley's batteries in Redans D and E, two
        /// of the independent batteries set up with any brigade.
        FreeBatteries = "free-batteries",
        /// Corinth 25.23: units of a brigade in brigade retreat (25.2)
        /// that retreat out of enemy ZOCs draw withdrawal fire (10.1); one
        /// pinned by it retreats one hex, is pinned, and checks morale.
        BrigadeRetreatFire = "brigade-retreat-fire",
        /// Corinth 25.26: the batteries of a brigade in brigade retreat
        /// may retreat with it, their owner's choice; unlimbered ones limber
        /// to go.
        BrigadeRetreatBatteries = "brigade-retreat-batteries",
        /// Corinth 24.21, 24.22: a routed crew of unlimbered guns leaves
        /// them under a Crew marker and routs on its own; the battery is
        /// lost with its crew.
        CrewRout = "crew-rout",
        /// Corinth 24.22: a battery removed because its crew was lost
        /// (15.12) does not count its guns for Victory Points; captured, or
        /// its guns all destroyed by enemy fire, it does.
        CrewLossKeepsGuns = "crew-loss-keeps-guns",
        /// Corinth 24.3: "their crews are free to move if routed": a
        /// siege battery (`hook siege-guns units=`) that routs leaves its
        /// guns, limbered or not, and its crew routs on its own (24.21).
        SiegeCrewsRout = "siege-crews-rout",
        /// Corinth 22.4 with 24.21: "a lone wagon or battery crew" may be
        /// meleed: a crew away from its guns, alone in its hex, defends
        /// a melee as Line infantry (GBACW 6.13) with its crew's strength.
        LoneCrewMelee = "lone-crew-melee",
        /// Corinth 24.21 with GBACW 12.74, 15.1: a crew away from its guns
        /// in a hex with friendly units defends a melee on that hex with
        /// them (losses from the infantry/cavalry first) and shares their
        /// result: it retreats or routs as they do, or is captured.
        CrewStackMelee = "crew-stack-melee",
        /// Corinth 24.21 with GBACW 14.3, 15.1: a crew away from its guns
        /// is a Friendly unit in the way of a friend's retreat: avoided
        /// where another path is open, displaced one hex (and checking
        /// morale, or routing again) when retreated through or onto.
        CrewDisplaced = "crew-displaced",
    }
}

/// One exclusive-rule switch with its parameters (`confederate=W,NW,SW`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hook {
    pub kind: HookKind,
    pub case: Case,
    pub params: BTreeMap<String, String>,
}

impl Hook {
    /// A parameter as text.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.get(key).map(String::as_str)
    }

    /// A parameter as a number; `None` if absent or not a number.
    pub fn number(&self, key: &str) -> Option<u16> {
        self.param(key).and_then(|v| v.parse().ok())
    }
}

/// A whole scenario file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    /// Battle folder and file stem (`cedar_mountain`).
    pub battle: String,
    pub map_file: String,
    pub oob_file: String,
    /// Which map edge is compass north (`left`), when it matters.
    pub north: Option<String>,
    pub sides: Vec<Side>,
    pub first_player: Option<CounterId>,
    /// (turn, side): player-turns that are omitted (Cedar Mountain 26.1).
    pub skipped_player_turns: Vec<(u16, CounterId)>,
    pub length: Option<Length>,
    pub areas: Vec<Area>,
    pub setup: Vec<Setup>,
    pub restrictions: Vec<Restriction>,
    pub options: Vec<ScenarioOption>,
    pub arrivals: Vec<Arrival>,
    pub victory: Victory,
    pub replacements: Vec<Replacement>,
    pub hooks: Vec<Hook>,
    /// Corinth 30.3: reserves frozen until committed.
    #[serde(default)]
    pub reserves: Reserves,
    /// Corinth 30.0: Game-Turns on which a side only brings in
    /// reinforcements.
    #[serde(default)]
    pub only_arrivals: Vec<OnlyArrivals>,
    /// Corinth 26.0: the night Game-Turns.
    #[serde(default)]
    pub night: Option<Night>,
    /// Corinth 29.2: the secret assault plan.
    #[serde(default)]
    pub plan: Option<PlanSpec>,
}

impl Scenario {
    pub fn hook(&self, kind: HookKind) -> Option<&Hook> {
        self.hooks.iter().find(|h| h.kind == kind)
    }

    pub fn area(&self, id: &str) -> Option<&Area> {
        self.areas.iter().find(|a| a.id.0 == id)
    }

    /// The set-up place of a counter, if it sets up.
    pub fn setup_of(&self, id: &CounterId) -> Option<&Setup> {
        self.setup.iter().find(|s| s.units.contains(id))
    }

    /// The arrivals scheduled for a Game-Turn (26.45: what does not fit
    /// enters later, which the ruleset tracks).
    pub fn arrivals_on(&self, turn: u16) -> impl Iterator<Item = &Arrival> + '_ {
        self.arrivals.iter().filter(move |a| a.turn == turn)
    }

    /// Whether a side's player-turn is omitted on this Game-Turn
    /// (Cedar Mountain 26.1).
    pub fn skips(&self, turn: u16, side: &CounterId) -> bool {
        self.skipped_player_turns
            .iter()
            .any(|(t, s)| *t == turn && s == side)
    }

    /// The victory level a VP difference reaches (Cedar Mountain 27.1):
    /// the highest level whose lower bound it meets.
    pub fn victory_level(&self, difference: u16) -> Option<&str> {
        self.victory
            .levels
            .iter()
            .rev()
            .find(|(_, from)| difference >= *from)
            .map(|(name, _)| name.as_str())
    }

    /// Whether `turn` is a night Game-Turn (Corinth 26.0).
    pub fn is_night(&self, turn: u16) -> bool {
        self.night
            .as_ref()
            .is_some_and(|n| (n.from..=n.to).contains(&turn))
    }

    /// The arrival of a counter, if it arrives.
    pub fn arrival_of(&self, id: &CounterId) -> Option<&Arrival> {
        self.arrivals.iter().find(|a| a.units.contains(id))
    }
}
