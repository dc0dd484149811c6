//! The sandbox's deltas and how they fold into a state.

use super::model::{Piece, PieceId, Position, RollRequest, RollResult, SandboxState};
use crate::ids::SeatId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SandboxEvent {
    /// A piece came into view: newly placed, or revealed to this viewer.
    Placed {
        piece: Piece,
    },
    Moved {
        piece: PieceId,
        to: Position,
        z: i64,
    },
    Flipped {
        piece: PieceId,
        face_up: bool,
    },
    MarkersChanged {
        piece: PieceId,
        markers: Vec<String>,
    },
    /// A piece left the table, or (for other seats) went out of view.
    Removed {
        piece: PieceId,
    },
    /// The owner hid a piece (others receive `Removed` instead).
    Hidden {
        piece: PieceId,
    },
    /// A roll, which also answers a request made of the rolling seat.
    Rolled(RollResult),
    TurnPassed {
        to: SeatId,
    },
    RollRequested(RollRequest),
}

/// Fold one event into a state (the full one or any viewer's copy).
pub(crate) fn evolve(state: &mut SandboxState, event: &SandboxEvent) {
    match event {
        SandboxEvent::Placed { piece } => {
            state.pieces.insert(piece.id, piece.clone());
        }
        SandboxEvent::Moved { piece, to, z } => {
            if let Some(p) = state.pieces.get_mut(piece) {
                p.at = *to;
                p.z = *z;
            }
        }
        SandboxEvent::Flipped { piece, face_up } => {
            if let Some(p) = state.pieces.get_mut(piece) {
                p.face_up = *face_up;
            }
        }
        SandboxEvent::MarkersChanged { piece, markers } => {
            if let Some(p) = state.pieces.get_mut(piece) {
                p.markers = markers.clone();
            }
        }
        SandboxEvent::Removed { piece } => {
            state.pieces.remove(piece);
        }
        SandboxEvent::Hidden { piece } => {
            if let Some(p) = state.pieces.get_mut(piece) {
                p.hidden = true;
            }
        }
        SandboxEvent::Rolled(roll) => {
            if state.request.as_ref().is_some_and(|r| r.seat == roll.seat) {
                state.request = None;
            }
            state.last_roll = Some(roll.clone());
        }
        SandboxEvent::RollRequested(request) => state.request = Some(request.clone()),
        SandboxEvent::TurnPassed { to } => state.turn = *to,
    }
}
