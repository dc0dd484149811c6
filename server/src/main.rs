//! `muster-server`: the authoritative server, and the match-log verifier.

use clap::{Parser, Subcommand};
use muster_server::cli::{ServeArgs, serve};
use std::path::PathBuf;
use std::process::ExitCode;

use muster_server::export;

mod verify;

#[derive(Parser)]
#[command(
    name = "muster-server",
    version,
    about = "Muster's authoritative game server"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server. With no flags: loopback only, data in ./muster-data.
    Serve(Box<ServeArgs>),
    /// Check every roll of a match log and replay it through its ruleset.
    ///
    /// Exits 0 when everything verifies, 1 when something fails (each
    /// failure is printed with its entry and roll number), 2 when the file
    /// cannot be read.
    Verify {
        /// A match log file (as written by `export`).
        log: PathBuf,
    },
    /// Write one table's match log to a file for `verify`.
    ///
    /// Reads the database read-only; safe beside a running server.
    Export {
        /// The table number (as in the lobby).
        table: u64,
        /// Where to write the log.
        out: PathBuf,
        /// The server's data directory.
        #[arg(long, default_value = "muster-data")]
        data_dir: PathBuf,
    },
    /// Report every table's state in a data directory: ok, or damaged and
    /// why; its status, last sequence number and head hash.
    ///
    /// Exits 0 when every table is ok, 1 when the file or any table is
    /// damaged, 2 when the database cannot be opened. Reads read-only;
    /// safe beside a running server.
    Check {
        /// The server's data directory.
        #[arg(long, default_value = "muster-data")]
        data_dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify { log } => verify::run(&log),
        Command::Export {
            table,
            out,
            data_dir,
        } => export::run(&data_dir, table, &out),
        Command::Serve(args) => serve(*args),
        Command::Check { data_dir } => muster_server::check::run(&data_dir),
    }
}
