//! Mutated actions at every state of a whole game: "no panic on anything a
//! client sends", at the level of the rules. A client may send any action
//! that decodes — a legal one with one byte changed names another counter,
//! a hex off the map, a path of strange length, another variant — and
//! `decide` must answer each with a refusal or with events that keep the
//! whole-game invariants, never a panic.
//!
//! The states are those of a game already played (`gbacw_whole_game::play`,
//! the biased day-2 games): its log is applied again, entry by entry, to a
//! fresh match, and before each entry the logged action is mutated and
//! offered to `decide` for both seats.

use crate::gbacw_match::GbacwGame;
use crate::gbacw_whole_game::check_invariants;
use crate::random_play::Chooser;
use muster_shared::SeatId;
use muster_shared::codec::{self, MAX_CLIENT_MSG};
use muster_shared::dice::DiceStream;
use muster_shared::engine::log::LogEntry;
use muster_shared::engine::{ActionContext, Dice, Ruleset};
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// Mutants offered per logged action.
const MUTANTS_PER_ACTION: usize = 3;
/// Longest the mutants of one game may take (debug build); past it the
/// rest of the log is applied without mutants, and the count says so.
const TIME_LIMIT: Duration = Duration::from_secs(40);

/// What the mutants of one game came to.
#[derive(Debug, Default)]
pub struct Mutants {
    /// Mutated bytes that decoded to an action and were offered.
    pub offered: usize,
    /// Of those, the ones `decide` accepted (their events kept the
    /// invariants).
    pub accepted: usize,
    /// Logged actions reached before the time limit.
    pub actions: usize,
}

/// Apply `played`'s log again to `fresh` (a new match of the same battle,
/// seed and chain length), offering mutants of each logged action first.
/// Panics, naming the state and the mutant, if `decide` panics or an
/// accepted mutant breaks an invariant.
pub fn offer_mutants(played: &GbacwGame, mut fresh: GbacwGame, seed: u64) -> Mutants {
    let mut ch = Chooser::new(seed ^ 0x6d75_7461_6e74);
    let mut out = Mutants::default();
    let started = Instant::now();
    let anchors = fresh.m.log().entries.len();
    for entry in &played.m.log().entries[anchors..] {
        let LogEntry::Action(record) = entry else {
            panic!("a chain ran out mid-game: size the chains for the game");
        };
        let action: GbacwAction =
            codec::decode(&record.action, MAX_CLIENT_MSG).expect("a logged action decodes");
        if started.elapsed() < TIME_LIMIT {
            out.actions += 1;
            let state = fresh.m.state().clone();
            for _ in 0..MUTANTS_PER_ACTION {
                let Some(mutant) = mutate(&mut ch, &state, &record.action) else {
                    continue;
                };
                out.offered += 1;
                let seat = SeatId(ch.below(2) as u8);
                if offer(fresh.m.ruleset(), &state, seat, &mutant) {
                    out.accepted += 1;
                }
            }
        }
        fresh
            .submit(record.seat, action, record.by_default)
            .expect("the logged action applies again");
    }
    out
}

/// Tries at a byte-level mutant that decodes before giving up on it.
const TRIES: usize = 8;

/// One changed copy of an encoded action that still decodes: half the time
/// a counter it names swapped for another piece of the battle (either
/// side's), else a byte set to a random value, to 0 or to 0xff, a cut, or
/// a stretch repeated (retried until it decodes, at most `TRIES` times).
fn mutate(ch: &mut Chooser, state: &GbacwState, bytes: &[u8]) -> Option<GbacwAction> {
    if ch.below(2) == 0
        && let Some(a) = swap_counter(ch, state, bytes)
    {
        return Some(a);
    }
    (0..TRIES).find_map(|_| {
        let mut b = bytes.to_vec();
        let at = ch.below(b.len().max(1));
        match ch.below(5) {
            0 if !b.is_empty() => b[at] = ch.below(256) as u8,
            1 if !b.is_empty() => b[at] = 0,
            2 if !b.is_empty() => b[at] = 0xff,
            3 => b.truncate(at),
            _ => {
                let end = (at + 1 + ch.below(8)).min(b.len());
                let stretch = b[at..end].to_vec();
                b.splice(at..at, stretch);
            }
        }
        codec::decode(&b, MAX_CLIENT_MSG).ok()
    })
}

/// The encoded action with the first counter id it names (as encoded)
/// replaced by a random piece's.
fn swap_counter(ch: &mut Chooser, state: &GbacwState, bytes: &[u8]) -> Option<GbacwAction> {
    let pieces: Vec<&CounterId> = state.units.keys().chain(state.leaders.keys()).collect();
    let named = pieces
        .iter()
        .map(|id| codec::encode_infallible(*id))
        .find_map(|enc| {
            let at = bytes.windows(enc.len()).position(|w| w == enc.as_slice())?;
            Some((at, enc.len()))
        })?;
    let other = codec::encode_infallible(pieces[ch.below(pieces.len())]);
    let mut b = bytes.to_vec();
    b.splice(named.0..named.0 + named.1, other);
    codec::decode(&b, MAX_CLIENT_MSG).ok()
}

/// `decide` on `action` for `seat`: `true` when accepted, after its events
/// are folded into a copy of the state and the invariants checked.
fn offer(rs: &Gbacw, state: &GbacwState, seat: SeatId, action: &GbacwAction) -> bool {
    let ctx = ActionContext {
        seat,
        seq: 1,
        by_default: false,
    };
    let decided = catch_unwind(AssertUnwindSafe(|| {
        let mut dice = Dice::from_stream(DiceStream::from_seed(b"muster mutant"));
        rs.decide(state, &ctx, action, &mut dice)
    }));
    let Ok(decided) = decided else {
        panic!(
            "decide panicked on {action:?} for seat {} at turn {} {:?}",
            seat.0, state.clock.turn, state.clock.step
        );
    };
    let Ok(events) = decided else {
        return false;
    };
    let mut after = state.clone();
    for e in &events {
        rs.evolve(&mut after, e);
    }
    check_invariants(rs, &after);
    true
}
