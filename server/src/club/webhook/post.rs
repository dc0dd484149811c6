//! One HTTP/1.1 POST of a JSON body, and its status code: all a webhook
//! needs. Written over Tokio's `TcpStream` (TLS by `tokio-rustls` with the
//! Mozilla roots for `https://`) instead of a general HTTP client: the
//! address is parsed by `http::Uri` and the answer's head by `httparse`,
//! both in the server's dependencies already (through the WebSocket
//! crate). The caller bounds it in time.

use http::Uri;
use std::sync::{Arc, OnceLock};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest answer head read (a receiver's status line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// Where a webhook goes, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// Path and query, at least "/".
    pub path: String,
}

/// Why an address cannot be a webhook, in words.
pub fn parse(url: &str) -> Result<Target, String> {
    let uri: Uri = url
        .parse()
        .map_err(|_| "that is not a web address".to_string())?;
    let tls = match uri.scheme_str() {
        Some("http") => false,
        Some("https") => true,
        _ => return Err("a webhook's address starts with http:// or https://".into()),
    };
    let authority = uri
        .authority()
        .ok_or_else(|| "the address has no host".to_string())?;
    if authority.as_str().contains('@') {
        return Err("a webhook's address carries no user name or password".into());
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    if host.is_empty() {
        return Err("the address has no host".into());
    }
    let port = authority.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    Ok(Target {
        tls,
        host: host.to_string(),
        port,
        path: if path.is_empty() { "/".into() } else { path },
    })
}

/// POST `body` (JSON) to `t`; the answer's status code.
pub async fn post(t: &Target, body: &str) -> std::io::Result<u16> {
    let tcp = TcpStream::connect((t.host.as_str(), t.port)).await?;
    let _ = tcp.set_nodelay(true);
    if t.tls {
        let name = rustls::pki_types::ServerName::try_from(t.host.clone())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        let tls = tokio_rustls::TlsConnector::from(tls_config())
            .connect(name, tcp)
            .await?;
        exchange(tls, t, body).await
    } else {
        exchange(tcp, t, body).await
    }
}

fn tls_config() -> Arc<rustls::ClientConfig> {
    static CONFIG: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .expect("ring supports the default TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
            Arc::new(config)
        })
        .clone()
}

async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    mut s: S,
    t: &Target,
    body: &str,
) -> std::io::Result<u16> {
    let host = if (t.tls && t.port == 443) || (!t.tls && t.port == 80) {
        t.host.clone()
    } else {
        format!("{}:{}", t.host, t.port)
    };
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: muster-server\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        t.path,
        body.len()
    );
    s.write_all(head.as_bytes()).await?;
    s.write_all(body.as_bytes()).await?;
    s.flush().await?;
    // Only the status line matters; read until the head is whole.
    let mut buf = Vec::with_capacity(512);
    let mut chunk = [0u8; 1024];
    loop {
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the receiver closed before answering",
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut res = httparse::Response::new(&mut headers);
        match res.parse(&buf) {
            Ok(httparse::Status::Complete(_)) | Ok(httparse::Status::Partial)
                if res.code.is_some() =>
            {
                return Ok(res.code.unwrap_or(0));
            }
            Ok(_) if buf.len() < MAX_HEAD => {}
            Ok(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the receiver's answer head is too long",
                ));
            }
            Err(e) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_http_or_https_with_a_host() {
        let t = parse("http://127.0.0.1:8080/hook?x=1").unwrap();
        assert_eq!(
            t,
            Target {
                tls: false,
                host: "127.0.0.1".into(),
                port: 8080,
                path: "/hook?x=1".into()
            }
        );
        let t = parse("https://chat.example.org").unwrap();
        assert_eq!((t.tls, t.port, t.path.as_str()), (true, 443, "/"));
        assert!(parse("ftp://example.org/").is_err());
        assert!(parse("example.org/hook").is_err());
        assert!(parse("http://user:pw@example.org/").is_err());
        assert!(parse("http:///nohost").is_err());
        assert!(parse("javascript:alert(1)").is_err());
    }
}
