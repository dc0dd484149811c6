//! A throw-away PostgreSQL cluster for tests: `initdb` in a temporary
//! directory, `postgres` on a free loopback port with its unix socket in
//! that directory, stopped and deleted when the test process ends.
//!
//! The binaries are looked for in `MUSTER_PG_BIN`, then on `PATH`, then
//! in Debian's `/usr/lib/postgresql/<version>/bin` (newest first). With
//! none found a test skips with a message, unless `MUSTER_REQUIRE_PG=1`
//! (set by `.ci/test`): then it fails.
//!
//! PostgreSQL refuses to run as root; as root the cluster runs as the
//! `postgres` user (made by Debian's package) or else `nobody`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A running cluster; its directory (data, socket, log) is removed by
/// the reaper.
pub struct Cluster {
    port: u16,
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
static NEXT_DB: AtomicU32 = AtomicU32::new(1);

/// Where `initdb`, `pg_ctl` and `postgres` are, if anywhere.
pub fn find_bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MUSTER_PG_BIN") {
        let dir = PathBuf::from(dir);
        assert!(
            dir.join("initdb").is_file(),
            "MUSTER_PG_BIN={} has no initdb",
            dir.display()
        );
        return Some(dir);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() && dir.join("pg_ctl").is_file() {
                return Some(dir);
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn required() -> bool {
    std::env::var("MUSTER_REQUIRE_PG").is_ok_and(|v| v == "1")
}

/// A URL to a new, empty database of the shared cluster, or `None` (with
/// a message) when PostgreSQL is not installed and not required.
pub fn fresh_database() -> Option<String> {
    let cluster = CLUSTER.get_or_init(start).as_ref()?;
    let name = format!("t{}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
    let mut admin = postgres::Client::connect(&cluster.url("postgres"), postgres::NoTls)
        .expect("connect to the test cluster");
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a test database");
    Some(cluster.url(&name))
}

impl Cluster {
    pub fn url(&self, db: &str) -> String {
        format!("postgres://muster@127.0.0.1:{}/{db}", self.port)
    }
}

fn start() -> Option<Cluster> {
    let Some(bin) = find_bin_dir() else {
        assert!(
            !required(),
            "MUSTER_REQUIRE_PG=1 but no PostgreSQL found (MUSTER_PG_BIN, PATH, /usr/lib/postgresql/*/bin): install Debian's `postgresql` package"
        );
        eprintln!(
            "PostgreSQL not found (MUSTER_PG_BIN, PATH, /usr/lib/postgresql/*/bin): skipping the PostgreSQL half of this test"
        );
        return None;
    };
    let dir = tempfile::Builder::new()
        .prefix("muster-pg-")
        .tempdir()
        .expect("temp dir")
        .keep();
    let user = run_as();
    if let Some(user) = &user {
        let uid = Command::new("id")
            .args(["-u", user])
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse::<u32>().ok())
            .expect("uid of the cluster's user");
        std::os::unix::fs::chown(&dir, Some(uid), None).expect("chown the cluster's directory");
    }
    let data = dir.join("data");
    let out = command(&user, &bin.join("initdb"))
        .arg("-D")
        .arg(&data)
        .args([
            "-U",
            "muster",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--data-checksums",
            "--no-sync",
            "--no-instructions",
        ])
        .stdout(Stdio::null())
        .output()
        .expect("run initdb");
    assert!(
        out.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The port is free when picked; another process may take it before
    // PostgreSQL binds it, so a few tries.
    for _ in 0..5 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let status = command(&user, &bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.join("log"))
            .arg("-o")
            .arg(format!(
                "-p {port} -h 127.0.0.1 -k {} -c max_connections=200",
                dir.display()
            ))
            .args(["-w", "-t", "60", "start"])
            .stdout(Stdio::null())
            .status()
            .expect("run pg_ctl");
        if status.success() {
            reap_at_exit(&user, &bin, &dir);
            return Some(Cluster { port });
        }
    }
    panic!(
        "PostgreSQL did not start; its log: {}",
        std::fs::read_to_string(dir.join("log")).unwrap_or_default()
    );
}

/// `None` when not root; else who runs the cluster.
fn run_as() -> Option<String> {
    let uid = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(1);
    if uid != 0 {
        return None;
    }
    let has_postgres = Command::new("id")
        .args(["-u", "postgres"])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    Some(if has_postgres { "postgres" } else { "nobody" }.into())
}

fn command(user: &Option<String>, program: &Path) -> Command {
    match user {
        None => Command::new(program),
        Some(u) => {
            let mut c = Command::new("runuser");
            c.args(["-u", u, "--"]).arg(program);
            c
        }
    }
}

/// A shell that waits for this test process to end (at most six hours),
/// then stops the cluster and deletes its directory: statics are never
/// dropped, and a panicking or killed test must not leave a server behind.
#[expect(
    clippy::zombie_processes,
    reason = "the reaper must outlive this process: it is never waited for"
)]
fn reap_at_exit(user: &Option<String>, bin: &Path, dir: &Path) {
    let pg_ctl = bin.join("pg_ctl");
    let stop = match user {
        None => format!(
            "'{}' -D '{}/data' -m immediate -w stop",
            pg_ctl.display(),
            dir.display()
        ),
        Some(u) => format!(
            "runuser -u {u} -- '{}' -D '{}/data' -m immediate -w stop",
            pg_ctl.display(),
            dir.display()
        ),
    };
    let script = format!(
        "i=0; while kill -0 {pid} 2>/dev/null && [ $i -lt 43200 ]; do sleep 0.5; i=$((i+1)); done; {stop} >/dev/null 2>&1; rm -rf '{dir}'",
        pid = std::process::id(),
        dir = dir.display()
    );
    Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the cluster's reaper");
    // Give the shell its first `kill -0` before anything can end.
    std::thread::sleep(Duration::from_millis(10));
}
