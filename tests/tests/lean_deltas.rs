//! Issue 22: the spectators' compact delta (`DeltaBody::Lean`), made by the
//! server's own match host and folded by the client's `Follower`. Links are
//! shown every few rolls; a roll is checked once its links are known; a
//! chain replaced early carries its last link (`Reanchor`); a forged die is
//! still caught, only later; and a restart rebuilds the same bodies.

use muster_client::Follower;
use muster_server::room::any_match::{AnyMatch, AppliedEntry, registry};
use muster_shared::codec;
use muster_shared::dice::{ActionRef, HashChain, Party, RollFailure, SeatLink, action_digest};
use muster_shared::engine::Ruleset;
use muster_shared::protocol::{DeltaBody, Snapshot, TableId};
use muster_shared::sandbox::{
    Loc, PieceId, Position, Sandbox, SandboxAction, SandboxConfig, SandboxEvent,
};
use muster_shared::{MatchId, SeatId};

const EVERY: u32 = 4;

struct Table {
    m: Box<dyn AnyMatch>,
    server: HashChain,
    seats: Vec<HashChain>,
    /// Each seat's next link number.
    next: Vec<u32>,
    config: Vec<u8>,
}

fn hex(col: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row: 1 },
    }
}

fn table() -> (Table, Vec<AppliedEntry>) {
    let entry = registry("sandbox").expect("sandbox is hosted");
    let config = codec::encode_infallible(&SandboxConfig::default());
    let mut m = (entry.create)(&config, MatchId([5; 16])).unwrap();
    m.set_reveal_every(EVERY);
    let server = HashChain::generate(4096);
    let mut entries = vec![m.publish_anchor(Party::Server, server.anchor()).unwrap()];
    let seats: Vec<HashChain> = (0..2).map(|_| HashChain::generate(64)).collect();
    for (s, c) in seats.iter().enumerate() {
        entries.push(
            m.publish_anchor(Party::Seat(SeatId(s as u8)), c.anchor())
                .unwrap(),
        );
    }
    let place = SandboxAction::Place {
        at: hex(0),
        label: "counter".into(),
        owner: None,
        face_up: true,
        hidden: false,
    };
    let action = codec::encode_infallible(&place);
    entries.push(m.apply(SeatId(0), &action, vec![], false, &server).unwrap());
    (
        Table {
            m,
            server,
            seats,
            next: vec![1, 1],
            config,
        },
        entries,
    )
}

impl Table {
    fn spectator(&mut self) -> Follower<Sandbox> {
        // The room moves the spectators' copy along; here, no delay.
        self.m.advance_spectators(self.m.last_seq());
        let (seq, state) = self.m.spectator_state();
        let (chains, rolls) = self.m.heads();
        Follower::from_snapshot(&Snapshot {
            table: TableId(1),
            match_id: self.m.header().match_id,
            ruleset: "sandbox".into(),
            config: self.config.clone(),
            seq,
            state,
            chains,
            rolls,
            seat: None,
        })
        .unwrap()
    }

    fn move_roll(&mut self, seat: u8, col: u16) -> AppliedEntry {
        let s = usize::from(seat);
        let index = self.next[s];
        self.next[s] += 1;
        let link = SeatLink {
            seat: SeatId(seat),
            index,
            link: self.seats[s].link(index).unwrap(),
        };
        let action = codec::encode_infallible(&SandboxAction::MoveRoll {
            pieces: vec![PieceId(4)],
            to: hex(col),
            count: 2,
            sides: 6,
        });
        self.m
            .apply(SeatId(seat), &action, vec![link], false, &self.server)
            .unwrap()
    }
}

fn spectators(e: &AppliedEntry) -> &DeltaBody {
    e.bodies.last().expect("a spectators' body")
}

#[test]
fn compact_rolls_are_checked_when_their_links_are_shown() {
    let (mut t, _) = table();
    let mut f = t.spectator();
    let mut bodies = Vec::new();
    for i in 0..10u16 {
        let e = t.move_roll((i % 2) as u8, i + 1);
        let body = spectators(&e).clone();
        let DeltaBody::Lean {
            roll: Some(lean), ..
        } = &body
        else {
            panic!("spectators get the compact form: {body:?}")
        };
        // Links on every 4th roll only; neither the action nor its digest
        // (the events tell the action), nor the seats (the actor's alone).
        let shown = u32::from(i + 1) % EVERY == 0;
        assert_eq!(!lean.reveal.is_empty(), shown, "roll {}", i + 1);
        assert_eq!(lean.action, ActionRef::FromEvents);
        assert_eq!(lean.seats, None);
        assert_eq!(lean.dice, None, "the events show the dice");
        // The action the events tell is the one the seats' proof names.
        let DeltaBody::Action {
            roll: Some(proof), ..
        } = &e.bodies[0]
        else {
            panic!("seats get whole proofs")
        };
        let DeltaBody::Lean { events, .. } = &body else {
            unreachable!()
        };
        let events: Vec<SandboxEvent> = codec::decode(events, 1 << 20).unwrap();
        let told = Sandbox::new(&SandboxConfig::default())
            .unwrap()
            .action_from_events(SeatId((i % 2) as u8), &events)
            .expect("a move and roll tells itself");
        assert_eq!(
            action_digest(&codec::encode_infallible(&told)),
            proof.action_digest
        );
        // Seats still get whole proofs.
        assert!(matches!(
            e.bodies[0],
            DeltaBody::Action { roll: Some(_), .. }
        ));
        f.apply(e.seq, &body).unwrap();
        bodies.push((e.seq, body));
        assert_eq!(f.rolls(), u64::from(i) + 1);
        assert_eq!(
            f.verified_rolls(),
            u64::from(u32::from(i + 1) / EVERY * EVERY)
        );
    }
    assert!(f.bad_rolls().is_empty(), "{:?}", f.bad_rolls());
    assert_eq!(f.waiting_rolls(), 2);
    // Seat 1 starts a new chain: its last link comes with the anchor, the
    // server's with the next roll that shows links.
    let fresh = HashChain::generate(64);
    let e =
        t.m.publish_anchor(Party::Seat(SeatId(1)), fresh.anchor())
            .unwrap();
    assert!(matches!(spectators(&e), DeltaBody::Reanchor { .. }));
    assert!(matches!(e.bodies[0], DeltaBody::Anchor { .. }));
    f.apply(e.seq, spectators(&e)).unwrap();
    t.seats[1] = fresh;
    t.next[1] = 1;
    for i in 10..14u16 {
        let e = t.move_roll((i % 2) as u8, i + 1);
        f.apply(e.seq, spectators(&e)).unwrap();
        bodies.push((e.seq, spectators(&e).clone()));
    }
    assert!(f.bad_rolls().is_empty(), "{:?}", f.bad_rolls());
    assert_eq!((f.verified_rolls(), f.waiting_rolls()), (12, 2));

    // A restart rebuilds the spectators' bodies byte for byte.
    let entry = registry("sandbox").unwrap();
    let mut restored = (entry.restore)(t.m.log(), t.m.last_seq(), 64, EVERY).unwrap();
    let history = restored.take_restored_history();
    for (seq, body) in &bodies {
        let (_, rebuilt) = history.iter().find(|(s, _)| s == seq).unwrap();
        assert_eq!(rebuilt.last(), Some(body), "entry {seq}");
    }
}

#[test]
fn a_forged_die_in_a_compact_roll_is_caught_when_the_links_come() {
    let (mut t, _) = table();
    let mut f = t.spectator();
    for i in 0..EVERY as u16 {
        let e = t.move_roll((i % 2) as u8, i + 1);
        let mut body = spectators(&e).clone();
        if i == 1 {
            let DeltaBody::Lean { events, .. } = &mut body else {
                panic!("compact")
            };
            let mut evs: Vec<SandboxEvent> = codec::decode(events, 1 << 20).unwrap();
            let Some(SandboxEvent::Rolled(r)) = evs.last_mut() else {
                panic!("a roll")
            };
            r.dice[0] = r.dice[0] % 6 + 1;
            *events = codec::encode_infallible(&evs);
        }
        f.apply(e.seq, &body).unwrap();
        if i < 3 {
            assert!(f.bad_rolls().is_empty(), "nothing to check yet");
        }
    }
    assert_eq!(f.verified_rolls(), u64::from(EVERY) - 1);
    assert_eq!(f.bad_rolls().len(), 1, "{:?}", f.bad_rolls());
    assert_eq!(f.bad_rolls()[0].roll, 2);
    assert!(matches!(
        f.bad_rolls()[0].failure,
        RollFailure::DieMismatch { .. }
    ));
}

/// Protocol 4: a compact roll names its action by the events it came
/// with, so a server that changes where the counter went, keeping the
/// proof, has changed the action the dice are derived from: caught when
/// the links come, like a forged die (each forged roll escapes only if
/// both its d6 happen to derive the same again, 1 in 36; four are forged).
#[test]
fn a_forged_move_in_a_compact_roll_is_caught_when_the_links_come() {
    let (mut t, _) = table();
    let mut f = t.spectator();
    for i in 0..EVERY as u16 {
        let e = t.move_roll((i % 2) as u8, i + 1);
        let mut body = spectators(&e).clone();
        let DeltaBody::Lean { events, .. } = &mut body else {
            panic!("compact")
        };
        let mut evs: Vec<SandboxEvent> = codec::decode(events, 1 << 20).unwrap();
        let Some(SandboxEvent::Moved { to, .. }) = evs.first_mut() else {
            panic!("a move")
        };
        *to = hex(i + 20);
        *events = codec::encode_infallible(&evs);
        f.apply(e.seq, &body).unwrap();
    }
    assert_eq!(f.waiting_rolls(), 0, "all four checked");
    assert!(!f.bad_rolls().is_empty(), "the forged moves are caught");
    assert!(
        f.bad_rolls()
            .iter()
            .all(|b| matches!(b.failure, RollFailure::DieMismatch { .. })),
        "{:?}",
        f.bad_rolls()
    );
}

/// Protocol 4: a server that says "the events tell the action" when they
/// do not (here: no roll in them) gets the roll flagged at once.
#[test]
fn a_compact_roll_whose_events_tell_no_action_is_flagged() {
    let (mut t, _) = table();
    let mut f = t.spectator();
    let e = t.move_roll(0, 1);
    let mut body = spectators(&e).clone();
    let DeltaBody::Lean { events, .. } = &mut body else {
        panic!("compact")
    };
    let evs: Vec<SandboxEvent> = codec::decode(events, 1 << 20).unwrap();
    *events = codec::encode_infallible(&evs[..1]);
    f.apply(e.seq, &body).unwrap();
    assert!(
        f.bad_rolls()
            .iter()
            .any(|b| b.failure == RollFailure::ActionChanged),
        "{:?}",
        f.bad_rolls()
    );
}

/// Bytes of a GBACW spectator's frames per action, and that its compact
/// rolls all check: 1,500 random legal actions of the default battle (the
/// same game for both settings: fixed chains, fixed choices), hosted by the
/// server's registry. Frames are measured encoded (payload plus the
/// WebSocket frame header), not over sockets.
fn gbacw_spectator_bytes(every: u32) -> (f64, f64, u64) {
    const ACTIONS: usize = 1500;
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig, GbacwState};
    use muster_shared::protocol::ServerMsg;
    use muster_shared::{Hash32, Viewer};
    use muster_tests::random_play::Chooser;
    let entry = registry("gbacw").unwrap();
    let gconfig = GbacwConfig::default();
    let config = codec::encode_infallible(&gconfig);
    let rules = Gbacw::new(&gconfig).unwrap();
    let mut m = (entry.create)(&config, MatchId([7; 16])).unwrap();
    m.set_reveal_every(every);
    let chain = |b: u8| HashChain::from_secret(Hash32([b; 32]), 1024);
    let server = chain(9);
    m.publish_anchor(Party::Server, server.anchor()).unwrap();
    let seats = [chain(1), chain(2)];
    for (s, c) in seats.iter().enumerate() {
        m.publish_anchor(Party::Seat(SeatId(s as u8)), c.anchor())
            .unwrap();
    }
    let (chains, rolls) = m.heads();
    let mut f: Follower<Gbacw> = Follower::from_snapshot(&Snapshot {
        table: TableId(1),
        match_id: m.header().match_id,
        ruleset: "gbacw".into(),
        config: config.clone(),
        seq: m.last_seq(),
        state: m.state_for(Viewer::Spectator),
        chains,
        rolls,
        seat: None,
    })
    .unwrap();
    let mut next = [1u32, 1];
    let mut ch = Chooser::new(11);
    let (mut bytes, mut actions, mut rolled, mut roll_bytes) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..ACTIONS {
        let state: GbacwState =
            codec::decode(&m.state_for(Viewer::Referee), codec::MAX_SERVER_MSG).unwrap();
        let Some(seat) = rules.acting_seat(&state) else {
            break;
        };
        let legal = rules.legal_actions(&state, seat);
        let action = legal[ch.below(legal.len())].clone();
        let s = usize::from(seat.0);
        let links = vec![SeatLink {
            seat,
            index: next[s],
            link: seats[s].link(next[s]).unwrap(),
        }];
        let e = m
            .apply(
                seat,
                &codec::encode_infallible(&action),
                links,
                false,
                &server,
            )
            .unwrap();
        let body = spectators(&e).clone();
        let rolls_here = match &body {
            DeltaBody::Action { roll, .. } => roll.is_some(),
            DeltaBody::Lean { roll, .. } => roll.is_some(),
            _ => false,
        };
        if rolls_here {
            next[s] += 1;
            rolled += 1;
        }
        let frame = ServerMsg::Delta {
            table: TableId(1),
            seq: e.seq,
            body: body.clone(),
        }
        .encode()
        .unwrap();
        let n = frame.len() as u64 + if frame.len() < 126 { 2 } else { 4 };
        bytes += n;
        if rolls_here {
            roll_bytes += n;
        }
        actions += 1;
        f.apply(e.seq, &body).unwrap();
    }
    assert!(f.bad_rolls().is_empty(), "{:?}", f.bad_rolls());
    assert_eq!(f.rolls(), rolled);
    assert_eq!(f.verified_rolls() + f.waiting_rolls() as u64, rolled);
    assert!(f.waiting_rolls() < every as usize);
    (
        bytes as f64 / actions as f64,
        roll_bytes as f64 / rolled.max(1) as f64,
        rolled,
    )
}

#[test]
fn gbacw_spectators_check_compact_rolls_and_get_fewer_bytes() {
    let (whole, whole_roll, rolls) = gbacw_spectator_bytes(1);
    let (lean, lean_roll, _) = gbacw_spectator_bytes(8);
    eprintln!(
        "GBACW, 1,500 random actions ({rolls} rolls): per action per spectator \
         {whole:.1} B with whole proofs, {lean:.1} B with links every 8 rolls; \
         per rolling action {whole_roll:.1} B and {lean_roll:.1} B"
    );
    assert!(rolls >= 5, "the game rolled ({rolls})");
    assert!(lean < whole && lean_roll < whole_roll);
}
