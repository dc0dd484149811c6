//! Replaying and verifying a match log.
//!
//! Two layers. The dice layer needs no ruleset: every anchor, every link,
//! every action digest and every die is checked against the derivation.
//! The rules layer replays the log through its ruleset: each action must
//! still be legal, roll exactly the logged dice, and produce events with the
//! logged digest. [`verify_log`] runs both and reports every failure with
//! its sequence number; [`replay`] rebuilds the state and stops at the first.

use super::game::{Match, is_pending_default, takeable};
use super::log::{LogEntry, MatchLog, events_digest};
use super::ruleset::{ActionContext, Dice, RuleError, Ruleset};
use super::take_back::UndoStack;
use crate::codec;
use crate::dice::{ChainBook, DiceStream, RollFailure};
use crate::gbacw::ruleset::Gbacw;
use crate::ids::Viewer;
use crate::sandbox::Sandbox;
use std::fmt;

/// One thing wrong with a log, at one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub seq: u64,
    /// The roll number, for failures in a roll.
    pub roll: Option<u64>,
    pub what: FailureKind,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FailureKind {
    #[error("{0}")]
    Dice(#[from] RollFailure),
    #[error("the action does not decode: {0}")]
    BadAction(String),
    #[error("the action is refused on replay: {0}")]
    Refused(RuleError),
    #[error("the ruleset rolls dice for this action but the log has no roll")]
    MissingRoll,
    #[error("the log has a roll for an action that rolls no dice")]
    UnexpectedRoll,
    #[error(
        "applied on the seat's behalf, but it is not the default of a decision pending on that seat"
    )]
    NotADefault,
    #[error("the events differ from the logged digest")]
    EventsDiffer,
    #[error("the log's config does not load: {0}")]
    BadConfig(String),
    #[error(
        "the log is for ruleset {0:?}, which this verifier does not know; only the dice were checked"
    )]
    UnknownRuleset(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.roll {
            Some(r) => write!(f, "entry {} (roll {}): {}", self.seq, r, self.what),
            None => write!(f, "entry {}: {}", self.seq, self.what),
        }
    }
}

/// What [`verify_log`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    pub entries: u64,
    pub actions: u64,
    pub rolls: u64,
    pub dice: u64,
    /// Whether the rules layer ran (the ruleset is known to this build).
    pub rules_checked: bool,
    pub failures: Vec<Failure>,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} entries, {} actions, {} rolls, {} dice; rules {}",
            self.entries,
            self.actions,
            self.rolls,
            self.dice,
            if self.rules_checked {
                "replayed"
            } else {
                "not replayed"
            }
        )?;
        if self.ok() {
            write!(f, "OK: every roll verifies")
        } else {
            for failure in &self.failures {
                writeln!(f, "FAIL {failure}")?;
            }
            write!(f, "{} failure(s)", self.failures.len())
        }
    }
}

/// Verify a log of any ruleset this build knows; for an unknown ruleset,
/// verify the dice and say the rules were not replayed.
pub fn verify_log(log: &MatchLog) -> VerifyReport {
    match log.header.ruleset.as_str() {
        Sandbox::ID => check::<Sandbox>(log).0,
        Gbacw::ID => check::<Gbacw>(log).0,
        other => {
            let mut report = check_dice(log);
            report.failures.push(Failure {
                seq: 0,
                roll: None,
                what: FailureKind::UnknownRuleset(other.to_string()),
            });
            report
        }
    }
}

/// Rebuild a match from an untrusted log, refusing it at the first failure.
pub fn replay<R: Ruleset>(log: &MatchLog) -> Result<Match<R>, Failure> {
    let (report, built) = check::<R>(log);
    match (report.failures.into_iter().next(), built) {
        (None, Some(m)) => Ok(m),
        (Some(f), _) => Err(f),
        (None, None) => unreachable!("check returns a match whenever it finds no failure"),
    }
}

/// The dice layer alone.
pub fn check_dice(log: &MatchLog) -> VerifyReport {
    let mut report = VerifyReport::default();
    let mut book = ChainBook::new();
    for (i, entry) in log.entries.iter().enumerate() {
        let seq = i as u64 + 1;
        report.entries += 1;
        match entry {
            LogEntry::Anchor { party, anchor } => {
                if let Err(e) = book.anchor(*party, *anchor) {
                    report.failures.push(Failure {
                        seq,
                        roll: None,
                        what: e.into(),
                    });
                }
            }
            LogEntry::Action(rec) => {
                report.actions += 1;
                if let Some(proof) = &rec.roll {
                    report.rolls += 1;
                    report.dice += proof.dice.len() as u64;
                    let actor = (!rec.by_default).then_some(rec.seat);
                    for e in
                        book.check_roll(log.header.match_id, seq, actor, Some(&rec.action), proof)
                    {
                        report.failures.push(Failure {
                            seq,
                            roll: Some(proof.roll_index),
                            what: e.into(),
                        });
                    }
                }
            }
            // Rolls nothing; the rules layer checks it.
            LogEntry::TakeBack { .. } => {}
        }
    }
    report
}

/// Both layers; also returns the rebuilt match when nothing failed.
fn check<R: Ruleset>(log: &MatchLog) -> (VerifyReport, Option<Match<R>>) {
    let mut report = check_dice(log);
    let fail = |report: &mut VerifyReport, seq, roll, what| {
        report.failures.push(Failure { seq, roll, what })
    };
    let config: R::Config = match R::decode_config(&log.header.config, codec::MAX_SERVER_MSG) {
        Ok(c) => c,
        Err(e) => {
            fail(&mut report, 0, None, FailureKind::BadConfig(e.to_string()));
            return (report, None);
        }
    };
    let ruleset = match R::new(&config) {
        Ok(r) => r,
        Err(e) => {
            fail(&mut report, 0, None, FailureKind::BadConfig(e.to_string()));
            return (report, None);
        }
    };
    report.rules_checked = true;
    let mut state = ruleset.initial_state();
    let mut book = ChainBook::new();
    let mut undo = UndoStack::default();
    let viewers: Vec<Viewer> = (0..ruleset.seats())
        .map(|s| Viewer::Seat(crate::ids::SeatId(s)))
        .chain([Viewer::Spectator])
        .collect();
    for (i, entry) in log.entries.iter().enumerate() {
        let seq = i as u64 + 1;
        let rec = match entry {
            LogEntry::Anchor { party, anchor } => {
                // Failures here were reported by the dice layer.
                let _ = book.anchor(*party, *anchor);
                continue;
            }
            LogEntry::TakeBack { seat, undone } => {
                // Issue 18: folded exactly as `Match::take_back` did.
                match undo.take_back(*seat, *undone) {
                    Ok(before) => state = before,
                    Err(e) => fail(&mut report, seq, None, FailureKind::Refused(e)),
                }
                continue;
            }
            LogEntry::Action(rec) => rec,
        };
        let roll_no = rec.roll.as_ref().map(|p| p.roll_index);
        let action: R::Action = match codec::decode(&rec.action, codec::MAX_CLIENT_MSG) {
            Ok(a) => a,
            Err(e) => {
                fail(
                    &mut report,
                    seq,
                    roll_no,
                    FailureKind::BadAction(e.to_string()),
                );
                continue;
            }
        };
        let ctx = ActionContext {
            seat: rec.seat,
            seq,
            by_default: rec.by_default,
        };
        if rec.by_default && !is_pending_default(&ruleset, &state, rec.seat, &rec.action) {
            fail(&mut report, seq, roll_no, FailureKind::NotADefault);
        }
        let rolls = ruleset.rolls_dice(&state, &ctx, &action);
        let mut dice = match (&rec.roll, rolls) {
            (Some(proof), true) => {
                let _ = book.check_roll(log.header.match_id, seq, None, None, proof);
                Dice::from_stream(DiceStream::new(&proof.input(log.header.match_id, seq)))
            }
            (None, false) => Dice::none(),
            (None, true) => {
                fail(&mut report, seq, roll_no, FailureKind::MissingRoll);
                continue;
            }
            (Some(_), false) => {
                fail(&mut report, seq, roll_no, FailureKind::UnexpectedRoll);
                continue;
            }
        };
        let events = match ruleset.decide(&state, &ctx, &action, &mut dice) {
            Ok(ev) => ev,
            Err(e) => {
                fail(&mut report, seq, roll_no, FailureKind::Refused(e));
                continue;
            }
        };
        if let Some(proof) = &rec.roll {
            let drawn = dice
                .into_stream()
                .map(|s| s.into_drawn())
                .unwrap_or_default();
            if drawn.len() != proof.dice.len() {
                fail(
                    &mut report,
                    seq,
                    roll_no,
                    RollFailure::DiceCountMismatch {
                        logged: proof.dice.len(),
                        derived: drawn.len(),
                    }
                    .into(),
                );
            }
            for (die, (logged, rolled)) in proof.dice.iter().zip(&drawn).enumerate() {
                if logged.sides != rolled.sides {
                    fail(
                        &mut report,
                        seq,
                        roll_no,
                        RollFailure::DieSidesMismatch {
                            die,
                            logged_sides: logged.sides,
                            derived_sides: rolled.sides,
                        }
                        .into(),
                    );
                }
            }
        }
        if events_digest(&codec::encode_infallible(&events)) != rec.events_digest {
            fail(&mut report, seq, roll_no, FailureKind::EventsDiffer);
        }
        // The undo point, kept exactly as `Match::apply` keeps it; the
        // state is copied only when the action may be taken back at all.
        let before = takeable(
            &ruleset,
            &state,
            &action,
            rec.roll.is_some(),
            rec.by_default,
            false,
        )
        .then(|| state.clone());
        let mut hidden = false;
        for e in &events {
            hidden |= viewers
                .iter()
                .any(|v| ruleset.view_event(&state, e, *v).as_ref() != Some(e));
            ruleset.evolve(&mut state, e);
        }
        match before {
            Some(before) if !hidden => undo.record(seq, rec.seat, before),
            _ => undo.clear(),
        }
    }
    report.failures.sort_by_key(|f| f.seq);
    let built = report
        .ok()
        .then(|| Match::from_parts(ruleset, state, log.clone(), book, undo));
    (report, built)
}
