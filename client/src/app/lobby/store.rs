//! What the client remembers between runs, as small text files in its
//! config directory (`$MUSTER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/muster`,
//! else `~/.config/muster`):
//!
//! - `sessions.txt`: one line per server, `URL TOKEN`: the session token
//!   of the identity signed in there, so the next start resumes it
//!   (`Resume`) instead of becoming a new guest. Written owner-only.
//! - `known_servers.txt`: one line per QUIC server, `HOST:PORT SHA256`:
//!   the certificate fingerprint seen the first time (trust on first use).
//!   A server that later shows another certificate is refused until the
//!   line is removed by hand.
//!
//! Both files are `key value` lines so a person can read and edit them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why the stored files could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("no config directory: set MUSTER_CONFIG_DIR or HOME")]
    NoDir,
}

/// The certificate a server showed is not the one pinned on first use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "REFUSED: the server at {host} shows certificate {got}, but {pinned} was pinned when you \
     first connected. Someone may be impersonating it. If the server's operator really \
     changed its certificate, remove the line for {host} from {file} and connect again."
)]
pub struct FingerprintChanged {
    pub host: String,
    pub pinned: String,
    pub got: String,
    pub file: String,
}

/// The client's files in one directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

const SESSIONS: &str = "sessions.txt";
const KNOWN: &str = "known_servers.txt";

impl Store {
    /// The files in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Store { dir: dir.into() }
    }

    /// The user's config directory (see the module docs).
    pub fn default_dir() -> Result<PathBuf, StoreError> {
        if let Some(d) = std::env::var_os("MUSTER_CONFIG_DIR") {
            return Ok(PathBuf::from(d));
        }
        if let Some(d) = std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
            return Ok(PathBuf::from(d).join("muster"));
        }
        std::env::var_os("HOME")
            .map(|h| PathBuf::from(h).join(".config").join("muster"))
            .ok_or(StoreError::NoDir)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stored session token for `url`, if any.
    pub fn token(&self, url: &str) -> Option<String> {
        self.read(SESSIONS).remove(url)
    }

    /// Keep `token` for `url` (replacing an older one).
    pub fn save_token(&self, url: &str, token: &str) -> Result<(), StoreError> {
        let mut all = self.read(SESSIONS);
        all.insert(url.to_string(), token.to_string());
        self.write(SESSIONS, &all)
    }

    /// Forget the token for `url` (the server no longer knows it).
    pub fn forget_token(&self, url: &str) -> Result<(), StoreError> {
        let mut all = self.read(SESSIONS);
        if all.remove(url).is_some() {
            self.write(SESSIONS, &all)?;
        }
        Ok(())
    }

    /// The fingerprint pinned for `host` (`host:port`), if any.
    pub fn pinned(&self, host: &str) -> Option<String> {
        self.read(KNOWN).remove(host)
    }

    /// Check `got` against the pin for `host`; pin it when there is none
    /// (trust on first use). Returns whether it was pinned just now.
    pub fn check_or_pin(&self, host: &str, got: &str) -> Result<bool, TrustError> {
        let got = normalise(got);
        match self.pinned(host) {
            Some(pinned) if normalise(&pinned) == got => Ok(false),
            Some(pinned) => Err(TrustError::Changed(FingerprintChanged {
                host: host.to_string(),
                pinned,
                got,
                file: self.dir.join(KNOWN).display().to_string(),
            })),
            None => {
                let mut all = self.read(KNOWN);
                all.insert(host.to_string(), got);
                self.write(KNOWN, &all).map_err(TrustError::Store)?;
                Ok(true)
            }
        }
    }

    fn read(&self, file: &str) -> BTreeMap<String, String> {
        // A missing or unreadable file is an empty one: nothing remembered.
        let text = std::fs::read_to_string(self.dir.join(file)).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .filter_map(|l| {
                let mut parts = l.split_whitespace();
                Some((parts.next()?.to_string(), parts.next()?.to_string()))
            })
            .collect()
    }

    fn write(&self, file: &str, all: &BTreeMap<String, String>) -> Result<(), StoreError> {
        let io = |error| StoreError::Io {
            path: self.dir.join(file),
            error,
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        let mut text = String::new();
        for (k, v) in all {
            text.push_str(&format!("{k} {v}\n"));
        }
        let path = self.dir.join(file);
        let tmp = self.dir.join(format!("{file}.tmp"));
        std::fs::write(&tmp, text).map_err(io)?;
        #[cfg(unix)]
        {
            // Tokens are credentials: owner-only.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        }
        std::fs::rename(&tmp, &path).map_err(io)
    }
}

/// Why a server's certificate is not trusted.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("{0}")]
    Changed(FingerprintChanged),
    #[error("cannot remember the server's certificate: {0}")]
    Store(StoreError),
}

/// Fingerprints compare as lowercase hex without colons.
fn normalise(fp: &str) -> String {
    fp.chars()
        .filter(|c| *c != ':' && !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_pins_survive_a_new_store() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::at(dir.path());
        assert_eq!(s.token("ws://a:1"), None);
        s.save_token("ws://a:1", "tok1").unwrap();
        s.save_token("ws://b:2", "tok2").unwrap();
        let s = Store::at(dir.path());
        assert_eq!(s.token("ws://a:1").as_deref(), Some("tok1"));
        s.forget_token("ws://a:1").unwrap();
        assert_eq!(s.token("ws://a:1"), None);
        assert_eq!(s.token("ws://b:2").as_deref(), Some("tok2"));

        assert!(s.check_or_pin("h:1", "AB:CD").unwrap(), "first use pins");
        assert!(!s.check_or_pin("h:1", "abcd").unwrap(), "same print again");
        let err = s.check_or_pin("h:1", "ef01").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("REFUSED"), "{text}");
        assert!(text.contains("ef01") && text.contains("abcd"), "{text}");
        // Still refused: the pin was not replaced.
        assert!(s.check_or_pin("h:1", "ef01").is_err());
    }
}
