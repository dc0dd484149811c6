//! `muster-server serve`, built inside this package so the end-to-end tests
//! can start, SIGKILL and restart a real server process (Cargo hands a
//! package's tests the paths of that package's own binaries only). It runs
//! the same code as `muster-server serve`.

use muster_server::cli::{ServeCli, serve};
use std::process::ExitCode;

fn main() -> ExitCode {
    serve(<ServeCli as clap::Parser>::parse().args)
}
