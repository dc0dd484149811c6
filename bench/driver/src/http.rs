//! The one HTTP call the driver makes (Colyseus matchmaking): a JSON POST
//! over a fresh connection, HTTP/1.1 with `Connection: close`.

use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::count::connect;
use crate::target::Meter;

pub async fn post_json(addr: &str, path: &str, body: &Value, meter: Meter) -> Result<Value> {
    let body = body.to_string();
    let mut s = connect(addr, meter).await.with_context(|| format!("connect {addr}"))?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::with_capacity(1024);
    // Bounded: a matchmaking answer is small.
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > 1 << 20 {
            bail!("HTTP answer over 1 MiB");
        }
    }
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(|| anyhow!("no HTTP header end"))?;
    let status = head.split(' ').nth(1).unwrap_or("");
    if status != "200" {
        bail!("POST {path}: HTTP {status}: {body}");
    }
    Ok(serde_json::from_str(body)?)
}
