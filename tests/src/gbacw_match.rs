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
