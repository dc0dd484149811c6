//! What the driver needs from a server under test, and nothing more.
//!
//! Every server plays the same game: a table has two seats and S spectators;
//! the seat whose turn it is moves the counter to a hex and rolls a die, and
//! every seat and spectator receives the result. A [`Target`] knows how to
//! make a table exist and how to seat a client at it; a [`Client`] sends
//! moves, reports the state it sees, and can drop and re-establish its link.
//!
//! To add Muster: implement these two traits over Muster's headless client
//! (client/src/net/, once it lands) in `muster.rs`, once for WebSocket and
//! once for QUIC; main.rs already has the `muster-ws` / `muster-quic` slots.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Result;

/// Who a client is at its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Seat 0 or 1; seat 0 moves first and seats alternate.
    Player(u8),
    /// Watches; never sends a move.
    Spectator,
}

/// The part of a table's state the driver checks: how many moves have been
/// made (the move that produced this state is number `moves - 1`) and the
/// last die rolled (0 before the first move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub moves: u64,
    pub die: u8,
}

/// What a client's receive loop reports.
#[derive(Debug)]
pub enum Event {
    /// A state after a move (or a full state).
    State(Seen),
    /// Anything else the server sends (presence, keep-alive, ...).
    Other,
}

/// Bytes on the wire for a group of clients: what the TCP sockets read and
/// wrote, framing and keep-alive included.
#[derive(Clone, Default)]
pub struct Meter {
    pub down: Arc<AtomicU64>,
    pub up: Arc<AtomicU64>,
}

impl Meter {
    pub fn down(&self) -> u64 {
        self.down.load(Ordering::Relaxed)
    }
    pub fn up(&self) -> u64 {
        self.up.load(Ordering::Relaxed)
    }
}

/// A server under test.
pub trait Target: Send + Sync + 'static {
    /// Whatever identifies a table to this server.
    type Table: Send + Sync + 'static;
    type Client: Client;

    /// A fresh table handle; `index` is unique within a run. Tables that need
    /// a create step on the server get it when seat 0 joins.
    fn table(&self, index: usize) -> Self::Table;

    /// Connect, join `table` as `role`, and wait for the first full state.
    /// Seat 0 must join a table before anyone else does.
    fn join(
        &self,
        table: &Self::Table,
        role: Role,
        meter: Meter,
    ) -> impl Future<Output = Result<(Self::Client, Seen)>> + Send;
}

/// One connected client.
pub trait Client: Send + 'static {
    /// Send this seat's move: the counter to `hex`, and roll. Only called
    /// when the last state seen says it is this seat's turn.
    fn send_move(&mut self, hex: (u8, u8)) -> impl Future<Output = Result<()>> + Send;

    /// The next thing the server sends. Cancel-safe: the driver selects on it.
    fn recv(&mut self) -> impl Future<Output = Result<Event>> + Send;

    /// Drop the connection abruptly (no goodbye), connect again, resume the
    /// same seat or spectator place, and wait for the state.
    fn reconnect(&mut self) -> impl Future<Output = Result<Seen>> + Send;
}
