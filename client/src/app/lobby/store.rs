//! What the client remembers between runs, as small text files in its
//! config directory (`$MUSTER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/muster`,
//! else `~/.config/muster`):
//!
//! - `sessions.txt`: one line per identity kept for a server,
//!   `URL TOKEN NAME`: the session token of each identity signed in
//!   there, the most recently used last, so the next start resumes it
//!   (`Resume`) instead of becoming a new guest. A start with a name
//!   resumes the identity of that name, or signs in a new one when there
//!   is none (two players on one machine: `--name Meade`, `--name
//!   Jackson`); a start without a name resumes the most recent. Written
//!   owner-only. With a profile (`--profile NAME`) the file is
//!   `profiles/NAME/sessions.txt`: a profile's identities are its own.
//! - `known_servers.txt`: one line per QUIC server, `HOST:PORT SHA256`:
//!   the certificate fingerprint seen the first time (trust on first use).
//!   A server that later shows another certificate is refused until the
//!   line is removed by hand.
//!
//! - `settings.txt`: the player's choices, `NAME VALUE` per line (for
//!   now `notify on|off`: a desktop notification when your move comes;
//!   `sound on|off`: a short sound then).
//!   Shared by every profile: they are the machine's person's.
//!
//! All are space-separated lines so a person can read and edit them.
//! The pins are shared by every profile (trust is the machine's).

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
    /// Identities kept apart under `profiles/NAME/` (`--profile`).
    profile: Option<String>,
}

/// An identity kept for a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub url: String,
    pub token: String,
    /// The name it signed in with; `None` in a file from before names
    /// were kept.
    pub name: Option<String>,
}

/// A profile's name is a directory's: letters, digits, `-`, `_`, `.`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad profile name \u{201c}{0}\u{201d}: use letters, digits, '-', '_' or '.' (not first)")]
pub struct BadProfile(pub String);

const SESSIONS: &str = "sessions.txt";
const KNOWN: &str = "known_servers.txt";
const SETTINGS: &str = "settings.txt";

impl Store {
    /// The files in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Store {
            dir: dir.into(),
            profile: None,
        }
    }

    /// As [`Store::at`], with the identities of profile `name` (kept in
    /// `profiles/NAME/` under `dir`).
    pub fn with_profile(dir: impl Into<PathBuf>, name: &str) -> Result<Self, BadProfile> {
        let ok = !name.is_empty()
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !ok {
            return Err(BadProfile(name.to_string()));
        }
        Ok(Store {
            dir: dir.into(),
            profile: Some(name.to_string()),
        })
    }

    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// Where this profile's identities are kept.
    pub fn sessions_path(&self) -> PathBuf {
        match &self.profile {
            Some(p) => self.dir.join("profiles").join(p).join(SESSIONS),
            None => self.dir.join(SESSIONS),
        }
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

    /// The identity to resume at `url`: the one called `name`, or with
    /// no name the most recently used.
    pub fn session(&self, url: &str, name: Option<&str>) -> Option<Saved> {
        let wanted = name.map(str::trim).filter(|n| !n.is_empty());
        self.sessions()
            .into_iter()
            .rev()
            .filter(|s| s.url == url)
            .find(|s| wanted.is_none() || s.name.as_deref() == wanted)
    }

    /// The most recent token for `url`, if any.
    pub fn token(&self, url: &str) -> Option<String> {
        self.session(url, None).map(|s| s.token)
    }

    /// The names of the identities kept for `url`, oldest first.
    pub fn saved_names(&self, url: &str) -> Vec<String> {
        self.sessions()
            .into_iter()
            .filter(|s| s.url == url)
            .filter_map(|s| s.name)
            .collect()
    }

    /// Keep `token` for `url` under `name`, as the most recent (replacing
    /// an older line with the same token or name).
    pub fn save_token(&self, url: &str, token: &str, name: &str) -> Result<(), StoreError> {
        let name = name.trim();
        let mut all = self.sessions();
        all.retain(|s| !(s.url == url && (s.token == token || s.name.as_deref() == Some(name))));
        all.push(Saved {
            url: url.to_string(),
            token: token.to_string(),
            name: Some(name.to_string()).filter(|n| !n.is_empty()),
        });
        self.write_sessions(&all)
    }

    /// Forget `token` at `url` (the server no longer knows it).
    pub fn forget_token(&self, url: &str, token: &str) -> Result<(), StoreError> {
        let mut all = self.sessions();
        let before = all.len();
        all.retain(|s| !(s.url == url && s.token == token));
        if all.len() != before {
            self.write_sessions(&all)?;
        }
        Ok(())
    }

    fn sessions(&self) -> Vec<Saved> {
        let text = std::fs::read_to_string(self.sessions_path()).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .filter_map(|l| {
                let mut parts = l.trim().splitn(3, char::is_whitespace);
                let url = parts.next()?.to_string();
                let token = parts.next()?.trim().to_string();
                if url.is_empty() || token.is_empty() {
                    return None;
                }
                let name = parts
                    .next()
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty());
                Some(Saved { url, token, name })
            })
            .collect()
    }

    fn write_sessions(&self, all: &[Saved]) -> Result<(), StoreError> {
        let mut text = String::new();
        for s in all {
            text.push_str(&format!(
                "{} {} {}\n",
                s.url,
                s.token,
                s.name.as_deref().unwrap_or("")
            ));
        }
        self.write_text(&self.sessions_path(), &text)
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

    /// Whether a desktop notification says when your move comes (off
    /// until the player turns it on).
    pub fn notify(&self) -> bool {
        self.read(SETTINGS).get("notify").is_some_and(|v| v == "on")
    }

    pub fn set_notify(&self, on: bool) -> Result<(), StoreError> {
        let mut all = self.read(SETTINGS);
        all.insert("notify".into(), if on { "on" } else { "off" }.into());
        self.write(SETTINGS, &all)
    }

    /// Whether a short sound plays when your move comes (off until the
    /// player turns it on).
    pub fn sound(&self) -> bool {
        self.read(SETTINGS).get("sound").is_some_and(|v| v == "on")
    }

    pub fn set_sound(&self, on: bool) -> Result<(), StoreError> {
        let mut all = self.read(SETTINGS);
        all.insert("sound".into(), if on { "on" } else { "off" }.into());
        self.write(SETTINGS, &all)
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
        let mut text = String::new();
        for (k, v) in all {
            text.push_str(&format!("{k} {v}\n"));
        }
        self.write_text(&self.dir.join(file), &text)
    }

    /// Write `text` to `path` whole (a temporary file renamed), owner-only.
    fn write_text(&self, path: &Path, text: &str) -> Result<(), StoreError> {
        let io = |error| StoreError::Io {
            path: path.to_path_buf(),
            error,
        };
        let dir = path.parent().unwrap_or(&self.dir);
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text).map_err(io)?;
        #[cfg(unix)]
        {
            // Tokens are credentials: owner-only.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        }
        std::fs::rename(&tmp, path).map_err(io)
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
    fn the_notify_setting_is_off_until_turned_on_and_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::at(dir.path());
        assert!(!s.notify());
        s.set_notify(true).unwrap();
        assert!(Store::at(dir.path()).notify());
        s.set_notify(false).unwrap();
        assert!(!Store::at(dir.path()).notify());
    }

    #[test]
    fn tokens_and_pins_survive_a_new_store() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::at(dir.path());
        assert_eq!(s.token("ws://a:1"), None);
        s.save_token("ws://a:1", "tok1", "Meade").unwrap();
        s.save_token("ws://b:2", "tok2", "Lee").unwrap();
        let s = Store::at(dir.path());
        assert_eq!(s.token("ws://a:1").as_deref(), Some("tok1"));
        s.forget_token("ws://a:1", "tok1").unwrap();
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

    #[test]
    fn identities_by_name_and_by_profile() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::at(dir.path());
        s.save_token("ws://a:1", "t-meade", "Meade").unwrap();
        s.save_token("ws://a:1", "t-jackson", "Stonewall Jackson")
            .unwrap();
        let tok = |name| s.session("ws://a:1", name).map(|x| x.token);
        assert_eq!(tok(Some("Meade")).as_deref(), Some("t-meade"));
        assert_eq!(tok(Some("Stonewall Jackson")).as_deref(), Some("t-jackson"));
        assert_eq!(tok(Some("Lee")), None, "a new name is a new identity");
        assert_eq!(tok(None).as_deref(), Some("t-jackson"), "the most recent");
        // Resuming Meade makes him the most recent.
        s.save_token("ws://a:1", "t-meade", "Meade").unwrap();
        assert_eq!(tok(None).as_deref(), Some("t-meade"));
        assert_eq!(s.saved_names("ws://a:1"), ["Stonewall Jackson", "Meade"]);
        // A file from before names were kept still resumes without a name.
        std::fs::write(dir.path().join(SESSIONS), "ws://b:2 old\n").unwrap();
        assert_eq!(s.token("ws://b:2").as_deref(), Some("old"));
        assert_eq!(s.session("ws://b:2", Some("Meade")), None);
        // A profile keeps its own identities, and shares the pins.
        let p = Store::with_profile(dir.path(), "jackson").unwrap();
        assert_eq!(p.token("ws://b:2"), None);
        p.save_token("ws://b:2", "p1", "Jackson").unwrap();
        assert_eq!(p.token("ws://b:2").as_deref(), Some("p1"));
        assert_eq!(s.token("ws://b:2").as_deref(), Some("old"));
        assert!(p.sessions_path().ends_with("profiles/jackson/sessions.txt"));
        s.check_or_pin("h:1", "abcd").unwrap();
        assert_eq!(p.pinned("h:1").as_deref(), Some("abcd"));
        assert!(Store::with_profile(dir.path(), "../x").is_err());
        assert!(Store::with_profile(dir.path(), "").is_err());
    }
}
