//! Certificate pinning for QUIC: the server's certificate is self-signed,
//! so the client trusts exactly the certificate whose SHA-256 it was given
//! (printed by the server at start), and still checks that the server holds
//! its private key (the TLS handshake signature).

use super::NetError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
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
    let provider: Arc<CryptoProvider> = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(Fingerprinted {
        pin,
        seen: Mutex::new(None),
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

/// A TLS 1.3 client config that trusts exactly the pinned certificate.
pub(super) fn pinned_client_config(pin: &str) -> Result<rustls::ClientConfig, NetError> {
    let clean: String = pin.chars().filter(|c| *c != ':').collect();
    let bytes =
        hex::decode(clean.trim()).map_err(|_| NetError::Tls("fingerprint is not hex".into()))?;
    let sha256: [u8; 32] = bytes
        .try_into()
        .map_err(|_| NetError::Tls("fingerprint is not 32 bytes (SHA-256)".into()))?;
    let (provider, verifier) = verifier(Some(sha256));
    with_verifier(provider, verifier)
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
