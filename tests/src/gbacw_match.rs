//! A GBACW match driven in-process through `engine::Match` with real hash
//! chains, for the random-play tests. The chains' secrets come from the
//! seed, so a failing seed replays exactly.

use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{Applied, LogHeader, Match, MatchError, SeatInfo, Submission};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent};
use muster_shared::{Hash32, MatchId, SeatId};

pub struct GbacwGame {
    pub m: Match<Gbacw>,
    server: HashChain,
    seats: Vec<HashChain>,
    /// When `Some`, every accepted action with its events (the full ones,
    /// then each viewer's), in order: for tests over what a game said.
    pub transcript: Option<Vec<(GbacwAction, Vec<GbacwEvent>)>>,
    /// When `Some`, what the game asked before each submission
    /// (`Gbacw::awaiting`'s prompt, in words): for tests over its words.
    pub asked: Option<Vec<String>>,
    /// With `MUSTER_FINGERPRINT` set: what the game asked and accepted,
    /// printed when the game is dropped (see [`Fingerprint`]).
    fingerprint: Option<Fingerprint>,
}

/// A whole game's fingerprint, to show a refactoring changed nothing:
/// the accepted actions, a digest of the final state, and digests of
/// every question the game asked before each submission (the acting
/// seat and the pending decisions: seat, rule, default, deadline; and
/// their prompts apart, as words may be reworded).
struct Fingerprint {
    label: String,
    accepted: usize,
    ladder: std::collections::hash_map::DefaultHasher,
    prompts: std::collections::hash_map::DefaultHasher,
}

impl GbacwGame {
    /// A two-seat match of `config` whose chains have `links` links each
    /// and are derived from `seed`.
    pub fn new(seed: u64, config: &GbacwConfig, links: u32) -> Self {
        let header = LogHeader {
            format: LOG_FORMAT,
            match_id: MatchId(
                [seed.to_le_bytes(), (!seed).to_le_bytes()]
                    .concat()
                    .try_into()
                    .expect("16 bytes"),
            ),
            ruleset: String::new(),
            config: Vec::new(),
            seats: (0..2)
                .map(|s| SeatInfo {
                    seat: SeatId(s),
                    name: format!("player {s}"),
                })
                .collect(),
        };
        let mut m = Match::<Gbacw>::new(header, config).expect("the battle loads");
        let secret = |party: u8| {
            let mut b = [0x5a_u8; 32];
            b[..8].copy_from_slice(&seed.to_le_bytes());
            b[8] = party;
            Hash32(b)
        };
        let server = HashChain::from_secret(secret(9), links);
        m.publish_anchor(Party::Server, server.anchor())
            .expect("a fresh match takes the server's anchor");
        let seats: Vec<HashChain> = (0..2u8)
            .map(|s| HashChain::from_secret(secret(s), links))
            .collect();
        for (s, chain) in (0u8..).zip(&seats) {
            m.publish_anchor(Party::Seat(SeatId(s)), chain.anchor())
                .expect("a fresh match takes the seats' anchors");
        }
        GbacwGame {
            m,
            server,
            seats,
            transcript: None,
            asked: None,
            fingerprint: std::env::var_os("MUSTER_FINGERPRINT").map(|_| Fingerprint {
                label: format!("{} seed {seed}", config.battle),
                accepted: 0,
                ladder: Default::default(),
                prompts: Default::default(),
            }),
        }
    }

    fn link(&self, seat: SeatId) -> Vec<SeatLink> {
        let Some(index) = self.m.book().next_index(Party::Seat(seat)) else {
            return Vec::new();
        };
        self.seats[usize::from(seat.0)]
            .link(index)
            .map(|link| vec![SeatLink { seat, index, link }])
            .unwrap_or_default()
    }

    /// Apply `action` for `seat`, with the seat's next chain link unless
    /// it is the server applying a default.
    pub fn submit(
        &mut self,
        seat: SeatId,
        action: GbacwAction,
        by_default: bool,
    ) -> Result<Applied<Gbacw>, MatchError> {
        let seat_links = if by_default { vec![] } else { self.link(seat) };
        if let Some(f) = self.fingerprint.as_mut() {
            use muster_shared::engine::Ruleset;
            use std::hash::Hash;
            let rs = self.m.ruleset();
            let state = self.m.state();
            rs.acting_seat(state).map(|s| s.0).hash(&mut f.ladder);
            for p in rs.pending(state) {
                p.seat.0.hash(&mut f.ladder);
                p.rule.hash(&mut f.ladder);
                muster_shared::codec::encode_infallible(&p.default).hash(&mut f.ladder);
                p.deadline_secs.hash(&mut f.ladder);
                p.prompt.hash(&mut f.prompts);
            }
            0xffu8.hash(&mut f.ladder);
        }
        if let Some(asked) = self.asked.as_mut() {
            let (rs, state) = (self.m.ruleset(), self.m.state());
            asked.push(rs.awaiting(state).prompt(rs, state));
        }
        let kept = self.transcript.as_ref().map(|_| action.clone());
        let applied = self.m.apply(
            Submission {
                seat,
                action,
                seat_links,
                by_default,
            },
            &self.server,
        )?;
        if let Some(f) = self.fingerprint.as_mut() {
            f.accepted += 1;
        }
        if let (Some(t), Some(action)) = (self.transcript.as_mut(), kept) {
            let mut events = applied.events.clone();
            for (_, view) in &applied.views {
                events.extend(view.iter().cloned());
            }
            t.push((action, events));
        }
        Ok(applied)
    }
}

impl Drop for GbacwGame {
    fn drop(&mut self) {
        use std::hash::{Hash, Hasher};
        if let Some(f) = &self.fingerprint {
            let mut state = std::collections::hash_map::DefaultHasher::new();
            muster_shared::codec::encode_infallible(self.m.state()).hash(&mut state);
            eprintln!(
                "FINGERPRINT {}: {} accepted, {} log entries, state {:016x}, questions {:016x}, prompts {:016x}",
                f.label,
                f.accepted,
                self.m.log().entries.len(),
                state.finish(),
                f.ladder.finish(),
                f.prompts.finish()
            );
        }
    }
}
