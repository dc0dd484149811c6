//! `muster-server verify LOG`, run as the real binary: exit 0 and "OK" for a
//! sound log, exit 1 naming the entry and the reason for a tampered one,
//! exit 2 for a file that is not a match log.

use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{LogEntry, LogHeader, Match, MatchLog, SeatInfo, Submission};
use muster_shared::sandbox::{Loc, Position, Sandbox, SandboxAction, SandboxConfig};
use muster_shared::{Hash32, MatchId, SeatId};
use std::path::Path;
use std::process::{Command, Output};

/// A short sandbox game: anchors (entries 1–3), a placed piece (4), then
/// rolls by each seat (5, 6, 7).
fn game() -> MatchLog {
    let header = LogHeader {
        format: LOG_FORMAT,
        match_id: MatchId([0x24; 16]),
        ruleset: String::new(),
        config: Vec::new(),
        seats: vec![
            SeatInfo {
                seat: SeatId(0),
                name: "Meade".into(),
            },
            SeatInfo {
                seat: SeatId(1),
                name: "Longstreet".into(),
            },
        ],
    };
    let mut m = Match::<Sandbox>::new(header, &SandboxConfig::default()).unwrap();
    let server = HashChain::from_secret(Hash32([0xc0; 32]), 32);
    let seats = [
        HashChain::from_secret(Hash32([0xc1; 32]), 8),
        HashChain::from_secret(Hash32([0xc2; 32]), 8),
    ];
    m.publish_anchor(Party::Server, server.anchor()).unwrap();
    for (s, chain) in seats.iter().enumerate() {
        m.publish_anchor(Party::Seat(SeatId(s as u8)), chain.anchor())
            .unwrap();
    }
    let place = SandboxAction::Place {
        at: Position {
            board: 0,
            loc: Loc::Hex { col: 1, row: 1 },
        },
        label: "Cemetery Ridge".into(),
        owner: None,
        face_up: true,
        hidden: false,
    };
    let no_links = Submission {
        seat: SeatId(0),
        action: place,
        seat_links: Vec::new(),
        by_default: false,
    };
    m.apply(no_links, &server).unwrap();
    for seat in [0u8, 1, 0] {
        let index = m.book().next_index(Party::Seat(SeatId(seat))).unwrap();
        let sub = Submission {
            seat: SeatId(seat),
            action: SandboxAction::Roll {
                count: 2,
                sides: 6,
                note: "fire".into(),
            },
            seat_links: vec![SeatLink {
                seat: SeatId(seat),
                index,
                link: seats[usize::from(seat)].link(index).unwrap(),
            }],
            by_default: false,
        };
        m.apply(sub, &server).unwrap();
    }
    m.log().clone()
}

fn verify(path: &Path) -> (Option<i32>, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_muster-server"))
        .arg("verify")
        .arg(path)
        .output()
        .unwrap();
    (
        status.code(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

#[test]
fn good_log_exits_zero_and_says_ok() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("good.mlog");
    std::fs::write(&path, game().to_file_bytes()).unwrap();
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(0), "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("OK"), "{out}");
    assert!(
        out.contains("7 entries, 4 actions, 3 rolls, 6 dice"),
        "{out}"
    );
    assert!(!out.contains("FAIL"), "{out}");
}

#[test]
fn tampered_log_exits_one_and_names_the_entry_and_reason() {
    let mut log = game();
    match &mut log.entries[5] {
        LogEntry::Action(rec) => {
            let die = &mut rec.roll.as_mut().unwrap().dice[1];
            die.value = die.value % 6 + 1;
        }
        LogEntry::Anchor { .. } | LogEntry::TakeBack { .. } => panic!("entry 6 is a roll"),
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tampered.mlog");
    std::fs::write(&path, log.to_file_bytes()).unwrap();
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(1), "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("FAIL entry 6 (roll 2): die 1: the log says"),
        "{out}"
    );
    assert!(!out.contains("OK: every roll verifies"), "{out}");
}

#[test]
fn garbage_exits_two() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8]); 3] = [
        ("noise.mlog", b"this is not a match log at all"),
        ("truncated.mlog", b"MUSTLOG1\x01\x02"),
        ("empty.mlog", b""),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = verify(&path);
        assert_eq!(code, Some(2), "{name}: stdout:\n{out}\nstderr:\n{err}");
        assert!(err.contains("not a readable match log"), "{name}: {err}");
    }
    // A log cut short is not readable either.
    let bytes = game().to_file_bytes();
    let path = dir.path().join("cut.mlog");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(verify(&path).0, Some(2));
    // Nor is a file that is not there.
    let (code, _, err) = verify(&dir.path().join("missing.mlog"));
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read"), "{err}");
}
