//! [`EventLink`]: the event screens' own connection to a server, on its
//! own thread (as the lobby's [`crate::app::lobby::LobbyLink`] is): sign
//! in (a new guest, or an identity resumed by its token), then ask for the
//! event's status cards and "your games" every [`EventLink::connect`]'s
//! `every`, and send whatever the screens ask (a director's actions).
//! Every club answer comes back to the UI as an [`EventNews`]; a dropped
//! connection is re-established with the same identity, as the lobby's is
//! ([`crate::app::reconnect`]).

use crate::app::link::Waker;
use crate::app::net_table::SignIn;
use crate::app::reconnect::{self, Retried, resume};
use crate::net::{ConnectOptions, Connection, NetError};
use muster_shared::protocol::club::{ClubReply, ClubRequest, EventId};
use muster_shared::protocol::{ClientMsg, ServerMsg, UserId};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the screens are brought up to date by default.
pub const REFRESH: Duration = Duration::from_secs(1);

/// What the event connection reports.
#[derive(Clone, Debug)]
pub enum EventNews {
    SignedIn {
        user: UserId,
        name: String,
        token: String,
    },
    /// A club answer or news (a refusal included).
    Reply(ClubReply),
    /// The server said something went wrong outside the club's replies.
    Problem(String),
    /// Connecting failed for good.
    Failed(String),
    /// The connection broke; reconnecting.
    Lost(String),
    Reconnected,
}

/// The event screens' connection.
pub struct EventLink {
    to_net: mpsc::UnboundedSender<ClubRequest>,
    from_net: std_mpsc::Receiver<EventNews>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl EventLink {
    /// Connect to `url`, sign in, and follow `event` (its cards and your
    /// games asked for every `every`). Returns at once; watch
    /// [`EventLink::poll`].
    pub fn connect(
        url: &str,
        options: ConnectOptions,
        sign_in: SignIn,
        event: EventId,
        every: Duration,
    ) -> Result<Self, NetError> {
        let (to_net, cmds) = mpsc::unbounded_channel();
        let (news, from_net) = std_mpsc::channel();
        let waker: Arc<Mutex<Option<Waker>>> = Arc::new(Mutex::new(None));
        let task = Task {
            url: url.trim().to_string(),
            options,
            event,
            every: every.max(Duration::from_millis(50)),
            news,
            waker: waker.clone(),
        };
        std::thread::Builder::new()
            .name("muster-event".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(task.run(sign_in, cmds)),
                    Err(e) => task.emit(EventNews::Failed(e.to_string())),
                }
            })
            .map_err(|e| NetError::Io(e.to_string()))?;
        Ok(EventLink {
            to_net,
            from_net,
            waker,
        })
    }

    /// Send a club request; its answer arrives as [`EventNews::Reply`].
    pub fn send(&self, req: ClubRequest) {
        let _ = self.to_net.send(req);
    }

    pub fn poll(&self) -> Vec<EventNews> {
        self.from_net.try_iter().collect()
    }

    /// Called whenever something arrives (the UI asks for a repaint).
    pub fn set_waker(&self, waker: Waker) {
        if let Ok(mut w) = self.waker.lock() {
            *w = Some(waker);
        }
    }
}

struct Task {
    url: String,
    options: ConnectOptions,
    event: EventId,
    every: Duration,
    news: std_mpsc::Sender<EventNews>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl Task {
    async fn run(self, sign_in: SignIn, mut cmds: mpsc::UnboundedReceiver<ClubRequest>) {
        let (mut conn, token) = match self.first_connect(sign_in).await {
            Ok(x) => x,
            Err(e) => return self.emit(EventNews::Failed(e)),
        };
        loop {
            let why = match self.serve(&mut conn, &mut cmds).await {
                None => return conn.close().await,
                Some(why) => why,
            };
            self.emit(EventNews::Lost(why));
            let again = reconnect::until_connected(
                || reconnect::connect_as(&self.url, &self.options, &token, None),
                || cmds.is_closed(),
            )
            .await;
            conn = match again {
                Retried::Connected(c) => c,
                Retried::Gone => return,
                Retried::Forgotten(message) => {
                    return self.emit(EventNews::Failed(format!(
                        "the server no longer knows your identity ({message})"
                    )));
                }
            };
            self.emit(EventNews::Reconnected);
        }
    }

    async fn first_connect(&self, sign_in: SignIn) -> Result<(Connection, String), String> {
        let mut conn = Connection::connect(&self.url, &self.options)
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.url))?;
        let (user, name, token) = match sign_in {
            SignIn::Guest(name) => {
                let (user, token) = conn
                    .sign_in_guest(&name)
                    .await
                    .map_err(|e| format!("cannot sign in: {e}"))?;
                (user, name, token)
            }
            SignIn::Resume(token) => {
                let (user, name) = resume(&mut conn, &token)
                    .await
                    .map_err(|e| format!("cannot resume your identity: {e}"))?;
                (user, name, token)
            }
        };
        self.emit(EventNews::SignedIn {
            user,
            name,
            token: token.clone(),
        });
        Ok((conn, token))
    }

    /// Until the connection breaks (`Some(why)`) or the UI goes (`None`).
    async fn serve(
        &self,
        conn: &mut Connection,
        cmds: &mut mpsc::UnboundedReceiver<ClubRequest>,
    ) -> Option<String> {
        let mut refresh = tokio::time::interval(self.every);
        refresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut ping = self.options.ping_timer();
        let mut nonce = 0u64;
        loop {
            let sent = tokio::select! {
                _ = refresh.tick() => {
                    let watch = ClientMsg::Club(ClubRequest::Watch { event: self.event });
                    match conn.send(&watch).await {
                        Ok(()) => conn.send(&ClientMsg::Club(ClubRequest::YourGames)).await,
                        Err(e) => Err(e),
                    }
                }
                _ = ping.tick() => {
                    nonce += 1;
                    conn.send(&ClientMsg::Ping { nonce }).await
                }
                cmd = cmds.recv() => conn.send(&ClientMsg::Club(cmd?)).await,
                msg = conn.recv() => {
                    match msg {
                        Ok(ServerMsg::Club(r)) => self.emit(EventNews::Reply(r)),
                        Ok(ServerMsg::Error { message, .. }) => {
                            self.emit(EventNews::Problem(message))
                        }
                        Ok(_) => {}
                        Err(NetError::Decode(e)) => self.emit(EventNews::Problem(format!(
                            "the server sent a message this client cannot read: {e}"
                        ))),
                        Err(e) => return Some(e.to_string()),
                    }
                    Ok(())
                }
            };
            if let Err(e) = sent {
                return Some(e.to_string());
            }
        }
    }

    fn emit(&self, news: EventNews) {
        let _ = self.news.send(news);
        if let Ok(w) = self.waker.lock()
            && let Some(w) = w.as_ref()
        {
            w();
        }
    }
}
