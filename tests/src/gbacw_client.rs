//! A real client connection following a GBACW table: the end-to-end
//! tests' player of a GBACW seat (the e2e harness's `Client` follows
//! sandbox tables; this is the same thing for GBACW). It folds every
//! snapshot and delta with the client library's [`Follower`], keeps the
//! bytes it received (what the hidden-information checks search) and the
//! events it folded, and acts with its own dice chain.

use crate::e2e::{Target, WAIT};
use bytes::Bytes;
use muster_client::{Connection, Follower, NetError};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::engine::{ActionContext, RuleError, Ruleset};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwEvent};
use muster_shared::protocol::{ClientMsg, DeltaBody, ServerMsg, TableId, TableOptions};
use std::time::Duration;

/// One signed-in client following (at most) one GBACW table.
pub struct GbacwClient {
    pub conn: Connection,
    /// The name the failures print.
    pub name: String,
    pub table: Option<TableId>,
    pub follower: Option<Follower<Gbacw>>,
    pub seat: Option<SeatId>,
    pub chain: HashChain,
    /// Every frame received, as bytes.
    pub received: Vec<Bytes>,
    /// Every event folded, in order, as this client received it.
    pub events: Vec<GbacwEvent>,
    next_ref: u32,
}

impl GbacwClient {
    /// Connect to `target` (over QUIC when `quic`) and sign in as a guest.
    pub async fn connect(target: &Target, quic: bool, name: &str) -> GbacwClient {
        let mut conn = Connection::connect(target.url(quic), &target.options())
            .await
            .expect("connect");
        conn.sign_in_guest(name).await.expect("sign in");
        GbacwClient::over(conn, name)
    }

    /// A client over a connection already signed in.
    pub fn over(conn: Connection, name: &str) -> GbacwClient {
        GbacwClient {
            conn,
            name: name.to_string(),
            table: None,
            follower: None,
            seat: None,
            chain: HashChain::generate(4096),
            received: Vec::new(),
            events: Vec::new(),
            next_ref: 1,
        }
    }

    pub fn follower(&self) -> &Follower<Gbacw> {
        self.follower.as_ref().expect("following a table")
    }

    /// The last sequence number folded (0 before the snapshot).
    pub fn seq(&self) -> u64 {
        self.follower.as_ref().map_or(0, Follower::seq)
    }

    /// Receive one message within `limit` and fold it.
    pub async fn step(&mut self, limit: Duration) -> Result<ServerMsg, NetError> {
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

    /// Fold messages until one satisfies `pred` (within [`WAIT`]).
    pub async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
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

    /// Fold messages until the table is at `seq` (within [`WAIT`]).
    pub async fn sync_to(&mut self, seq: u64) {
        let end = tokio::time::Instant::now() + WAIT;
        while self.seq() < seq {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            self.step(left)
                .await
                .unwrap_or_else(|e| panic!("{}: syncing to {seq}: {e}", self.name));
        }
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        self.conn.send(&msg).await.expect("send");
    }

    /// Create a table; its id and invite code.
    pub async fn create_table(&mut self, options: TableOptions) -> (TableId, Option<String>) {
        self.send(ClientMsg::CreateTable { options }).await;
        match self
            .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::TableCreated { table, invite } => (table, invite),
            other => panic!("{}: table not created: {other:?}", self.name),
        }
    }

    /// Take `seat` and publish this seat's dice anchor.
    pub async fn sit(&mut self, table: TableId, seat: SeatId, invite: Option<String>) {
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

    /// Watch `table` as a spectator.
    pub async fn spectate(&mut self, table: TableId, invite: Option<String>) {
        self.table = Some(table);
        self.send(ClientMsg::Spectate { table, invite }).await;
        self.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    }

    /// Send an action (with this seat's next chain link when it rolls) and
    /// wait for its answer: `Ok(seq)` when accepted.
    pub async fn act(&mut self, action: &GbacwAction) -> Result<u64, RuleError> {
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
    pub fn saw(&self, needle: &[u8]) -> bool {
        self.received
            .iter()
            .any(|b| b.windows(needle.len()).any(|w| w == needle))
    }
}

/// Who moves at a Cedar Mountain table the socket tests play to the
/// engine's end: decisions by their defaults; the Confederates (seat 1)
/// attack, so that the victory points differ; the Union ends its phases,
/// moving first when a rule refuses that (GBACW 17.52: a leader left
/// alone by a retreat must move first), and mends any stack left over its
/// limits (8.0) before a phase ends.
pub struct CedarScript {
    attacker: crate::gbacw_policy::Player,
    union: crate::gbacw_policy::Player,
    /// The Union's last `EndPhase` was refused, this many times in a row.
    stuck: u32,
    ch: crate::random_play::Chooser,
    /// Attacks refused over the wire (the dice differ from the policy's
    /// check).
    tries: u32,
}

impl CedarScript {
    pub fn new(seed: u64) -> CedarScript {
        use crate::gbacw_policy::{Player, Temper};
        CedarScript {
            attacker: Player::new(Temper::assault()),
            union: Player::new(Temper::quiet(u16::MAX)),
            stuck: 0,
            ch: crate::random_play::Chooser::new(seed),
            tries: 0,
        }
    }

    /// The next seat to act and its action.
    pub fn next(
        &mut self,
        rs: &Gbacw,
        st: &muster_shared::gbacw::ruleset::GbacwState,
    ) -> (SeatId, GbacwAction) {
        if let Some(p) = rs.pending(st).into_iter().next() {
            return (p.seat, p.default);
        }
        let seat = rs
            .acting_seat(st)
            .expect("someone acts while the game is on");
        let attack = if seat == SeatId(1) {
            (!crate::gbacw_policy::deciding(st) && self.tries < 400)
                .then(|| self.attacker.next(rs, st, seat, &mut self.ch))
                .flatten()
        } else if self.stuck > 0 {
            self.union.next(rs, st, seat, &mut self.ch)
        } else {
            None
        };
        let attack =
            attack.or_else(|| crate::gbacw_biased_game::mend_now(rs, st, seat, &mut self.ch));
        (seat, attack.unwrap_or(GbacwAction::EndPhase))
    }

    /// `action` by `seat` was accepted.
    pub fn accepted(&mut self, action: &GbacwAction) {
        if *action == GbacwAction::EndPhase {
            self.stuck = 0;
        }
    }

    /// `action` by `seat` was refused with `e`: whether to go on (the
    /// script tries something else); panics when it cannot.
    pub fn refused(&mut self, seat: SeatId, action: &GbacwAction, e: &RuleError) {
        if *action != GbacwAction::EndPhase {
            self.tries += 1;
            self.attacker.forget();
            self.union.forget();
        } else if seat == SeatId(0) && self.stuck < 20 {
            // The Union's end of phase refused: it moves first.
            self.stuck += 1;
        } else {
            panic!("{action:?} refused: {e}");
        }
    }
}
