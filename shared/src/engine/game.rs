//! [`Match`]: one game in progress — a ruleset, its full state, the match log
//! and the public chain book — and the one path by which actions enter it.

use super::log::{ActionRecord, LogEntry, LogHeader, MatchLog, events_digest};
use super::ruleset::{ActionContext, Dice, RuleCode, RuleError, Ruleset};
use super::take_back::UndoStack;
use crate::codec;
use crate::dice::{
    ChainAnchor, ChainBook, DiceStream, HashChain, Party, RollFailure, RollProof, SeatLink,
    action_digest,
};
use crate::ids::{SeatId, Viewer};
use crate::protocol::{DeltaBody, Snapshot, TableId};

/// Why an action or anchor was not accepted into a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error("dice: {0}")]
    Dice(#[from] RollFailure),
    #[error("the server's chain is used up; publish a new server anchor")]
    ServerChainExhausted,
    #[error("the server's chain does not match its published anchor")]
    ServerChainMismatch,
}

/// An action as submitted for one seat.
#[derive(Clone, Debug)]
pub struct Submission<A> {
    pub seat: SeatId,
    pub action: A,
    /// Chain links revealed with the action: the actor's own, plus any other
    /// seat's mixed in. Ignored for actions that do not roll.
    pub seat_links: Vec<SeatLink>,
    /// The server applies a pending decision's default for `seat`.
    pub by_default: bool,
}

/// What one accepted action produced.
#[derive(Clone, Debug)]
pub struct Applied<R: Ruleset> {
    pub seq: u64,
    pub seat: SeatId,
    pub by_default: bool,
    /// The full events, as logged.
    pub events: Vec<R::Event>,
    /// The events each viewer may see: every seat in order, then [`Viewer::Spectator`].
    pub views: Vec<(Viewer, Vec<R::Event>)>,
    pub roll: Option<RollProof>,
}

impl<R: Ruleset> Applied<R> {
    /// The delta `viewer` receives for this action: only the events it may
    /// see, encoded, with the roll proof every viewer can check.
    pub fn delta_for(&self, viewer: Viewer) -> DeltaBody {
        let seen = self
            .views
            .iter()
            .find(|(v, _)| *v == viewer)
            .map(|(_, events)| codec::encode_infallible(events))
            .unwrap_or_else(|| codec::encode_infallible(&self.events));
        DeltaBody::Action {
            seat: self.seat,
            events: seen,
            roll: self.roll.clone(),
            by_default: self.by_default,
        }
    }
}

/// A take-back accepted into the log (issue 18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakenBack {
    /// The take-back's own sequence number.
    pub seq: u64,
    pub seat: SeatId,
    /// The action it undid.
    pub undone: u64,
}

impl TakenBack {
    /// The delta every viewer receives: the same for all.
    pub fn delta(&self) -> DeltaBody {
        DeltaBody::TakeBack {
            seat: self.seat,
            undone: self.undone,
        }
    }
}

/// Whether an applied action may later be taken back (issue 18): not if
/// it rolled, was applied by default, showed some viewer other events
/// than the full ones (hidden information), or the ruleset says no.
pub(crate) fn takeable<R: Ruleset>(
    ruleset: &R,
    state_before: &R::State,
    action: &R::Action,
    rolled: bool,
    by_default: bool,
    hidden: bool,
) -> bool {
    !rolled && !by_default && !hidden && ruleset.may_take_back(state_before, action)
}

/// Whether `action_bytes` is the default of a decision pending on `seat`:
/// the only actions the server may apply on a seat's behalf.
pub(crate) fn is_pending_default<R: Ruleset>(
    ruleset: &R,
    state: &R::State,
    seat: SeatId,
    action_bytes: &[u8],
) -> bool {
    ruleset
        .pending(state)
        .iter()
        .any(|p| p.seat == seat && codec::encode_infallible(&p.default) == action_bytes)
}

/// A game in progress.
pub struct Match<R: Ruleset> {
    ruleset: R,
    state: R::State,
    log: MatchLog,
    book: ChainBook,
    /// What may still be taken back (issue 18).
    undo: UndoStack<R::State>,
}

impl<R: Ruleset> Match<R> {
    /// A new match. `header.ruleset` and `header.config` are filled from `R`
    /// and `config`.
    pub fn new(header: LogHeader, config: &R::Config) -> Result<Self, RuleError> {
        Self::with_ruleset(header, config, R::new(config)?)
    }

    /// [`Match::new`] with the ruleset already built from `config` (a
    /// game continued from a saved one replays that game to build it:
    /// the server, which also needs its seat count, builds it once).
    pub fn with_ruleset(
        mut header: LogHeader,
        config: &R::Config,
        ruleset: R,
    ) -> Result<Self, RuleError> {
        if header.seats.len() != usize::from(ruleset.seats()) {
            return Err(RuleError::new(
                R::ID,
                RuleCode::Invalid,
                format!(
                    "this scenario has {} seats, the match lists {}",
                    ruleset.seats(),
                    header.seats.len()
                ),
            ));
        }
        header.ruleset = R::ID.to_string();
        header.config = R::encode_config(config);
        let state = ruleset.initial_state();
        Ok(Match {
            ruleset,
            state,
            log: MatchLog::new(header),
            book: ChainBook::new(),
            undo: UndoStack::default(),
        })
    }

    /// Rebuild a match from a stored log without re-checking it (the server
    /// restarting from its own database). Use [`super::verify::replay`] for
    /// untrusted logs.
    pub(crate) fn from_parts(
        ruleset: R,
        state: R::State,
        log: MatchLog,
        book: ChainBook,
        undo: UndoStack<R::State>,
    ) -> Self {
        Match {
            ruleset,
            state,
            log,
            book,
            undo,
        }
    }

    /// The action `seat` may take back now, by its sequence number
    /// (issue 18): its own last action, if nothing final came after.
    /// Refused in words when there is none.
    pub fn take_back_target(&self, seat: SeatId) -> Result<u64, RuleError> {
        self.undo.target(seat)
    }

    /// Take back `seat`'s last action: logged as its own entry, the state
    /// restored to what it was before that action. On a refusal nothing
    /// changes.
    pub fn take_back(&mut self, seat: SeatId) -> Result<TakenBack, MatchError> {
        self.check_seat(seat)?;
        let undone = self.undo.target(seat)?;
        self.state = self.undo.take_back(seat, undone)?;
        self.log.entries.push(LogEntry::TakeBack { seat, undone });
        Ok(TakenBack {
            seq: self.log.entries.len() as u64,
            seat,
            undone,
        })
    }

    pub fn ruleset(&self) -> &R {
        &self.ruleset
    }
    pub fn state(&self) -> &R::State {
        &self.state
    }
    pub fn log(&self) -> &MatchLog {
        &self.log
    }
    pub fn book(&self) -> &ChainBook {
        &self.book
    }
    pub fn next_seq(&self) -> u64 {
        self.log.next_seq()
    }

    /// The viewers every delta is redacted for: each seat, then spectators.
    pub fn viewers(&self) -> Vec<Viewer> {
        (0..self.ruleset.seats())
            .map(|s| Viewer::Seat(SeatId(s)))
            .chain([Viewer::Spectator])
            .collect()
    }

    /// What `viewer` may see of the current state.
    pub fn view(&self, viewer: Viewer) -> R::State {
        self.ruleset.view(&self.state, viewer)
    }

    /// Everything `viewer` needs to start following this match at `table`.
    pub fn snapshot(&self, table: TableId, viewer: Viewer) -> Snapshot {
        Snapshot {
            table,
            match_id: self.log.header.match_id,
            ruleset: R::ID.to_string(),
            config: self.log.header.config.clone(),
            seq: self.log.entries.len() as u64,
            state: codec::encode_infallible(&self.view(viewer)),
            chains: self.book.heads(),
            rolls: self.book.rolls(),
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator | Viewer::Referee => None,
            },
        }
    }

    /// The delta everyone receives for the log entry at `seq`, if it is an
    /// anchor or a take-back (both public); `None` for actions, whose deltas come
    /// from [`Applied::delta_for`].
    pub fn anchor_delta(&self, seq: u64) -> Option<DeltaBody> {
        match self.log.get(seq)? {
            LogEntry::Anchor { party, anchor } => Some(DeltaBody::Anchor {
                party: *party,
                anchor: *anchor,
            }),
            LogEntry::Action(_) => None,
            LogEntry::TakeBack { seat, undone } => Some(DeltaBody::TakeBack {
                seat: *seat,
                undone: *undone,
            }),
        }
    }

    /// Publish a chain anchor for the server or a seat; logged as its own entry.
    pub fn publish_anchor(&mut self, party: Party, anchor: ChainAnchor) -> Result<u64, MatchError> {
        if let Party::Seat(seat) = party {
            self.check_seat(seat)?;
        }
        self.book.anchor(party, anchor)?;
        self.log.entries.push(LogEntry::Anchor { party, anchor });
        Ok(self.log.entries.len() as u64)
    }

    /// Whether `action` by `seat` will roll dice (and so needs a link).
    pub fn rolls_dice(&self, seat: SeatId, action: &R::Action) -> bool {
        let ctx = ActionContext {
            seat,
            seq: self.next_seq(),
            by_default: false,
        };
        self.ruleset.rolls_dice(&self.state, &ctx, action)
    }

    fn check_seat(&self, seat: SeatId) -> Result<(), RuleError> {
        if seat.0 >= self.ruleset.seats() {
            return Err(RuleError::new(
                "engine",
                RuleCode::Invalid,
                format!("{seat} does not exist at this table"),
            ));
        }
        Ok(())
    }

    /// Validate, roll and apply one action. On any error nothing changes:
    /// not the state, not the log, not a chain.
    ///
    /// `server_chain` is the server's secret chain for this match; its next
    /// link is consumed only if the action rolls.
    pub fn apply(
        &mut self,
        sub: Submission<R::Action>,
        server_chain: &HashChain,
    ) -> Result<Applied<R>, MatchError> {
        self.check_seat(sub.seat)?;
        let seq = self.next_seq();
        let ctx = ActionContext {
            seat: sub.seat,
            seq,
            by_default: sub.by_default,
        };
        let action_bytes = codec::encode_infallible(&sub.action);
        if sub.by_default
            && !is_pending_default(&self.ruleset, &self.state, sub.seat, &action_bytes)
        {
            return Err(RuleError::new(
                "engine",
                RuleCode::Illegal,
                format!("{} has no pending decision with that default", sub.seat),
            )
            .into());
        }
        let rolls = guarded(|| Ok(self.ruleset.rolls_dice(&self.state, &ctx, &sub.action)))?;

        // Check every revealed link on a copy of the book; commit it only
        // once the action is accepted.
        let mut book = self.book.clone();
        let (mut dice, proof_base) = if rolls {
            let mut links = sub.seat_links.clone();
            links.sort_by_key(|l| l.seat);
            if links.windows(2).any(|w| w[0].seat == w[1].seat) {
                return Err(RuleError::new(
                    "dice",
                    RuleCode::DiceLink,
                    "one link per seat and roll",
                )
                .into());
            }
            if !sub.by_default && !links.iter().any(|l| l.seat == sub.seat) {
                return Err(RuleError::new(
                    "dice",
                    RuleCode::DiceLink,
                    "this action rolls dice: attach your next chain link",
                )
                .into());
            }
            for l in &links {
                self.check_seat(l.seat)?;
                book.reveal(Party::Seat(l.seat), l.index, l.link)?;
            }
            let server_index = book
                .next_index(Party::Server)
                .ok_or(RollFailure::NoAnchor {
                    party: Party::Server,
                })?;
            let server_link = server_chain
                .link(server_index)
                .ok_or(MatchError::ServerChainExhausted)?;
            book.reveal(Party::Server, server_index, server_link)
                .map_err(|_| MatchError::ServerChainMismatch)?;
            let proof = RollProof {
                roll_index: self.book.rolls() + 1,
                server_index,
                server_link,
                seat_links: links,
                action_digest: action_digest(&action_bytes),
                dice: Vec::new(),
            };
            let stream = DiceStream::new(&proof.input(self.log.header.match_id, seq));
            (Dice::from_stream(stream), Some(proof))
        } else {
            (Dice::none(), None)
        };

        let events = guarded(|| {
            self.ruleset
                .decide(&self.state, &ctx, &sub.action, &mut dice)
        })?;

        let roll = proof_base.map(|mut proof| {
            proof.dice = dice
                .into_stream()
                .map(|s| s.into_drawn())
                .unwrap_or_default();
            proof
        });
        if let Some(proof) = &roll {
            // Every link was revealed into `book` above and the dice were
            // drawn from this proof's own stream, so the verifier's full
            // check could only repeat that hashing (~5,000 instructions an
            // action, docs/server.md): count the roll. Debug builds (every
            // test) still run the verifier's check on a copy and require it
            // to find nothing and to leave the same book.
            book.count_revealed_roll(proof.roll_index);
            #[cfg(debug_assertions)]
            {
                let mut check = self.book.clone();
                let failures = check.check_roll(
                    self.log.header.match_id,
                    seq,
                    (!sub.by_default).then_some(sub.seat),
                    Some(&action_bytes),
                    proof,
                );
                debug_assert!(failures.is_empty(), "{failures:?}");
                debug_assert!(check == book, "the verifier's book differs");
            }
        }

        let viewers = self.viewers();
        let mut views: Vec<(Viewer, Vec<R::Event>)> =
            viewers.iter().map(|v| (*v, Vec::new())).collect();
        // The undo point, as the verifier keeps it: the state is copied
        // only when the action may be taken back at all (a roll, the
        // benchmark's move, never may; the copy was ~1,700 instructions).
        let before = takeable(
            &self.ruleset,
            &self.state,
            &sub.action,
            roll.is_some(),
            sub.by_default,
            false,
        )
        .then(|| self.state.clone());
        for event in &events {
            for (viewer, seen) in &mut views {
                if let Some(e) = self.ruleset.view_event(&self.state, event, *viewer) {
                    seen.push(e);
                }
            }
            self.ruleset.evolve(&mut self.state, event);
        }

        self.log.entries.push(LogEntry::Action(ActionRecord {
            seat: sub.seat,
            action: action_bytes,
            roll: roll.clone(),
            events_digest: events_digest(&codec::encode_infallible(&events)),
            by_default: sub.by_default,
        }));
        self.book = book;
        let hidden = views.iter().any(|(_, seen)| *seen != events);
        match before {
            Some(before) if !hidden => self.undo.record(seq, sub.seat, before),
            _ => self.undo.clear(),
        }
        Ok(Applied {
            seq,
            seat: sub.seat,
            by_default: sub.by_default,
            events,
            views,
            roll,
        })
    }
}

/// A ruleset's answer about a submitted action, with a panic in it (a
/// ruleset bug that the action's bytes found: any client can send any
/// action that decodes) turned into an `Internal` refusal. Both calls
/// guarded read the state without changing it, so a refusal leaves the
/// match exactly as it was and the room goes on serving; the panic's
/// message still reaches the log through the panic hook.
fn guarded<T>(ask: impl FnOnce() -> Result<T, RuleError>) -> Result<T, RuleError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(ask)).unwrap_or_else(|_| {
        Err(RuleError::new(
            "engine",
            RuleCode::Internal,
            "the rules engine failed on this action (a bug, logged on the server); nothing changed",
        ))
    })
}
