//! `muster-server`: the authoritative server, and the match-log verifier.

use clap::{Parser, Subcommand};
use muster_server::cli::{ServeArgs, serve};
use std::path::PathBuf;
use std::process::ExitCode;

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
    Serve(ServeArgs),
    /// Check every roll of a match log and replay it through its ruleset.
    ///
    /// Exits 0 when everything verifies, 1 when something fails (each
    /// failure is printed with its entry and roll number), 2 when the file
    /// cannot be read.
    Verify {
        /// A match log file (as exported by the server or the client).
        log: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify { log } => verify::run(&log),
        Command::Serve(args) => serve(args),
    }
}
