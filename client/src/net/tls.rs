//! Certificate pinning for QUIC: the server's certificate is self-signed,
//! so the client trusts exactly the certificate whose SHA-256 it was given
//! (printed by the server at start), and still checks that the server holds
//! its private key (the TLS handshake signature).
//!
//! Session resumption (issue 22): the tickets a server sends are kept in a
//! [`Tickets`] store per pinned server, so the process's next connection
//! to it resumes the session (a TLS 1.3 PSK handshake with a fresh key
//! exchange: no certificate, no signature to make or check).

use super::NetError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{
    ClientSessionStore, Resumption, Tls12ClientSessionValue, Tls13ClientSessionValue,
};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, NamedGroup, SignatureScheme};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// SHA-256 of a DER certificate, lowercase hex.
pub fn fingerprint(cert: &[u8]) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, cert))
}

/// Checks a self-signed server certificate by its SHA-256 fingerprint.
/// With a pin, only that certificate passes; without one (trust on first
/// use, [`super::probe_fingerprint`]) any certificate passes and its
/// fingerprint is recorded, so the caller can store it and pin it from
/// then on. Either way the handshake signature is checked, so the server
/// holds the certificate's key.
#[derive(Debug)]
pub(super) struct Fingerprinted {
    pin: Option<[u8; 32]>,
    seen: Mutex<Option<String>>,
    /// Certificates checked: full handshakes (a resumed one shows none).
    checked: AtomicU64,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Fingerprinted {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let got = ring::digest::digest(&ring::digest::SHA256, end_entity);
        self.checked.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(hex::encode(got));
        }
        match self.pin {
            // Not secret: comparing public fingerprints needs no constant time.
            Some(pin) if got.as_ref() != pin => Err(rustls::Error::General(format!(
                "certificate fingerprint {} is not the pinned one",
                hex::encode(got)
            ))),
            _ => Ok(ServerCertVerified::assertion()),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

fn verifier(pin: Option<[u8; 32]>) -> (Arc<CryptoProvider>, Arc<Fingerprinted>) {
    // One provider for the process (a config is made per pinned server).
    static PROVIDER: std::sync::OnceLock<Arc<CryptoProvider>> = std::sync::OnceLock::new();
    let provider = PROVIDER
        .get_or_init(|| Arc::new(rustls::crypto::ring::default_provider()))
        .clone();
    let verifier = Arc::new(Fingerprinted {
        pin,
        seen: Mutex::new(None),
        checked: AtomicU64::new(0),
        algorithms: provider.signature_verification_algorithms,
    });
    (provider, verifier)
}

/// What the recording verifier saw, once the handshake is done.
pub(super) type Seen = Arc<Fingerprinted>;

/// The fingerprint a [`recording_client_config`] handshake saw, if any.
pub(super) fn seen_fingerprint(seen: &Seen) -> Option<String> {
    seen.seen.lock().ok().and_then(|s| s.clone())
}

/// A fingerprint as the server prints it (hex, colons allowed), as bytes.
pub(super) fn parse_pin(pin: &str) -> Result<[u8; 32], NetError> {
    let clean: String = pin.chars().filter(|c| *c != ':').collect();
    let bytes =
        hex::decode(clean.trim()).map_err(|_| NetError::Tls("fingerprint is not hex".into()))?;
    bytes
        .try_into()
        .map_err(|_| NetError::Tls("fingerprint is not 32 bytes (SHA-256)".into()))
}

/// How many certificates `seen`'s handshakes have checked.
pub(super) fn certificates_checked(seen: &Seen) -> u64 {
    seen.checked.load(Ordering::Relaxed)
}

/// A TLS 1.3 client config that trusts exactly the pinned certificate and
/// resumes sessions from its own ticket store; with it, its verifier.
/// rustls resumes a session only under the config (verifier) that made
/// it, so a caller keeps one per server for the process's life.
pub(super) fn pinned_client_config(
    pin: [u8; 32],
) -> Result<(rustls::ClientConfig, Seen), NetError> {
    let (provider, verifier) = verifier(Some(pin));
    let mut config = with_verifier(provider, verifier.clone())?;
    config.resumption = Resumption::store(Arc::new(Tickets::default()));
    Ok((config, verifier))
}

/// A TLS 1.3 client config that accepts any certificate and records its
/// fingerprint (trust on first use; see [`Fingerprinted`]).
pub(super) fn recording_client_config() -> Result<(rustls::ClientConfig, Seen), NetError> {
    let (provider, verifier) = verifier(None);
    Ok((with_verifier(provider, verifier.clone())?, verifier))
}

fn with_verifier(
    provider: Arc<CryptoProvider>,
    verifier: Arc<dyn ServerCertVerifier>,
) -> Result<rustls::ClientConfig, NetError> {
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| NetError::Tls(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(config)
}

/// Tickets kept per server name: enough for every connection of a process
/// that opens many at once to one server (a load driver's burst of 1,000
/// reconnects); rustls's own cache keeps 8. The server sends two per
/// handshake and a resumption takes one, so the stock grows by one per
/// connection up to this (a few hundred bytes each); the oldest go first.
const TICKETS_PER_SERVER: usize = 2048;
/// Server names remembered per store (the caller keeps a store per pinned
/// server address, so one is the usual count).
const SERVERS_PER_STORE: usize = 8;

/// TLS 1.3 session tickets, taken once each (rustls's rule), and the key
/// exchange group each server chose (so the next hello offers it first).
#[derive(Default)]
pub(super) struct Tickets {
    servers: Mutex<Vec<(ServerName<'static>, ServerTickets)>>,
}

#[derive(Default)]
struct ServerTickets {
    kx_hint: Option<NamedGroup>,
    tls13: VecDeque<Tls13ClientSessionValue>,
}

impl Tickets {
    fn with<T>(&self, name: &ServerName<'_>, f: impl FnOnce(&mut ServerTickets) -> T) -> T {
        let mut servers = self.servers.lock().unwrap_or_else(|e| e.into_inner());
        let at = match servers.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                if servers.len() >= SERVERS_PER_STORE {
                    servers.remove(0);
                }
                servers.push((name.to_owned(), ServerTickets::default()));
                servers.len() - 1
            }
        };
        f(&mut servers[at].1)
    }
}

impl std::fmt::Debug for Tickets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let servers = self.servers.lock().map(|s| s.len()).unwrap_or(0);
        f.debug_struct("Tickets")
            .field("servers", &servers)
            .finish()
    }
}

impl ClientSessionStore for Tickets {
    fn set_kx_hint(&self, server_name: ServerName<'static>, group: NamedGroup) {
        self.with(&server_name, |s| s.kx_hint = Some(group));
    }

    fn kx_hint(&self, server_name: &ServerName<'_>) -> Option<NamedGroup> {
        self.with(server_name, |s| s.kx_hint)
    }

    // TLS 1.2 is never offered (`with_protocol_versions(TLS13)`).
    fn set_tls12_session(&self, _: ServerName<'static>, _: Tls12ClientSessionValue) {}

    fn tls12_session(&self, _: &ServerName<'_>) -> Option<Tls12ClientSessionValue> {
        None
    }

    fn remove_tls12_session(&self, _: &ServerName<'static>) {}

    fn insert_tls13_ticket(
        &self,
        server_name: ServerName<'static>,
        value: Tls13ClientSessionValue,
    ) {
        self.with(&server_name, |s| {
            if s.tls13.len() >= TICKETS_PER_SERVER {
                s.tls13.pop_front();
            }
            s.tls13.push_back(value);
        });
    }

    fn take_tls13_ticket(
        &self,
        server_name: &ServerName<'static>,
    ) -> Option<Tls13ClientSessionValue> {
        // Newest first: the oldest are the likeliest to have expired.
        self.with(server_name, |s| s.tls13.pop_back())
    }
}
