//! QUIC: one bidirectional stream, length-prefixed frames both ways.
//!
//! Issue 22: a process's connections share one client endpoint (one UDP
//! socket and its driver task) per tokio runtime, and one TLS session
//! store per pinned server address, so a second connection to a server
//! (a reconnect, the next table) resumes the first one's TLS session: no
//! certificate is sent, signed or checked, only a fresh key exchange.

use super::{ConnectOptions, NetError, tls};
use bytes::{Buf, Bytes, BytesMut};
use muster_shared::codec::{FRAME_HEADER, MAX_SERVER_MSG, frame_len};
use quinn::crypto::rustls::QuicClientConfig;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Must match the server's ALPN id.
const ALPN: &[u8] = b"muster/1";
/// Kernel buffers of the shared endpoint's UDP socket: every connection of
/// the process shares it, and a burst of connects (a load driver, a
/// reconnect after a network blip) overflows the default 208 KiB; the
/// kernel caps the size at `net.core.rmem_max`/`wmem_max`.
const SHARED_UDP_BUFFER: usize = 4 * 1024 * 1024;
/// Runtimes remembered with their shared endpoint; an endpoint belongs to
/// the runtime it was made on (a test binary makes one per test).
const RUNTIMES: usize = 8;
/// Pinned server addresses remembered with their TLS session tickets.
const SERVERS: usize = 64;
/// Handshakes in flight at once in the process. In a burst of connects
/// (a reconnect storm, a load driver) every server's answer lands on the
/// one shared socket; unbounded, 1,000 at once overflowed its 4 MiB
/// buffer (`Udp RcvbufErrors`), and each lost packet cost its handshake
/// a retransmission timeout of a second or more.
const HANDSHAKES_IN_FLIGHT: usize = 64;
static HANDSHAKES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HANDSHAKES_IN_FLIGHT);

pub(super) struct QuicLink {
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
        let pin = tls::parse_pin(pin)?;
        let addr = resolve(hostport).await?;
        let (config, _) = server_tls(pin, addr)?;
        let endpoint = match &opts.quic_endpoint {
            Some(e) => e.clone(),
            None => shared_endpoint(addr)?,
        };
        let (conn, send, recv) = open(&endpoint, addr, config).await?;
        Ok(QuicLink {
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
        let addr = resolve(hostport).await?;
        // An endpoint of its own, closed once the probe is done.
        let endpoint = client_endpoint(unspecified(addr), None)?;
        let (conn, _send, _recv) = open(&endpoint, addr, client_config(crypto)?).await?;
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
        // The endpoint is shared: it sends the close and outlives this link.
        self.conn.close(0u32.into(), b"bye");
    }
}

/// `hostport`'s first address.
async fn resolve(hostport: &str) -> Result<SocketAddr, NetError> {
    tokio::net::lookup_host(hostport)
        .await
        .map_err(|e| NetError::Io(e.to_string()))?
        .next()
        .ok_or_else(|| NetError::BadUrl(hostport.into()))
}

/// The any-address of `addr`'s family, port 0.
fn unspecified(addr: SocketAddr) -> SocketAddr {
    let ip: std::net::IpAddr = if addr.is_ipv4() {
        std::net::Ipv4Addr::UNSPECIFIED.into()
    } else {
        std::net::Ipv6Addr::UNSPECIFIED.into()
    };
    SocketAddr::new(ip, 0)
}

/// This runtime's shared client endpoint for `addr`'s address family,
/// made on first use.
fn shared_endpoint(addr: SocketAddr) -> Result<quinn::Endpoint, NetError> {
    type Shared = Vec<(tokio::runtime::Id, bool, quinn::Endpoint)>;
    static ENDPOINTS: Mutex<Shared> = Mutex::new(Vec::new());
    let runtime = tokio::runtime::Handle::try_current()
        .map_err(|e| NetError::Io(e.to_string()))?
        .id();
    let v6 = addr.is_ipv6();
    let mut endpoints = ENDPOINTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, e)) = endpoints.iter().find(|(r, f, _)| *r == runtime && *f == v6) {
        return Ok(e.clone());
    }
    let endpoint = client_endpoint(unspecified(addr), Some(SHARED_UDP_BUFFER))?;
    if endpoints.len() >= RUNTIMES {
        // Most likely a runtime that has ended; a live one just makes another.
        endpoints.remove(0);
    }
    endpoints.push((runtime, v6, endpoint.clone()));
    Ok(endpoint)
}

/// The client config for the server at `addr` pinned to `pin`, and its
/// verifier, kept for the process's life: the config holds the session
/// tickets the server sent, and rustls resumes a session only under the
/// config that made it. Per pin and address, so that a ticket is only
/// ever offered to the server that issued it.
fn server_tls(
    pin: [u8; 32],
    addr: SocketAddr,
) -> Result<(quinn::ClientConfig, tls::Seen), NetError> {
    type Configs = Vec<([u8; 32], SocketAddr, quinn::ClientConfig, tls::Seen)>;
    static CONFIGS: Mutex<Configs> = Mutex::new(Vec::new());
    let mut configs = CONFIGS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, c, seen)) = configs.iter().find(|(p, a, _, _)| *p == pin && *a == addr) {
        return Ok((c.clone(), seen.clone()));
    }
    let (crypto, seen) = tls::pinned_client_config(pin)?;
    let config = client_config(crypto)?;
    if configs.len() >= SERVERS {
        configs.remove(0);
    }
    configs.push((pin, addr, config.clone(), seen.clone()));
    Ok((config, seen))
}

/// How many full TLS handshakes (the certificate shown and checked) this
/// process's connections to `hostport` (a literal address) pinned to
/// `pin` have made; the rest resumed a session.
pub(super) fn full_handshakes(hostport: &str, pin: &str) -> Result<u64, NetError> {
    let addr: SocketAddr = hostport
        .parse()
        .map_err(|_| NetError::BadUrl(hostport.into()))?;
    let (_, seen) = server_tls(tls::parse_pin(pin)?, addr)?;
    Ok(tls::certificates_checked(&seen))
}

/// A quinn client config: `crypto` with our ALPN id, and [`transport`].
fn client_config(mut crypto: rustls::ClientConfig) -> Result<quinn::ClientConfig, NetError> {
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = QuicClientConfig::try_from(crypto).map_err(|e| NetError::Tls(e.to_string()))?;
    let mut config = quinn::ClientConfig::new(Arc::new(crypto));
    config.transport_config(transport());
    Ok(config)
}

/// The client's transport settings, the same for every connection.
fn transport() -> Arc<quinn::TransportConfig> {
    static TRANSPORT: OnceLock<Arc<quinn::TransportConfig>> = OnceLock::new();
    TRANSPORT
        .get_or_init(|| {
            let mut t = quinn::TransportConfig::default();
            // Keep-alives well inside the server's 60 s idle timeout.
            t.keep_alive_interval(Some(Duration::from_secs(15)));
            // The server opens no streams and sends no datagrams: nothing
            // to set aside for them (quinn keeps a slot per stream allowed).
            t.max_concurrent_bidi_streams(0u8.into());
            t.max_concurrent_uni_streams(0u8.into());
            t.datagram_receive_buffer_size(None);
            Arc::new(t)
        })
        .clone()
}

/// Connect to `addr` on `endpoint` with `config` and open the table stream.
async fn open(
    endpoint: &quinn::Endpoint,
    addr: SocketAddr,
    config: quinn::ClientConfig,
) -> Result<(quinn::Connection, quinn::SendStream, quinn::RecvStream), NetError> {
    let open = async {
        let permit = HANDSHAKES.acquire().await.map_err(|_| NetError::Closed)?;
        // The pin authenticates the server, so the name only has to be well-formed.
        let conn = endpoint
            .connect_with(config, addr, "localhost")
            .map_err(|e| NetError::Io(e.to_string()))?
            .await
            .map_err(|e| NetError::Io(e.to_string()))?;
        drop(permit);
        let (send, recv) = conn
            .open_bi()
            .await
            .map_err(|e| NetError::Io(e.to_string()))?;
        Ok::<_, NetError>((conn, send, recv))
    };
    tokio::time::timeout(super::CONNECT_TIMEOUT, open)
        .await
        .map_err(|_| NetError::Timeout)?
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
