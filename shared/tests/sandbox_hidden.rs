//! A hidden sandbox piece reaches nobody but its owner: checked on the
//! bytes that would be sent (snapshots and deltas encoded as `ServerMsg`s),
//! through every kind of thing the owner does with the piece, and on the
//! refusals an opponent gets when probing for it.

use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{LogHeader, Match, MatchError, SeatInfo, Submission};
use muster_shared::protocol::{ServerMsg, TableId};
use muster_shared::sandbox::*;
use muster_shared::{MatchId, SeatId, Viewer};

const LABEL: &str = "Jackson's flank march 0xC0FFEE";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

struct Table {
    m: Match<Sandbox>,
    server: HashChain,
    chains: Vec<HashChain>,
    /// Every byte each viewer would have received, in order.
    wire: Vec<(Viewer, Vec<u8>)>,
}

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(SeatId(0)),
    Viewer::Seat(SeatId(1)),
    Viewer::Spectator,
];

impl Table {
    fn new() -> Self {
        let header = LogHeader {
            format: LOG_FORMAT,
            match_id: MatchId([5; 16]),
            ruleset: String::new(),
            config: Vec::new(),
            seats: (0..2)
                .map(|s| SeatInfo {
                    seat: SeatId(s),
                    name: format!("p{s}"),
                })
                .collect(),
        };
        let mut m = Match::<Sandbox>::new(header, &SandboxConfig::default()).unwrap();
        let server = HashChain::generate(256);
        m.publish_anchor(Party::Server, server.anchor()).unwrap();
        let chains: Vec<HashChain> = (0..2).map(|_| HashChain::generate(256)).collect();
        for (s, c) in chains.iter().enumerate() {
            m.publish_anchor(Party::Seat(SeatId(s as u8)), c.anchor())
                .unwrap();
        }
        let mut t = Table {
            m,
            server,
            chains,
            wire: Vec::new(),
        };
        t.snapshots();
        t
    }

    fn snapshots(&mut self) {
        for v in VIEWERS {
            let msg = ServerMsg::Snapshot(self.m.snapshot(TableId(1), v));
            self.wire.push((v, msg.encode().unwrap()));
        }
    }

    fn act(&mut self, seat: u8, action: SandboxAction) -> Result<u64, MatchError> {
        let seat = SeatId(seat);
        let index = self.m.book().next_index(Party::Seat(seat)).unwrap();
        let link = SeatLink {
            seat,
            index,
            link: self.chains[usize::from(seat.0)].link(index).unwrap(),
        };
        let applied = self.m.apply(
            Submission {
                seat,
                action,
                seat_links: vec![link],
                by_default: false,
            },
            &self.server,
        )?;
        for v in VIEWERS {
            let msg = ServerMsg::Delta {
                table: TableId(1),
                seq: applied.seq,
                body: applied.delta_for(v),
            };
            self.wire.push((v, msg.encode().unwrap()));
        }
        Ok(applied.seq)
    }

    fn seen_by(&self, viewer: Viewer) -> bool {
        self.wire
            .iter()
            .any(|(v, bytes)| *v == viewer && contains(bytes, LABEL.as_bytes()))
    }
}

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

#[test]
fn hidden_piece_label_never_reaches_opponent_or_spectator() {
    let mut t = Table::new();
    // A visible piece of the opponent's to stack with.
    let theirs = t
        .act(
            1,
            SandboxAction::Place {
                at: hex(5, 5),
                label: "Pope".into(),
                owner: Some(SeatId(1)),
                face_up: true,
                hidden: false,
            },
        )
        .unwrap();
    let secret = PieceId(
        t.act(
            0,
            SandboxAction::Place {
                at: hex(3, 3),
                label: LABEL.into(),
                owner: Some(SeatId(0)),
                face_up: true,
                hidden: true,
            },
        )
        .unwrap(),
    );
    // Everything the owner can do with it.
    t.act(
        0,
        SandboxAction::Move {
            pieces: vec![secret],
            to: hex(4, 4),
        },
    )
    .unwrap();
    t.act(0, SandboxAction::Flip { piece: secret }).unwrap();
    t.act(
        0,
        SandboxAction::AddMarker {
            piece: secret,
            marker: "column".into(),
        },
    )
    .unwrap();
    t.act(
        0,
        SandboxAction::Stack {
            pieces: vec![secret],
            onto: PieceId(theirs),
        },
    )
    .unwrap();
    t.act(
        0,
        SandboxAction::Reorder {
            piece: secret,
            to_bottom: true,
        },
    )
    .unwrap();
    t.act(
        0,
        SandboxAction::Roll {
            count: 3,
            sides: 6,
            note: "for the march".into(),
        },
    )
    .unwrap();
    t.snapshots();

    // The opponent probes: a hidden piece is refused exactly like a missing one.
    let probe = t.act(1, SandboxAction::Flip { piece: secret }).unwrap_err();
    let missing = t
        .act(
            1,
            SandboxAction::Flip {
                piece: PieceId(secret.0 + 1000),
            },
        )
        .unwrap_err();
    let strip = |e: &MatchError| {
        e.to_string()
            .replace(&(secret.0 + 1000).to_string(), "N")
            .replace(&secret.0.to_string(), "N")
    };
    assert_eq!(strip(&probe), strip(&missing));
    assert!(!probe.to_string().contains(LABEL));

    assert!(
        t.seen_by(Viewer::Seat(SeatId(0))),
        "the owner must see their piece"
    );
    assert!(
        !t.seen_by(Viewer::Seat(SeatId(1))),
        "the label reached the opponent"
    );
    assert!(
        !t.seen_by(Viewer::Spectator),
        "the label reached a spectator"
    );

    // Control: once revealed, everyone receives it, so the search above
    // would have found it had it leaked.
    t.act(0, SandboxAction::Reveal { piece: secret }).unwrap();
    assert!(t.seen_by(Viewer::Seat(SeatId(1))));
    assert!(t.seen_by(Viewer::Spectator));
}

#[test]
fn hiding_a_visible_piece_removes_it_from_other_views() {
    let mut t = Table::new();
    let id = PieceId(
        t.act(
            0,
            SandboxAction::Place {
                at: hex(1, 1),
                label: "Banks".into(),
                owner: Some(SeatId(0)),
                face_up: true,
                hidden: false,
            },
        )
        .unwrap(),
    );
    t.act(0, SandboxAction::Hide { piece: id }).unwrap();
    assert!(t.m.view(Viewer::Seat(SeatId(1))).pieces.is_empty());
    assert!(t.m.view(Viewer::Spectator).pieces.is_empty());
    assert!(t.m.view(Viewer::Seat(SeatId(0))).pieces[&id].hidden);
    // Renaming is impossible, so the old label is all anyone ever saw; what
    // happens to the piece next stays with its owner.
    let before = t.wire.len();
    t.act(
        0,
        SandboxAction::Move {
            pieces: vec![id],
            to: hex(9, 9),
        },
    )
    .unwrap();
    let to_opponent = &t.wire[before..]
        .iter()
        .find(|(v, _)| *v == Viewer::Seat(SeatId(1)))
        .unwrap()
        .1;
    let seen: ServerMsg = ServerMsg::decode(to_opponent).unwrap();
    let ServerMsg::Delta {
        body: muster_shared::protocol::DeltaBody::Action { events, .. },
        ..
    } = seen
    else {
        panic!("expected an action delta")
    };
    let events: Vec<SandboxEvent> = muster_shared::codec::decode(&events, 1 << 20).unwrap();
    assert!(
        events.is_empty(),
        "the opponent learned of a hidden move: {events:?}"
    );
}
