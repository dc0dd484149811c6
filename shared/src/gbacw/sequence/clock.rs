//! GBACW 4.0 as a state machine: Game-Turns of two Player-Turns of phases
//! A–J, then the Game-Turn Record Interphase; exclusive rules add phases
//! and interphases through a [`SequenceSpec`].

use super::phase::{Phase, PlayerTurn};
use serde::{Deserialize, Serialize};

/// The Game-Turns a hook applies to, inclusive; `None` = every turn.
pub type Turns = Option<(u16, u16)>;

/// An exclusive-rule phase inside each Player-Turn (e.g. Corinth 21.1:
/// K. Straggler Recovery Phase after the Final Command Phase, night turns).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraPhase {
    pub name: String,
    /// The Standard phase it follows.
    pub after: Phase,
    pub turns: Turns,
}

/// An exclusive-rule interphase, held after both Player-Turns and before
/// the Game-Turn Record Interphase (e.g. Corinth's Victory Determination
/// after GT 16; BCE Recovery and Pre-Dawn Barrage after GT 20).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraInterphase {
    pub name: String,
    pub turns: Turns,
}

/// A scenario's sequence of play: its length and its hooks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceSpec {
    pub last_turn: u16,
    /// In the order they are held when several follow the same phase.
    pub extra_phases: Vec<ExtraPhase>,
    /// In the order they are held.
    pub interphases: Vec<ExtraInterphase>,
}

/// Where in a Player-Turn or between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    Phase {
        player: PlayerTurn,
        phase: Phase,
    },
    /// `SequenceSpec::extra_phases[index]`.
    ExtraPhase {
        player: PlayerTurn,
        index: usize,
    },
    /// `SequenceSpec::interphases[index]`.
    Interphase {
        index: usize,
    },
    /// GBACW 4.0 (3): advance the Game-Turn marker.
    GameTurnRecord,
}

impl Step {
    /// The phasing player, `None` in an interphase.
    pub fn phasing(self) -> Option<PlayerTurn> {
        match self {
            Step::Phase { player, .. } | Step::ExtraPhase { player, .. } => Some(player),
            Step::Interphase { .. } | Step::GameTurnRecord => None,
        }
    }
}

/// The game clock: a Game-Turn and a step in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub turn: u16,
    pub step: Step,
}

fn applies(turns: Turns, turn: u16) -> bool {
    turns.is_none_or(|(a, b)| (a..=b).contains(&turn))
}

impl SequenceSpec {
    /// The Standard sequence only (4.0), for `last_turn` Game-Turns.
    pub fn standard(last_turn: u16) -> Self {
        SequenceSpec {
            last_turn,
            extra_phases: Vec::new(),
            interphases: Vec::new(),
        }
    }

    /// GBACW 4.0: every step of Game-Turn `turn`, in order.
    pub fn steps(&self, turn: u16) -> Vec<Step> {
        let mut out = Vec::new();
        for player in [PlayerTurn::First, PlayerTurn::Second] {
            for phase in Phase::ALL {
                out.push(Step::Phase { player, phase });
                for (index, x) in self.extra_phases.iter().enumerate() {
                    if x.after == phase && applies(x.turns, turn) {
                        out.push(Step::ExtraPhase { player, index });
                    }
                }
            }
        }
        for (index, x) in self.interphases.iter().enumerate() {
            if applies(x.turns, turn) {
                out.push(Step::Interphase { index });
            }
        }
        out.push(Step::GameTurnRecord);
        out
    }

    /// A step's name for the turn track and the log.
    pub fn step_name(&self, step: Step) -> String {
        match step {
            Step::Phase { phase, .. } => phase.to_string(),
            Step::ExtraPhase { index, .. } => self
                .extra_phases
                .get(index)
                .map_or_else(|| "unknown phase".to_string(), |x| x.name.clone()),
            Step::Interphase { index } => self
                .interphases
                .get(index)
                .map_or_else(|| "unknown interphase".to_string(), |x| x.name.clone()),
            Step::GameTurnRecord => "Game-Turn Record Interphase".to_string(),
        }
    }
}

impl Clock {
    /// GBACW 4.0: the game opens with the First Player-Turn's Initial
    /// Command Phase of Game-Turn 1.
    pub fn start() -> Self {
        Clock {
            turn: 1,
            step: Step::Phase {
                player: PlayerTurn::First,
                phase: Phase::InitialCommand,
            },
        }
    }

    /// The next step; `None` once the last Game-Turn's record interphase
    /// is over (the game ends) or if this clock is not on the spec.
    pub fn next(self, spec: &SequenceSpec) -> Option<Clock> {
        let steps = spec.steps(self.turn);
        let i = steps.iter().position(|s| *s == self.step)?;
        match steps.get(i + 1) {
            Some(&step) => Some(Clock {
                turn: self.turn,
                step,
            }),
            None if self.turn < spec.last_turn => Some(Clock {
                turn: self.turn + 1,
                step: spec.steps(self.turn + 1)[0],
            }),
            None => None,
        }
    }
}
