//! What a sandbox player can do.

use super::model::{Loc, PieceId, Position};
use crate::ids::SeatId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SandboxAction {
    /// Put a new piece on top of whatever is at `at`. A `hidden` piece is
    /// placed unseen by anyone but its owner (a secret set-up).
    Place {
        at: Position,
        label: String,
        owner: Option<SeatId>,
        face_up: bool,
        hidden: bool,
    },
    /// Move pieces, in order, onto the top of whatever is at `to`.
    Move {
        pieces: Vec<PieceId>,
        to: Position,
    },
    /// Move pieces, in order, onto the top of `onto`'s stack.
    Stack {
        pieces: Vec<PieceId>,
        onto: PieceId,
    },
    /// Take one piece off its stack to an empty place.
    Unstack {
        piece: PieceId,
        to: Position,
    },
    /// Bring a piece to the top of its stack, or send it to the bottom.
    Reorder {
        piece: PieceId,
        to_bottom: bool,
    },
    Flip {
        piece: PieceId,
    },
    AddMarker {
        piece: PieceId,
        marker: String,
    },
    RemoveMarker {
        piece: PieceId,
        marker: String,
    },
    Remove {
        piece: PieceId,
    },
    /// Roll `count` dice of `sides` sides, with a note saying what for.
    Roll {
        count: u8,
        sides: u16,
        note: String,
    },
    /// Make one of your pieces visible only to you.
    Hide {
        piece: PieceId,
    },
    /// Show one of your hidden pieces to everyone.
    Reveal {
        piece: PieceId,
    },
    /// Pass the turn (alternating turn order only).
    EndTurn,
    /// Ask another seat to roll (a morale check, a hidden table): it becomes
    /// that seat's pending decision, and the table waits for it. If the seat
    /// does not answer in time the server rolls for it.
    RequestRoll {
        seat: SeatId,
        count: u8,
        sides: u16,
        note: String,
    },
    /// Move pieces onto `to`, then roll `count` dice of `sides` sides: one
    /// action, so one log entry and one commit (a board game's "move and
    /// roll", the benchmark's move; issue 22). Appended last: variant
    /// numbers are the wire and the log.
    MoveRoll {
        pieces: Vec<PieceId>,
        to: Position,
        count: u8,
        sides: u16,
    },
}

/// Where a board position can be reached from, for legal-move sampling.
pub(crate) fn neighbours(loc: Loc) -> [Loc; 2] {
    match loc {
        Loc::Hex { col, row } => [
            Loc::Hex {
                col: col.saturating_add(1),
                row,
            },
            Loc::Hex {
                col,
                row: row.saturating_sub(1),
            },
        ],
        Loc::Point { x, y } => [
            Loc::Point {
                x: x.saturating_add(10),
                y,
            },
            Loc::Point {
                x,
                y: y.saturating_sub(10),
            },
        ],
    }
}
