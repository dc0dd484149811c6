//! The sandbox's boards, pieces and state.

use crate::ids::SeatId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest piece label, marker or roll note, in bytes.
pub const MAX_TEXT: usize = 64;
/// Most markers on one piece.
pub const MAX_MARKERS: usize = 16;
/// Most pieces on the table at once.
pub const MAX_PIECES: usize = 10_000;
/// Most dice in one roll, and the largest die.
pub const MAX_DICE: u8 = 100;
pub const MAX_SIDES: u16 = 1000;

/// What a board's positions look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardKind {
    /// A hex grid of `columns` × `rows` cells, addressed by (column, row) from 0.
    Hex { columns: u16, rows: u16 },
    /// A free surface of `width` × `height` units, addressed by points.
    Free { width: u32, height: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub name: String,
    pub kind: BoardKind,
}

/// A place on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Loc {
    Hex { col: u16, row: u16 },
    Point { x: u32, y: u32 },
}

/// A board and a place on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Position {
    pub board: u8,
    pub loc: Loc,
}

/// Whether seats take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TurnOrder {
    /// Anyone may act at any time, as around a real table.
    #[default]
    Free,
    /// Only the seat whose turn it is may act; `EndTurn` passes to the next.
    Alternating,
}

/// The table's set-up, chosen when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxConfig {
    pub seats: u8,
    pub boards: Vec<Board>,
    pub turn_order: TurnOrder,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            seats: 2,
            boards: vec![
                Board {
                    name: "Map".into(),
                    kind: BoardKind::Hex {
                        columns: 40,
                        rows: 30,
                    },
                },
                Board {
                    name: "Off-map box".into(),
                    kind: BoardKind::Free {
                        width: 1000,
                        height: 600,
                    },
                },
            ],
            turn_order: TurnOrder::Free,
        }
    }
}

/// Pieces are numbered from the log sequence number of the action that
/// placed them, so ids are unique and need no counter in the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PieceId(pub u64);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub id: PieceId,
    /// `None` for a neutral piece anyone may handle.
    pub owner: Option<SeatId>,
    pub label: String,
    /// Which side is up.
    pub face_up: bool,
    pub markers: Vec<String>,
    pub at: Position,
    /// Stacking order: among pieces at one position, higher is on top.
    /// Minted from the log sequence number (see [`stack_order`]), so putting
    /// a piece on top never needs to look at what else is there — a viewer
    /// who cannot see a hidden piece computes the same order.
    pub z: i64,
    /// Visible only to its owner until revealed.
    pub hidden: bool,
}

/// One roll as the table remembers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollResult {
    pub seat: SeatId,
    pub sides: u16,
    pub dice: Vec<u16>,
    pub note: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SandboxState {
    pub pieces: BTreeMap<PieceId, Piece>,
    /// Whose turn it is under [`TurnOrder::Alternating`].
    pub turn: SeatId,
    /// The most recent roll, shown on the table.
    pub last_roll: Option<RollResult>,
    /// A roll one seat asked another for, still unanswered.
    pub request: Option<RollRequest>,
}

/// A roll asked of one seat by another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRequest {
    pub from: SeatId,
    pub seat: SeatId,
    pub count: u8,
    pub sides: u16,
    pub note: String,
}

/// Seconds a seat has to answer a roll request in live play.
pub const REQUEST_DEADLINE_SECS: u32 = 120;

impl SandboxState {
    /// The pieces at `at`, bottom first.
    pub fn stack_at(&self, at: Position) -> Vec<&Piece> {
        let mut stack: Vec<&Piece> = self.pieces.values().filter(|p| p.at == at).collect();
        stack.sort_by_key(|p| (p.z, p.id));
        stack
    }
}

/// The `k`-th stacking order minted by the action at `seq`: above (or, with
/// `to_bottom`, below) every order minted before it.
pub fn stack_order(seq: u64, k: usize, to_bottom: bool) -> i64 {
    let z = ((seq.min(1 << 40) as i64) << 16) | (k.min(0xffff) as i64);
    if to_bottom { -z } else { z }
}
