//! One POST of a JSON body, and its status code: all a webhook needs.
//! The address is checked by [`parse`] (`http::Uri`, with a webhook's own
//! rules) when a director sets it; the POST is made by `ureq`, a small
//! blocking HTTP/1.1 client, with rustls (ring) and the Mozilla roots and
//! nothing else. It blocks: the caller runs it on Tokio's blocking pool.

use http::Uri;
use std::time::Duration;

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

/// The HTTP client of every webhook (cheap to clone: one shared agent).
#[derive(Clone)]
pub struct Poster {
    agent: ureq::Agent,
    timeout: Duration,
}

impl Poster {
    /// A client whose every POST ends within `timeout`, from the name
    /// look-up to the status line.
    pub fn new(timeout: Duration) -> Poster {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            // A redirect is answered as it is, never followed: a webhook
            // that moved is the director's to fix, and a POST is not sent
            // on to a host nobody checked.
            .max_redirects(0)
            // Every status comes back as a status: the caller decides
            // which are worth another attempt.
            .http_status_as_error(false)
            // The address is the club's, not the environment's.
            .proxy(None)
            .user_agent("muster-server")
            .build()
            .new_agent();
        Poster { agent, timeout }
    }

    /// POST `body` (JSON) to `url`; the answer's status code, or why
    /// there was none, in words. Blocks for up to the timeout.
    pub fn post(&self, url: &str, body: &str) -> Result<u16, String> {
        let answer = self
            .agent
            .post(url)
            .header("Content-Type", "application/json")
            .send(body);
        match answer {
            // Only the status matters; the answer's body is not read.
            Ok(answer) => Ok(answer.status().as_u16()),
            Err(ureq::Error::Timeout(_)) => {
                Err(format!("no answer within {} s", self.timeout.as_secs_f32()))
            }
            Err(ureq::Error::HostNotFound) => Err("its host was not found".into()),
            Err(ureq::Error::Io(e)) => Err(format!("the connection failed: {e}")),
            Err(e) => Err(format!("the exchange failed: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::thread;

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

    /// A receiver on loopback that answers one request with `answer` (or
    /// says nothing when it is empty); its address and the request's head.
    fn one_answer(answer: String) -> (String, thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let task = thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 1024];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 1 << 16 {
                match s.read(&mut chunk) {
                    Ok(n) if n > 0 => buf.extend_from_slice(&chunk[..n]),
                    _ => break,
                }
            }
            if answer.is_empty() {
                // Silent until the client gives up: the body may still
                // arrive after the headers, so read on until the client
                // closes (or the 5 s read timeout), never answering.
                while matches!(s.read(&mut chunk), Ok(n) if n > 0) {}
            } else {
                let _ = s.write_all(answer.as_bytes());
            }
            String::from_utf8_lossy(&buf).into_owned()
        });
        (url, task)
    }

    #[test]
    fn a_post_carries_json_and_every_status_comes_back_as_a_status() {
        let poster = Poster::new(Duration::from_secs(5));
        for (answer, code) in [
            ("HTTP/1.1 204 No Content\r\n\r\n", 204),
            ("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 404),
            ("HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusy", 503),
        ] {
            let (url, receiver) = one_answer(answer.to_string());
            assert_eq!(poster.post(&url, r#"{"kind":"x"}"#), Ok(code));
            let head = receiver.join().unwrap().to_ascii_lowercase();
            assert!(head.starts_with("post /hook http/1.1\r\n"), "{head}");
            assert!(head.contains("content-type: application/json"), "{head}");
            assert!(head.contains("content-length: 12"), "{head}");
        }
    }

    #[test]
    fn a_redirect_is_answered_not_followed() {
        let elsewhere = TcpListener::bind("127.0.0.1:0").unwrap();
        elsewhere.set_nonblocking(true).unwrap();
        let to = elsewhere.local_addr().unwrap();
        for code in [301, 302, 307, 308] {
            let answer = format!(
                "HTTP/1.1 {code} Moved\r\nLocation: http://{to}/other\r\nContent-Length: 0\r\n\r\n"
            );
            let (url, receiver) = one_answer(answer);
            let poster = Poster::new(Duration::from_secs(5));
            assert_eq!(poster.post(&url, "{}"), Ok(code));
            receiver.join().unwrap();
        }
        let nobody = elsewhere.accept().map(|_| ());
        assert_eq!(
            nobody.map_err(|e| e.kind()),
            Err(std::io::ErrorKind::WouldBlock),
            "a redirect's target was called"
        );
    }

    #[test]
    fn a_silent_receiver_is_given_up_on_within_the_timeout() {
        let (url, receiver) = one_answer(String::new());
        let poster = Poster::new(Duration::from_millis(300));
        let started = std::time::Instant::now();
        let why = poster.post(&url, "{}").unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(3), "{why}");
        assert!(why.starts_with("no answer within 0.3 s"), "{why}");
        receiver.join().unwrap();
    }

    #[test]
    fn no_receiver_is_a_failure_in_words() {
        let closed = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", closed.local_addr().unwrap());
        drop(closed);
        let why = Poster::new(Duration::from_secs(5))
            .post(&url, "{}")
            .unwrap_err();
        assert!(why.starts_with("the connection failed"), "{why}");
    }
}
