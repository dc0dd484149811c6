//! A deterministic random player for sandbox games: the replay property
//! tests and the end-to-end tests drive games with it.

use muster_shared::dice::{DiceStream, HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{LogHeader, Match, MatchError, Ruleset, SeatInfo, Submission};
use muster_shared::sandbox::*;
use muster_shared::{MatchId, SeatId};

/// Deterministic choices for a seeded game (the dice stream is a fine PRNG).
pub struct Chooser(DiceStream);

impl Chooser {
    pub fn new(seed: u64) -> Self {
        Chooser(DiceStream::from_seed(&seed.to_le_bytes()))
    }
    /// 0..n
    pub fn below(&mut self, n: usize) -> usize {
        assert!((1..=65535).contains(&n));
        if n == 1 {
            return 0;
        }
        usize::from(self.0.roll(n as u16)) - 1
    }
}

pub struct Game {
    pub m: Match<Sandbox>,
    pub server: HashChain,
    pub seats: Vec<HashChain>,
}

pub fn new_game(seed: u64, turn_order: TurnOrder) -> Game {
    let config = SandboxConfig {
        turn_order,
        ..SandboxConfig::default()
    };
    let header = LogHeader {
        format: LOG_FORMAT,
        match_id: MatchId(
            [seed.to_le_bytes(), (!seed).to_le_bytes()]
                .concat()
                .try_into()
                .unwrap(),
        ),
        ruleset: String::new(),
        config: Vec::new(),
        seats: (0..2)
            .map(|s| SeatInfo {
                seat: SeatId(s),
                name: format!("player {s}"),
            })
            .collect(),
    };
    let mut m = Match::<Sandbox>::new(header, &config).unwrap();
    let server = HashChain::generate(4096);
    m.publish_anchor(Party::Server, server.anchor()).unwrap();
    let seats: Vec<HashChain> = (0..2).map(|_| HashChain::generate(4096)).collect();
    for (s, chain) in seats.iter().enumerate() {
        m.publish_anchor(Party::Seat(SeatId(s as u8)), chain.anchor())
            .unwrap();
    }
    Game { m, server, seats }
}

impl Game {
    pub fn link(&self, seat: SeatId) -> Vec<SeatLink> {
        let index = self.m.book().next_index(Party::Seat(seat)).unwrap();
        vec![SeatLink {
            seat,
            index,
            link: self.seats[usize::from(seat.0)].link(index).unwrap(),
        }]
    }

    pub fn submit(&mut self, seat: SeatId, action: SandboxAction) -> Result<u64, MatchError> {
        let seat_links = self.link(seat);
        self.m
            .apply(
                Submission {
                    seat,
                    action,
                    seat_links,
                    by_default: false,
                },
                &self.server,
            )
            .map(|a| a.seq)
    }
}

/// An action that may well be refused: unknown pieces, other seats'
/// pieces, places off the board, silly dice.
pub fn wild_action(ch: &mut Chooser, state: &SandboxState) -> SandboxAction {
    let ids: Vec<PieceId> = state.pieces.keys().copied().collect();
    let piece = if ids.is_empty() || ch.below(4) == 0 {
        PieceId(ch.below(5000) as u64)
    } else {
        ids[ch.below(ids.len())]
    };
    let to = Position {
        board: ch.below(3) as u8,
        loc: Loc::Hex {
            col: ch.below(60) as u16,
            row: ch.below(40) as u16,
        },
    };
    match ch.below(6) {
        0 => SandboxAction::Move {
            pieces: vec![piece],
            to,
        },
        1 => SandboxAction::Flip { piece },
        2 => SandboxAction::Reveal { piece },
        3 => SandboxAction::Roll {
            count: ch.below(120) as u8,
            sides: ch.below(1200) as u16,
            note: String::new(),
        },
        4 => SandboxAction::Unstack { piece, to },
        _ => SandboxAction::Hide { piece },
    }
}

/// Play `actions` random actions; returns how many were accepted.
pub fn play(game: &mut Game, seed: u64, actions: usize) -> usize {
    let mut ch = Chooser::new(seed);
    let mut accepted = 0;
    for _ in 0..actions {
        let seat = SeatId(ch.below(2) as u8);
        let legal = game.m.ruleset().legal_actions(game.m.state(), seat);
        let wild = legal.is_empty() || ch.below(8) == 0;
        let action = if wild {
            wild_action(&mut ch, game.m.state())
        } else {
            legal[ch.below(legal.len())].clone()
        };
        let before_state = game.m.state().clone();
        let before_len = game.m.log().entries.len();
        match game.submit(seat, action.clone()) {
            Ok(_) => accepted += 1,
            Err(e) => {
                assert!(wild, "legal action {action:?} refused: {e}");
                // A refusal changes nothing.
                assert_eq!(game.m.state(), &before_state);
                assert_eq!(game.m.log().entries.len(), before_len);
            }
        }
    }
    accepted
}
