//! QUIC: one bidirectional stream, length-prefixed frames both ways.

use super::{ConnectOptions, NetError, tls};
use bytes::{Buf, Bytes, BytesMut};
use muster_shared::codec::{FRAME_HEADER, MAX_SERVER_MSG, frame_len};
use quinn::crypto::rustls::QuicClientConfig;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Must match the server's ALPN id.
const ALPN: &[u8] = b"muster/1";

pub(super) struct QuicLink {
    endpoint: quinn::Endpoint,
    /// The endpoint is this connection's own (closing waits for it to go idle).
    own_endpoint: bool,
    conn: quinn::Connection,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    /// Bytes read but not yet returned as a frame; keeps `recv` cancel-safe.
    buf: BytesMut,
}

impl QuicLink {
    pub(super) async fn connect(hostport: &str, opts: &ConnectOptions) -> Result<Self, NetError> {
        let pin = opts.fingerprint.as_deref().ok_or_else(|| {
            NetError::Tls("quic:// needs the server's certificate fingerprint".into())
        })?;
        let crypto = tls::pinned_client_config(pin)?;
        let (endpoint, conn, send, recv) =
            open(hostport, crypto, opts.quic_endpoint.clone()).await?;
        Ok(QuicLink {
            own_endpoint: opts.quic_endpoint.is_none(),
            endpoint,
            conn,
            send,
            recv,
            buf: BytesMut::new(),
        })
    }

    /// Connect with no pin and return the fingerprint of the certificate
    /// the server showed (trust on first use: see `tls::Fingerprinted`).
    pub(super) async fn probe(hostport: &str) -> Result<String, NetError> {
        let (crypto, seen) = tls::recording_client_config()?;
        let (endpoint, conn, _send, _recv) = open(hostport, crypto, None).await?;
        conn.close(0u32.into(), b"probe");
        let _ = tokio::time::timeout(Duration::from_secs(1), endpoint.wait_idle()).await;
        tls::seen_fingerprint(&seen)
            .ok_or_else(|| NetError::Tls("the server showed no certificate".into()))
    }

    pub(super) async fn send_frame(&mut self, payload: Bytes) -> Result<(), NetError> {
        let len =
            u32::try_from(payload.len()).map_err(|_| NetError::Io("frame over 4 GiB".into()))?;
        let mut chunks = [Bytes::copy_from_slice(&len.to_be_bytes()), payload];
        self.send
            .write_all_chunks(&mut chunks)
            .await
            .map_err(|e| NetError::Io(e.to_string()))
    }

    pub(super) async fn send_bytes(&mut self, bytes: Bytes) -> Result<(), NetError> {
        self.send
            .write_all(&bytes)
            .await
            .map_err(|e| NetError::Io(e.to_string()))
    }

    pub(super) async fn recv(&mut self) -> Result<Bytes, NetError> {
        loop {
            if self.buf.len() >= FRAME_HEADER {
                let mut header = [0u8; FRAME_HEADER];
                header.copy_from_slice(&self.buf[..FRAME_HEADER]);
                let len = frame_len(header, MAX_SERVER_MSG)?;
                if self.buf.len() >= FRAME_HEADER + len {
                    self.buf.advance(FRAME_HEADER);
                    return Ok(self.buf.split_to(len).freeze());
                }
            }
            match self.recv.read_chunk(64 * 1024, true).await {
                Ok(Some(chunk)) => self.buf.extend_from_slice(&chunk.bytes),
                Ok(None) => return Err(NetError::Closed),
                Err(e) => return Err(NetError::Io(e.to_string())),
            }
        }
    }

    pub(super) async fn close(mut self) {
        let _ = self.send.finish();
        let _ = tokio::time::timeout(Duration::from_secs(1), self.send.stopped()).await;
        self.conn.close(0u32.into(), b"bye");
        if self.own_endpoint {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.endpoint.wait_idle()).await;
        }
    }
}

/// Open an endpoint (or use `shared`), connect to `hostport` with `crypto`
/// and open the table stream.
async fn open(
    hostport: &str,
    mut crypto: rustls::ClientConfig,
    shared: Option<quinn::Endpoint>,
) -> Result<
    (
        quinn::Endpoint,
        quinn::Connection,
        quinn::SendStream,
        quinn::RecvStream,
    ),
    NetError,
> {
    let addr: SocketAddr = tokio::net::lookup_host(hostport)
        .await
        .map_err(|e| NetError::Io(e.to_string()))?
        .next()
        .ok_or_else(|| NetError::BadUrl(hostport.into()))?;
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = QuicClientConfig::try_from(crypto).map_err(|e| NetError::Tls(e.to_string()))?;
    let mut config = quinn::ClientConfig::new(Arc::new(crypto));
    let mut transport = quinn::TransportConfig::default();
    // Keep-alives well inside the server's 60 s idle timeout.
    transport.keep_alive_interval(Some(Duration::from_secs(15)));
    config.transport_config(Arc::new(transport));
    let bind: SocketAddr = if addr.is_ipv4() {
        "0.0.0.0:0"
    } else {
        "[::]:0"
    }
    .parse()
    .map_err(|_| NetError::BadUrl(hostport.into()))?;
    let endpoint = match shared {
        Some(e) => e,
        None => client_endpoint(bind, None)?,
    };
    let open = async {
        // The pin authenticates the server, so the name only has to be well-formed.
        let conn = endpoint
            .connect_with(config, addr, "localhost")
            .map_err(|e| NetError::Io(e.to_string()))?
            .await
            .map_err(|e| NetError::Io(e.to_string()))?;
        let (send, recv) = conn
            .open_bi()
            .await
            .map_err(|e| NetError::Io(e.to_string()))?;
        Ok::<_, NetError>((conn, send, recv))
    };
    let (conn, send, recv) = tokio::time::timeout(super::CONNECT_TIMEOUT, open)
        .await
        .map_err(|_| NetError::Timeout)??;
    Ok((endpoint, conn, send, recv))
}

/// A client QUIC endpoint on `bind`; with `udp_buffer`, its UDP socket's
/// kernel buffers raised to that many bytes (capped by the kernel). One
/// connection needs the default; a driver that shares one socket among
/// hundreds of connections (the load harness) overflows it in bursts.
pub fn client_endpoint(
    bind: SocketAddr,
    udp_buffer: Option<usize>,
) -> Result<quinn::Endpoint, NetError> {
    let io = |e: std::io::Error| NetError::Io(e.to_string());
    let Some(size) = udp_buffer else {
        return quinn::Endpoint::client(bind).map_err(io);
    };
    use socket2::{Domain, Protocol, Socket, Type};
    let socket =
        Socket::new(Domain::for_address(bind), Type::DGRAM, Some(Protocol::UDP)).map_err(io)?;
    let _ = socket.set_recv_buffer_size(size);
    let _ = socket.set_send_buffer_size(size);
    socket.bind(&bind.into()).map_err(io)?;
    quinn::Endpoint::new(
        quinn::EndpointConfig::default(),
        None,
        socket.into(),
        Arc::new(quinn::TokioRuntime),
    )
    .map_err(io)
}
