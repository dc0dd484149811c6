//! A scripted club player for the club tests (`event_ui.rs`,
//! `lobby_events_ui.rs`): a connection kept open, requests sent, their
//! answers read with the news in between skipped.

use muster_client::{ConnectOptions, Connection};
use muster_shared::protocol::club::{ClubReply, ClubRequest};
use muster_shared::protocol::{ClientMsg, ServerMsg, UserId};
use std::time::Duration;

/// How long a scripted player waits for an answer.
pub const WAIT: Duration = Duration::from_secs(30);

pub struct Scripted {
    pub conn: Connection,
    pub user: UserId,
    pub token: String,
}

impl Scripted {
    pub async fn guest(url: &str, name: &str) -> Scripted {
        let mut conn = Connection::connect(url, &ConnectOptions::default())
            .await
            .expect("connect");
        let (user, token) = conn.sign_in_guest(name).await.expect("sign in");
        Scripted { conn, user, token }
    }

    /// Send a request; its answer (news meanwhile is skipped).
    pub async fn ask(&mut self, req: ClubRequest) -> ClubReply {
        self.conn.send(&ClientMsg::Club(req)).await.expect("send");
        loop {
            if let ServerMsg::Club(r) = self.conn.recv_timeout(WAIT).await.expect("an answer")
                && !matches!(
                    r,
                    ClubReply::YourTable { .. }
                        | ClubReply::Bye { .. }
                        | ClubReply::Result { .. }
                        | ClubReply::Notice { .. }
                )
            {
                return r;
            }
        }
    }
}
