//! Colyseus 0.18 (@colyseus/core + @colyseus/ws-transport), binary protocol.
//!
//! Learned from the installed sources (bench/peers/colyseus/node_modules):
//! - Matchmaking (core router/default_routes): `POST /matchmake/:method/:room`
//!   with JSON options answers a seat reservation {name, roomId, sessionId,
//!   processId}; methods used here: `create`, `joinById`, `reconnect`
//!   (body {reconnectionToken}).
//! - The WebSocket (ws-transport WebSocketTransport.onConnection and the SDK's
//!   Client.buildEndpoint) goes to `/:processId/:roomId?sessionId=...`, plus
//!   `&reconnectionToken=...` to take a dropped seat back.
//! - Frames (shared-types Protocol, SDK Room): first byte the code (low 5
//!   bits; 0x80 = TIMED prefix, unused here). Server sends JOIN_ROOM (10)
//!   [len u8][reconnectionToken][len u8][serializerId]...; the client answers
//!   a bare [10]; then ROOM_STATE (14) with the full state, and
//!   ROOM_STATE_PATCH (15) per broadcastPatch. A message from the client is
//!   ROOM_DATA (13) [type as msgpack string][msgpack payload].
//! - Schema encoding (@colyseus/schema encodeSchemaOperation): after an
//!   optional SWITCH_TO_STRUCTURE (255) + refId, each change is one byte
//!   (operation | field index; ADD 128, REPLACE 0, DELETE 64) then the value
//!   in the field's type (uint32 as 4 bytes LE, int8/uint8 as 1 byte).
//!   The peer's TableState fields: moves u32, q i8, r i8, die u8, turn u8.

use std::sync::{Arc, OnceLock};

use anyhow::{Context as _, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::time::{Duration, sleep};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{WebSocketStream, client_async};

use crate::count::{Counted, connect};
use crate::http::post_json;
use crate::target::{Client, Event, Meter, Role, Seen, Target};

const JOIN_ROOM: u8 = 10;
const ERROR: u8 = 11;
const ROOM_DATA: u8 = 13;
const ROOM_STATE: u8 = 14;
const ROOM_STATE_PATCH: u8 = 15;
const CODE_MASK: u8 = 31;

pub struct Colyseus {
    pub addr: String,
}

/// The room ID, known once seat 0 has created the room.
#[derive(Clone, Default)]
pub struct ColyseusTable(Arc<OnceLock<String>>);

pub struct ColyseusClient {
    addr: String,
    room_id: String,
    process_id: String,
    session_id: String,
    token: String,
    meter: Meter,
    ws: WebSocketStream<Counted>,
    seen: Seen,
}

impl Target for Colyseus {
    type Table = ColyseusTable;
    type Client = ColyseusClient;

    fn table(&self, _index: usize) -> ColyseusTable {
        ColyseusTable::default()
    }

    async fn join(&self, table: &ColyseusTable, role: Role, meter: Meter) -> Result<(ColyseusClient, Seen)> {
        let options = match role {
            Role::Player(_) => json!({ "role": "player" }),
            Role::Spectator => json!({ "role": "spectator" }),
        };
        let seat = match (role, table.0.get()) {
            (Role::Player(0), None) => post_json(&self.addr, "/matchmake/create/table", &options, meter.clone()).await?,
            (_, Some(room)) => {
                post_json(&self.addr, &format!("/matchmake/joinById/{room}"), &options, meter.clone()).await?
            }
            (_, None) => bail!("seat 0 must create the room first"),
        };
        let field = |k: &str| seat.get(k).and_then(Value::as_str).map(str::to_string).ok_or_else(|| anyhow!("seat reservation without {k}: {seat}"));
        let room_id = field("roomId")?;
        if role == Role::Player(0) {
            let _ = table.0.set(room_id.clone());
        }
        let mut c = ColyseusClient {
            addr: self.addr.clone(),
            process_id: field("processId")?,
            session_id: field("sessionId")?,
            room_id,
            token: String::new(),
            meter: meter.clone(),
            ws: ws_open(&self.addr, &field("processId")?, &field("roomId")?, &field("sessionId")?, None, meter).await?,
            seen: Seen::default(),
        };
        let seen = c.handshake().await?;
        Ok((c, seen))
    }
}

async fn ws_open(addr: &str, process: &str, room: &str, session: &str, token: Option<&str>, meter: Meter) -> Result<WebSocketStream<Counted>> {
    let tcp = connect(addr, meter).await.with_context(|| format!("connect {addr}"))?;
    let mut url = format!("ws://{addr}/{process}/{room}?sessionId={session}");
    if let Some(t) = token {
        url.push_str("&reconnectionToken=");
        url.push_str(t);
    }
    let (ws, _) = client_async(url, tcp).await.context("websocket handshake")?;
    Ok(ws)
}

impl ColyseusClient {
    /// JOIN_ROOM, acknowledge it, then the full state.
    async fn handshake(&mut self) -> Result<Seen> {
        let mut joined = false;
        for _ in 0..64 {
            let frame = self.next_frame().await?;
            match frame.first().map(|b| b & CODE_MASK) {
                Some(JOIN_ROOM) if !joined => {
                    let n = *frame.get(1).ok_or_else(|| anyhow!("short JOIN_ROOM"))? as usize;
                    let tok = frame.get(2..2 + n).ok_or_else(|| anyhow!("short JOIN_ROOM token"))?;
                    self.token = String::from_utf8_lossy(tok).into_owned();
                    self.ws.send(Message::binary(vec![JOIN_ROOM])).await?;
                    joined = true;
                }
                Some(ROOM_STATE) if joined => {
                    self.seen = Seen::default();
                    decode_state(&frame, &mut self.seen)?;
                    return Ok(self.seen);
                }
                Some(ERROR) => bail!("server error frame: {:?}", String::from_utf8_lossy(&frame[1..])),
                _ => {}
            }
        }
        bail!("no JOIN_ROOM + ROOM_STATE within 64 frames")
    }

    async fn next_frame(&mut self) -> Result<Vec<u8>> {
        loop {
            match self.ws.next().await.ok_or_else(|| anyhow!("connection closed"))?? {
                Message::Binary(b) => return Ok(b.to_vec()),
                Message::Close(c) => bail!("closed by server: {c:?}"),
                _ => {}
            }
        }
    }
}

/// Fold a ROOM_STATE or ROOM_STATE_PATCH frame for TableState into `seen`.
pub fn decode_state(frame: &[u8], seen: &mut Seen) -> Result<()> {
    let mut i = 1;
    let byte = |i: usize| frame.get(i).copied().ok_or_else(|| anyhow!("state frame cut at {i}: {frame:?}"));
    while i < frame.len() {
        let b = byte(i)?;
        i += 1;
        if b == 255 {
            // SWITCH_TO_STRUCTURE + refId (a schema "number"); one root here.
            let n = byte(i)?;
            i += match n {
                0..=0x7f => 1,
                0xcc => 2,
                0xcd => 3,
                0xce => 5,
                _ => bail!("refId encoding {n:#x}"),
            };
            continue;
        }
        let op = b & 0xc0;
        if op == 64 {
            continue; // DELETE: no value
        }
        match b & 0x3f {
            0 => {
                let v = frame.get(i..i + 4).ok_or_else(|| anyhow!("cut uint32"))?;
                seen.moves = u32::from_le_bytes([v[0], v[1], v[2], v[3]]) as u64;
                i += 4;
            }
            1 | 2 | 4 => i += 1,
            3 => {
                seen.die = byte(i)?;
                i += 1;
            }
            f => bail!("unknown field {f} in {frame:?}"),
        }
    }
    Ok(())
}

impl Client for ColyseusClient {
    async fn send_move(&mut self, hex: (u8, u8)) -> Result<()> {
        debug_assert!(hex.0 < 0x80 && hex.1 < 0x80);
        // ROOM_DATA, "move" as a msgpack fixstr, then msgpack {q, r}.
        let msg = vec![
            ROOM_DATA, 0xa4, b'm', b'o', b'v', b'e',
            0x82, 0xa1, b'q', hex.0, 0xa1, b'r', hex.1,
        ];
        self.ws.send(Message::binary(msg)).await?;
        Ok(())
    }

    async fn recv(&mut self) -> Result<Event> {
        let frame = self.next_frame().await?;
        match frame.first().map(|b| b & CODE_MASK) {
            Some(ROOM_STATE_PATCH) | Some(ROOM_STATE) => {
                decode_state(&frame, &mut self.seen)?;
                Ok(Event::State(self.seen))
            }
            Some(ERROR) => bail!("server error frame"),
            _ => Ok(Event::Other),
        }
    }

    async fn reconnect(&mut self) -> Result<Seen> {
        // Close the socket under the WebSocket: no close frame, no goodbye.
        let _ = tokio::io::AsyncWriteExt::shutdown(self.ws.get_mut()).await;
        // The server must see the drop (onDrop -> allowReconnection) before it
        // takes the token back; retry a bounded number of times.
        let mut last = None;
        for attempt in 0..40u64 {
            if attempt > 0 {
                sleep(Duration::from_millis(25 * attempt.min(8))).await;
            }
            let body = json!({ "reconnectionToken": self.token });
            match post_json(&self.addr, &format!("/matchmake/reconnect/{}", self.room_id), &body, self.meter.clone()).await {
                Ok(seat) => {
                    let session = seat.get("sessionId").and_then(Value::as_str).unwrap_or(&self.session_id).to_string();
                    let token = self.token.clone();
                    self.ws = ws_open(&self.addr, &self.process_id, &self.room_id, &session, Some(&token), self.meter.clone()).await?;
                    self.session_id = session;
                    return self.handshake().await;
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| anyhow!("reconnect failed")))
    }
}
