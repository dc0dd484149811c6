//! Muster's slot: WebSocket and QUIC.
//!
//! Pending: Muster's headless network client (client/src/net/) has not
//! landed, and the driver is meant to reuse it rather than re-implement the
//! protocol. When it lands:
//! 1. add `muster-client = { path = "../../client" }` to bench/driver/Cargo.toml;
//! 2. implement `join` / `send_move` / `recv` / `reconnect` below over it
//!    (a table is a sandbox match with two seats; the move is "counter to hex,
//!    roll a d6"; `Seen.moves` is the room sequence number of the delta or the
//!    match's move count, `Seen.die` the verified roll);
//! 3. bench/run.sh already has the `muster-ws` and `muster-quic` rows: give
//!    it the command that starts `muster-server` (MUSTER_CMD).

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
