//! Issue 20, item 7: a finished table left the lobby at once, so a
//! spectator watching with a delay learned the result from the lobby
//! before the board showed it. Now the table stays listed, as in play,
//! while its delayed spectators are shown the last actions (one every
//! `finish_reveal_ms`), and leaves the lobby only once they have seen the end.
//!
//! Played over real sockets: a GBACW table on the test battle, both seats
//! ending their phases until the game is over, a spectator three actions
//! behind, and a lobby watcher.

use muster_client::{Connection, Follower, NetError};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::engine::{ActionContext, RuleError, Ruleset};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig};
use muster_shared::protocol::{
    ClientMsg, DeltaBody, ServerMsg, TableId, TableOptions, TableStatus,
};
use muster_tests::e2e::{Target, WAIT, start_server};
use std::time::{Duration, Instant};

/// A client following a GBACW table (as in gbacw_corinth_secret_net.rs).
struct G {
    conn: Connection,
    table: Option<TableId>,
    follower: Option<Follower<Gbacw>>,
    seat: Option<SeatId>,
    chain: HashChain,
    next_ref: u32,
}

impl G {
    async fn connect(t: &Target, name: &str) -> G {
        let mut conn = Connection::connect(t.url(false), &t.options())
            .await
            .unwrap();
        conn.sign_in_guest(name).await.unwrap();
        G {
            conn,
            table: None,
            follower: None,
            seat: None,
            chain: HashChain::generate(4096),
            next_ref: 1,
        }
    }

    fn f(&self) -> &Follower<Gbacw> {
        self.follower.as_ref().expect("following")
    }

    fn seq(&self) -> u64 {
        self.follower.as_ref().map_or(0, Follower::seq)
    }

    async fn step(&mut self, limit: Duration) -> Result<ServerMsg, NetError> {
        let msg = self.conn.recv_timeout(limit).await?;
        match &msg {
            ServerMsg::Snapshot(s) => {
                self.follower = Some(Follower::from_snapshot(s).expect("snapshot"));
                self.seat = s.seat.or(self.seat);
            }
            ServerMsg::Delta { seq, body, .. } => {
                self.follower
                    .as_mut()
                    .expect("snapshot first")
                    .apply(*seq, body)
                    .expect("delta follows");
            }
            _ => {}
        }
        Ok(msg)
    }

    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        let end = tokio::time::Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let m = self.step(left).await.expect("a message in time");
            if pred(&m) {
                return m;
            }
        }
    }

    async fn sync_to(&mut self, seq: u64) {
        while self.seq() < seq {
            self.step(WAIT).await.expect("syncing");
        }
    }

    async fn sit(&mut self, table: TableId, seat: SeatId) {
        self.table = Some(table);
        self.conn
            .send(&ClientMsg::JoinSeat {
                table,
                seat: Some(seat),
                invite: None,
            })
            .await
            .unwrap();
        self.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
        let anchor = self.chain.anchor();
        if let Some(f) = self.follower.as_mut() {
            f.note_own_anchor(anchor);
        }
        self.conn
            .send(&ClientMsg::PublishAnchor { table, anchor })
            .await
            .unwrap();
        self.until(|m| {
            matches!(m, ServerMsg::Delta { body: DeltaBody::Anchor { party, anchor: a }, .. }
                if *party == Party::Seat(seat) && *a == anchor)
        })
        .await;
    }

    async fn act(&mut self, action: &GbacwAction) -> Result<u64, RuleError> {
        let (table, seat) = (self.table.unwrap(), self.seat.unwrap());
        let f = self.f();
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
        if let (Some(l), Some(f)) = (links.first(), self.follower.as_mut()) {
            f.note_sent(l.index, &bytes);
        }
        self.conn
            .send(&ClientMsg::Act {
                table,
                client_ref,
                action: bytes,
                links,
            })
            .await
            .unwrap();
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
            other => panic!("action failed: {other:?}"),
        }
    }
}

/// The lobby's status of `table` as a fresh watcher sees it (`None`: not listed).
async fn listed(t: &Target, table: TableId) -> Option<TableStatus> {
    let mut w = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    w.send(&ClientMsg::WatchLobby { on: true }).await.unwrap();
    match w.recv_timeout(WAIT).await.unwrap() {
        ServerMsg::Lobby { tables } => tables.iter().find(|s| s.table == table).map(|s| s.status),
        other => panic!("{other:?}"),
    }
}

const DELAY: u32 = 3;
const REVEAL_MS: u64 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_table_stays_listed_in_play_until_delayed_spectators_see_the_end() {
    let (server, _dir) = start_server(|c| c.limits.finish_reveal_ms = REVEAL_MS).await;
    let t = Target::of(&server);
    let mut union = G::connect(&t, "union").await;
    let mut rebel = G::connect(&t, "rebel").await;
    let mut watcher = G::connect(&t, "watcher").await;
    union
        .conn
        .send(&ClientMsg::CreateTable {
            options: TableOptions {
                ruleset: "gbacw".into(),
                scenario: "test".into(),
                config: codec::encode_infallible(&GbacwConfig::default()),
                private: false,
                spectators_allowed: true,
                spectator_delay: DELAY,
                take_back_needs_agreement: true,
            },
        })
        .await
        .unwrap();
    let table = match union
        .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::TableCreated { table, .. } => table,
        other => panic!("{other:?}"),
    };
    union.sit(table, SeatId(0)).await;
    rebel.sit(table, SeatId(1)).await;
    watcher.table = Some(table);
    watcher
        .conn
        .send(&ClientMsg::Spectate {
            table,
            invite: None,
        })
        .await
        .unwrap();
    watcher.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;

    // Both sides end their phases until the game is over.
    let mut seq = 0;
    let mut actions = 0;
    while !union.f().state().over {
        actions += 1;
        assert!(actions < 5000, "the test battle did not end");
        let f = union.f();
        let actor = f
            .ruleset()
            .acting_seat(f.state())
            .expect("someone acts while the game is on");
        let by = if actor == SeatId(0) {
            &mut union
        } else {
            &mut rebel
        };
        seq = by
            .act(&GbacwAction::EndPhase)
            .await
            .unwrap_or_else(|e| panic!("EndPhase refused: {e}"));
        union.sync_to(seq).await;
        rebel.sync_to(seq).await;
    }
    let ended = Instant::now();
    // The spectator is behind, and the lobby does not give the end away.
    assert_eq!(
        listed(&t, table).await,
        Some(TableStatus::Playing),
        "the finished table must stay listed as in play while spectators are behind"
    );
    assert!(watcher.seq() < seq);
    assert!(!watcher.follower.as_ref().unwrap().state().over);

    // The spectator is shown the last actions at the reveal pace…
    watcher.sync_to(seq).await;
    let seen = ended.elapsed();
    assert!(watcher.f().state().over, "the spectator sees the end");
    assert!(
        seen >= Duration::from_millis(REVEAL_MS * u64::from(DELAY) - 200),
        "the last actions came too fast for a delayed spectator: {seen:?}"
    );
    // …and only then does the table leave the lobby.
    let end = Instant::now() + WAIT;
    while listed(&t, table).await.is_some() {
        assert!(
            Instant::now() < end,
            "the finished table never left the lobby"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "{actions} actions to the end of the test battle; the spectator saw it {seen:?} later"
    );
    server.shutdown().await;
}
