//! A player's club connection for the club socket tests: sign in as a
//! guest, come back after a restart, ask the club and wait for its news
//! (tables, byes, results) without losing the news that comes meanwhile.

use crate::e2e::Target;
use muster_client::Connection;
use muster_shared::SeatId;
use muster_shared::protocol::club::{ClubError, ClubReply, ClubRequest, GameResult};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId, UserId};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Longest wait for one club message (a round's tables are made at once).
pub const WAIT: Duration = Duration::from_secs(30);

/// A refusal's kind and words; panics on any other answer.
pub fn refused(r: ClubReply) -> (ClubError, String) {
    match r {
        ClubReply::Refused { error, message } => (error, message),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A player's (or the director's) club connection.
pub struct ClubPlayer {
    pub name: String,
    pub conn: Connection,
    pub user: UserId,
    pub token: String,
    /// News that arrived while waiting for something else.
    pub news: VecDeque<ClubReply>,
}

pub fn is_news(r: &ClubReply) -> bool {
    matches!(
        r,
        ClubReply::YourTable { .. } | ClubReply::Bye { .. } | ClubReply::Result { .. }
    )
}

pub async fn connect(t: &Target) -> Connection {
    Connection::connect(t.url(false), &t.options())
        .await
        .expect("connect")
}

impl ClubPlayer {
    pub async fn guest(t: &Target, name: &str) -> ClubPlayer {
        let mut conn = connect(t).await;
        let (user, token) = conn.sign_in_guest(name).await.expect("sign in");
        ClubPlayer {
            name: name.into(),
            conn,
            user,
            token,
            news: VecDeque::new(),
        }
    }

    /// A new connection to a (restarted) server, resuming the identity.
    pub async fn back(&mut self, t: &Target) {
        let mut conn = connect(t).await;
        let user = conn.resume(&self.token).await.expect("resume");
        assert_eq!(user, self.user, "{} is still {}", self.name, self.user.0);
        self.conn = conn;
        self.news.clear();
    }

    pub async fn recv_club(&mut self) -> ClubReply {
        loop {
            match self.conn.recv_timeout(WAIT).await {
                Ok(ServerMsg::Club(r)) => return r,
                Ok(_) => continue,
                Err(e) => panic!("{}: waiting for the club: {e}", self.name),
            }
        }
    }

    /// Make this guest an account with `password`, asserting it is claimed.
    pub async fn claim_account(&mut self, password: &str) {
        let r = self
            .ask(ClubRequest::ClaimAccount {
                password: password.into(),
            })
            .await;
        assert!(matches!(r, ClubReply::AccountClaimed { .. }), "{r:?}");
    }

    /// Create a club named `name`, which must be accepted.
    pub async fn create_club(&mut self, name: &str) -> muster_shared::protocol::club::ClubId {
        match self
            .ask(ClubRequest::CreateClub { name: name.into() })
            .await
        {
            ClubReply::ClubCreated { club, .. } => club,
            other => panic!("club {name:?} not created: {other:?}"),
        }
    }

    /// Send a request; its answer (news arriving meanwhile is kept).
    pub async fn ask(&mut self, req: ClubRequest) -> ClubReply {
        self.conn.send(&ClientMsg::Club(req)).await.expect("send");
        loop {
            let r = self.recv_club().await;
            if is_news(&r) {
                self.news.push_back(r);
            } else {
                return r;
            }
        }
    }

    /// The next news matching `pick` (bounded: each message by [`WAIT`],
    /// the whole search by twice that).
    pub async fn news_where(&mut self, pick: impl Fn(&ClubReply) -> bool) -> ClubReply {
        if let Some(i) = self.news.iter().position(&pick) {
            return self.news.remove(i).expect("present");
        }
        let end = Instant::now() + 2 * WAIT;
        loop {
            assert!(Instant::now() < end, "{}: the news never came", self.name);
            let r = self.recv_club().await;
            if pick(&r) {
                return r;
            }
            if is_news(&r) {
                self.news.push_back(r);
            }
        }
    }

    pub async fn result_of(&mut self, table: TableId) -> GameResult {
        match self
            .news_where(|r| matches!(r, ClubReply::Result { table: t, .. } if *t == table))
            .await
        {
            ClubReply::Result { result, .. } => result,
            _ => unreachable!(),
        }
    }

    /// Sit at `table` in `seat` on the club connection: the table exists,
    /// with this seat bound to this player.
    pub async fn look(&mut self, table: TableId, seat: u8) {
        self.conn
            .send(&ClientMsg::JoinSeat {
                table,
                seat: Some(SeatId(seat)),
                invite: None,
            })
            .await
            .expect("send");
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.conn.recv_timeout(left).await {
                Ok(ServerMsg::Snapshot(s)) => {
                    assert_eq!(s.table, table);
                    assert_eq!(s.seat, Some(SeatId(seat)), "{} sits where told", self.name);
                    return;
                }
                Ok(ServerMsg::Error { message, .. }) => panic!("{}: {message}", self.name),
                Ok(ServerMsg::Club(r)) if is_news(&r) => self.news.push_back(r),
                Ok(_) => {}
                Err(e) => panic!("{}: no snapshot of table {}: {e}", self.name, table.0),
            }
        }
    }
}

/// The event most club tests start from: Cedar Mountain, `rounds` rounds
/// of Swiss, sides at random, check-in, a 600 s bank lost at zero, the
/// default points, seed 0. Tests change what they are about with
/// struct-update syntax (`EventSettings { seed: 5, ..cedar_event(…) }`).
pub fn cedar_event(name: &str, rounds: u8) -> muster_shared::protocol::club::EventSettings {
    use muster_shared::protocol::club::{
        AtZero, EventSettings, PairingMethod, PointsTable, SideAssignment, TimeControl,
    };
    let config = muster_shared::gbacw::ruleset::GbacwConfig {
        battle: "cedar_mountain".into(),
        ..muster_shared::gbacw::ruleset::GbacwConfig::default()
    };
    EventSettings {
        name: name.into(),
        ruleset: "gbacw".into(),
        scenario: "Cedar Mountain".into(),
        config: muster_shared::codec::encode_infallible(&config),
        rounds,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Random,
        invite_only: false,
        check_in: true,
        time: Some(TimeControl {
            bank_secs: 600,
            increment_secs: 0,
            per_decision_secs: 0,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 0,
        round_scenarios: Vec::new(),
    }
}

/// A guest for each of `names`, each registered for `event` (accepted).
pub async fn register_guests(
    t: &Target,
    event: muster_shared::protocol::club::EventId,
    names: &[&str],
) -> Vec<ClubPlayer> {
    let mut players = Vec::new();
    for n in names {
        let mut p = ClubPlayer::guest(t, n).await;
        let r = p
            .ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
        assert_eq!(r, ClubReply::Registered { event }, "{n}");
        players.push(p);
    }
    players
}
