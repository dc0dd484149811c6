//! A game continued from a saved one (issue 18): players who began a
//! battle at one machine (hot seat) carry it on at a server table.
//!
//! The new table's config carries the saved game's whole log. Its start
//! is the state that log ends in, found by replaying it through the rules
//! and every roll's proof (`engine::verify::replay`), so the position is
//! one the rules reached, not one typed in; every viewer and verifier of
//! the new table replays it the same way. The new table's own log then
//! begins empty, with fresh dice chains: the saved game's chains (whose
//! secrets the machine that saved it holds) play no part after the start.
//!
//! Refused in words: a log of another ruleset or of another battle or
//! readings than the table's, a log that does not replay, a game that has
//! ended, a game continued already (one level: the start is bounded by
//! one log), and a position with hidden information (Corinth's secret
//! plan not yet revealed): the log in the config is sent to everyone at
//! the table, spectators too, and would show it.

use super::{Gbacw, GbacwConfig, GbacwState, RuleCode, err};
use crate::codec::{self, DecodeError};
use crate::engine::{MatchLog, RuleError, Ruleset, verify};
use crate::ids::Viewer;
use std::sync::Arc;

/// What opens a config that continues a saved game; any other config is
/// the plain encoding of [`GbacwConfig`] (as every config before it).
pub const CONTINUED_MAGIC: &[u8; 8] = b"MUSTCONT";

/// The rule case named in a refusal.
const RULE: &str = "Continued game";

/// The config's bytes: plain, or the magic, then the config and the
/// saved game's log.
pub fn encode(config: &GbacwConfig) -> Vec<u8> {
    match &config.continued {
        None => codec::encode_infallible(config),
        Some(log) => {
            let mut out = CONTINUED_MAGIC.to_vec();
            out.extend(codec::encode_infallible(&(config, &**log)));
            out
        }
    }
}

/// Read what [`encode`] wrote.
pub fn decode(bytes: &[u8], limit: usize) -> Result<GbacwConfig, DecodeError> {
    match bytes.strip_prefix(CONTINUED_MAGIC.as_slice()) {
        None => codec::decode(bytes, limit),
        Some(body) => {
            let (mut config, log): (GbacwConfig, MatchLog) = codec::decode(body, limit)?;
            config.continued = Some(Arc::new(log));
            Ok(config)
        }
    }
}

/// A table continuing `saved` with `config`'s battle and readings: the
/// config the client sends (its `continued` set).
pub fn config_for(saved: &MatchLog) -> Result<GbacwConfig, RuleError> {
    let mut config = saved_config(saved)?;
    config.continued = Some(Arc::new(saved.clone()));
    Ok(config)
}

/// The config the saved game was played with.
fn saved_config(saved: &MatchLog) -> Result<GbacwConfig, RuleError> {
    if saved.header.ruleset != Gbacw::ID {
        return Err(err(
            RULE,
            RuleCode::Invalid,
            "the saved game is not a Great Battles of the American Civil War game",
        ));
    }
    // The decoder's own message is for developers (bincode prints its
    // error's `Debug` form); a player is told what it means.
    decode(&saved.header.config, codec::MAX_SERVER_MSG).map_err(|_| {
        err(
            RULE,
            RuleCode::Invalid,
            "the saved game's settings do not read: the file is damaged or from another version of Muster",
        )
    })
}

/// A replay failure in a player's words: which move, and why when the
/// rules refused it (their refusals are written for players); a roll
/// whose proof fails or an entry that does not decode means the file was
/// changed, and the checker's details (digests, dice lists) stay out.
fn replay_failure_in_words(f: &verify::Failure) -> String {
    let at = f.seq;
    match &f.what {
        verify::FailureKind::Refused(e) => {
            format!("the saved game does not replay: its entry {at} is refused ({e})")
        }
        _ => format!(
            "the saved game does not replay: its entry {at} was changed after the game was saved, or the file is damaged"
        ),
    }
}

/// The state `saved` ends in, as `rs`'s table starts: checked as the
/// module says.
pub fn start(rs: &Gbacw, saved: &MatchLog) -> Result<GbacwState, RuleError> {
    let own = saved_config(saved)?;
    if own.continued.is_some() {
        return Err(err(
            RULE,
            RuleCode::Invalid,
            "the saved game was itself continued from another; save it again at one table first",
        ));
    }
    let table = GbacwConfig {
        continued: None,
        ..rs.config().clone()
    };
    if own != table {
        return Err(err(
            RULE,
            RuleCode::Invalid,
            "the saved game was played with another battle or other readings than this table's",
        ));
    }
    let played = verify::replay::<Gbacw>(saved)
        .map_err(|f| err(RULE, RuleCode::Invalid, replay_failure_in_words(&f)))?;
    let state = played.state().clone();
    if rs.outcome(&state).is_some() {
        return Err(err(RULE, RuleCode::Invalid, "the saved game has ended"));
    }
    if rs.view(&state, Viewer::Spectator) != state {
        return Err(err(
            RULE,
            RuleCode::Invalid,
            "the saved game holds hidden information (a secret plan not yet revealed); \
             its log would show it to everyone at the table",
        ));
    }
    Ok(state)
}
