//! Fail fast on a run that cannot fit: every client holds one socket (one
//! file descriptor and one ephemeral port on loopback), so the largest
//! number of clients open at once must fit under the open-file limit and
//! inside the ephemeral port range. Both are printed at start.

use anyhow::{Result, bail};

use crate::RunArgs;

/// Descriptors the driver needs besides its clients (runtime, files, the
/// server's pipes).
const SPARE_FDS: u64 = 64;

/// The soft and hard open-file limits of this process (`/proc/self/limits`).
fn open_files() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    let mut n = line.split_whitespace().skip(3).map(|w| w.parse::<u64>().ok());
    Some((n.next()??, n.next()??))
}

/// The ephemeral port range (`net.ipv4.ip_local_port_range`).
fn port_range() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range").ok()?;
    let mut n = text.split_whitespace().map(|w| w.parse::<u64>().ok());
    Some((n.next()??, n.next()??))
}

/// The most clients open at once: the steady tables plus the join burst
/// (those stay through the reconnect burst), or the search's largest step.
pub fn peak_clients(a: &RunArgs) -> u64 {
    let per_table = 2 + a.spectators as u64;
    let steady = a.tables as u64 * per_table + a.burst as u64;
    let search = if a.search_start > 0 { a.search_max as u64 * per_table } else { 0 };
    steady.max(search)
}

/// Print the limits and refuse a run that cannot fit.
pub fn check(a: &RunArgs) -> Result<String> {
    let peak = peak_clients(a);
    let files = open_files();
    let ports = port_range();
    let said = format!(
        "bench-driver: open files {}; ephemeral ports {}; this run opens up to {peak} client sockets",
        files.map_or("unknown".into(), |(s, h)| format!("{s} (hard {h})")),
        ports.map_or("unknown".into(), |(lo, hi)| format!("{lo}-{hi} ({} ports)", hi + 1 - lo)),
    );
    if let Some((soft, _)) = files
        && peak + SPARE_FDS > soft
    {
        bail!(
            "{said}\nrefused: {peak} sockets and {SPARE_FDS} spare need more than the open-file limit of {soft}; \
             raise it (ulimit -n) or run fewer tables, spectators or a lower --search-max / --burst"
        );
    }
    if let Some((lo, hi)) = ports
        && peak > hi + 1 - lo
    {
        bail!(
            "{said}\nrefused: {peak} client sockets to one server need more ephemeral ports than {lo}-{hi} holds; \
             widen net.ipv4.ip_local_port_range or run fewer clients"
        );
    }
    Ok(said)
}
