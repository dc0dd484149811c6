//! The CPU time and resident memory of another process, read from /proc,
//! for the load harnesses (`muster-load`, `muster-floor`).

/// A process's CPU time so far, split into user and kernel, and its RSS.
pub struct ProcSample {
    pub user_s: f64,
    pub system_s: f64,
    pub rss_kib: u64,
    /// Bytes the process has handed to `write`/`pwrite` and kin so far
    /// (`wchar` in /proc/PID/io): its files' bytes. Socket sends made with
    /// `send`/`sendmsg` (tokio's and quinn's) do not pass through it, so
    /// under load this is the storage's bytes (issue 22).
    pub written_bytes: u64,
}

pub fn proc_stat(pid: u32) -> ProcSample {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // utime and stime, in USER_HZ (100 per second).
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0) / 100.0;
    let rss_kib = field(&format!("/proc/{pid}/status"), "VmRSS:");
    let written_bytes = field(&format!("/proc/{pid}/io"), "wchar:");
    ProcSample {
        user_s: ticks(11),
        system_s: ticks(12),
        rss_kib,
        written_bytes,
    }
}

/// The number after `key` in a /proc file of `key value` lines (0 if absent).
fn field(path: &str, key: &str) -> u64 {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
