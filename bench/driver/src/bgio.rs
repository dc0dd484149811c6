//! boardgame.io 0.50.2 over socket.io v4 / engine.io v4, WebSocket transport
//! only (no HTTP long-polling first: `transport=websocket` in the URL).
//!
//! Learned from the installed sources (bench/peers/boardgameio/node_modules):
//! - engine.io-parser: a text frame is one packet, its first character the
//!   type: "0" open (JSON handshake follows), "2" ping, "3" pong, "4" message.
//!   In engine.io v4 the server pings and the client answers "3".
//! - socket.io-parser: a message's payload is a socket.io packet: type digit
//!   ("0" CONNECT, "2" EVENT), then "/nsp," for a namespace other than "/",
//!   then JSON. So "40/muster," joins namespace /muster, and an event is
//!   `42/muster,["name",arg,...]`.
//! - boardgame.io's SocketIO transport (dist/cjs/server.js): one namespace per
//!   game; the client emits `sync` [matchID, playerID, credentials, numPlayers]
//!   and gets `sync` [matchID, {state, log, ...}]; a move is `update`
//!   [action, stateID, matchID, playerID] where action is
//!   {type: "MAKE_MOVE", payload: {type, args, playerID}}; after a move every
//!   client in the match gets `update` [matchID, state, log] (deltaState off)
//!   or `patch` [matchID, prevStateID, stateID, rfc6902Patch, log] (on).
//!   A move whose stateID is stale is dropped by the server, so a player
//!   tracks `_stateID` from what it receives.

use anyhow::{Context as _, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{WebSocketStream, client_async};

use crate::count::{Counted, connect};
use crate::target::{Client, Event, Meter, Role, Seen, Target};

const NSP: &str = "/muster";

pub struct Bgio {
    pub addr: String,
    /// Distinguishes runs against one server process (match IDs are global).
    pub run: String,
}

pub struct BgioTable {
    match_id: String,
}

pub struct BgioClient {
    addr: String,
    match_id: String,
    role: Role,
    meter: Meter,
    ws: WebSocketStream<Counted>,
    state_id: u64,
    seen: Seen,
}

impl Target for Bgio {
    type Table = BgioTable;
    type Client = BgioClient;

    fn table(&self, index: usize) -> BgioTable {
        BgioTable { match_id: format!("{}-{index}", self.run) }
    }

    async fn join(&self, table: &BgioTable, role: Role, meter: Meter) -> Result<(BgioClient, Seen)> {
        let ws = open(&self.addr, meter.clone()).await?;
        let mut c = BgioClient {
            addr: self.addr.clone(),
            match_id: table.match_id.clone(),
            role,
            meter,
            ws,
            state_id: 0,
            seen: Seen::default(),
        };
        let seen = c.sync().await?;
        Ok((c, seen))
    }
}

/// WebSocket + engine.io open + socket.io namespace connect.
async fn open(addr: &str, meter: Meter) -> Result<WebSocketStream<Counted>> {
    let tcp = connect(addr, meter).await.with_context(|| format!("connect {addr}"))?;
    let url = format!("ws://{addr}/socket.io/?EIO=4&transport=websocket");
    let (mut ws, _) = client_async(url, tcp).await.context("websocket handshake")?;
    // "0{...}" engine.io open.
    match ws.next().await {
        Some(Ok(Message::Text(t))) if t.starts_with('0') => {}
        other => bail!("expected engine.io open, got {other:?}"),
    }
    ws.send(Message::text(format!("40{NSP},"))).await?;
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) if t.starts_with(&format!("40{NSP},")) => return Ok(ws),
            Some(Ok(Message::Text(t))) if t.as_str() == "2" => ws.send(Message::text("3")).await?,
            Some(Ok(Message::Text(t))) if t.starts_with("44") => bail!("namespace refused: {t}"),
            Some(Ok(_)) => {}
            other => bail!("expected namespace connect, got {other:?}"),
        }
    }
}

impl BgioClient {
    fn player_id(&self) -> Value {
        match self.role {
            Role::Player(s) => Value::String(s.to_string()),
            Role::Spectator => Value::Null,
        }
    }

    async fn emit(&mut self, args: Value) -> Result<()> {
        self.ws.send(Message::text(format!("42{NSP},{args}"))).await?;
        Ok(())
    }

    /// Emit `sync` and wait for the server's `sync` answer.
    async fn sync(&mut self) -> Result<Seen> {
        let args = serde_json::json!(["sync", self.match_id, self.player_id(), Value::Null, 2]);
        self.emit(args).await?;
        loop {
            let (name, args) = self.next_event().await?;
            if name == "sync" {
                let state = args.get(1).and_then(|s| s.get("state")).ok_or_else(|| anyhow!("sync without state"))?;
                return self.take_full(state);
            }
        }
    }

    fn take_full(&mut self, state: &Value) -> Result<Seen> {
        self.state_id = state.get("_stateID").and_then(Value::as_u64).ok_or_else(|| anyhow!("no _stateID"))?;
        let g = state.get("G").ok_or_else(|| anyhow!("no G"))?;
        self.seen = Seen {
            moves: g.get("moves").and_then(Value::as_u64).unwrap_or(0),
            die: g.get("die").and_then(Value::as_u64).unwrap_or(0) as u8,
        };
        Ok(self.seen)
    }

    /// Next socket.io event on our namespace, answering pings on the way.
    async fn next_event(&mut self) -> Result<(String, Value)> {
        let prefix = format!("42{NSP},");
        loop {
            let msg = self.ws.next().await.ok_or_else(|| anyhow!("connection closed"))??;
            let Message::Text(t) = msg else { continue };
            if t.as_str() == "2" {
                self.ws.send(Message::text("3")).await?;
                continue;
            }
            if let Some(json) = t.strip_prefix(prefix.as_str()) {
                let mut v: Value = serde_json::from_str(json)?;
                let arr = v.as_array_mut().ok_or_else(|| anyhow!("event not an array"))?;
                if arr.is_empty() {
                    bail!("empty event");
                }
                let name = arr.remove(0).as_str().unwrap_or_default().to_string();
                return Ok((name, Value::Array(std::mem::take(arr))));
            }
        }
    }
}

impl Client for BgioClient {
    async fn send_move(&mut self, hex: (u8, u8)) -> Result<()> {
        let pid = self.player_id();
        let action = serde_json::json!({
            "type": "MAKE_MOVE",
            "payload": { "type": "move", "args": [{ "q": hex.0, "r": hex.1 }], "playerID": pid },
        });
        let args = serde_json::json!(["update", action, self.state_id, self.match_id, pid]);
        self.emit(args).await
    }

    async fn recv(&mut self) -> Result<Event> {
        let (name, args) = self.next_event().await?;
        match name.as_str() {
            "update" => {
                let state = args.get(1).ok_or_else(|| anyhow!("update without state"))?;
                Ok(Event::State(self.take_full(state)?))
            }
            "patch" => {
                // [matchID, prevStateID, stateID, patch, log]
                self.state_id = args.get(2).and_then(Value::as_u64).ok_or_else(|| anyhow!("patch without stateID"))?;
                let ops = args.get(3).and_then(Value::as_array).ok_or_else(|| anyhow!("patch without ops"))?;
                let mut moved = false;
                for op in ops {
                    let path = op.get("path").and_then(Value::as_str).unwrap_or_default();
                    let value = op.get("value");
                    match path {
                        "/G/moves" => {
                            self.seen.moves = value.and_then(Value::as_u64).unwrap_or(self.seen.moves);
                            moved = true;
                        }
                        "/G/die" => self.seen.die = value.and_then(Value::as_u64).unwrap_or(0) as u8,
                        _ => {}
                    }
                }
                if moved { Ok(Event::State(self.seen)) } else { Ok(Event::Other) }
            }
            "sync" => {
                let state = args.get(1).and_then(|s| s.get("state")).ok_or_else(|| anyhow!("sync without state"))?;
                Ok(Event::State(self.take_full(state)?))
            }
            _ => Ok(Event::Other),
        }
    }

    async fn reconnect(&mut self) -> Result<Seen> {
        // Close the socket under the WebSocket: no close frame, no goodbye.
        let _ = tokio::io::AsyncWriteExt::shutdown(self.ws.get_mut()).await;
        self.ws = open(&self.addr, self.meter.clone()).await?;
        self.sync().await
    }
}
