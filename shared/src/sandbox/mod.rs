//! The sandbox: VASSAL-style free play. Boards (hex grids or free
//! surfaces), pieces with an owner, a label, a side up, markers and a
//! stacking order; dice; pieces hidden from everyone but their owner. The
//! engine checks only what keeps the table honest: you handle your own and
//! neutral pieces, you cannot see or touch what is hidden from you, and
//! values stay in range.

mod action;
mod event;
mod model;
mod view;

pub use action::SandboxAction;
pub use event::SandboxEvent;
pub use model::*;

use crate::engine::{ActionContext, Dice, PendingDecision, RuleCode, RuleError, Ruleset};
use crate::ids::{SeatId, Viewer};
use action::neighbours;

/// The sandbox ruleset, configured with its boards and seats.
#[derive(Clone, Debug)]
pub struct Sandbox {
    config: SandboxConfig,
}

/// Most pieces one `Move` or `Stack` may carry.
pub const MAX_MOVE: usize = 64;

fn err(code: RuleCode, message: impl Into<String>) -> RuleError {
    RuleError::new("sandbox", code, message)
}

impl Sandbox {
    pub fn config(&self) -> &SandboxConfig {
        &self.config
    }

    /// `Ok` when `at` is a place on an existing board.
    pub fn check_position(&self, at: Position) -> Result<(), RuleError> {
        let board = self
            .config
            .boards
            .get(usize::from(at.board))
            .ok_or_else(|| err(RuleCode::Invalid, format!("there is no board {}", at.board)))?;
        let fits = match (board.kind, at.loc) {
            (BoardKind::Hex { columns, rows }, Loc::Hex { col, row }) => {
                col < columns && row < rows
            }
            (BoardKind::Free { width, height }, Loc::Point { x, y }) => x <= width && y <= height,
            _ => false,
        };
        if fits {
            Ok(())
        } else {
            Err(err(
                RuleCode::Invalid,
                format!("{:?} is not a place on board {:?}", at.loc, board.name),
            ))
        }
    }

    /// The piece `id` if `seat` may handle it: it must be visible to the
    /// seat (a hidden piece of another seat is reported exactly like a
    /// missing one, so refusals leak nothing) and be the seat's or neutral.
    fn handle<'s>(
        &self,
        state: &'s SandboxState,
        seat: SeatId,
        id: PieceId,
    ) -> Result<&'s Piece, RuleError> {
        let piece = self.see(state, seat, id)?;
        match piece.owner {
            Some(owner) if owner != seat => Err(err(
                RuleCode::NotYours,
                format!("piece {} belongs to {owner}", id.0),
            )),
            _ => Ok(piece),
        }
    }

    /// The piece `id` if `seat` can see it.
    fn see<'s>(
        &self,
        state: &'s SandboxState,
        seat: SeatId,
        id: PieceId,
    ) -> Result<&'s Piece, RuleError> {
        state
            .pieces
            .get(&id)
            .filter(|p| view::visible(p, Viewer::Seat(seat)))
            .ok_or_else(|| err(RuleCode::NotFound, format!("there is no piece {}", id.0)))
    }

    fn check_text(what: &str, text: &str, allow_empty: bool) -> Result<(), RuleError> {
        if text.len() > MAX_TEXT {
            return Err(err(
                RuleCode::Invalid,
                format!("{what} is {} bytes; the limit is {MAX_TEXT}", text.len()),
            ));
        }
        if !allow_empty && text.trim().is_empty() {
            return Err(err(RuleCode::Invalid, format!("{what} is empty")));
        }
        if text.chars().any(char::is_control) {
            return Err(err(
                RuleCode::Invalid,
                format!("{what} has control characters"),
            ));
        }
        Ok(())
    }

    /// Events moving `pieces`, in order, onto the top of `to`.
    fn move_onto(
        &self,
        state: &SandboxState,
        ctx: &ActionContext,
        pieces: &[PieceId],
        to: Position,
    ) -> Result<Vec<SandboxEvent>, RuleError> {
        self.check_position(to)?;
        if pieces.is_empty() || pieces.len() > MAX_MOVE {
            return Err(err(
                RuleCode::Invalid,
                format!("move 1 to {MAX_MOVE} pieces at a time"),
            ));
        }
        let mut events = Vec::with_capacity(pieces.len());
        for (k, id) in pieces.iter().enumerate() {
            self.handle(state, ctx.seat, *id)?;
            if pieces[..k].contains(id) {
                return Err(err(
                    RuleCode::Invalid,
                    format!("piece {} listed twice", id.0),
                ));
            }
            events.push(SandboxEvent::Moved {
                piece: *id,
                to,
                z: stack_order(ctx.seq, k, false),
            });
        }
        Ok(events)
    }

    fn check_roll(count: u8, sides: u16, note: &str) -> Result<(), RuleError> {
        if !(1..=MAX_DICE).contains(&count) || !(2..=MAX_SIDES).contains(&sides) {
            return Err(err(
                RuleCode::Invalid,
                format!("roll 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides"),
            ));
        }
        Self::check_text("note", note, true)
    }

    fn next_seat(&self, seat: SeatId) -> SeatId {
        SeatId((seat.0 + 1) % self.config.seats.max(1))
    }
}

impl Ruleset for Sandbox {
    const ID: &'static str = "sandbox";
    type Config = SandboxConfig;
    type State = SandboxState;
    type Action = SandboxAction;
    type Event = SandboxEvent;

    fn new(config: &SandboxConfig) -> Result<Self, RuleError> {
        if !(1..=8).contains(&config.seats) {
            return Err(err(RuleCode::Invalid, "a sandbox table has 1 to 8 seats"));
        }
        if config.boards.is_empty() || config.boards.len() > 16 {
            return Err(err(RuleCode::Invalid, "a sandbox table has 1 to 16 boards"));
        }
        for b in &config.boards {
            Self::check_text("board name", &b.name, false)?;
            let empty = match b.kind {
                BoardKind::Hex { columns, rows } => columns == 0 || rows == 0,
                BoardKind::Free { width, height } => width == 0 || height == 0,
            };
            if empty {
                return Err(err(
                    RuleCode::Invalid,
                    format!("board {:?} has no area", b.name),
                ));
            }
        }
        Ok(Sandbox {
            config: config.clone(),
        })
    }

    fn seats(&self) -> u8 {
        self.config.seats
    }

    fn initial_state(&self) -> SandboxState {
        SandboxState::default()
    }

    fn rolls_dice(&self, _: &SandboxState, _: &ActionContext, action: &SandboxAction) -> bool {
        matches!(
            action,
            SandboxAction::Roll { .. } | SandboxAction::MoveRoll { .. }
        )
    }

    fn decide(
        &self,
        state: &SandboxState,
        ctx: &ActionContext,
        action: &SandboxAction,
        dice: &mut Dice,
    ) -> Result<Vec<SandboxEvent>, RuleError> {
        let seat = ctx.seat;
        if let Some(req) = &state.request {
            // The table waits for the requested roll, whoever's turn it is.
            if seat != req.seat {
                return Err(err(
                    RuleCode::NotYourTurn,
                    format!(
                        "waiting for {} to roll {}d{}",
                        req.seat, req.count, req.sides
                    ),
                ));
            }
            let answers = matches!(action, SandboxAction::Roll { count, sides, .. }
                if *count == req.count && *sides == req.sides);
            if !answers {
                return Err(err(
                    RuleCode::Illegal,
                    format!(
                        "{} asked you to roll {}d{} first",
                        req.from, req.count, req.sides
                    ),
                ));
            }
        } else if self.config.turn_order == TurnOrder::Alternating && state.turn != seat {
            return Err(err(
                RuleCode::NotYourTurn,
                format!("it is {}'s turn", state.turn),
            ));
        }
        use SandboxAction as A;
        use SandboxEvent as E;
        let events = match action {
            A::Place {
                at,
                label,
                owner,
                face_up,
                hidden,
            } => {
                self.check_position(*at)?;
                Self::check_text("label", label, false)?;
                if let Some(o) = owner
                    && o.0 >= self.config.seats
                {
                    return Err(err(RuleCode::Invalid, format!("{o} does not exist")));
                }
                if *hidden && *owner != Some(seat) {
                    return Err(err(RuleCode::NotYours, "you can only hide your own pieces"));
                }
                if state.pieces.len() >= MAX_PIECES {
                    return Err(err(
                        RuleCode::Illegal,
                        format!("the table already holds {MAX_PIECES} pieces"),
                    ));
                }
                vec![E::Placed {
                    piece: Piece {
                        id: PieceId(ctx.seq),
                        owner: *owner,
                        label: label.clone(),
                        face_up: *face_up,
                        markers: Vec::new(),
                        at: *at,
                        z: stack_order(ctx.seq, 0, false),
                        hidden: *hidden,
                    },
                }]
            }
            A::Move { pieces, to } => self.move_onto(state, ctx, pieces, *to)?,
            A::Stack { pieces, onto } => {
                let target = self.see(state, seat, *onto)?;
                if pieces.contains(onto) {
                    return Err(err(
                        RuleCode::Invalid,
                        "a piece cannot be stacked onto itself",
                    ));
                }
                self.move_onto(state, ctx, pieces, target.at)?
            }
            A::Unstack { piece, to } => {
                let p = self.handle(state, seat, *piece)?;
                let seen = |at| {
                    state
                        .pieces
                        .values()
                        .filter(|q| q.at == at && view::visible(q, Viewer::Seat(seat)))
                        .count()
                };
                if seen(p.at) < 2 {
                    return Err(err(
                        RuleCode::Illegal,
                        format!("piece {} is not in a stack", piece.0),
                    ));
                }
                if seen(*to) > 0 {
                    return Err(err(
                        RuleCode::Illegal,
                        "unstack to an empty place (use Move to stack elsewhere)",
                    ));
                }
                self.move_onto(state, ctx, &[*piece], *to)?
            }
            A::Reorder { piece, to_bottom } => {
                let p = self.handle(state, seat, *piece)?;
                vec![E::Moved {
                    piece: *piece,
                    to: p.at,
                    z: stack_order(ctx.seq, 0, *to_bottom),
                }]
            }
            A::Flip { piece } => {
                let p = self.handle(state, seat, *piece)?;
                vec![E::Flipped {
                    piece: *piece,
                    face_up: !p.face_up,
                }]
            }
            A::AddMarker { piece, marker } => {
                let p = self.handle(state, seat, *piece)?;
                Self::check_text("marker", marker, false)?;
                if p.markers.contains(marker) {
                    return Err(err(
                        RuleCode::Illegal,
                        format!("piece already has {marker:?}"),
                    ));
                }
                if p.markers.len() >= MAX_MARKERS {
                    return Err(err(
                        RuleCode::Illegal,
                        format!("a piece carries at most {MAX_MARKERS} markers"),
                    ));
                }
                let mut markers = p.markers.clone();
                markers.push(marker.clone());
                vec![E::MarkersChanged {
                    piece: *piece,
                    markers,
                }]
            }
            A::RemoveMarker { piece, marker } => {
                let p = self.handle(state, seat, *piece)?;
                if !p.markers.contains(marker) {
                    return Err(err(
                        RuleCode::NotFound,
                        format!("piece has no {marker:?} marker"),
                    ));
                }
                let markers = p.markers.iter().filter(|m| *m != marker).cloned().collect();
                vec![E::MarkersChanged {
                    piece: *piece,
                    markers,
                }]
            }
            A::Remove { piece } => {
                self.handle(state, seat, *piece)?;
                vec![E::Removed { piece: *piece }]
            }
            A::Roll { count, sides, note } => {
                Self::check_roll(*count, *sides, note)?;
                let rolled = (0..*count)
                    .map(|_| dice.roll(*sides))
                    .collect::<Result<Vec<_>, _>>()?;
                vec![E::Rolled(RollResult {
                    seat,
                    sides: *sides,
                    dice: rolled,
                    note: note.clone(),
                })]
            }
            A::MoveRoll {
                pieces,
                to,
                count,
                sides,
            } => {
                Self::check_roll(*count, *sides, "")?;
                let mut events = self.move_onto(state, ctx, pieces, *to)?;
                let rolled = (0..*count)
                    .map(|_| dice.roll(*sides))
                    .collect::<Result<Vec<_>, _>>()?;
                events.push(E::Rolled(RollResult {
                    seat,
                    sides: *sides,
                    dice: rolled,
                    note: String::new(),
                }));
                events
            }
            A::Hide { piece } => {
                let p = self.handle(state, seat, *piece)?;
                if p.owner != Some(seat) {
                    return Err(err(RuleCode::NotYours, "you can only hide your own pieces"));
                }
                if p.hidden {
                    return Err(err(RuleCode::Illegal, "the piece is already hidden"));
                }
                vec![E::Hidden { piece: *piece }]
            }
            A::Reveal { piece } => {
                let p = self.handle(state, seat, *piece)?;
                if !p.hidden {
                    return Err(err(RuleCode::Illegal, "the piece is not hidden"));
                }
                vec![E::Placed {
                    piece: Piece {
                        hidden: false,
                        ..p.clone()
                    },
                }]
            }
            A::RequestRoll {
                seat: asked,
                count,
                sides,
                note,
            } => {
                Self::check_roll(*count, *sides, note)?;
                if asked.0 >= self.config.seats || *asked == seat {
                    return Err(err(
                        RuleCode::Invalid,
                        format!("ask another seat at this table, not {asked}"),
                    ));
                }
                vec![E::RollRequested(RollRequest {
                    from: seat,
                    seat: *asked,
                    count: *count,
                    sides: *sides,
                    note: note.clone(),
                })]
            }
            A::EndTurn => {
                if self.config.turn_order != TurnOrder::Alternating {
                    return Err(err(RuleCode::Illegal, "this table has no turns to end"));
                }
                vec![E::TurnPassed {
                    to: self.next_seat(seat),
                }]
            }
        };
        Ok(events)
    }

    fn evolve(&self, state: &mut SandboxState, event: &SandboxEvent) {
        event::evolve(state, event)
    }

    fn view(&self, state: &SandboxState, viewer: Viewer) -> SandboxState {
        view::view(state, viewer)
    }

    fn view_event(
        &self,
        before: &SandboxState,
        event: &SandboxEvent,
        viewer: Viewer,
    ) -> Option<SandboxEvent> {
        view::view_event(before, event, viewer)
    }

    fn pending(&self, state: &SandboxState) -> Vec<PendingDecision<SandboxAction>> {
        state
            .request
            .iter()
            .map(|r| PendingDecision {
                seat: r.seat,
                rule: "sandbox".into(),
                prompt: format!(
                    "{} asks you to roll {}d{}: {}",
                    r.from, r.count, r.sides, r.note
                ),
                default: SandboxAction::Roll {
                    count: r.count,
                    sides: r.sides,
                    note: r.note.clone(),
                },
                deadline_secs: REQUEST_DEADLINE_SECS,
            })
            .collect()
    }

    fn action_visible(&self, state: &SandboxState, action: &SandboxAction, viewer: Viewer) -> bool {
        // A roll's count, sides and note are in its public event; a move of
        // pieces every viewer sees shows nothing the events do not.
        let all_seen = |pieces: &[PieceId]| {
            pieces.iter().all(|id| {
                state
                    .pieces
                    .get(id)
                    .is_some_and(|p| view::visible(p, viewer))
            })
        };
        match action {
            SandboxAction::Roll { .. } => true,
            SandboxAction::Move { pieces, .. } | SandboxAction::MoveRoll { pieces, .. } => {
                all_seen(pieces)
            }
            _ => false,
        }
    }

    fn action_from_events(&self, seat: SeatId, events: &[SandboxEvent]) -> Option<SandboxAction> {
        // A roll, or a move and roll, tells itself whole: the pieces and
        // where they went are in the `Moved` events, the count, sides and
        // note in the `Rolled` one (issue 22). Anything else is sent as
        // bytes. The server compares the rebuilt action's bytes with the
        // logged ones, so a shape this gets wrong only costs bytes.
        let (last, moved) = events.split_last()?;
        let SandboxEvent::Rolled(r) = last else {
            return None;
        };
        if r.seat != seat {
            return None;
        }
        let count = u8::try_from(r.dice.len()).ok()?;
        if moved.is_empty() {
            return Some(SandboxAction::Roll {
                count,
                sides: r.sides,
                note: r.note.clone(),
            });
        }
        let mut to = None;
        let mut pieces = Vec::with_capacity(moved.len());
        for e in moved {
            let SandboxEvent::Moved { piece, to: at, .. } = e else {
                return None;
            };
            if to.is_some_and(|t| t != *at) {
                return None;
            }
            to = Some(*at);
            pieces.push(*piece);
        }
        Some(SandboxAction::MoveRoll {
            pieces,
            to: to?,
            count,
            sides: r.sides,
        })
        .filter(|_| r.note.is_empty())
    }

    fn dice_shown(&self, events: &[SandboxEvent]) -> Option<Vec<crate::dice::Die>> {
        // Every roll is public: the `Rolled` events show every die.
        Some(
            events
                .iter()
                .filter_map(|e| match e {
                    SandboxEvent::Rolled(r) => Some(r),
                    _ => None,
                })
                .flat_map(|r| {
                    r.dice.iter().map(|&value| crate::dice::Die {
                        sides: r.sides,
                        value,
                    })
                })
                .collect(),
        )
    }

    /// Who may act, without listing what (issue 22): the default asks
    /// [`Ruleset::legal_actions`] for every seat, which builds every move
    /// of every piece (~10,000 instructions after each action of a table
    /// with pieces, under callgrind). A seat has something legal exactly
    /// when `legal_actions` would not be empty: the requested seat while a
    /// roll is asked for (nobody else), otherwise the seat whose turn it is
    /// under alternating turns, or every seat (a roll is always legal).
    /// The sandbox never ends.
    fn to_act(&self, state: &SandboxState) -> Vec<SeatId> {
        let seats = self.config.seats;
        match (&state.request, self.config.turn_order) {
            (Some(r), _) => vec![r.seat],
            (None, TurnOrder::Alternating) => vec![state.turn],
            (None, TurnOrder::Free) => (0..seats).map(SeatId).collect(),
        }
        .into_iter()
        // As the default, which asks only the table's seats.
        .filter(|s| s.0 < seats)
        .collect()
    }

    fn legal_actions(&self, state: &SandboxState, seat: SeatId) -> Vec<SandboxAction> {
        use SandboxAction as A;
        if state.request.is_some() {
            // Only the requested roll, and only by the requested seat.
            return self
                .pending(state)
                .into_iter()
                .filter(|p| p.seat == seat)
                .map(|p| p.default)
                .collect();
        }
        if self.config.turn_order == TurnOrder::Alternating && state.turn != seat {
            return Vec::new();
        }
        let mut out = vec![
            A::Roll {
                count: 2,
                sides: 6,
                note: "2d6".into(),
            },
            A::Roll {
                count: 1,
                sides: 10,
                note: String::new(),
            },
        ];
        if self.config.turn_order == TurnOrder::Alternating {
            out.push(A::EndTurn);
        }
        if self.config.seats > 1 {
            out.push(A::RequestRoll {
                seat: self.next_seat(seat),
                count: 1,
                sides: 6,
                note: "morale".into(),
            });
        }
        if state.pieces.len() < MAX_PIECES {
            let n = state.pieces.len();
            let at = Position {
                board: 0,
                loc: match self.config.boards[0].kind {
                    BoardKind::Hex { columns, rows } => Loc::Hex {
                        col: (n % usize::from(columns)) as u16,
                        row: (n / usize::from(columns) % usize::from(rows)) as u16,
                    },
                    BoardKind::Free { width, height } => Loc::Point {
                        x: (n as u32 * 37) % (width + 1),
                        y: (n as u32 * 53) % (height + 1),
                    },
                },
            };
            for hidden in [false, true] {
                out.push(A::Place {
                    at,
                    label: format!("piece {n}"),
                    owner: Some(seat),
                    face_up: true,
                    hidden,
                });
            }
        }
        let visible: Vec<&Piece> = state
            .pieces
            .values()
            .filter(|p| view::visible(p, Viewer::Seat(seat)))
            .collect();
        let mine = visible
            .iter()
            .filter(|p| p.owner.is_none() || p.owner == Some(seat))
            .take(50);
        for p in mine {
            let id = p.id;
            out.push(A::Flip { piece: id });
            out.push(A::Remove { piece: id });
            out.push(A::Reorder {
                piece: id,
                to_bottom: true,
            });
            if p.markers.len() < MAX_MARKERS && !p.markers.iter().any(|m| m == "pinned") {
                out.push(A::AddMarker {
                    piece: id,
                    marker: "pinned".into(),
                });
            }
            if let Some(m) = p.markers.first() {
                out.push(A::RemoveMarker {
                    piece: id,
                    marker: m.clone(),
                });
            }
            if p.owner == Some(seat) {
                out.push(if p.hidden {
                    A::Reveal { piece: id }
                } else {
                    A::Hide { piece: id }
                });
            }
            let stacked = visible.iter().filter(|q| q.at == p.at).count() >= 2;
            for loc in neighbours(p.at.loc) {
                let to = Position {
                    board: p.at.board,
                    loc,
                };
                if to == p.at || self.check_position(to).is_err() {
                    continue;
                }
                out.push(A::Move {
                    pieces: vec![id],
                    to,
                });
                if stacked && !visible.iter().any(|q| q.at == to) {
                    out.push(A::Unstack { piece: id, to });
                }
            }
            if let Some(other) = visible.iter().find(|q| q.id != id) {
                out.push(A::Stack {
                    pieces: vec![id],
                    onto: other.id,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
