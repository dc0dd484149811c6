//! What each viewer may see. A hidden piece exists, for anyone but its
//! owner, nowhere: not in snapshots, not in events, not in refusals.

use super::event::SandboxEvent;
use super::model::{Piece, SandboxState};
use crate::ids::Viewer;

/// Whether `viewer` may see `piece` at all.
pub(crate) fn visible(piece: &Piece, viewer: Viewer) -> bool {
    !piece.hidden
        || match viewer {
            Viewer::Referee => true,
            Viewer::Seat(s) => piece.owner == Some(s),
            Viewer::Spectator => false,
        }
}

pub(crate) fn view(state: &SandboxState, viewer: Viewer) -> SandboxState {
    SandboxState {
        pieces: state
            .pieces
            .iter()
            .filter(|(_, p)| visible(p, viewer))
            .map(|(id, p)| (*id, p.clone()))
            .collect(),
        turn: state.turn,
        last_roll: state.last_roll.clone(),
        request: state.request.clone(),
    }
}

pub(crate) fn view_event(
    before: &SandboxState,
    event: &SandboxEvent,
    viewer: Viewer,
) -> Option<SandboxEvent> {
    use SandboxEvent as E;
    let sees = |id| before.pieces.get(id).is_some_and(|p| visible(p, viewer));
    match event {
        // New (possibly hidden) pieces, and reveals of hidden ones.
        E::Placed { piece } => visible(piece, viewer).then(|| event.clone()),
        E::Moved { piece, .. }
        | E::Flipped { piece, .. }
        | E::MarkersChanged { piece, .. }
        | E::Removed { piece } => sees(piece).then(|| event.clone()),
        E::Hidden { piece } => {
            let now_hidden = before.pieces.get(piece).map(|p| Piece {
                hidden: true,
                ..p.clone()
            })?;
            if visible(&now_hidden, viewer) {
                Some(event.clone())
            } else {
                // It leaves this viewer's table as if removed.
                sees(piece).then_some(E::Removed { piece: *piece })
            }
        }
        E::Rolled(_) | E::TurnPassed { .. } | E::RollRequested(_) => Some(event.clone()),
    }
}
