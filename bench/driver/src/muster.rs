//! Muster's slot: WebSocket and QUIC.
//!
//! Pending. Muster's headless network client landed in client/src/net/
//! (commit "Headless network client ...") while this driver was being
//! written, after the peer runs had started; wiring it in is the next step.
//! What it takes, from client/src/net/mod.rs and tests/src/bin/muster-load.rs:
//! 1. `muster-client = { path = "../../client" }` and
//!    `muster-shared = { path = "../../shared" }` in bench/driver/Cargo.toml
//!    (this workspace then builds quinn/rustls/ring too).
//! 2. `join`: `Connection::connect(url, &ConnectOptions { fingerprint, .. })`
//!    (`ws://` or `quic://`; the QUIC fingerprint is printed by the server at
//!    start), `sign_in_guest(name)` (keep the token for `resume`), then
//!    seat 0 sends `CreateTable { options: sandbox table }` and `JoinSeat`,
//!    seat 1 `JoinSeat`, spectators `Spectate`; wait for `Snapshot`. Each
//!    seat publishes a dice anchor (`PublishAnchor`, a `HashChain`).
//! 3. `send_move`: `Act` with the sandbox action(s) and the seat's
//!    `SeatLink`; `recv`: `ServerMsg::Delta { seq, .. }` -> `Seen`.
//!    Game parity: the sandbox has `Move` and `Roll` as separate actions;
//!    "move the counter to a hex and roll a die" as one action (one delta,
//!    like the peers' one update per move) needs either a combined sandbox
//!    action or the driver sending both and timing the second delta. Say
//!    which in RESULTS.md.
//! 4. `reconnect`: drop the link, `Connection::connect` + `resume(token)`,
//!    spectate again with the last `seq` seen.
//! 5. bench/run.sh: start `muster-server serve` (release build of the root
//!    workspace) with the same pinning, and add the muster-ws / muster-quic
//!    rows; RESULTS.md then gets Muster's column and its ratios.

use anyhow::{Result, bail};

use crate::target::{Client, Event, Meter, Role, Seen, Target};

#[derive(Clone, Copy, Debug)]
pub enum Transport {
    Ws,
    Quic,
}

pub struct Muster {
    pub addr: String,
    pub transport: Transport,
}

/// A table's index in the run; Muster's server assigns the table ID when
/// seat 0 creates it.
pub struct MusterTable {
    #[allow(dead_code)]
    pub index: usize,
}

pub struct MusterClient;

const PENDING: &str = "Muster's headless client (client/src/net) has not landed yet";

impl Target for Muster {
    type Table = MusterTable;
    type Client = MusterClient;

    fn table(&self, index: usize) -> MusterTable {
        MusterTable { index }
    }

    async fn join(&self, _table: &MusterTable, _role: Role, _meter: Meter) -> Result<(MusterClient, Seen)> {
        let _ = (&self.addr, self.transport);
        bail!(PENDING)
    }
}

impl Client for MusterClient {
    async fn send_move(&mut self, _hex: (u8, u8)) -> Result<()> {
        bail!(PENDING)
    }
    async fn recv(&mut self) -> Result<Event> {
        bail!(PENDING)
    }
    async fn reconnect(&mut self) -> Result<Seen> {
        bail!(PENDING)
    }
}
