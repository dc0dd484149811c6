//! A real match fed arbitrary command sequences, as a room feeds it the
//! commands of its clients: actions of any seat (the seat's next chain
//! link attached, withheld or wrong), server defaults, out-of-range seats.
//! Refusals are fine; a panic is a finding, and so is a refusal that
//! changed the log.
//!
//! Input: one byte choosing the battle ([`MATCH_BATTLES`], for
//! `gbacw_match`, and whether it starts fresh or in play), then commands, each `op`, a little-endian `u16` length
//! and that many bytes of the encoded action (as a client's
//! `ClientMsg::Act` carries it). `op` bit 0 is the seat, bit 1 "the
//! server applies the default", bit 2 "no link attached", bit 3 "the
//! link's index is off by one", bit 4 "a seat that does not exist".

use super::alloc_guard::limited;
use super::wire::decode_ceiling;
use crate::codec;
use crate::dice::{HashChain, Party, SeatLink};
use crate::engine::{LogHeader, Match, Ruleset, SeatInfo, Submission};
use crate::gbacw::ruleset::{Gbacw, GbacwConfig};
use crate::ids::{Hash32, MatchId, SeatId};
use crate::sandbox::{Sandbox, SandboxConfig};
use std::sync::OnceLock;

/// The battles `gbacw_match` plays, by the input's first byte (modulo).
pub const MATCH_BATTLES: &[&str] = &["corinth", "cedar_mountain", "test"];

/// Commands taken from one input at most.
const MAX_COMMANDS: usize = 256;
/// Links in each chain: more than `MAX_COMMANDS` rolls.
const LINKS: u32 = 300;

/// A fresh match with every chain anchored, built once and copied for
/// each input.
struct Start<R: Ruleset> {
    m: Match<R>,
    server: HashChain,
    seats: Vec<HashChain>,
}

impl<R: Ruleset + Clone> Start<R> {
    fn new(config: &R::Config) -> Self {
        let seats = R::new(config).expect("the shipped set-up loads").seats();
        let header = LogHeader {
            format: crate::engine::log::LOG_FORMAT,
            match_id: MatchId([7; 16]),
            ruleset: String::new(),
            config: Vec::new(),
            seats: (0..seats)
                .map(|s| SeatInfo {
                    seat: SeatId(s),
                    name: format!("seat {}", s + 1),
                })
                .collect(),
        };
        let mut m = Match::<R>::new(header, config).expect("the shipped set-up loads");
        // Fixed secrets: a finding must replay with the same dice.
        let chain = |party: u8| HashChain::from_secret(Hash32([party; 32]), LINKS);
        let server = chain(0xff);
        m.publish_anchor(Party::Server, server.anchor())
            .expect("a fresh match takes the server's anchor");
        let seats: Vec<HashChain> = (0..seats).map(chain).collect();
        for (s, c) in (0u8..).zip(&seats) {
            m.publish_anchor(Party::Seat(SeatId(s)), c.anchor())
                .expect("a fresh match takes a seat's anchor");
        }
        Start { m, server, seats }
    }

    fn fresh(&self) -> Match<R> {
        Match::from_parts(
            self.m.ruleset().clone(),
            self.m.state().clone(),
            self.m.log().clone(),
            self.m.book().clone(),
            // The start has no actions yet: nothing to take back.
            Default::default(),
        )
    }

    /// Run the commands of `data` on a copy of the start.
    fn run(&self, mut data: &[u8]) {
        let mut m = self.fresh();
        for _ in 0..MAX_COMMANDS {
            let [op, lo, hi, rest @ ..] = data else {
                return;
            };
            let len = usize::from(u16::from_le_bytes([*lo, *hi])).min(rest.len());
            let (payload, tail) = rest.split_at(len);
            data = tail;
            let action = limited(decode_ceiling(codec::MAX_CLIENT_MSG), "an action", || {
                codec::decode::<R::Action>(payload, codec::MAX_CLIENT_MSG)
            });
            let Ok(action) = action else { continue };
            let seat = if op & 0x10 != 0 {
                SeatId(m.ruleset().seats())
            } else {
                SeatId(op & 1)
            };
            let by_default = op & 2 != 0;
            let seat_links = if op & 4 != 0 {
                Vec::new()
            } else {
                self.link(&m, seat, u32::from(op & 8 != 0))
            };
            let before = m.next_seq();
            let applied = m.apply(
                Submission {
                    seat,
                    action,
                    seat_links,
                    by_default,
                },
                &self.server,
            );
            match applied {
                Ok(a) => assert_eq!(a.seq, before, "an accepted action takes the next seq"),
                Err(_) => assert_eq!(m.next_seq(), before, "a refusal changed the log"),
            }
        }
    }

    /// `seat`'s next link (its index moved by `off`), if it has one.
    fn link(&self, m: &Match<R>, seat: SeatId, off: u32) -> Vec<SeatLink> {
        let Some(chain) = self.seats.get(usize::from(seat.0)) else {
            return Vec::new();
        };
        let Some(index) = m.book().next_index(Party::Seat(seat)) else {
            return Vec::new();
        };
        let index = index.saturating_add(off);
        chain
            .link(index)
            .map(|link| vec![SeatLink { seat, index, link }])
            .unwrap_or_default()
    }
}

/// Split the input's first byte off as the battle's index.
fn battle_of(data: &[u8]) -> (usize, &[u8]) {
    match data {
        [b, rest @ ..] => (usize::from(*b) % MATCH_BATTLES.len(), rest),
        [] => (0, data),
    }
}

/// A GBACW match ([`MATCH_BATTLES`]) fed the input's commands. The first
/// byte chooses the battle (modulo 3) and where it starts: below 3 modulo
/// 6, the fresh table (set-up to do); otherwise with every side's set-up
/// ended by its default, so the input's commands start in play. Ending a
/// Corinth set-up places every counter under the whole set-up's checks,
/// about half of an input's time when each input did it again; the second
/// start is built once and copied, as the first.
pub fn gbacw_match(data: &[u8]) {
    static STARTS: [OnceLock<Start<Gbacw>>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let (battle, commands) = battle_of(data);
    let in_play = data.first().is_some_and(|b| b % 6 >= 3);
    let start = STARTS[battle + if in_play { 3 } else { 0 }].get_or_init(|| {
        let mut start = Start::new(&GbacwConfig {
            battle: MATCH_BATTLES[battle].into(),
            ..GbacwConfig::default()
        });
        if in_play {
            start.end_setup();
        }
        start
    });
    start.run(commands);
}

impl Start<Gbacw> {
    /// Apply the server's default (`EndSetUp`) for each side still setting
    /// up, as a table whose players never placed anything would.
    fn end_setup(&mut self) {
        for _ in 0..8 {
            if self.m.state().progress.setting_up.is_none() {
                return;
            }
            let Some(p) = self.m.ruleset().pending(self.m.state()).into_iter().next() else {
                return;
            };
            let sub = Submission {
                seat: p.seat,
                action: p.default,
                seat_links: Vec::new(),
                by_default: true,
            };
            self.m
                .apply(sub, &self.server)
                .expect("a pending default is accepted");
        }
        assert!(
            self.m.state().progress.setting_up.is_none(),
            "the set-up ends by defaults"
        );
    }
}

/// A sandbox match (the default two-seat table) fed the input's commands.
pub fn sandbox_match(data: &[u8]) {
    static START: OnceLock<Start<Sandbox>> = OnceLock::new();
    START
        .get_or_init(|| Start::new(&SandboxConfig::default()))
        .run(data);
}

/// Encode commands in the input format: what the corpus seeds are made
/// of (`tests/tests/fuzz_corpus.rs` writes them from played games).
pub fn match_commands<'a>(commands: impl IntoIterator<Item = (u8, &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    for (op, action) in commands {
        let len = u16::try_from(action.len()).unwrap_or(u16::MAX);
        out.push(op);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&action[..usize::from(len)]);
    }
    out
}

/// A seed for `gbacw_match`: up to `steps` actions from the start that
/// `start_byte` chooses (the input's first byte: a battle of
/// [`MATCH_BATTLES`], fresh or in play) that the match accepts, each a legal
/// action picked by `seed` or a pending decision's default, played on the
/// target's own start (same chains, so the same dice) and written in the
/// input format. The mutations of a seed like this reach the rules deep in
/// a game, where bytes at random would stop at the first refusal.
pub fn gbacw_seed(start_byte: u8, steps: usize, seed: u64) -> Vec<u8> {
    let battle = usize::from(start_byte) % MATCH_BATTLES.len();
    let mut start = Start::<Gbacw>::new(&GbacwConfig {
        battle: MATCH_BATTLES[battle].into(),
        ..GbacwConfig::default()
    });
    if start_byte % 6 >= 3 {
        start.end_setup();
    }
    let mut m = start.fresh();
    let mut pick = seed | 1;
    let mut next = |n: usize| {
        // xorshift64: a fixed sequence per seed.
        pick ^= pick << 13;
        pick ^= pick >> 7;
        pick ^= pick << 17;
        usize::try_from(pick % n.max(1) as u64).unwrap_or(0)
    };
    let mut out = vec![start_byte];
    for _ in 0..steps {
        let state = m.state().clone();
        let Some(seat) = m.ruleset().acting_seat(&state) else {
            break;
        };
        let pending = m.ruleset().pending(&state);
        let (seat, action, by_default) = match pending.first() {
            Some(p) if next(2) == 0 => (p.seat, p.default.clone(), true),
            _ => {
                let legal = m.ruleset().legal_actions(&state, seat);
                if legal.is_empty() {
                    break;
                }
                let i = next(legal.len());
                (seat, legal[i].clone(), false)
            }
        };
        let bytes = codec::encode_infallible(&action);
        let op = seat.0 & 1 | if by_default { 2 } else { 0 };
        let seat_links = if by_default {
            Vec::new()
        } else {
            start.link(&m, seat, 0)
        };
        let sub = Submission {
            seat,
            action,
            seat_links,
            by_default,
        };
        if m.apply(sub, &start.server).is_ok() {
            out.extend(match_commands([(op, bytes.as_slice())]));
        }
    }
    out
}
