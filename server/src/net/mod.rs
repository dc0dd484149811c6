//! Transports. Both carry the same protocol: [`ws`] one message per
//! WebSocket binary frame, [`quic`] length-prefixed frames on one
//! bidirectional QUIC stream. [`conn`] is everything after the bytes:
//! handshake, sign-in, lobby, and routing to rooms.

pub mod conn;
pub mod quic;
pub mod ws;
