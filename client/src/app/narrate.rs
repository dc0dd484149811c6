//! [`Narrate`]: what a [`Session`](super::session::Session) needs to know
//! about a ruleset to put its table into words — the log lines for actions
//! and events, and which events are dice rolls. One impl per ruleset: the
//! sandbox's here, GBACW's in `gbacw/narrate.rs`.

use super::session::seat_name;
use muster_shared::engine::Ruleset;
use muster_shared::sandbox::{
    PieceId, RollResult, Sandbox, SandboxAction, SandboxEvent, SandboxState,
};
use std::collections::BTreeMap;

/// A ruleset the client can show in its log.
pub trait Narrate: Ruleset {
    /// What the narration remembers from the last state it saw, to name
    /// things an event takes away (the sandbox: piece labels).
    type Memo;

    fn memo(&self, state: &Self::State) -> Self::Memo;

    /// An action in a few words, for "refused: …" lines.
    fn describe_action(&self, action: &Self::Action) -> String;

    /// One log line for an event; `who` is the acting seat's name (or
    /// "table"), `names` every seat's.
    fn describe_event(
        &self,
        event: &Self::Event,
        who: &str,
        memo: &Self::Memo,
        names: &[String],
    ) -> String;

    /// The log lines of one step's events, one slot per event: by default
    /// each event's own line. A ruleset may fold several events into one
    /// line (GBACW: a move's hex-by-hex events, one line per move); the
    /// events folded into another's line get `None`.
    fn describe_events(
        &self,
        events: &[Self::Event],
        who: &str,
        memo: &Self::Memo,
        names: &[String],
    ) -> Vec<Option<String>> {
        events
            .iter()
            .map(|e| Some(self.describe_event(e, who, memo, names)))
            .collect()
    }

    /// The dice, when the event shows a roll (it goes to the dice panel with
    /// the follower's verdict). Its `seat` is a fallback: the panel credits
    /// the roll to the seat whose action it was.
    fn rolled(&self, event: &Self::Event) -> Option<RollResult>;
}

impl Narrate for Sandbox {
    type Memo = BTreeMap<PieceId, String>;

    fn memo(&self, state: &SandboxState) -> Self::Memo {
        label_map(state)
    }

    fn describe_action(&self, action: &SandboxAction) -> String {
        describe_action(action)
    }

    fn describe_event(
        &self,
        event: &SandboxEvent,
        who: &str,
        memo: &Self::Memo,
        names: &[String],
    ) -> String {
        describe_event(event, who, memo, names)
    }

    fn rolled(&self, event: &SandboxEvent) -> Option<RollResult> {
        match event {
            SandboxEvent::Rolled(r) => Some(r.clone()),
            _ => None,
        }
    }
}

fn label_map(state: &SandboxState) -> BTreeMap<PieceId, String> {
    state
        .pieces
        .iter()
        .map(|(id, p)| (*id, p.label.clone()))
        .collect()
}

/// Where a piece is, in the words a wargamer uses: hex numbers as printed
/// on SPI maps (column then row, from 01).
pub fn describe_position(p: &muster_shared::sandbox::Position) -> String {
    use muster_shared::sandbox::Loc;
    match p.loc {
        Loc::Hex { col, row } => format!("hex {}", super::hexgrid::hex_number(col, row)),
        Loc::Point { x, y } => format!("({x}, {y}) on board {}", p.board + 1),
    }
}

fn describe_action(a: &SandboxAction) -> String {
    use SandboxAction as A;
    match a {
        A::Place { label, at, .. } => {
            format!("place \u{201c}{label}\u{201d} at {}", describe_position(at))
        }
        A::Move { to, .. } => format!("move to {}", describe_position(to)),
        A::Stack { .. } => "stack".into(),
        A::Unstack { to, .. } => format!("unstack to {}", describe_position(to)),
        A::Reorder { to_bottom, .. } => {
            if *to_bottom {
                "send to bottom".into()
            } else {
                "bring to top".into()
            }
        }
        A::Flip { .. } => "flip".into(),
        A::AddMarker { marker, .. } => format!("add marker \u{201c}{marker}\u{201d}"),
        A::RemoveMarker { marker, .. } => format!("remove marker \u{201c}{marker}\u{201d}"),
        A::Remove { .. } => "remove piece".into(),
        A::Roll { count, sides, .. } => format!("roll {count}d{sides}"),
        A::MoveRoll {
            to, count, sides, ..
        } => format!("move to {} and roll {count}d{sides}", describe_position(to)),
        A::Hide { .. } => "hide".into(),
        A::Reveal { .. } => "reveal".into(),
        A::EndTurn => "end turn".into(),
        A::RequestRoll {
            seat, count, sides, ..
        } => format!("ask seat {} to roll {count}d{sides}", seat.0 + 1),
    }
}

fn describe_event(
    e: &SandboxEvent,
    who: &str,
    labels: &BTreeMap<PieceId, String>,
    names: &[String],
) -> String {
    use SandboxEvent as E;
    let name = |id: &PieceId| {
        labels
            .get(id)
            .map_or_else(|| "a piece".to_string(), |l| format!("\u{201c}{l}\u{201d}"))
    };
    match e {
        E::Placed { piece } => {
            if labels.contains_key(&piece.id) {
                format!("{who} revealed \u{201c}{}\u{201d}", piece.label)
            } else {
                format!(
                    "{who} placed \u{201c}{}\u{201d} at {}{}",
                    piece.label,
                    describe_position(&piece.at),
                    if piece.hidden { " (hidden)" } else { "" }
                )
            }
        }
        E::Moved { piece, to, .. } => {
            format!("{who} moved {} to {}", name(piece), describe_position(to))
        }
        E::Flipped { piece, face_up } => format!(
            "{who} flipped {} {}",
            name(piece),
            if *face_up { "face up" } else { "face down" }
        ),
        E::MarkersChanged { piece, markers } => {
            if markers.is_empty() {
                format!("{who} cleared the markers on {}", name(piece))
            } else {
                format!(
                    "{who} set markers on {}: {}",
                    name(piece),
                    markers.join(", ")
                )
            }
        }
        E::Removed { piece } => format!("{who} removed {} (or it went out of view)", name(piece)),
        E::Hidden { piece } => format!("{who} hid {}", name(piece)),
        E::Rolled(r) => {
            let total: u32 = r.dice.iter().map(|d| u32::from(*d)).sum();
            let faces: Vec<String> = r.dice.iter().map(u16::to_string).collect();
            format!(
                "{} rolled {}d{}: {} = {total}{}",
                seat_name(names, r.seat),
                r.dice.len(),
                r.sides,
                faces.join(" "),
                if r.note.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", r.note)
                }
            )
        }
        E::TurnPassed { to } => format!("{who} ended the turn; {} to play", seat_name(names, *to)),
        E::RollRequested(r) => format!(
            "{who} asked {} to roll {}d{}{}",
            seat_name(names, r.seat),
            r.count,
            r.sides,
            if r.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.note)
            }
        ),
    }
}
