//! Type erasure for hosting several rulesets: a room holds a
//! `Box<dyn AnyMatch>` and talks to it in encoded bytes only, so the room,
//! the lobby and the transports never name a ruleset type.
//!
//! [`AnyMatch`] is implemented for [`Hosted<R>`], a `Match<R>` plus what the
//! server needs around it: the delayed spectator copy of the state. The
//! [`registry`] maps a ruleset id (`"sandbox"`, `"gbacw"`) to its constructors.

use muster_shared::Hash32;
use muster_shared::codec::{self, DecodeError};
use muster_shared::dice::{
    ActionRef, ChainAnchor, ChainHeadState, DiceStream, HashChain, LeanRoll, Party, RollProof,
    SeatLink, action_digest,
};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{
    ActionContext, Dice, LogEntry, LogHeader, Match, MatchError, MatchLog, Outcome, RuleCode,
    RuleError, Ruleset, SeatInfo, Submission, UndoStack, verify,
};
use muster_shared::gbacw::ruleset::Gbacw;
use muster_shared::protocol::DeltaBody;
use muster_shared::sandbox::Sandbox;
use muster_shared::{MatchId, SeatId, Viewer};
use std::collections::VecDeque;

/// Why an action was not applied.
#[derive(Debug, thiserror::Error)]
pub enum ActError {
    #[error("the action does not decode: {0}")]
    Decode(#[from] DecodeError),
    #[error(transparent)]
    Match(#[from] MatchError),
}

impl ActError {
    /// The refusal as a rule error a client can show; `None` for server faults.
    pub fn as_rule_error(&self) -> Option<RuleError> {
        match self {
            ActError::Decode(e) => {
                Some(RuleError::new("protocol", RuleCode::Invalid, e.to_string()))
            }
            ActError::Match(MatchError::Rule(e)) => Some(e.clone()),
            ActError::Match(MatchError::Dice(e)) => {
                Some(RuleError::new("dice", RuleCode::DiceLink, e.to_string()))
            }
            ActError::Match(_) => None,
        }
    }
}

/// One accepted entry, as every viewer class sees it.
pub struct AppliedEntry {
    pub seq: u64,
    /// One body per viewer class: each seat in order, then spectators.
    pub bodies: Vec<DeltaBody>,
    /// The entry as logged, encoded: what storage writes.
    pub logged: Vec<u8>,
    /// Whether this entry is an action (spectator delay counts actions).
    pub is_action: bool,
}

/// A pending decision with its default action encoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub seat: SeatId,
    pub rule: String,
    pub prompt: String,
    pub default: Vec<u8>,
    pub deadline_secs: u32,
}

/// A match of some ruleset, driven in bytes.
pub trait AnyMatch: Send {
    fn ruleset_id(&self) -> &'static str;
    fn header(&self) -> &LogHeader;
    fn log(&self) -> &MatchLog;
    fn seats(&self) -> u8;
    /// Sequence number of the last entry (0 before any).
    fn last_seq(&self) -> u64;
    /// Every chain's public head now, and the rolls so far.
    fn heads(&self) -> (Vec<ChainHeadState>, u64);
    /// Links the server has left in its current chain.
    fn server_links_left(&self) -> u32;
    fn publish_anchor(
        &mut self,
        party: Party,
        anchor: ChainAnchor,
    ) -> Result<AppliedEntry, MatchError>;
    /// Decode (bounded), validate, roll and apply one action.
    fn apply(
        &mut self,
        seat: SeatId,
        action: &[u8],
        links: Vec<SeatLink>,
        by_default: bool,
        server_chain: &HashChain,
    ) -> Result<AppliedEntry, ActError>;
    /// The current state as `viewer` (a seat or the referee) may see it, encoded.
    fn state_for(&self, viewer: Viewer) -> Vec<u8>;
    /// Fold spectator deltas up to `horizon` into the spectators' copy.
    fn advance_spectators(&mut self, horizon: u64);
    /// The spectators' copy (at the last horizon), encoded, with its seq.
    fn spectator_state(&self) -> (u64, Vec<u8>);
    fn pending(&self) -> Vec<Pending>;
    fn outcome(&self) -> Option<Outcome>;
    /// Whose clock runs now (club events, issue 21).
    fn clock_turn(&self) -> Option<muster_shared::engine::ClockTurn>;
    /// Where the game is, in words (club events' status cards, issue 21).
    fn progress(&self) -> Option<String>;
    /// Where the table began when not at the game's beginning, in words
    /// (`Ruleset::carried_from`), for the lobby.
    fn carried_from(&self) -> Option<String>;
    /// Seat 0's victory points less seat 1's, for a game that keeps them
    /// (the club standings' tie-break, issue 21).
    fn vp_margin(&self) -> Option<i32>;
    /// The last entries' delta bodies (one per viewer class) rebuilt by a
    /// restore, oldest first; empty afterwards and for a new match.
    fn take_restored_history(&mut self) -> Vec<(u64, Vec<DeltaBody>)>;
    /// Show spectators chain links only every `every` rolls, in the compact
    /// form (`DeltaBody::Lean`); 1 (the default) sends every proof whole.
    /// Set before the first action.
    fn set_reveal_every(&mut self, every: u32);
    /// Issue 18: the action `seat` may take back now, by its sequence
    /// number, or why none may be, in words.
    fn take_back_target(&self, seat: SeatId) -> Result<u64, RuleError>;
    /// Issue 18: take back `seat`'s last action (a log entry of its own).
    fn take_back(&mut self, seat: SeatId) -> Result<AppliedEntry, MatchError>;
    /// Issue 18: the seats the game waits on now.
    fn to_act(&self) -> Vec<SeatId>;
}

/// One entry waiting in the delayed spectators' queue.
enum SpecItem<E> {
    /// An action's events as spectators see them (`seat` is `None` for
    /// an anchor, which has none). `takeable`: it rolled nothing and was
    /// no default, so a later take-back may undo it.
    Entry {
        seat: Option<SeatId>,
        events: Vec<E>,
        takeable: bool,
    },
    TakeBack {
        seat: SeatId,
        undone: u64,
    },
}

impl<E> SpecItem<E> {
    fn anchor() -> Self {
        SpecItem::Entry {
            seat: None,
            events: Vec::new(),
            takeable: false,
        }
    }
}

/// Which chain links spectators have not been shown yet, for the compact
/// form (issue 22): one per party, its latest used link. Kept the same way
/// live and on restore, so a rebuilt delta is byte for byte the one sent.
#[derive(Default)]
struct Unshown {
    every: u32,
    links: std::collections::BTreeMap<Party, Hash32>,
}

impl Unshown {
    fn lean(&self) -> bool {
        self.every > 1
    }

    /// The compact proof of a roll: its links are noted, and every link not
    /// yet shown goes out with it when the roll's number is a multiple of
    /// `every` or the game is over (so a spectator checks every roll at most
    /// `every - 1` rolls late).
    fn roll(
        &mut self,
        proof: &RollProof,
        action: ActionRef,
        dice_shown: bool,
        finished: bool,
    ) -> LeanRoll {
        self.links.insert(Party::Server, proof.server_link);
        for l in &proof.seat_links {
            self.links.insert(Party::Seat(l.seat), l.link);
        }
        let reveal = if finished
            || proof
                .roll_index
                .is_multiple_of(u64::from(self.every.max(1)))
        {
            std::mem::take(&mut self.links).into_iter().collect()
        } else {
            Vec::new()
        };
        LeanRoll {
            action,
            seats: Some(proof.seat_links.iter().map(|l| l.seat).collect()),
            dice: (!dice_shown).then(|| proof.dice.clone()),
            reveal,
        }
    }

    /// The spectators' body for an anchor: it carries the party's last
    /// unshown link, if any, so the rolls on its old chain can be checked.
    fn anchor(&mut self, party: Party, anchor: ChainAnchor) -> DeltaBody {
        match self.links.remove(&party) {
            Some(last) if self.lean() => DeltaBody::Reanchor {
                party,
                anchor,
                last,
            },
            _ => DeltaBody::Anchor { party, anchor },
        }
    }
}

/// The spectators' compact body for an action. `roll`'s bytes, when the
/// spectators may see the action, are the *logged* ones: the canonical
/// encoding whose digest the proof carries, so a short action travels as
/// its bytes without hashing it again to make sure.
fn lean_body<R: Ruleset>(
    ruleset: &R,
    unshown: &mut Unshown,
    seat: SeatId,
    events: &[R::Event],
    roll: Option<(&RollProof, Option<&[u8]>)>,
    by_default: bool,
    finished: bool,
) -> DeltaBody {
    let roll = roll.map(|(p, action)| {
        let action = match action {
            // The events tell the action whole: the viewer rebuilds it.
            Some(bytes)
                if ruleset
                    .action_from_events(seat, events)
                    .is_some_and(|a| codec::encode_infallible(&a) == bytes) =>
            {
                ActionRef::FromEvents
            }
            Some(bytes) if bytes.len() < 33 => {
                debug_assert_eq!(
                    action_digest(bytes),
                    p.action_digest,
                    "not the logged bytes"
                );
                ActionRef::Bytes(bytes.to_vec())
            }
            _ => ActionRef::Digest(p.action_digest),
        };
        let shown = ruleset.dice_shown(events).is_some_and(|d| d == p.dice);
        let mut lean = unshown.roll(p, action, shown, finished);
        if lean.seats.as_deref() == Some(&[seat][..]) {
            // Only the actor's link was mixed in: the viewer knows who acted.
            lean.seats = None;
        }
        lean
    });
    DeltaBody::Lean {
        seat,
        events: codec::encode_infallible(events),
        roll,
        by_default,
    }
}

/// A `Match<R>` as the server hosts it.
pub struct Hosted<R: Ruleset> {
    m: Match<R>,
    /// What spectators see, `spec_seq` entries in (behind by the table's delay).
    spec_state: R::State,
    spec_seq: u64,
    /// Spectator views of entries past `spec_seq`, not yet released.
    spec_queue: VecDeque<(u64, SpecItem<R::Event>)>,
    /// The spectators' copy before each action a take-back may still undo.
    spec_undo: UndoStack<R::State>,
    /// Delta bodies rebuilt on restore, until the room takes them.
    restored: Vec<(u64, Vec<DeltaBody>)>,
    /// Links not yet shown to spectators (compact form).
    unshown: Unshown,
}

impl<R: Ruleset> Hosted<R> {
    /// A new match for `config` (encoded); seats are named by position until
    /// the lobby binds them (the log header is fixed when the match starts).
    pub fn create(config: &[u8], match_id: MatchId) -> Result<Self, RuleError> {
        let config: R::Config = R::decode_config(config, codec::MAX_CLIENT_MSG)
            .map_err(|e| RuleError::new("config", RuleCode::Invalid, e.to_string()))?;
        // Built once: a continued game's start is a replay of its saved log.
        let ruleset = R::new(&config)?;
        let seats = ruleset.seats();
        let header = LogHeader {
            format: LOG_FORMAT,
            match_id,
            ruleset: String::new(),
            config: Vec::new(),
            seats: (0..seats)
                .map(|s| SeatInfo {
                    seat: SeatId(s),
                    name: format!("seat {}", s + 1),
                })
                .collect(),
        };
        let m = Match::<R>::with_ruleset(header, &config, ruleset)?;
        let spec_state = m.view(Viewer::Spectator);
        Ok(Hosted {
            m,
            spec_state,
            spec_seq: 0,
            spec_queue: VecDeque::new(),
            spec_undo: UndoStack::default(),
            restored: Vec::new(),
            unshown: Unshown::default(),
        })
    }

    /// Rebuild from a stored log, with spectators at `horizon` (their delay
    /// survives a restart: they are not shown what they had not yet seen),
    /// and the delta bodies of the last `window` entries for every viewer
    /// class, so a client behind gets the deltas it missed, not a snapshot
    /// (taken once with [`AnyMatch::take_restored_history`]).
    pub fn restore(
        log: &MatchLog,
        horizon: u64,
        window: usize,
        reveal_every: u32,
    ) -> Result<Self, String> {
        // The whole log is checked (rules and every roll) first.
        let m = verify::replay::<R>(log).map_err(|f| f.to_string())?;
        let n = log.entries.len();
        let horizon = usize::try_from(horizon).unwrap_or(usize::MAX).min(n);
        let from = n.saturating_sub(window);
        let viewers = m.viewers();
        let ruleset = m.ruleset();
        // Then re-decided exactly as replay did, on a second copy of the
        // state: the spectators' copy is taken at the horizon, and the
        // events of each entry past it (or in the window) are redacted for
        // the viewers as `Match::apply` does.
        let mut state = ruleset.initial_state();
        let mut undo: UndoStack<R::State> = UndoStack::default();
        let mut spec_undo = None;
        let mut spec_state = None;
        let mut spec_queue = VecDeque::new();
        let mut history = Vec::new();
        let mut unshown = Unshown {
            every: reveal_every,
            ..Unshown::default()
        };
        for (i, entry) in log.entries.iter().enumerate() {
            let seq = i as u64 + 1;
            if i == horizon {
                spec_state = Some(ruleset.view(&state, Viewer::Spectator));
                spec_undo = Some(undo.map(|s| ruleset.view(s, Viewer::Spectator)));
            }
            let wanted = i >= horizon || i >= from;
            let rec = match entry {
                LogEntry::TakeBack { seat, undone } => {
                    // Issue 18: folded as `Match::take_back` did (replay
                    // above has checked it).
                    state = undo.take_back(*seat, *undone).map_err(|e| e.to_string())?;
                    if i >= horizon {
                        spec_queue.push_back((
                            seq,
                            SpecItem::TakeBack {
                                seat: *seat,
                                undone: *undone,
                            },
                        ));
                    }
                    if i >= from {
                        let body = DeltaBody::TakeBack {
                            seat: *seat,
                            undone: *undone,
                        };
                        history.push((seq, vec![body; viewers.len()]));
                    }
                    continue;
                }
                LogEntry::Anchor { party, anchor } => {
                    if i >= horizon {
                        spec_queue.push_back((seq, SpecItem::anchor()));
                    }
                    let spectators = unshown.anchor(*party, *anchor);
                    if i >= from {
                        let body = DeltaBody::Anchor {
                            party: *party,
                            anchor: *anchor,
                        };
                        let mut bodies = vec![body; viewers.len()];
                        if let Some(last) = bodies.last_mut() {
                            *last = spectators;
                        }
                        history.push((seq, bodies));
                    }
                    continue;
                }
                LogEntry::Action(rec) => rec,
            };
            let action: R::Action =
                codec::decode(&rec.action, codec::MAX_CLIENT_MSG).map_err(|e| e.to_string())?;
            let ctx = ActionContext {
                seat: rec.seat,
                seq,
                by_default: rec.by_default,
            };
            let mut dice = match &rec.roll {
                Some(p) => Dice::from_stream(DiceStream::new(&p.input(log.header.match_id, seq))),
                None => Dice::none(),
            };
            let visible =
                unshown.lean() && ruleset.action_visible(&state, &action, Viewer::Spectator);
            let events = ruleset
                .decide(&state, &ctx, &action, &mut dice)
                .map_err(|e| e.to_string())?;
            // The same undo points as `Match::apply` keeps (the take-backs
            // later in the log need them): hidden information is judged
            // event by event on the evolving state, as there.
            let may =
                rec.roll.is_none() && !rec.by_default && ruleset.may_take_back(&state, &action);
            let before = may.then(|| state.clone());
            let mut hidden = false;
            let mut hides = |state: &R::State, e: &R::Event| {
                if may {
                    hidden |= viewers
                        .iter()
                        .any(|v| ruleset.view_event(state, e, *v).as_ref() != Some(e));
                }
            };
            if !wanted {
                for e in &events {
                    hides(&state, e);
                    ruleset.evolve(&mut state, e);
                }
                match before {
                    Some(b) if !hidden => undo.record(seq, rec.seat, b),
                    _ => undo.clear(),
                }
                if let (true, Some(p)) = (unshown.lean(), &rec.roll) {
                    // Only the links matter here: which are still unshown.
                    let finished = ruleset.outcome(&state).is_some();
                    unshown.roll(p, ActionRef::Digest(p.action_digest), false, finished);
                }
                continue;
            }
            let mut views: Vec<Vec<R::Event>> = vec![Vec::new(); viewers.len()];
            for e in &events {
                hides(&state, e);
                for (v, seen) in viewers.iter().zip(&mut views) {
                    if let Some(e) = ruleset.view_event(&state, e, *v) {
                        seen.push(e);
                    }
                }
                ruleset.evolve(&mut state, e);
            }
            match before {
                Some(b) if !hidden => undo.record(seq, rec.seat, b),
                _ => undo.clear(),
            }
            let spectators = unshown.lean().then(|| {
                let finished = ruleset.outcome(&state).is_some();
                lean_body(
                    ruleset,
                    &mut unshown,
                    rec.seat,
                    views.last().map_or(&[][..], Vec::as_slice),
                    rec.roll
                        .as_ref()
                        .map(|p| (p, visible.then_some(rec.action.as_slice()))),
                    rec.by_default,
                    finished,
                )
            });
            if i >= from {
                let mut bodies: Vec<DeltaBody> = views
                    .iter()
                    .map(|events| DeltaBody::Action {
                        seat: rec.seat,
                        events: codec::encode_infallible(events),
                        roll: rec.roll.clone(),
                        by_default: rec.by_default,
                    })
                    .collect();
                if let (Some(body), Some(last)) = (spectators, bodies.last_mut()) {
                    *last = body;
                }
                history.push((seq, bodies));
            }
            if i >= horizon {
                let spectator = views.pop().unwrap_or_default();
                spec_queue.push_back((
                    seq,
                    SpecItem::Entry {
                        seat: Some(rec.seat),
                        events: spectator,
                        takeable: rec.roll.is_none() && !rec.by_default,
                    },
                ));
            }
        }
        let spec_state = spec_state.unwrap_or_else(|| ruleset.view(&state, Viewer::Spectator));
        let spec_undo =
            spec_undo.unwrap_or_else(|| undo.map(|s| ruleset.view(s, Viewer::Spectator)));
        Ok(Hosted {
            m,
            spec_state,
            spec_seq: horizon as u64,
            spec_queue,
            spec_undo,
            restored: history,
            unshown,
        })
    }

    fn logged(&self, seq: u64) -> Vec<u8> {
        self.m
            .log()
            .get(seq)
            .map(codec::encode_infallible)
            .unwrap_or_default()
    }
}

impl<R: Ruleset> AnyMatch for Hosted<R> {
    fn ruleset_id(&self) -> &'static str {
        R::ID
    }
    fn header(&self) -> &LogHeader {
        &self.m.log().header
    }
    fn log(&self) -> &MatchLog {
        self.m.log()
    }
    fn seats(&self) -> u8 {
        self.m.ruleset().seats()
    }
    fn last_seq(&self) -> u64 {
        self.m.next_seq() - 1
    }
    fn heads(&self) -> (Vec<ChainHeadState>, u64) {
        (self.m.book().heads(), self.m.book().rolls())
    }
    fn server_links_left(&self) -> u32 {
        self.m.book().remaining(Party::Server)
    }

    fn publish_anchor(
        &mut self,
        party: Party,
        anchor: ChainAnchor,
    ) -> Result<AppliedEntry, MatchError> {
        let seq = self.m.publish_anchor(party, anchor)?;
        self.spec_queue.push_back((seq, SpecItem::anchor()));
        let body = DeltaBody::Anchor { party, anchor };
        let mut bodies = vec![body; usize::from(self.seats()) + 1];
        if let Some(last) = bodies.last_mut() {
            *last = self.unshown.anchor(party, anchor);
        }
        Ok(AppliedEntry {
            seq,
            bodies,
            logged: self.logged(seq),
            is_action: false,
        })
    }

    fn apply(
        &mut self,
        seat: SeatId,
        action: &[u8],
        links: Vec<SeatLink>,
        by_default: bool,
        server_chain: &HashChain,
    ) -> Result<AppliedEntry, ActError> {
        let action: R::Action = codec::decode(action, codec::MAX_CLIENT_MSG)?;
        let visible = self.unshown.lean()
            && self
                .m
                .ruleset()
                .action_visible(self.m.state(), &action, Viewer::Spectator);
        let applied = self.m.apply(
            Submission {
                seat,
                action,
                seat_links: links,
                by_default,
            },
            server_chain,
        )?;
        // The spectators' compact body (protocol 4), built first so the
        // full body it replaces is never made (nor copied).
        let spectator = self
            .unshown
            .lean()
            .then(|| {
                applied
                    .views
                    .iter()
                    .position(|(v, _)| *v == Viewer::Spectator)
            })
            .flatten();
        let mut lean = spectator.map(|i| {
            let finished = self.m.ruleset().outcome(self.m.state()).is_some();
            // The logged bytes, not the client's: a client may send a
            // non-canonical encoding of the same action (lean_body).
            let logged = match self.m.log().entries.last() {
                Some(LogEntry::Action(rec)) => Some(rec.action.as_slice()),
                _ => None,
            };
            lean_body(
                self.m.ruleset(),
                &mut self.unshown,
                seat,
                &applied.views[i].1,
                applied
                    .roll
                    .as_ref()
                    .map(|p| (p, logged.filter(|_| visible))),
                by_default,
                finished,
            )
        });
        // One encoding per distinct view: classes that see the same events
        // get equal bodies, and the room encodes equal bodies into one frame.
        let mut bodies: Vec<DeltaBody> = Vec::with_capacity(applied.views.len());
        for (i, (_, events)) in applied.views.iter().enumerate() {
            if Some(i) == spectator
                && let Some(body) = lean.take()
            {
                bodies.push(body);
                continue;
            }
            let same = applied.views[..i]
                .iter()
                .enumerate()
                .position(|(j, (_, e))| Some(j) != spectator && e == events);
            let body = match same.and_then(|j| bodies.get(j)) {
                Some(b) => b.clone(),
                None => DeltaBody::Action {
                    seat,
                    events: codec::encode_infallible(events),
                    roll: applied.roll.clone(),
                    by_default,
                },
            };
            bodies.push(body);
        }
        let spectator_events = applied
            .views
            .into_iter()
            .find(|(v, _)| *v == Viewer::Spectator)
            .map(|(_, e)| e)
            .unwrap_or_default();
        self.spec_queue.push_back((
            applied.seq,
            SpecItem::Entry {
                seat: Some(seat),
                events: spectator_events,
                takeable: applied.roll.is_none() && !by_default,
            },
        ));
        Ok(AppliedEntry {
            seq: applied.seq,
            bodies,
            logged: self.logged(applied.seq),
            is_action: true,
        })
    }

    fn state_for(&self, viewer: Viewer) -> Vec<u8> {
        codec::encode_infallible(&self.m.view(viewer))
    }

    fn advance_spectators(&mut self, horizon: u64) {
        while let Some((seq, _)) = self.spec_queue.front() {
            if *seq > horizon {
                break;
            }
            match self.spec_queue.pop_front() {
                Some((
                    seq,
                    SpecItem::Entry {
                        seat,
                        events,
                        takeable,
                    },
                )) => {
                    // The spectators' undo point, copied only when the
                    // action may be taken back (a roll never may).
                    match seat {
                        Some(seat) if takeable => {
                            self.spec_undo.record(seq, seat, self.spec_state.clone())
                        }
                        Some(_) => self.spec_undo.clear(),
                        None => {}
                    }
                    for e in &events {
                        self.m.ruleset().evolve(&mut self.spec_state, e);
                    }
                    self.spec_seq = seq;
                }
                Some((seq, SpecItem::TakeBack { seat, undone })) => {
                    // The server accepted it, so the point is there.
                    if let Ok(before) = self.spec_undo.take_back(seat, undone) {
                        self.spec_state = before;
                    }
                    self.spec_seq = seq;
                }
                None => {}
            }
        }
    }

    fn spectator_state(&self) -> (u64, Vec<u8>) {
        (self.spec_seq, codec::encode_infallible(&self.spec_state))
    }

    fn pending(&self) -> Vec<Pending> {
        self.m
            .ruleset()
            .pending(self.m.state())
            .into_iter()
            .map(|p| Pending {
                seat: p.seat,
                rule: p.rule,
                prompt: p.prompt,
                default: codec::encode_infallible(&p.default),
                deadline_secs: p.deadline_secs,
            })
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.m.ruleset().outcome(self.m.state())
    }

    fn clock_turn(&self) -> Option<muster_shared::engine::ClockTurn> {
        self.m.ruleset().clock_turn(self.m.state())
    }

    fn progress(&self) -> Option<String> {
        self.m.ruleset().progress(self.m.state())
    }

    fn carried_from(&self) -> Option<String> {
        self.m.ruleset().carried_from()
    }

    fn vp_margin(&self) -> Option<i32> {
        crate::club::margin::vp_margin(self.m.ruleset(), self.m.state())
    }

    fn take_restored_history(&mut self) -> Vec<(u64, Vec<DeltaBody>)> {
        std::mem::take(&mut self.restored)
    }
    fn set_reveal_every(&mut self, every: u32) {
        self.unshown.every = every;
    }

    fn take_back_target(&self, seat: SeatId) -> Result<u64, RuleError> {
        self.m.take_back_target(seat)
    }

    fn take_back(&mut self, seat: SeatId) -> Result<AppliedEntry, MatchError> {
        let taken = self.m.take_back(seat)?;
        self.spec_queue.push_back((
            taken.seq,
            SpecItem::TakeBack {
                seat,
                undone: taken.undone,
            },
        ));
        Ok(AppliedEntry {
            seq: taken.seq,
            bodies: vec![taken.delta(); usize::from(self.seats()) + 1],
            logged: self.logged(taken.seq),
            is_action: false,
        })
    }

    fn to_act(&self) -> Vec<SeatId> {
        self.m.ruleset().to_act(self.m.state())
    }
}

/// Builds a new match from an encoded config.
pub type CreateFn = fn(&[u8], MatchId) -> Result<Box<dyn AnyMatch>, RuleError>;
/// Rebuilds a match from its log, spectators at the given horizon, with the
/// delta bodies of the last so many entries.
/// The last argument is `reveal_every` (see [`AnyMatch::set_reveal_every`]).
pub type RestoreFn = fn(&MatchLog, u64, usize, u32) -> Result<Box<dyn AnyMatch>, String>;

/// How to build and rebuild matches of one ruleset.
pub struct RulesetEntry {
    pub id: &'static str,
    pub create: CreateFn,
    pub restore: RestoreFn,
}

fn create<R: Ruleset>(config: &[u8], id: MatchId) -> Result<Box<dyn AnyMatch>, RuleError> {
    Ok(Box::new(Hosted::<R>::create(config, id)?))
}

fn restore<R: Ruleset>(
    log: &MatchLog,
    horizon: u64,
    window: usize,
    reveal_every: u32,
) -> Result<Box<dyn AnyMatch>, String> {
    Ok(Box::new(Hosted::<R>::restore(
        log,
        horizon,
        window,
        reveal_every,
    )?))
}

const fn entry<R: Ruleset>() -> RulesetEntry {
    RulesetEntry {
        id: R::ID,
        create: create::<R>,
        restore: restore::<R>,
    }
}

/// Every ruleset this server hosts. Adding one is one line here.
static REGISTRY: &[RulesetEntry] = &[entry::<Sandbox>(), entry::<Gbacw>()];

/// The constructors for ruleset `id`, if this server hosts it.
pub fn registry(id: &str) -> Option<&'static RulesetEntry> {
    REGISTRY.iter().find(|e| e.id == id)
}
