//! WebSocket transport: one protocol message per binary frame. Text frames
//! are protocol errors; tungstenite answers pings itself and refuses any
//! message over the client limit before buffering it.

use super::conn::{self, FrameRead, FrameWrite, ReadError, Transport};
use crate::Shared;
use bytes::Bytes;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use muster_shared::codec::MAX_CLIENT_MSG;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message, error::CapacityError};

/// Bytes fed before tungstenite writes without waiting for the flush.
const WRITE_BUFFER: usize = 16 * 1024;
/// Time allowed for the HTTP upgrade.
const UPGRADE_TIMEOUT: Duration = Duration::from_secs(10);

struct Reader(SplitStream<WebSocketStream<TcpStream>>);
struct Writer(SplitSink<WebSocketStream<TcpStream>, Message>);

impl FrameRead for Reader {
    async fn read(&mut self) -> Result<Option<Bytes>, ReadError> {
        loop {
            match self.0.next().await {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Ok(Message::Binary(b))) => return Ok(Some(b)),
                // A text frame is not a message: hand the conn layer bytes
                // that will not decode, so it counts as a bad frame.
                Some(Ok(Message::Text(_))) => return Ok(Some(Bytes::from_static(&[0xff]))),
                Some(Ok(_)) => continue, // ping/pong: handled by tungstenite
                Some(Err(WsError::Capacity(CapacityError::MessageTooLong { .. }))) => {
                    return Err(ReadError::TooLarge);
                }
                Some(Err(e)) => return Err(ReadError::Transport(e.to_string())),
            }
        }
    }
}

impl FrameWrite for Writer {
    async fn feed(&mut self, frame: Bytes) -> Result<(), String> {
        self.0
            .feed(Message::Binary(frame))
            .await
            .map_err(|e| e.to_string())
    }
    async fn flush(&mut self) -> Result<(), String> {
        self.0.flush().await.map_err(|e| e.to_string())
    }
    async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.0.close()).await;
    }
}

fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_CLIENT_MSG))
        .max_frame_size(Some(MAX_CLIENT_MSG))
        // Small buffers: most messages are a few hundred bytes, and memory
        // per idle connection matters at tens of thousands of sockets.
        // tungstenite zero-fills this much before every read (twice per
        // message: the read, then the one that finds nothing more), so
        // 1 KiB rather than 4 saves ~3,000 instructions per action (issue
        // 22); a message at the 64 KiB limit takes 64 reads instead of 16.
        .read_buffer_size(1024)
        // Frames are fed and then flushed once per writer wake-up: buffer
        // up to this much before writing through on its own.
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_CLIENT_MSG * 2 + muster_shared::codec::MAX_SERVER_MSG)
}

/// Connections the kernel holds for the accept loop (capped by the
/// system's `net.core.somaxconn`, 4096 on current Linux). tokio's
/// `TcpListener::bind` asks for 128 (mio's bind, as the standard library's):
/// a burst of a thousand clients joining at once (a club event's round
/// starting) overflowed it, the kernel dropped their SYNs, and those
/// clients waited out TCP's one-second retransmission (issue 22: join
/// bursts' p99 1.0 s instead of 0.16 s).
pub const LISTEN_BACKLOG: u32 = 4096;

/// The WebSocket listener on `addr`, with [`LISTEN_BACKLOG`].
pub fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server can bind its port
    // while the old connections are in TIME_WAIT. Not on Windows, where it
    // would let another process bind a port in use.
    #[cfg(not(windows))]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Accept WebSocket connections until shutdown.
pub async fn accept_loop(shared: Arc<Shared>, listener: TcpListener) {
    let mut shutdown = shared.shutdown.clone();
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: back off, keep serving.
                    tracing::warn!("ws accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = shutdown.changed() => return,
        };
        let _ = stream.set_nodelay(true);
        if let Some(size) = shared.config.limits.tcp_send_buffer {
            let _ = socket2::SockRef::from(&stream).set_send_buffer_size(size);
        }
        let shared = shared.clone();
        tokio::spawn(async move {
            let ws = match tokio::time::timeout(
                UPGRADE_TIMEOUT,
                tokio_tungstenite::accept_async_with_config(stream, Some(ws_config())),
            )
            .await
            {
                Ok(Ok(ws)) => ws,
                Ok(Err(e)) => {
                    tracing::debug!(%peer, "websocket upgrade failed: {e}");
                    return;
                }
                Err(_) => return,
            };
            let (sink, stream) = ws.split();
            conn::serve(
                shared,
                Transport::Ws,
                peer.ip(),
                Reader(stream),
                Writer(sink),
            )
            .await;
        });
    }
}
