//! The match log: append-only, ruleset-independent, enough to replay the
//! game and to verify every roll. Actions are kept as their encoded bytes so
//! the dice checks need no ruleset and the digests are over exact bytes.

use crate::codec;
use crate::dice::{ChainAnchor, Party, RollProof};
use crate::ids::{Hash32, MatchId, SeatId};
use serde::{Deserialize, Serialize};

/// Bumped whenever the log's layout changes.
pub const LOG_FORMAT: u32 = 1;

/// File magic for a log written by [`MatchLog::to_file_bytes`].
pub const LOG_MAGIC: &[u8; 8] = b"MUSTLOG1";

/// blake3 derive-key context for event digests.
pub const EVENTS_CONTEXT: &str = "muster events v1";

/// One seat as the match began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: SeatId,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogHeader {
    pub format: u32,
    pub match_id: MatchId,
    /// [`crate::engine::Ruleset::ID`] of the ruleset that plays this log.
    pub ruleset: String,
    /// The ruleset's `Config`, encoded.
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    pub seats: Vec<SeatInfo>,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub seat: SeatId,
    /// The ruleset's `Action`, encoded.
    #[serde(with = "serde_bytes")]
    pub action: Vec<u8>,
    /// Present when the action rolled dice.
    pub roll: Option<RollProof>,
    /// Digest of the encoded full (unredacted) events.
    pub events_digest: Hash32,
    /// The server applied a pending decision's default for this seat.
    pub by_default: bool,
}

/// Entries get sequence numbers 1, 2, 3, … by position: the room's delta
/// sequence numbers are the same numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogEntry {
    /// A party publishes (or replaces) its chain anchor.
    Anchor {
        party: Party,
        anchor: ChainAnchor,
    },
    Action(ActionRecord),
    /// Issue 18: `seat` takes back its own action logged at `undone`, the
    /// last one still standing. Nothing is deleted: folding the log
    /// restores the state from before `undone`, and [`super::verify`]
    /// replays it the same way. Valid only while that action is the
    /// latest standing one, was `seat`'s, rolled no dice, revealed no
    /// hidden information, was not applied by default, and the ruleset
    /// lets it be taken back ([`crate::engine::Ruleset::may_take_back`]).
    /// Appended: variant numbers are the layout.
    TakeBack {
        seat: SeatId,
        undone: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchLog {
    pub header: LogHeader,
    pub entries: Vec<LogEntry>,
}

impl MatchLog {
    pub fn new(header: LogHeader) -> Self {
        MatchLog {
            header,
            entries: Vec::new(),
        }
    }

    /// Sequence number the next entry will get.
    pub fn next_seq(&self) -> u64 {
        self.entries.len() as u64 + 1
    }

    /// The entry at sequence number `seq`.
    pub fn get(&self, seq: u64) -> Option<&LogEntry> {
        seq.checked_sub(1)
            .and_then(|i| self.entries.get(usize::try_from(i).ok()?))
    }

    /// The log as a file: magic, then one encoded `MatchLog`.
    pub fn to_file_bytes(&self) -> Vec<u8> {
        let mut out = LOG_MAGIC.to_vec();
        out.extend(codec::encode_infallible(self));
        out
    }

    /// Read a log file written by [`MatchLog::to_file_bytes`].
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Self, codec::DecodeError> {
        let body = bytes.strip_prefix(LOG_MAGIC.as_slice()).ok_or_else(|| {
            codec::DecodeError::Malformed("not a Muster match log (bad magic)".into())
        })?;
        codec::decode(body, codec::MAX_LOG_FILE)
    }
}

/// The digest recorded for an action's full event list.
pub fn events_digest(encoded_events: &[u8]) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(EVENTS_CONTEXT);
    h.update(encoded_events);
    h.finalize().into()
}
