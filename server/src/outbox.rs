//! What the server sends and where it queues it: the encoded frames
//! (`encode_msg`, `error_frame`) and a connection's outbound queue as a
//! room holds it ([`Outbox`]). Below both `net` (which fills and drains
//! the queues) and `room` (which pushes into them), so neither imports
//! the other's internals: `room` never imports `net`.

use bytes::Bytes;
use muster_shared::protocol::{ErrorCode, ServerMsg, TableId};
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

/// Encode a server message. Every server type is a plain derive, which
/// bincode always encodes.
pub fn encode_msg(msg: &ServerMsg) -> Bytes {
    Bytes::from(muster_shared::codec::encode_infallible(msg))
}

pub fn error_frame(code: ErrorCode, message: &str, client_ref: Option<u32>) -> Bytes {
    encode_msg(&ServerMsg::Error {
        code,
        message: message.to_string(),
        client_ref,
    })
}

/// Tables whose room dropped this connection for lagging.
#[derive(Default)]
pub struct Lag {
    tables: Mutex<Vec<TableId>>,
    pub(crate) notify: Notify,
}

impl Lag {
    pub(crate) fn take(&self) -> Vec<TableId> {
        std::mem::take(&mut *self.tables.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// What happened to a frame offered to a connection.
pub enum Push {
    Sent,
    /// The queue is full: the connection is not keeping up.
    Lagged,
    Closed,
}

/// A connection's outbound queue, as rooms hold it.
#[derive(Clone)]
pub struct Outbox {
    pub id: u64,
    pub(crate) tx: mpsc::Sender<Bytes>,
    lag: Arc<Lag>,
}

impl Outbox {
    pub(crate) fn new(id: u64, tx: mpsc::Sender<Bytes>, lag: Arc<Lag>) -> Outbox {
        Outbox { id, tx, lag }
    }

    /// Queue without waiting.
    pub fn push(&self, frame: Bytes) -> Push {
        match self.tx.try_send(frame) {
            Ok(()) => Push::Sent,
            Err(mpsc::error::TrySendError::Full(_)) => Push::Lagged,
            Err(mpsc::error::TrySendError::Closed(_)) => Push::Closed,
        }
    }

    /// The room dropped this connection from `table`; resync once drained.
    pub fn mark_lagged(&self, table: TableId) {
        let mut tables = self.lag.tables.lock().unwrap_or_else(|e| e.into_inner());
        if !tables.contains(&table) {
            tables.push(table);
        }
        drop(tables);
        self.lag.notify.notify_one();
    }
}
