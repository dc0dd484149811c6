//! Saved hot-seat games (issue 18: "Continue a saved game"): a game at a
//! table in this process, put aside and continued later by the same
//! players on the same machine.
//!
//! A saved game is the match log (every action, every roll's proof) and
//! the secrets of the chains the machine held for that table: the
//! server's and each seat's, as [`super::LocalTable`] keeps them. The
//! players shared the machine, so the machine held those secrets anyway;
//! with them the rolls after the continuation are proved exactly as
//! before (a fresh server chain would be refused: the server may not
//! re-anchor before its chain is used up, `ChainBook::anchor`).
//!
//! Continuing replays the log through the rules and the dice checks
//! (`engine::verify::replay`), and each chain must match the anchor the
//! log published for it: a file changed by hand is refused in words,
//! never half-loaded.

use muster_shared::Hash32;
use muster_shared::codec;
use muster_shared::dice::Party;
use muster_shared::engine::MatchLog;
use std::path::{Path, PathBuf};

/// File magic of a saved game.
pub const SAVE_MAGIC: &[u8; 8] = b"MUSTSAV1";

/// How a saved game's file name ends.
pub const SAVE_EXT: &str = "muster-save";

/// At most this many saved games are listed (newest first).
pub const LIST_MAX: usize = 50;

/// One chain the machine held for the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedChain {
    pub party: Party,
    /// The chain's secret `x_N`, from which every link is rebuilt.
    pub secret: Hash32,
    pub len: u32,
}

/// A game saved to be continued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// What the list of saved games shows, in words ("Corinth, 3–4
    /// October 1862 — Game-Turn 3, Union Movement Phase").
    pub title: String,
    pub log: MatchLog,
    pub chains: Vec<SavedChain>,
}

/// The file's body after the magic: a tuple, so the client needs no
/// serde derive of its own (every part is a shared, derived type).
type Wire = (String, MatchLog, Vec<(Party, Hash32, u32)>);

/// Why a saved game could not be read, written or continued, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    #[error("{0} is not a saved Muster game")]
    NotASave(String),
    #[error("could not read {0}: {1}")]
    Read(String, String),
    #[error("could not save the game in {0}: {1}")]
    Write(String, String),
    #[error("the saved game cannot be continued: {0}")]
    Refused(String),
}

impl SavedGame {
    /// The file: magic, then the encoded game.
    pub fn to_file_bytes(&self) -> Vec<u8> {
        let chains: Vec<(Party, Hash32, u32)> = self
            .chains
            .iter()
            .map(|c| (c.party, c.secret, c.len))
            .collect();
        let wire: Wire = (self.title.clone(), self.log.clone(), chains);
        let mut out = SAVE_MAGIC.to_vec();
        out.extend(codec::encode_infallible(&wire));
        out
    }

    /// Read a file written by [`SavedGame::to_file_bytes`]; `name` names
    /// it in the refusal.
    pub fn from_file_bytes(bytes: &[u8], name: &str) -> Result<Self, SaveError> {
        let body = bytes
            .strip_prefix(SAVE_MAGIC.as_slice())
            .ok_or_else(|| SaveError::NotASave(name.to_string()))?;
        let (title, log, chains): Wire = codec::decode(body, codec::MAX_LOG_FILE)
            .map_err(|_| SaveError::NotASave(name.to_string()))?;
        Ok(SavedGame {
            title,
            log,
            chains: chains
                .into_iter()
                .map(|(party, secret, len)| SavedChain { party, secret, len })
                .collect(),
        })
    }

    /// Read the saved game at `path`.
    pub fn read(path: &Path) -> Result<Self, SaveError> {
        let name = file_name(path);
        let bytes =
            std::fs::read(path).map_err(|e| SaveError::Read(name.clone(), e.to_string()))?;
        Self::from_file_bytes(&bytes, &name)
    }

    /// Write it into `dir` (made if missing) under a new name; returns
    /// the file's path.
    pub fn write_into(&self, dir: &Path) -> Result<PathBuf, SaveError> {
        let shown = dir.display().to_string();
        std::fs::create_dir_all(dir).map_err(|e| SaveError::Write(shown.clone(), e.to_string()))?;
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        // Never over another saved game (bounded: a name a second, and a
        // hundred tries at most).
        for k in 0..100u32 {
            let path = dir.join(format!("game-{secs}-{k}.{SAVE_EXT}"));
            if path.exists() {
                continue;
            }
            std::fs::write(&path, self.to_file_bytes())
                .map_err(|e| SaveError::Write(shown.clone(), e.to_string()))?;
            return Ok(path);
        }
        Err(SaveError::Write(
            shown,
            "too many saved games this second".into(),
        ))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A saved game as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub path: PathBuf,
    pub title: String,
}

/// The saved games in `dir`, newest first (by the file's time), at most
/// [`LIST_MAX`]; files that are not saved games are left out. A missing
/// directory is an empty list.
pub fn list(dir: &Path) -> Vec<Listed> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == SAVE_EXT))
        .take(10 * LIST_MAX)
        .map(|p| {
            let at = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (at, p)
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found
        .into_iter()
        .filter_map(|(_, path)| {
            let game = SavedGame::read(&path).ok()?;
            Some(Listed {
                path,
                title: game.title,
            })
        })
        .take(LIST_MAX)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::MatchId;
    use muster_shared::engine::{LogHeader, SeatInfo};

    fn game() -> SavedGame {
        SavedGame {
            title: "Corinth — Game-Turn 3".into(),
            log: MatchLog::new(LogHeader {
                format: 1,
                match_id: MatchId::random(),
                ruleset: "gbacw".into(),
                config: vec![1, 2, 3],
                seats: vec![SeatInfo {
                    seat: muster_shared::SeatId(0),
                    name: "Union".into(),
                }],
            }),
            chains: vec![SavedChain {
                party: Party::Server,
                secret: Hash32([7; 32]),
                len: 4096,
            }],
        }
    }

    #[test]
    fn a_saved_game_reads_back_as_written() {
        let g = game();
        assert_eq!(
            SavedGame::from_file_bytes(&g.to_file_bytes(), "x").unwrap(),
            g
        );
    }

    #[test]
    fn anything_else_is_refused_in_words() {
        for bytes in [&b"hello"[..], b"MUSTSAV1", b"MUSTSAV1\xff\xff\xff"] {
            let e = SavedGame::from_file_bytes(bytes, "notes.txt").unwrap_err();
            assert_eq!(e.to_string(), "notes.txt is not a saved Muster game");
        }
    }

    #[test]
    fn written_games_are_listed_newest_first_and_strangers_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let mut g = game();
        let first = g.write_into(dir.path()).unwrap();
        g.title = "Corinth — Game-Turn 4".into();
        let second = g.write_into(dir.path()).unwrap();
        assert_ne!(first, second);
        std::fs::write(dir.path().join(format!("junk.{SAVE_EXT}")), b"no").unwrap();
        std::fs::write(dir.path().join("readme.txt"), b"no").unwrap();
        let listed = list(dir.path());
        assert_eq!(listed.len(), 2, "{listed:?}");
        assert!(listed.iter().any(|l| l.title == "Corinth — Game-Turn 4"));
        assert!(list(&dir.path().join("missing")).is_empty());
    }
}
