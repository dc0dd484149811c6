//! Corinth 29.2's secret assault plan over a real server: a server on
//! loopback with its data in a temporary directory, a `corinth_free` table,
//! the Confederate seat over WebSocket, the Union seat over QUIC and a
//! spectator over WebSocket, each a real client connection following the
//! table with the client library's [`Follower`] and keeping every byte it
//! received. The Confederate plots with a salt; until the divisions arrive
//! neither the plan's encoding nor the salt nor an unannounced division's
//! entry is in any frame the Union seat or the spectator received. Then
//! the game is played (over the same sockets) until the last division
//! arrives and the plan opens, and the Union client recomputes the blake3
//! commitment from what it received.

use bytes::Bytes;
use muster_client::{Connection, Follower, NetError};
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::engine::{ActionContext, RuleError, Ruleset};
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::plan::AssaultPlan;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent};
use muster_shared::gbacw::testkit::corinth::{assault_plan, division as div};
use muster_shared::gbacw::testkit::id;
use muster_shared::protocol::{ClientMsg, DeltaBody, ServerMsg, TableId, TableOptions};
use muster_shared::{SeatId, Viewer};
use muster_tests::e2e::{Target, WAIT, start_server};
use std::time::Duration;

const UNION: SeatId = SeatId(0);
const REBEL: SeatId = SeatId(1);

/// One signed-in client following a GBACW table (the e2e harness's
/// `Client` follows sandbox tables; this is the same thing for GBACW).
struct GbacwClient {
    conn: Connection,
    name: &'static str,
    table: Option<TableId>,
    follower: Option<Follower<Gbacw>>,
    seat: Option<SeatId>,
    chain: HashChain,
    /// Every frame received, as bytes: what the hidden-information checks
    /// search.
    received: Vec<Bytes>,
    /// Every event folded, in order, as this client received it.
    events: Vec<GbacwEvent>,
    next_ref: u32,
}

impl GbacwClient {
    async fn connect(target: &Target, quic: bool, name: &'static str) -> GbacwClient {
        let mut conn = Connection::connect(target.url(quic), &target.options())
            .await
            .expect("connect");
        conn.sign_in_guest(name).await.expect("sign in");
        GbacwClient {
            conn,
            name,
            table: None,
            follower: None,
            seat: None,
            chain: HashChain::generate(4096),
            received: Vec::new(),
            events: Vec::new(),
            next_ref: 1,
        }
    }

    fn follower(&self) -> &Follower<Gbacw> {
        self.follower.as_ref().expect("following a table")
    }

    async fn step(&mut self, limit: Duration) -> Result<ServerMsg, NetError> {
        let (msg, bytes) = self.conn.recv_frame_timeout(limit).await?;
        self.received.push(bytes);
        match &msg {
            ServerMsg::Snapshot(snap) => {
                self.follower = Some(Follower::from_snapshot(snap).expect("snapshot follows"));
                self.seat = snap.seat.or(self.seat);
            }
            ServerMsg::Delta { seq, body, .. } => {
                let f = self.follower.as_mut().expect("a delta before any snapshot");
                let events = f.apply(*seq, body).expect("delta follows");
                self.events.extend(events);
            }
            _ => {}
        }
        Ok(msg)
    }

    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        let end = tokio::time::Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let msg = self
                .step(left)
                .await
                .unwrap_or_else(|e| panic!("{}: waiting: {e}", self.name));
            if pred(&msg) {
                return msg;
            }
        }
    }

    async fn sync_to(&mut self, seq: u64) {
        let end = tokio::time::Instant::now() + WAIT;
        while self.follower.as_ref().map_or(0, Follower::seq) < seq {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            self.step(left)
                .await
                .unwrap_or_else(|e| panic!("{}: syncing to {seq}: {e}", self.name));
        }
    }

    async fn send(&mut self, msg: ClientMsg) {
        self.conn.send(&msg).await.expect("send");
    }

    async fn create_table(&mut self, options: TableOptions) -> (TableId, Option<String>) {
        self.send(ClientMsg::CreateTable { options }).await;
        match self
            .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::TableCreated { table, invite } => (table, invite),
            other => panic!("table not created: {other:?}"),
        }
    }

    /// Take `seat` and publish this seat's dice anchor.
    async fn sit(&mut self, table: TableId, seat: SeatId, invite: Option<String>) {
        self.table = Some(table);
        self.send(ClientMsg::JoinSeat {
            table,
            seat: Some(seat),
            invite,
        })
        .await;
        self.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
        assert_eq!(self.seat, Some(seat), "{} sits where asked", self.name);
        let anchor = self.chain.anchor();
        if let Some(f) = self.follower.as_mut() {
            f.note_own_anchor(anchor);
        }
        self.send(ClientMsg::PublishAnchor { table, anchor }).await;
        self.until(|m| {
            matches!(m, ServerMsg::Delta { body: DeltaBody::Anchor { party, anchor: a }, .. }
                if *party == Party::Seat(seat) && *a == anchor)
        })
        .await;
    }

    async fn spectate(&mut self, table: TableId, invite: Option<String>) {
        self.table = Some(table);
        self.send(ClientMsg::Spectate { table, invite }).await;
        self.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    }

    /// Send an action (with this seat's next chain link when it rolls) and
    /// wait for its answer: `Ok(seq)` when accepted.
    async fn act(&mut self, action: &GbacwAction) -> Result<u64, RuleError> {
        let table = self.table.expect("at a table");
        let seat = self.seat.expect("seated");
        let f = self.follower();
        let ctx = ActionContext {
            seat,
            seq: f.seq() + 1,
            by_default: false,
        };
        let links = if f.ruleset().rolls_dice(f.state(), &ctx, action) {
            f.next_link(seat, &self.chain).into_iter().collect()
        } else {
            Vec::new()
        };
        let client_ref = self.next_ref;
        self.next_ref += 1;
        let bytes = codec::encode_infallible(action);
        if let (Some(link), Some(f)) = (links.first(), self.follower.as_mut()) {
            f.note_sent(link.index, &bytes);
        }
        self.send(ClientMsg::Act {
            table,
            client_ref,
            action: bytes,
            links,
        })
        .await;
        match self
            .until(|m| match m {
                ServerMsg::Accepted { client_ref: r, .. }
                | ServerMsg::Rejected { client_ref: r, .. } => *r == client_ref,
                ServerMsg::Error { client_ref: r, .. } => *r == Some(client_ref),
                _ => false,
            })
            .await
        {
            ServerMsg::Accepted { seq, .. } => Ok(seq),
            ServerMsg::Rejected { error, .. } => Err(error),
            other => panic!("{}: action failed: {other:?}", self.name),
        }
    }

    /// Whether any received frame contains `needle`.
    fn saw(&self, needle: &[u8]) -> bool {
        self.received
            .iter()
            .any(|b| b.windows(needle.len()).any(|w| w == needle))
    }
}

/// Hebert through C (announced, 29.23) and Maury through D on Game-Turn 1,
/// Lovell through F on Game-Turn 3 (29.22: F from Game-Turn 3); the cavalry
/// waits with Lovell (29.27).
fn the_plan() -> AssaultPlan {
    let divisions = vec![
        div("hebert", "assault-c", 1),
        div("maury", "assault-d", 1),
        div("lovell", "assault-f", 3),
    ];
    assault_plan(divisions, "maury", "assault-f")
}

/// A salt no frame holds by chance.
const SALT: [u8; 32] = *b"corinth-29.2-salt-for-the-socket";

/// Everything secret in the plan, as bytes that could travel: the plan's
/// encoding (as sent and as committed, divisions sorted), the salt, and
/// each division's entry but the announced one's.
fn secrets(plan: &AssaultPlan) -> Vec<(String, Vec<u8>)> {
    let mut sorted = plan.clone();
    sorted.divisions.sort();
    let mut out = vec![
        ("the plan".to_string(), codec::encode_infallible(plan)),
        (
            "the sorted plan".to_string(),
            codec::encode_infallible(&sorted),
        ),
        ("the salt".to_string(), SALT.to_vec()),
    ];
    for d in &plan.divisions[1..] {
        out.push((
            format!("{}'s entry", d.division.0),
            codec::encode_infallible(d),
        ));
    }
    out
}

/// The Confederate's actions until `pieces` are all on the map: end phases
/// (either seat, whoever acts) until the Confederate Movement Phase of
/// `turn`, then bring each piece in at its hex.
async fn play_to_arrival(
    rebel: &mut GbacwClient,
    union: &mut GbacwClient,
    turn: u16,
    arrivals: &[(&str, &str)],
) -> u64 {
    use muster_shared::gbacw::sequence::{Phase, Step};
    let mut seq = 0;
    for _ in 0..400 {
        let f = rebel.follower();
        let (rs, s) = (f.ruleset(), f.state());
        let phasing = rs.phasing_side(s.clock).map(|side| rs.seat_of(side));
        if s.clock.turn == turn
            && matches!(
                s.clock.step,
                Step::Phase {
                    phase: Phase::Movement,
                    ..
                }
            )
            && phasing == Some(REBEL)
        {
            break;
        }
        let actor = rs.acting_seat(s).expect("someone acts");
        let by = if actor == REBEL {
            &mut *rebel
        } else {
            &mut *union
        };
        seq = by
            .act(&GbacwAction::EndPhase)
            .await
            .unwrap_or_else(|e| panic!("{}: EndPhase refused: {e}", by.name));
        rebel.sync_to(seq).await;
        union.sync_to(seq).await;
    }
    for (piece, hex) in arrivals {
        seq = rebel
            .act(&GbacwAction::Arrive {
                piece: id(piece),
                hex: HexNumber::parse(hex).expect("a hex"),
                facing: Facing::from_index(3).expect("a facing"),
            })
            .await
            .unwrap_or_else(|e| panic!("{piece} at {hex} refused: {e}"));
    }
    union.sync_to(seq).await;
    seq
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corinth_29_2_the_secret_plan_does_not_reach_the_union_seat_or_a_spectator_over_real_sockets()
 {
    let (server, _dir) = start_server(|_| {}).await;
    let target = Target::of(&server);
    let mut rebel = GbacwClient::connect(&target, false, "van dorn").await;
    let mut union = GbacwClient::connect(&target, true, "rosecrans").await;
    let mut watcher = GbacwClient::connect(&target, false, "watcher").await;
    let config = GbacwConfig {
        battle: "corinth_free".into(),
        ..GbacwConfig::default()
    };
    let (table, invite) = rebel
        .create_table(TableOptions {
            ruleset: "gbacw".into(),
            scenario: "Corinth, free set-up".into(),
            config: codec::encode_infallible(&config),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
            take_back_needs_agreement: true,
        })
        .await;
    rebel.sit(table, REBEL, invite.clone()).await;
    union.sit(table, UNION, invite.clone()).await;
    watcher.spectate(table, invite).await;

    // 29.2: the Confederate plots first, with a salt.
    let plan = the_plan();
    let seq = rebel
        .act(&GbacwAction::PlotAssault {
            plan: plan.clone(),
            salt: SALT,
            announce: id("hebert"),
        })
        .await
        .expect("the plan keeps 29.21-29.27");
    union.sync_to(seq).await;
    watcher.sync_to(seq).await;
    let commitment = {
        let Some(GbacwEvent::AssaultPlotted {
            commitment,
            plan: None,
            salt: None,
            announced,
        }) = union.events.last()
        else {
            panic!("the Union seat's event: {:?}", union.events.last())
        };
        // 29.23: the announced division is public.
        assert_eq!(*announced, div("hebert", "assault-c", 1));
        *commitment
    };
    let secret = secrets(&plan);
    let nothing_seen = |who: &GbacwClient, when: &str| {
        for (what, bytes) in &secret {
            assert!(
                !who.saw(bytes),
                "{}'s received bytes hold {what} {when}",
                who.name
            );
        }
    };
    // The Confederate's own client did receive them (the check can see).
    assert!(rebel.saw(&SALT), "the plotting seat receives its own salt");

    // 29.0 step 3: the Union sets up (the default deployment), then
    // Game-Turn 1: Hebert arrives through C. Still nothing secret sent.
    let seq = union
        .act(&GbacwAction::EndSetUp)
        .await
        .expect("the Union set-up ends");
    rebel.sync_to(seq).await;
    watcher.sync_to(seq).await;
    nothing_seen(&union, "before any division arrives");
    nothing_seen(&watcher, "before any division arrives");

    let seq = play_to_arrival(&mut rebel, &mut union, 1, &[("16-ark", "1201")]).await;
    watcher.sync_to(seq).await;
    assert!(
        union
            .events
            .contains(&GbacwEvent::DivisionRevealed(div("hebert", "assault-c", 1)))
    );
    nothing_seen(&union, "after only the announced division arrived");
    nothing_seen(&watcher, "after only the announced division arrived");

    // Maury through D: his entry is public now, the rest still not.
    let seq = play_to_arrival(&mut rebel, &mut union, 1, &[("42-ala", "0103")]).await;
    watcher.sync_to(seq).await;
    for who in [&union, &watcher] {
        assert!(who.saw(&codec::encode_infallible(&plan.divisions[1])));
        assert!(
            !who.saw(&SALT),
            "{}: the salt before the plan opens",
            who.name
        );
        assert!(!who.saw(&codec::encode_infallible(&plan.divisions[2])));
        let seen = who.follower().state().progress.assault.as_ref().unwrap();
        assert!(seen.plan.is_none() && seen.salt.is_none() && !seen.opened);
    }

    // Game-Turn 3: Lovell through F, the last division: the plan opens.
    let seq = play_to_arrival(&mut rebel, &mut union, 3, &[("6-miss", "0140")]).await;
    watcher.sync_to(seq).await;
    let (opened, salt) = union
        .events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::PlanOpened { plan, salt } => Some((plan.clone(), *salt)),
            _ => None,
        })
        .expect("the Union seat receives the opened plan");
    // Recompute the commitment from the received plan and salt alone.
    let mut h = blake3::Hasher::new();
    h.update(&codec::encode_infallible(&opened));
    h.update(&salt);
    assert_eq!(
        *h.finalize().as_bytes(),
        commitment,
        "the commitment verifies"
    );
    assert_eq!(salt, SALT);
    assert!(union.saw(&SALT) && watcher.saw(&SALT));
    let mut sorted = plan.clone();
    sorted.divisions.sort();
    assert_eq!(opened, sorted);
    for who in [&union, &watcher] {
        let seen = who.follower().state().progress.assault.as_ref().unwrap();
        assert!(seen.opened);
        assert_eq!(seen.plan.as_ref(), Some(&sorted), "{}", who.name);
        // Every roll each client received verified against the chains.
        assert!(who.follower().bad_rolls().is_empty(), "{}", who.name);
    }
    // The spectator's state equals the public view of the Confederate's.
    let rf = rebel.follower();
    assert_eq!(
        rf.ruleset().view(rf.state(), Viewer::Spectator).progress,
        watcher.follower().state().progress
    );
    drop(server);
}

/// Corinth 29.5 over the real server: the `corinth_solo` battle is offered
/// by the server's GBACW ruleset; the solitaire player holds both seats
/// with two sign-ins (the server binds one identity to one seat: a second
/// `JoinSeat` by the same user returns the seat he has); the first
/// `SolitaireRoll` is a commit-reveal roll every follower verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corinth_29_51_the_solitaire_battle_is_played_over_the_server_with_both_seats() {
    let (server, _dir) = start_server(|_| {}).await;
    let target = Target::of(&server);
    let mut rebel = GbacwClient::connect(&target, false, "solo (confederate)").await;
    let mut union = GbacwClient::connect(&target, true, "solo (union)").await;
    let config = GbacwConfig {
        battle: "corinth_solo".into(),
        ..GbacwConfig::default()
    };
    let (table, invite) = rebel
        .create_table(TableOptions {
            ruleset: "gbacw".into(),
            scenario: "Corinth, solitaire".into(),
            config: codec::encode_infallible(&config),
            private: true,
            spectators_allowed: false,
            spectator_delay: 0,
            take_back_needs_agreement: true,
        })
        .await;
    rebel.sit(table, REBEL, invite.clone()).await;
    // The same identity asking for the other seat keeps its own.
    rebel
        .send(ClientMsg::JoinSeat {
            table,
            seat: Some(UNION),
            invite: invite.clone(),
        })
        .await;
    rebel.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    assert_eq!(rebel.seat, Some(REBEL));
    union.sit(table, UNION, invite).await;
    // 29.51: the roll, not a plot.
    assert!(
        rebel
            .act(&GbacwAction::PlotAssault {
                plan: the_plan(),
                salt: SALT,
                announce: id("hebert"),
            })
            .await
            .is_err()
    );
    let seq = rebel
        .act(&GbacwAction::SolitaireRoll)
        .await
        .expect("the solitaire roll");
    union.sync_to(seq).await;
    let Some(GbacwEvent::SolitaireStarted { plan, dice }) = union
        .events
        .iter()
        .find(|e| matches!(e, GbacwEvent::SolitaireStarted { .. }))
    else {
        panic!("{:?}", union.events)
    };
    assert_eq!(dice.len(), 7);
    assert_eq!(plan.divisions.len(), 1);
    for who in [&rebel, &union] {
        assert!(who.follower().verified_rolls() > 0, "{}", who.name);
        assert!(who.follower().bad_rolls().is_empty(), "{}", who.name);
    }
    // 29.52: the Union sets up next.
    union
        .act(&GbacwAction::EndSetUp)
        .await
        .expect("the Union sets up");
    drop(server);
}
