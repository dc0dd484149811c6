//! Real match logs, played through `engine::Match` with the sandbox, then
//! tampered with one way at a time: the verifier must catch each, and say
//! which entry and roll, and why. Also the byte-exact test vector printed in
//! `docs/dice.md`.

use muster_shared::dice::{
    DiceStream, HashChain, Party, RollFailure, RollInput, RollProof, SeatLink,
};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::verify::{FailureKind, replay};
use muster_shared::engine::{
    ActionRecord, LogEntry, LogHeader, Match, MatchError, MatchLog, SeatInfo, Submission,
    VerifyReport, verify_log,
};
use muster_shared::sandbox::{Loc, PieceId, Position, Sandbox, SandboxAction, SandboxConfig};
use muster_shared::{Hash32, MatchId, SeatId, codec};

const MATCH: MatchId = MatchId([0x42; 16]);

/// A sandbox table with the server's and both seats' secret chains.
struct Table {
    m: Match<Sandbox>,
    server: HashChain,
    seats: [HashChain; 2],
}

impl Table {
    fn new(server_len: u32) -> Self {
        let header = LogHeader {
            format: LOG_FORMAT,
            match_id: MATCH,
            ruleset: String::new(),
            config: Vec::new(),
            seats: vec![
                SeatInfo {
                    seat: SeatId(0),
                    name: "Grant".into(),
                },
                SeatInfo {
                    seat: SeatId(1),
                    name: "Lee".into(),
                },
            ],
        };
        let mut m = Match::<Sandbox>::new(header, &SandboxConfig::default()).unwrap();
        // Fixed secrets: every run plays (and tampers with) the same bytes.
        let server = HashChain::from_secret(Hash32([0xa0; 32]), server_len);
        let seats = [
            HashChain::from_secret(Hash32([0xb0; 32]), 16),
            HashChain::from_secret(Hash32([0xb1; 32]), 16),
        ];
        m.publish_anchor(Party::Server, server.anchor()).unwrap();
        for (s, chain) in seats.iter().enumerate() {
            m.publish_anchor(Party::Seat(SeatId(s as u8)), chain.anchor())
                .unwrap();
        }
        Table { m, server, seats }
    }

    /// `seat`'s next unrevealed link.
    fn link(&self, seat: u8) -> SeatLink {
        let index = self.m.book().next_index(Party::Seat(SeatId(seat))).unwrap();
        SeatLink {
            seat: SeatId(seat),
            index,
            link: self.seats[usize::from(seat)].link(index).unwrap(),
        }
    }

    /// Apply `action` for `seat`, attaching its link (and `mixed` seats'
    /// links) when the action rolls. Returns the sequence number.
    fn act(&mut self, seat: u8, mixed: &[u8], action: SandboxAction) -> u64 {
        let seat_links = if self.m.rolls_dice(SeatId(seat), &action) {
            std::iter::once(seat)
                .chain(mixed.iter().copied())
                .map(|s| self.link(s))
                .collect()
        } else {
            Vec::new()
        };
        let sub = Submission {
            seat: SeatId(seat),
            action,
            seat_links,
            by_default: false,
        };
        self.m.apply(sub, &self.server).unwrap().seq
    }
}

fn roll(count: u8, sides: u16, note: &str) -> SandboxAction {
    SandboxAction::Roll {
        count,
        sides,
        note: note.into(),
    }
}

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

/// The standard game. Entries:
///
/// ```text
///  1 anchor server      2 anchor seat 0     3 anchor seat 1
///  4 place (seat 0)     5 roll 1: 2d6 (0)   6 move (seat 0)
///  7 roll 2: 1d10 (1)   8 flip (seat 0)     9 roll 3: 3d6 (0, seat 1 mixed in)
/// 10 roll 4: 1d20 (1)  11 marker (seat 0)  12 roll 5: 1d6 (0)
/// ```
fn play() -> Table {
    let mut t = Table::new(64);
    let place = SandboxAction::Place {
        at: hex(3, 4),
        label: "Iron Brigade".into(),
        owner: Some(SeatId(0)),
        face_up: true,
        hidden: false,
    };
    assert_eq!(t.act(0, &[], place), 4);
    assert_eq!(t.act(0, &[], roll(2, 6, "fire")), 5);
    let mv = SandboxAction::Move {
        pieces: vec![PieceId(4)],
        to: hex(4, 4),
    };
    assert_eq!(t.act(0, &[], mv), 6);
    assert_eq!(t.act(1, &[], roll(1, 10, "morale")), 7);
    assert_eq!(t.act(0, &[], SandboxAction::Flip { piece: PieceId(4) }), 8);
    assert_eq!(t.act(0, &[1], roll(3, 6, "melee")), 9);
    assert_eq!(t.act(1, &[], roll(1, 20, "")), 10);
    let marker = SandboxAction::AddMarker {
        piece: PieceId(4),
        marker: "disrupted".into(),
    };
    assert_eq!(t.act(0, &[], marker), 11);
    assert_eq!(t.act(0, &[], roll(1, 6, "rally")), 12);
    t
}

/// The standard game's log as read back from its file bytes.
fn logged() -> MatchLog {
    let bytes = play().m.log().to_file_bytes();
    MatchLog::from_file_bytes(&bytes).unwrap()
}

/// Tamper with a copy of the standard log, write it out, read it back, verify.
fn verify_tampered(tamper: impl FnOnce(&mut MatchLog)) -> VerifyReport {
    let mut log = logged();
    tamper(&mut log);
    let reread = MatchLog::from_file_bytes(&log.to_file_bytes()).unwrap();
    verify_log(&reread)
}

fn record(log: &mut MatchLog, seq: u64) -> &mut ActionRecord {
    match &mut log.entries[seq as usize - 1] {
        LogEntry::Action(rec) => rec,
        LogEntry::Anchor { .. } => panic!("entry {seq} is an anchor"),
        LogEntry::TakeBack { .. } => panic!("entry {seq} is a take-back"),
    }
}

fn proof(log: &mut MatchLog, seq: u64) -> &mut RollProof {
    record(log, seq).roll.as_mut().unwrap()
}

/// The report fails, nothing before `seq` failed, and among the failures at
/// `seq` (tagged with roll `roll`) is one that `is` accepts.
fn assert_caught(report: &VerifyReport, seq: u64, roll: Option<u64>, is: fn(&FailureKind) -> bool) {
    let shown = report.to_string();
    assert!(!report.ok(), "tampering went unnoticed:\n{shown}");
    assert_eq!(report.failures[0].seq, seq, "first failure:\n{shown}");
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.seq == seq && f.roll == roll && is(&f.what)),
        "expected failure not reported at entry {seq}:\n{shown}"
    );
    // The report names the entry (and roll) in words.
    let place = match roll {
        Some(r) => format!("FAIL entry {seq} (roll {r}): "),
        None => format!("FAIL entry {seq}: "),
    };
    assert!(shown.contains(&place), "{shown}");
}

fn dice(kind: &FailureKind) -> Option<&RollFailure> {
    match kind {
        FailureKind::Dice(f) => Some(f),
        _ => None,
    }
}

#[test]
fn untampered_log_verifies() {
    let report = verify_log(&logged());
    assert!(report.ok(), "{report}");
    assert!(report.rules_checked);
    assert_eq!(
        (report.entries, report.actions, report.rolls, report.dice),
        (12, 9, 5, 8)
    );
    assert!(report.to_string().ends_with("OK: every roll verifies"));
}

#[test]
fn replay_rebuilds_the_live_state() {
    let t = play();
    let log = MatchLog::from_file_bytes(&t.m.log().to_file_bytes()).unwrap();
    let rebuilt = replay::<Sandbox>(&log).unwrap();
    assert_eq!(rebuilt.state(), t.m.state());
    assert_eq!(rebuilt.book(), t.m.book());
    assert_eq!(rebuilt.log(), t.m.log());
    assert_eq!(rebuilt.next_seq(), 13);
    // The rebuilt match carries on exactly where the live one stopped.
    let last = rebuilt.state().last_roll.as_ref().unwrap();
    assert_eq!(
        (last.seat, last.sides, last.note.as_str()),
        (SeatId(0), 6, "rally")
    );
}

#[test]
fn tampered_server_link_is_caught() {
    let report = verify_tampered(|log| proof(log, 7).server_link.0[0] ^= 1);
    assert_caught(&report, 7, Some(2), |k| {
        matches!(
            dice(k),
            Some(RollFailure::LinkBroken {
                party: Party::Server,
                index: 2
            })
        )
    });
    // Reported once: the server's next, genuine link verifies again.
    assert!(
        !report
            .failures
            .iter()
            .any(|f| f.seq > 7 && matches!(dice(&f.what), Some(RollFailure::LinkBroken { .. }))),
        "{report}"
    );
    // The dice no longer derive from the links either.
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.seq == 7 && matches!(dice(&f.what), Some(RollFailure::DieMismatch { .. })))
    );
}

#[test]
fn tampered_seat_link_is_caught() {
    let report = verify_tampered(|log| proof(log, 9).seat_links[1].link.0[31] ^= 0x80);
    assert_caught(&report, 9, Some(3), |k| {
        matches!(
            dice(k),
            Some(RollFailure::LinkBroken {
                party: Party::Seat(SeatId(1)),
                index: 2
            })
        )
    });
}

#[test]
fn tampered_anchor_is_caught_at_the_first_link_it_should_commit_to() {
    // An anchor alone proves nothing; the first link revealed against it fails.
    let report = verify_tampered(|log| {
        if let LogEntry::Anchor { anchor, .. } = &mut log.entries[2] {
            anchor.anchor.0[5] ^= 1;
        }
    });
    assert_caught(&report, 7, Some(2), |k| {
        matches!(
            dice(k),
            Some(RollFailure::LinkBroken {
                party: Party::Seat(SeatId(1)),
                index: 1
            })
        )
    });
}

#[test]
fn shortened_anchor_is_caught_when_the_chain_runs_past_it() {
    let report = verify_tampered(|log| {
        if let LogEntry::Anchor { anchor, .. } = &mut log.entries[0] {
            anchor.len = 3;
        }
    });
    assert_caught(&report, 10, Some(4), |k| {
        matches!(
            dice(k),
            Some(RollFailure::ChainExhausted {
                party: Party::Server,
                index: 4,
                len: 3
            })
        )
    });
}

#[test]
fn swapped_rolls_are_caught() {
    let report = verify_tampered(|log| log.entries.swap(6, 8)); // entries 7 and 9
    assert_caught(&report, 7, Some(3), |k| {
        matches!(
            dice(k),
            Some(RollFailure::RollOutOfOrder {
                expected: 2,
                got: 3
            })
        )
    });
    assert!(report.failures.iter().any(|f| f.seq == 9
        && matches!(
            dice(&f.what),
            Some(RollFailure::RollOutOfOrder {
                expected: 4,
                got: 2
            })
        )));
}

#[test]
fn action_changed_after_its_roll_is_caught() {
    let report = verify_tampered(|log| {
        record(log, 5).action = codec::encode_infallible(&roll(2, 6, "a different fire"));
    });
    assert_caught(&report, 5, Some(1), |k| {
        matches!(dice(k), Some(RollFailure::ActionChanged))
    });
    // The replay sees different events too (the note is in them).
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.seq == 5 && f.what == FailureKind::EventsDiffer)
    );
}

#[test]
fn action_changed_to_roll_more_dice_is_caught() {
    let report = verify_tampered(|log| {
        record(log, 12).action = codec::encode_infallible(&roll(2, 6, "rally"));
    });
    assert_caught(&report, 12, Some(5), |k| {
        matches!(dice(k), Some(RollFailure::ActionChanged))
    });
    assert!(report.failures.iter().any(|f| f.seq == 12
        && matches!(
            dice(&f.what),
            Some(RollFailure::DiceCountMismatch {
                logged: 1,
                derived: 2
            })
        )));
}

#[test]
fn edited_die_value_is_caught() {
    let mut before = 0;
    let report = verify_tampered(|log| {
        let die = &mut proof(log, 9).dice[2];
        before = die.value;
        die.value = die.value % 6 + 1;
    });
    assert_caught(&report, 9, Some(3), |k| {
        matches!(dice(k), Some(RollFailure::DieMismatch { die: 2, .. }))
    });
    let f = report.failures.iter().find_map(|f| match dice(&f.what) {
        Some(RollFailure::DieMismatch {
            logged, derived, ..
        }) => Some((*logged, *derived)),
        _ => None,
    });
    assert_eq!(f, Some((before % 6 + 1, before)));
    assert_eq!(report.failures.len(), 1, "{report}");
}

#[test]
fn deleted_roll_entry_is_caught() {
    let report = verify_tampered(|log| {
        log.entries.remove(6); // entry 7, roll 2
    });
    // The old entry 9 (roll 3) is now entry 8.
    assert_caught(&report, 8, Some(3), |k| {
        matches!(
            dice(k),
            Some(RollFailure::RollOutOfOrder {
                expected: 2,
                got: 3
            })
        )
    });
    assert!(report.failures.iter().any(|f| f.seq == 8
        && matches!(
            dice(&f.what),
            Some(RollFailure::LinkOutOfOrder {
                party: Party::Server,
                expected: 2,
                got: 3
            })
        )));
}

#[test]
fn deleted_plain_entry_is_caught_at_the_next_roll() {
    // Deleting entry 6 (a move) shifts every later sequence number, and the
    // sequence number is part of every later roll's derivation. (Each single
    // die still has a 1-in-`sides` chance of deriving the same face; the
    // fixed chain secrets make this game's outcome the same on every run.)
    let report = verify_tampered(|log| {
        log.entries.remove(5);
    });
    assert_caught(&report, 6, Some(2), |k| {
        matches!(dice(k), Some(RollFailure::DieMismatch { die: 0, .. }))
    });
}

#[test]
fn roll_without_the_actors_link_is_caught() {
    // Entry 9 is seat 0's roll with seat 1's link mixed in; drop seat 0's
    // link and re-derive the dice so they are consistent with what is left.
    let report = verify_tampered(|log| {
        let p = proof(log, 9);
        p.seat_links.retain(|l| l.seat != SeatId(0));
        let sides: Vec<u16> = p.dice.iter().map(|d| d.sides).collect();
        let mut s = DiceStream::new(&p.input(MATCH, 9));
        for n in sides {
            s.roll(n);
        }
        p.dice = s.into_drawn();
    });
    assert_caught(&report, 9, Some(3), |k| {
        matches!(
            dice(k),
            Some(RollFailure::ActorLinkMissing { seat: SeatId(0) })
        )
    });
    assert!(
        !report
            .failures
            .iter()
            .any(|f| f.seq == 9 && matches!(dice(&f.what), Some(RollFailure::DieMismatch { .. })))
    );
}

#[test]
fn early_server_reanchor_is_caught() {
    let report = verify_tampered(|log| {
        let fresh = HashChain::generate(64).anchor();
        log.entries.insert(
            7,
            LogEntry::Anchor {
                party: Party::Server,
                anchor: fresh,
            },
        );
    });
    assert_caught(&report, 8, None, |k| {
        matches!(
            dice(k),
            Some(RollFailure::EarlyServerAnchor {
                party: Party::Server,
                used: 2,
                len: 64
            })
        )
    });
}

#[test]
fn server_reanchors_only_after_its_chain_is_used_up() {
    let mut t = Table::new(2);
    t.act(0, &[], roll(1, 6, ""));
    let early =
        t.m.publish_anchor(Party::Server, HashChain::generate(2).anchor());
    assert!(
        matches!(
            early,
            Err(MatchError::Dice(RollFailure::EarlyServerAnchor {
                used: 1,
                len: 2,
                ..
            }))
        ),
        "{early:?}"
    );
    t.act(1, &[], roll(1, 6, ""));
    // The chain is used up: the next roll is refused until a new anchor.
    let sub = Submission {
        seat: SeatId(0),
        action: roll(1, 6, ""),
        seat_links: vec![t.link(0)],
        by_default: false,
    };
    let refused = t.m.apply(sub, &t.server);
    assert!(
        matches!(refused, Err(MatchError::ServerChainExhausted)),
        "{refused:?}"
    );
    t.server = HashChain::generate(2);
    t.m.publish_anchor(Party::Server, t.server.anchor())
        .unwrap();
    t.act(0, &[], roll(1, 6, ""));
    // Seats may re-anchor at any time.
    t.seats[1] = HashChain::generate(4);
    t.m.publish_anchor(Party::Seat(SeatId(1)), t.seats[1].anchor())
        .unwrap();
    t.act(1, &[0], roll(2, 6, ""));
    let report = verify_log(t.m.log());
    assert!(report.ok(), "{report}");
    assert_eq!(report.rolls, 4);
}

#[test]
fn default_action_rolls_without_an_actor_link_but_mixes_the_other_seat() {
    // The server applies seat 1's default (its deadline passed): no link from
    // seat 1, so seat 0's next link is mixed in and the server alone cannot
    // choose the dice.
    let mut t = Table::new(8);
    // Seat 0 asks seat 1 for a roll: seat 1's pending decision.
    t.act(
        0,
        &[],
        SandboxAction::RequestRoll {
            seat: SeatId(1),
            count: 1,
            sides: 6,
            note: "default".into(),
        },
    );
    // The server may only apply that decision's default, nothing else.
    let other = Submission {
        seat: SeatId(1),
        action: roll(2, 6, "default"),
        seat_links: vec![t.link(0)],
        by_default: true,
    };
    assert!(t.m.apply(other, &t.server).is_err());
    let sub = Submission {
        seat: SeatId(1),
        action: roll(1, 6, "default"),
        seat_links: vec![t.link(0)],
        by_default: true,
    };
    let applied = t.m.apply(sub, &t.server).unwrap();
    let proof = applied.roll.unwrap();
    assert_eq!(proof.seat_links.len(), 1);
    assert_eq!(proof.seat_links[0].seat, SeatId(0));
    let report = verify_log(t.m.log());
    assert!(report.ok(), "{report}");
    // The same roll claimed as seat 1's own choice must carry seat 1's link.
    let mut log = t.m.log().clone();
    record(&mut log, 5).by_default = false;
    assert_caught(&verify_log(&log), 5, Some(1), |k| {
        matches!(
            dice(k),
            Some(RollFailure::ActorLinkMissing { seat: SeatId(1) })
        )
    });
}

#[test]
fn refused_action_spends_no_link() {
    let mut t = Table::new(8);
    let link = t.link(0);
    let bad = Submission {
        seat: SeatId(0),
        action: roll(0, 6, "no dice"),
        seat_links: vec![link],
        by_default: false,
    };
    assert!(t.m.apply(bad, &t.server).is_err());
    assert_eq!(
        t.link(0),
        link,
        "a refused action must not consume the link"
    );
    assert_eq!(t.m.book().next_index(Party::Server), Some(1));
}

// ---------------------------------------------------------------------------
// The test vector printed in docs/dice.md §4.6.

fn vector_links() -> [SeatLink; 1] {
    [SeatLink {
        seat: SeatId(0),
        index: 1,
        link: Hash32([0x07; 32]),
    }]
}

fn vector_input(links: &[SeatLink]) -> RollInput<'_> {
    RollInput {
        match_id: MatchId([0x01; 16]),
        seq: 3,
        roll_index: 1,
        action_digest: Hash32([0x02; 32]),
        server_link: Hash32([0x03; 32]),
        seat_links: links,
    }
}

fn faces(sides: u16, n: usize) -> Vec<u16> {
    let links = vector_links();
    let mut s = DiceStream::new(&vector_input(&links));
    (0..n).map(|_| s.roll(sides)).collect()
}

#[test]
fn documented_test_vector_matches_docs() {
    let links = vector_links();
    let input = vector_input(&links);
    let material = input.material();
    assert_eq!(material.len(), 134);
    assert_eq!(
        hex::encode(&material),
        concat!(
            "01010101010101010101010101010101",
            "0300000000000000",
            "0100000000000000",
            "0202020202020202020202020202020202020202020202020202020202020202",
            "0303030303030303030303030303030303030303030303030303030303030303",
            "01",
            "00",
            "01000000",
            "0707070707070707070707070707070707070707070707070707070707070707",
        )
    );
    let mut xof = blake3::Hasher::new_derive_key("muster dice v1");
    xof.update(&material);
    let mut first = [0u8; 32];
    xof.finalize_xof().fill(&mut first);
    assert_eq!(hex::encode(first), XOF_FIRST_32);
    assert_eq!(faces(6, 10), D6);
    assert_eq!(faces(10, 10), D10);
    assert_eq!(faces(200, 8), D200);
    assert_eq!(faces(1000, 5), D1000);
    assert_eq!(
        muster_shared::dice::action_digest(b"").hex(),
        ACTION_DIGEST_OF_EMPTY
    );
}

const XOF_FIRST_32: &str = "e7f89789764c190ab4114fba64c9f12370d8e3195dd2328ff478bc7b48df1123";
const D6: [u16; 10] = [4, 3, 2, 6, 5, 5, 2, 5, 1, 6];
const D10: [u16; 10] = [2, 9, 2, 8, 9, 7, 6, 1, 1, 8];
/// Bytes 0xe7 and 0xf8 are rejected for a d200 (zone 200).
const D200: [u16; 8] = [152, 138, 119, 77, 26, 11, 181, 18];
/// Two bytes per try, little-endian: 0xf8e7 = 63719 -> 720.
const D1000: [u16; 5] = [720, 224, 575, 586, 533];
const ACTION_DIGEST_OF_EMPTY: &str =
    "93e82b71a40471c3875527fddf5e7f85c60edbe263e9aa4df36f33bfc7a5c315";

/// Issue 20, item 7: an empty chain is refused in words that say so (it
/// once said "chain of 0 links is longer than … allowed").
#[test]
fn an_empty_chain_is_refused_as_outside_the_allowed_length() {
    let e = muster_shared::dice::RollFailure::ChainTooLong { len: 0, max: 4096 }.to_string();
    assert!(
        e.contains("outside the 1 to 4096 allowed") && !e.contains("longer"),
        "{e}"
    );
}
