//! QUIC transport: the client opens one bidirectional stream and both sides
//! send length-prefixed frames on it ([`muster_shared::codec::frame`]).
//! TLS 1.3 with a self-signed certificate generated on first run (kept in
//! the data directory, its SHA-256 fingerprint printed for clients to pin)
//! or a real certificate and key from the configuration.

use super::conn::{self, FrameRead, FrameWrite, ReadError, Transport};
use crate::Shared;
use crate::config::Config;
use bytes::Bytes;
use muster_shared::codec::{FRAME_HEADER, MAX_CLIENT_MSG, frame_len};
use quinn::crypto::rustls::QuicServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;
use std::time::Duration;

/// ALPN protocol id: refuses clients of some other protocol at the handshake.
pub const ALPN: &[u8] = b"muster/1";
/// Time allowed for the QUIC handshake and the client's stream.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// The certificate chain and key to serve, and the leaf's fingerprint.
pub struct Identity {
    pub certs: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
    pub fingerprint: String,
}

/// SHA-256 of a DER certificate, hex: the same value
/// `openssl x509 -fingerprint -sha256` shows, without the colons.
pub fn fingerprint(cert: &[u8]) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, cert))
}

/// Load the configured certificate, or the generated one, generating it
/// on first run.
pub fn load_identity(config: &Config) -> Result<Identity, String> {
    let (certs, key) = match (&config.tls_cert, &config.tls_key) {
        (Some(cert), Some(key)) => {
            let certs = CertificateDer::pem_file_iter(cert)
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| format!("{}: {e}", cert.display()))?;
            let key =
                PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{}: {e}", key.display()))?;
            (certs, key)
        }
        _ => {
            let cert_path = config.data_dir.join("quic-cert.der");
            let key_path = config.data_dir.join("quic-key.der");
            if !cert_path.exists() || !key_path.exists() {
                let names = vec![
                    "localhost".to_string(),
                    "127.0.0.1".to_string(),
                    "::1".to_string(),
                ];
                let ck = rcgen::generate_simple_self_signed(names).map_err(|e| e.to_string())?;
                write_private(&key_path, &ck.signing_key.serialize_der())?;
                std::fs::write(&cert_path, ck.cert.der()).map_err(|e| e.to_string())?;
                tracing::info!(
                    "generated a self-signed QUIC certificate in {}",
                    cert_path.display()
                );
            }
            let cert =
                std::fs::read(&cert_path).map_err(|e| format!("{}: {e}", cert_path.display()))?;
            let key =
                std::fs::read(&key_path).map_err(|e| format!("{}: {e}", key_path.display()))?;
            (
                vec![CertificateDer::from(cert)],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key)),
            )
        }
    };
    let leaf = certs
        .first()
        .ok_or("the certificate file holds no certificate")?;
    let fingerprint = fingerprint(leaf);
    Ok(Identity {
        certs,
        key,
        fingerprint,
    })
}

/// Write the key readable by its owner only.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(bytes).map_err(|e| e.to_string())
}

/// The server's TLS algorithms: *ring*'s, with the cipher suites cut to
/// those whose key schedule runs on SHA-256 (issue 22). A client that
/// prefers AES-256-GCM-SHA384 (rustls's first, and so this project's own
/// client) otherwise got it, and every handshake derived its dozen-odd
/// secrets with HMAC-SHA-384: 6 % of the server's CPU in a burst of QUIC
/// joins went to SHA-512 blocks, which no x86 instruction speeds up, where
/// SHA-256 has its own. Every QUIC client supports AES-128-GCM-SHA256
/// (RFC 9001 §5: its Initial packets use it), so nobody is shut out.
pub fn tls_provider() -> rustls::crypto::CryptoProvider {
    use rustls::crypto::ring::cipher_suite::{
        TLS13_AES_128_GCM_SHA256, TLS13_CHACHA20_POLY1305_SHA256,
    };
    rustls::crypto::CryptoProvider {
        cipher_suites: vec![TLS13_AES_128_GCM_SHA256, TLS13_CHACHA20_POLY1305_SHA256],
        ..rustls::crypto::ring::default_provider()
    }
}

/// The server's TLS configuration (TLS 1.3 only, its certificate, the ALPN
/// name, session tickets), before quinn wraps it for QUIC.
fn tls_config(id: &Identity) -> Result<rustls::ServerConfig, String> {
    let mut tls = rustls::ServerConfig::builder_with_provider(Arc::new(tls_provider()))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(id.certs.clone(), id.key.clone_key())
        .map_err(|e| e.to_string())?;
    tls.alpn_protocols = vec![ALPN.to_vec()];
    // Issue 22: resumption by stateless tickets (sealed with a random key
    // held in memory, rotated every 6 hours, a ticket good for 12; nothing
    // stored per client; a restarted server's tickets start afresh), so a
    // client's next connection skips the certificate and its signature.
    // Two tickets per handshake (rustls's default): a resumption spends
    // one, so a client's stock grows and a burst of its reconnects finds
    // one each. No 0-RTT (`max_early_data_size` stays 0): docs/server.md.
    tls.ticketer = rustls::crypto::ring::Ticketer::new().map_err(|e| e.to_string())?;
    Ok(tls)
}

pub fn server_config(id: &Identity) -> Result<quinn::ServerConfig, String> {
    let crypto = QuicServerConfig::try_from(tls_config(id)?).map_err(|e| e.to_string())?;
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
    let mut transport = quinn::TransportConfig::default();
    // One stream per connection is the protocol; refuse more.
    transport.max_concurrent_bidi_streams(1u8.into());
    transport.max_concurrent_uni_streams(0u8.into());
    // Issue 22, memory per idle connection: no datagrams; one datagram per
    // send (no segmentation offload), so the send buffer a connection keeps
    // between sends holds one packet, not a burst of ten; and no path MTU
    // probing (1,200-byte packets: a delta is a few hundred bytes).
    transport.datagram_receive_buffer_size(None);
    transport.enable_segmentation_offload(false);
    transport.mtu_discovery_config(None);
    // What a client can make the server hold for it: a frame is at most
    // MAX_CLIENT_MSG and the server reads one at a time.
    let window = quinn::VarInt::from_u32(4 * MAX_CLIENT_MSG as u32);
    transport.stream_receive_window(window);
    transport.receive_window(window);
    transport.max_idle_timeout(Some(
        Duration::from_secs(60)
            .try_into()
            .map_err(|_| "idle timeout")?,
    ));
    config.transport_config(Arc::new(transport));
    Ok(config)
}

/// Bytes reserved for a frame before its payload starts arriving.
const FIRST_CHUNK: usize = 4096;
/// Time a frame's payload has to arrive whole once its header has.
const FRAME_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

struct Reader(quinn::RecvStream);
struct Writer {
    send: quinn::SendStream,
    conn: quinn::Connection,
    /// Length prefixes and frames fed since the last flush.
    chunks: Vec<Bytes>,
}

impl FrameRead for Reader {
    async fn read(&mut self) -> Result<Option<Bytes>, ReadError> {
        let mut header = [0u8; FRAME_HEADER];
        match self.0.read_exact(&mut header).await {
            Ok(()) => {}
            // The stream ended between frames: a clean close.
            Err(quinn::ReadExactError::FinishedEarly(0)) => return Ok(None),
            Err(e) => return Err(ReadError::Transport(e.to_string())),
        }
        let len = frame_len(header, MAX_CLIENT_MSG)?;
        // Issue 20: the buffer grows as the payload's bytes arrive (a
        // header alone once reserved the whole frame, 64 KiB, for as long
        // as the peer cared to wait), and the payload has a deadline.
        let mut payload = Vec::with_capacity(len.min(FIRST_CHUNK));
        let stream = &mut self.0;
        let body = async {
            while payload.len() < len {
                match stream.read_chunk(len - payload.len(), true).await {
                    Ok(Some(chunk)) => payload.extend_from_slice(&chunk.bytes),
                    Ok(None) => {
                        return Err(ReadError::Transport(
                            "truncated frame: the stream ended".into(),
                        ));
                    }
                    Err(e) => return Err(ReadError::Transport(format!("truncated frame: {e}"))),
                }
            }
            Ok(())
        };
        tokio::time::timeout(FRAME_DEADLINE, body)
            .await
            .map_err(|_| ReadError::Transport("a frame did not arrive whole in time".into()))??;
        Ok(Some(Bytes::from(payload)))
    }
}

impl FrameWrite for Writer {
    async fn feed(&mut self, frame: Bytes) -> Result<(), String> {
        let len = u32::try_from(frame.len()).map_err(|_| "frame over 4 GiB")?;
        self.chunks.push(Bytes::copy_from_slice(&len.to_be_bytes()));
        self.chunks.push(frame);
        Ok(())
    }
    async fn flush(&mut self) -> Result<(), String> {
        let r = self
            .send
            .write_all_chunks(&mut self.chunks)
            .await
            .map_err(|e| e.to_string());
        self.chunks.clear();
        r
    }
    async fn close(mut self) {
        let _ = self.send.finish();
        // Let the peer receive what is in flight before the connection goes.
        let _ = tokio::time::timeout(Duration::from_secs(2), self.send.stopped()).await;
        self.conn.close(0u32.into(), b"bye");
    }
}

/// The server's QUIC endpoint on `addr`, its UDP socket's kernel buffers
/// raised to `buffer` bytes (`Limits::udp_socket_buffer` says why).
pub fn bind(
    config: quinn::ServerConfig,
    addr: std::net::SocketAddr,
    buffer: usize,
) -> std::io::Result<quinn::Endpoint> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    // Best effort: the kernel caps the size, and a smaller buffer only
    // costs drops under bursts.
    let _ = socket.set_recv_buffer_size(buffer);
    let _ = socket.set_send_buffer_size(buffer);
    socket.bind(&addr.into())?;
    tracing::debug!(
        recv = socket.recv_buffer_size().unwrap_or(0),
        send = socket.send_buffer_size().unwrap_or(0),
        "QUIC socket buffers"
    );
    quinn::Endpoint::new(
        quinn::EndpointConfig::default(),
        Some(config),
        socket.into(),
        Arc::new(quinn::TokioRuntime),
    )
}

/// Accept QUIC connections until shutdown.
pub async fn accept_loop(shared: Arc<Shared>, endpoint: quinn::Endpoint) {
    let mut shutdown = shared.shutdown.clone();
    loop {
        let incoming = tokio::select! {
            i = endpoint.accept() => match i {
                Some(i) => i,
                None => return,
            },
            _ = shutdown.changed() => break,
        };
        let shared = shared.clone();
        let peer = incoming.remote_address().ip();
        tokio::spawn(async move {
            let opened = tokio::time::timeout(OPEN_TIMEOUT, async {
                let conn = incoming.await.map_err(|e| e.to_string())?;
                let (send, recv) = conn.accept_bi().await.map_err(|e| e.to_string())?;
                Ok::<_, String>((conn, send, recv))
            })
            .await;
            match opened {
                Ok(Ok((conn, send, recv))) => {
                    conn::serve(
                        shared,
                        Transport::Quic,
                        peer,
                        Reader(recv),
                        Writer {
                            send,
                            conn,
                            chunks: Vec::new(),
                        },
                    )
                    .await;
                }
                Ok(Err(e)) => tracing::debug!("quic connection failed: {e}"),
                Err(_) => tracing::debug!("quic connection timed out opening"),
            }
        });
    }
    endpoint.close(0u32.into(), b"server shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22: a client that prefers AES-256-GCM-SHA384 (rustls's
    /// default order, this project's client) is served AES-128-GCM-SHA256,
    /// whose key schedule runs on SHA-256. A real TLS 1.3 handshake in
    /// memory between the server's configuration and a default client.
    #[test]
    fn a_client_preferring_aes_256_is_served_aes_128_with_sha_256() {
        let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        let id = Identity {
            certs: vec![ck.cert.der().clone()],
            key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der())),
            fingerprint: String::new(),
        };
        let mut server_tls = tls_config(&id).unwrap();
        server_tls.alpn_protocols.clear();
        let mut roots = rustls::RootCertStore::empty();
        roots.add(ck.cert.der().clone()).unwrap();
        let client_provider = rustls::crypto::ring::default_provider();
        assert_eq!(
            client_provider.cipher_suites[0].suite(),
            rustls::CipherSuite::TLS13_AES_256_GCM_SHA384,
            "the client's first choice"
        );
        let client_tls = rustls::ClientConfig::builder_with_provider(Arc::new(client_provider))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let mut client =
            rustls::ClientConnection::new(Arc::new(client_tls), "localhost".try_into().unwrap())
                .unwrap();
        let mut server = rustls::ServerConnection::new(Arc::new(server_tls)).unwrap();
        for _ in 0..10 {
            let mut wire = Vec::new();
            client.write_tls(&mut wire).unwrap();
            server.read_tls(&mut wire.as_slice()).unwrap();
            server.process_new_packets().unwrap();
            let mut wire = Vec::new();
            server.write_tls(&mut wire).unwrap();
            client.read_tls(&mut wire.as_slice()).unwrap();
            client.process_new_packets().unwrap();
            if !client.is_handshaking() && !server.is_handshaking() {
                break;
            }
        }
        assert!(!client.is_handshaking(), "the handshake finished");
        for suite in [
            server.negotiated_cipher_suite(),
            client.negotiated_cipher_suite(),
        ] {
            assert_eq!(
                suite.map(|s| s.suite()),
                Some(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
            );
        }
    }
}
