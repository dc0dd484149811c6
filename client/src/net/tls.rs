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

#[derive(Debug)]
struct Pinned {
    sha256: [u8; 32],
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let got = ring::digest::digest(&ring::digest::SHA256, end_entity);
        // Not secret: comparing public fingerprints needs no constant time.
        if got.as_ref() == self.sha256 {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "certificate fingerprint {} is not the pinned one",
                hex::encode(got)
            )))
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

/// Trust on first use: accepts whatever certificate the server shows and
/// records its fingerprint. Used only by [`super::probe_fingerprint`], to
/// learn a server's fingerprint the first time; the caller stores it and
/// pins it from then on. The handshake signature is still checked, so the
/// recorded certificate is one the server holds the key of.
#[derive(Debug)]
pub(super) struct Recording {
    seen: Mutex<Option<String>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Recording {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(fingerprint(end_entity));
        }
        Ok(ServerCertVerified::assertion())
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

/// What the recording verifier saw, once the handshake is done.
pub(super) type Seen = Arc<Recording>;

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
    let provider: Arc<CryptoProvider> = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Pinned {
        sha256,
        algorithms: provider.signature_verification_algorithms,
    };
    with_verifier(provider, Arc::new(verifier))
}

/// A TLS 1.3 client config that accepts any certificate and records its
/// fingerprint (trust on first use; see [`Recording`]).
pub(super) fn recording_client_config() -> Result<(rustls::ClientConfig, Seen), NetError> {
    let provider: Arc<CryptoProvider> = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(Recording {
        seen: Mutex::new(None),
        algorithms: provider.signature_verification_algorithms,
    });
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
