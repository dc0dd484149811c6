//! The position builder: a case written as the rulebook states it.
//!
//! A rulebook case names units by their printed values ("a 4-point
//! infantry regiment with morale 5 and rifles, in Line"), a few hexes of
//! terrain ("across a stream", "on a crest") and a moment of the game
//! ("the Offensive Fire Phase"). [`Position`] takes exactly that, in the
//! same plain-text formats the shipped battles use (a map line per hex or
//! hexside, an order-of-battle line per counter, a set-up line per
//! placement), fills in the headers, and builds a [`T`] on it: the real
//! ruleset, driven through `decide` and `evolve` like every other test.
//!
//! ```ignore
//! let mut t = Position::new(6, 6)
//!     .map("hex 0303 woods\nside 0303/0403 stream\nside 0203/0303 crest:0203")
//!     .union("infantry a strength=4 morale=5 weapon=R")
//!     .confederate("battery b morale=4 weapon=N guns=4 rounds=20")
//!     .place("a", "0303", "n", "line")
//!     .place("b", "0302", "s", "unlimbered")
//!     .build_at(1, UNION, Phase::OffensiveFire);
//! t.script(&[6]);                                  // the Fire CRT die
//! let events = t.act(UNION, fire("0302", &[("a", 4)]));
//! ```
//!
//! What the builder fills in, so a case says only what matters to it:
//! - a counter line with no `name=` is named after its id; one with no
//!   `brigade=` is independent (`indpnt`: in command without a leader,
//!   5.3). Give `brigade=` (and `.union("brigade …")` lines) for command.
//! - the map is clear, level 0, flat-topped hexes (`n ne se s sw nw`),
//!   even columns half a hex lower, 20 ft per level, no edge features.
//! - the Union moves first; the game lasts `turns` Game-Turns (default 8).
//!
//! **Stack order (8.21).** A hex's stack is read top first in the order of
//! its counters' ids (the engine has no other order), so name the top
//! unit so it sorts first: `a-top`, `b-under`.

use super::T;
use crate::engine::Ruleset;
use crate::gbacw::battles::BattleFiles;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::{Game, Gbacw, GbacwConfig};
use crate::gbacw::sequence::Phase;
use crate::ids::SeatId;
use std::collections::{BTreeSet, VecDeque};

/// A position for one rule case: map, counters, placements, moment.
#[derive(Clone, Debug)]
pub struct Position {
    cols: u8,
    rows: u8,
    map: Vec<String>,
    union: Vec<String>,
    confederate: Vec<String>,
    setup: Vec<String>,
    scenario: Vec<String>,
    turns: u16,
    readings_001: BTreeSet<String>,
    out_of_command: Vec<String>,
}

impl Position {
    /// An empty clear field of `cols` × `rows` hexes (at most 99 × 99).
    pub fn new(cols: u8, rows: u8) -> Position {
        assert!((1..=99).contains(&cols) && (1..=99).contains(&rows));
        Position {
            cols,
            rows,
            map: Vec::new(),
            union: Vec::new(),
            confederate: Vec::new(),
            setup: Vec::new(),
            scenario: Vec::new(),
            turns: 8,
            readings_001: BTreeSet::new(),
            out_of_command: Vec::new(),
        }
    }

    /// Terrain: `hex HHHH <terrain…> [level=N]` and `side HHHH/HHHH
    /// <feature…>` lines in the map format (`shared/src/gbacw/map/parse.rs`):
    /// `woods`, `town`, `swamp`, `corn`, `orchard`; `stream`, `ford`,
    /// `bridge`, `road`, `pike`, `crest:HIGHER`, `stone-wall:INNER`,
    /// `works:INNER` … One line or several.
    pub fn map(mut self, lines: &str) -> Position {
        self.map.extend(lines.lines().map(str::to_string));
        self
    }

    /// A Union counter or leader line in the order-of-battle format
    /// (`shared/src/gbacw/oob/parse.rs`): `infantry a strength=4 morale=5
    /// weapon=R`, `battery b weapon=N guns=4 rounds=20 morale=4`, `brigade
    /// x er=5 rally=2 division=d`, …
    pub fn union(mut self, line: &str) -> Position {
        self.union.push(line.to_string());
        self
    }

    /// A Confederate counter or leader line (as [`Position::union`]).
    pub fn confederate(mut self, line: &str) -> Position {
        self.confederate.push(line.to_string());
        self
    }

    /// `counter` on `hex`, facing `facing` (`n ne se s sw nw`), in
    /// `formation` (`line`, `column`, `limbered`, `unlimbered`, `mounted`,
    /// `dismounted`; `-` for a leader or a wagon).
    pub fn place(mut self, counter: &str, hex: &str, facing: &str, formation: &str) -> Position {
        let formation = match formation {
            "-" | "" => String::new(),
            f => format!(" formation={f}"),
        };
        self.setup.push(format!(
            "setup hex={hex} units={counter} facing={facing}{formation}"
        ));
        self
    }

    /// A leader on `hex`.
    pub fn leader(mut self, leader: &str, hex: &str) -> Position {
        self.setup.push(format!("setup hex={hex} units={leader}"));
        self
    }

    /// Any scenario line (a `hook`, `restrict`, `arrive`, `night` …).
    pub fn scenario(mut self, line: &str) -> Position {
        self.scenario.push(line.to_string());
        self
    }

    /// The game's length in Game-Turns (8 unless set).
    pub fn turns(mut self, turns: u16) -> Position {
        self.turns = turns;
        self
    }

    /// Play with 001's reading `name` (see [`crate::gbacw::ruleset::EDITION_001`]).
    pub fn reading_001(mut self, name: &str) -> Position {
        self.readings_001.insert(name.to_string());
        self
    }

    /// `unit` is out of command (17.11) from the moment the position is
    /// reached, whatever its leaders' radii say.
    pub fn out_of_command(mut self, unit: &str) -> Position {
        self.out_of_command.push(unit.to_string());
        self
    }

    /// The three texts of this position's battle.
    pub fn texts(&self) -> (String, String, String) {
        let map = format!(
            "gbacw-map 1\nname \"Position\"\nreconstruction \"a rule case's position, not a printed map\"\n\
             orientation flat\noffset even\ncolumns 01-{:02}\nrows 01-{:02}\nlevels 0=0 1=20 2=40 3=60\n\
             default clear level=0\n{}\n",
            self.cols,
            self.rows,
            self.map.join("\n")
        );
        let side = |lines: &[String]| {
            lines
                .iter()
                .map(|l| counter_line(l))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let oob = format!(
            "gbacw-oob 1\nname \"Position\"\nside union name=\"Union\"\n{}\nside confederate name=\"Confederate\"\n{}\n",
            side(&self.union),
            side(&self.confederate)
        );
        let scenario = format!(
            "gbacw-scenario 1\nname \"Position\"\nbattle position\nmap position.map\noob position.oob\n\
             side union seat=union name=\"Union\"\nside confederate seat=confederate name=\"Confederate\"\n\
             first-player union\nlength turns={} minutes=30 source=\"a rule case\"\n{}\n{}\n",
            self.turns,
            self.setup.join("\n"),
            self.scenario.join("\n")
        );
        (map, oob, scenario)
    }

    /// The table at the start of Game-Turn 1 (the first phase of the
    /// Union Player-Turn).
    pub fn build(&self) -> T {
        let (map, oob, scenario) = self.texts();
        // The battle loader keeps `'static` texts (the shipped ones are
        // embedded); a test's few hundred bytes are leaked for it.
        let files = BattleFiles {
            name: "position",
            map: Box::leak(map.into_boxed_str()),
            oob: Box::leak(oob.into_boxed_str()),
            scenario: Box::leak(scenario.into_boxed_str()),
        };
        let game = Game::from_files(&files).unwrap_or_else(|e| panic!("position: {e}"));
        let config = GbacwConfig {
            battle: "position".into(),
            readings_001: self.readings_001.clone(),
            ..GbacwConfig::default()
        };
        let rs = Gbacw::with_game(&config, game).unwrap_or_else(|e| panic!("position: {e}"));
        let s = rs.initial_state();
        let mut t = T {
            rs,
            s,
            script: VecDeque::new(),
        };
        t.mark_out_of_command(&self.out_of_command);
        t
    }

    /// The table at `phase` of `seat`'s Player-Turn in Game-Turn `turn`,
    /// reached by ending every phase before it (so each phase's start
    /// does what it does: the command check, fresh movement allowances).
    pub fn build_at(&self, turn: u16, seat: SeatId, phase: Phase) -> T {
        let mut t = self.build();
        t.advance_to_turn(turn, seat, phase);
        t.mark_out_of_command(&self.out_of_command);
        t
    }
}

/// A counter line with the builder's defaults: a name from the id, and
/// independence for a unit that names no brigade.
fn counter_line(line: &str) -> String {
    let mut words = line.split_whitespace();
    let (Some(kind), Some(id)) = (words.next(), words.next()) else {
        return line.to_string();
    };
    let mut out = line.to_string();
    if !line.contains("name=") {
        out.push_str(&format!(" name=\"{id}\""));
    }
    // Wagons are always independent (11.13): the format refuses `indpnt`.
    let unit = matches!(kind, "infantry" | "cavalry" | "battery");
    if unit && !line.contains("brigade=") && !line.split_whitespace().any(|w| w == "indpnt") {
        out.push_str(" indpnt");
    }
    out
}

impl T {
    /// End phases until `phase` of `seat`'s Player-Turn in Game-Turn `turn`.
    pub fn advance_to_turn(&mut self, turn: u16, seat: SeatId, phase: Phase) {
        for _ in 0..2000 {
            let phasing = self
                .rs
                .phasing_side(self.s.clock)
                .map(|s| self.rs.seat_of(s));
            if self.s.clock.turn == turn && self.phase() == Some(phase) && phasing == Some(seat) {
                return;
            }
            let actor = self.rs.acting_seat(&self.s).expect("someone acts");
            self.act(actor, crate::gbacw::ruleset::GbacwAction::EndPhase);
        }
        panic!("never reached Game-Turn {turn}, {phase:?} for {seat}");
    }

    fn mark_out_of_command(&mut self, units: &[String]) {
        for u in units {
            self.s.command.out_of_command.insert(CounterId(u.clone()));
        }
    }
}
