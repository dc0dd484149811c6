//! `muster-server serve`, built inside this package so the end-to-end tests
//! can start, SIGKILL and restart a real server process (Cargo hands a
//! package's tests the paths of that package's own binaries only). It runs
//! the same code as `muster-server serve`; `check --data-dir DIR` runs
//! `muster-server check`.

use muster_server::cli::{ServeCli, serve};
use std::process::ExitCode;

fn main() -> ExitCode {
    // `check --data-dir DIR`, as `muster-server check` (for its test).
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("check") {
        return match (args.get(2).map(String::as_str), args.get(3)) {
            (Some("--data-dir"), Some(dir)) => muster_server::check::run(dir.as_ref()),
            _ => {
                eprintln!("usage: muster-server-e2e check --data-dir DIR");
                ExitCode::from(2)
            }
        };
    }
    serve(<ServeCli as clap::Parser>::parse().args)
}
