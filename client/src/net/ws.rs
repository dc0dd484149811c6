//! WebSocket: one message per binary frame.

use super::{ConnectOptions, NetError};
use bytes::Bytes;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use muster_shared::codec::MAX_SERVER_MSG;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub(super) struct WsLink {
    sink: SplitSink<Ws, Message>,
    stream: SplitStream<Ws>,
}

impl WsLink {
    pub(super) async fn connect(
        url: &str,
        hostport: &str,
        opts: &ConnectOptions,
    ) -> Result<Self, NetError> {
        let hostport = hostport.split('/').next().unwrap_or(hostport);
        let addr = tokio::net::lookup_host(hostport)
            .await
            .map_err(|e| NetError::Io(e.to_string()))?
            .next()
            .ok_or_else(|| NetError::BadUrl(url.into()))?;
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(|e| NetError::Io(e.to_string()))?;
        if let Some(size) = opts.recv_buffer {
            socket
                .set_recv_buffer_size(size as u32)
                .map_err(|e| NetError::Io(e.to_string()))?;
        }
        let stream = tokio::time::timeout(super::CONNECT_TIMEOUT, socket.connect(addr))
            .await
            .map_err(|_| NetError::Timeout)?
            .map_err(|e| NetError::Io(e.to_string()))?;
        let _ = stream.set_nodelay(true);
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_SERVER_MSG))
            .max_frame_size(Some(MAX_SERVER_MSG));
        let (ws, _) = tokio::time::timeout(
            super::CONNECT_TIMEOUT,
            tokio_tungstenite::client_async_with_config(
                url,
                MaybeTlsStream::Plain(stream),
                Some(config),
            ),
        )
        .await
        .map_err(|_| NetError::Timeout)?
        .map_err(|e| NetError::Io(e.to_string()))?;
        let (sink, stream) = ws.split();
        Ok(WsLink { sink, stream })
    }

    pub(super) async fn send(&mut self, payload: Bytes) -> Result<(), NetError> {
        self.sink
            .send(Message::Binary(payload))
            .await
            .map_err(|e| NetError::Io(e.to_string()))
    }

    pub(super) async fn recv(&mut self) -> Result<Bytes, NetError> {
        loop {
            match self.stream.next().await {
                None | Some(Ok(Message::Close(_))) => return Err(NetError::Closed),
                Some(Ok(Message::Binary(b))) => return Ok(b),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(NetError::Io(e.to_string())),
            }
        }
    }

    pub(super) async fn close(mut self) {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), self.sink.close()).await;
    }
}
