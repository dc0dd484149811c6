//! The server under test as a child process: start it, wait for its port,
//! read its CPU time and memory from /proc, stop it.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::time::{Instant, sleep};

pub struct Server {
    child: Child,
    pub pid: u32,
    ticks_per_sec: f64,
}

#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// utime + stime, seconds.
    pub cpu_s: f64,
    /// VmRSS, bytes.
    pub rss: u64,
}

impl Server {
    /// Run `cmd` through `sh -c` with `exec` (so the pid is the server's,
    /// `taskset` included), wait up to 30 s for `addr` to accept.
    pub async fn start(cmd: &str, cwd: &str, env: &[(String, String)], addr: &str, log: &str) -> Result<Server> {
        let log = std::fs::File::create(log).with_context(|| format!("create {log}"))?;
        let mut c = Command::new("sh");
        c.arg("-c").arg(format!("exec {cmd}")).current_dir(cwd).stdin(Stdio::null());
        c.stdout(log.try_clone()?).stderr(log);
        for (k, v) in env {
            c.env(k, v);
        }
        c.kill_on_drop(true);
        let child = c.spawn().with_context(|| format!("spawn {cmd}"))?;
        let pid = child.id().ok_or_else(|| anyhow!("no pid"))?;
        let mut s = Server { child, pid, ticks_per_sec: clk_tck() };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if TcpStream::connect(addr).await.is_ok() {
                break;
            }
            if let Some(status) = s.child.try_wait()? {
                bail!("server exited before listening: {status}");
            }
            if Instant::now() > deadline {
                s.stop().await;
                bail!("server not listening on {addr} after 30 s");
            }
            sleep(Duration::from_millis(100)).await;
        }
        // Let it settle (JIT, GC) before the idle baseline is taken.
        sleep(Duration::from_millis(500)).await;
        Ok(s)
    }

    pub fn usage(&self) -> Result<Usage> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid))?;
        // Fields after the ")" that closes comm: state is field 3; utime 14, stime 15.
        let rest = stat.rsplit_once(')').ok_or_else(|| anyhow!("bad stat"))?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        let utime: f64 = f.get(11).ok_or_else(|| anyhow!("no utime"))?.parse()?;
        let stime: f64 = f.get(12).ok_or_else(|| anyhow!("no stime"))?.parse()?;
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))?;
        let rss_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("no VmRSS"))?;
        Ok(Usage { cpu_s: (utime + stime) / self.ticks_per_sec, rss: rss_kb * 1024 })
    }

    pub async fn stop(&mut self) {
        // SIGTERM first (graceful), then SIGKILL after 5 s: only our own child.
        let _ = std::process::Command::new("kill").arg("-TERM").arg(self.pid.to_string()).status();
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
    }
}

fn clk_tck() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// The driver's own utime + stime, seconds.
pub fn own_cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map(|r| r.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / clk_tck()
}
