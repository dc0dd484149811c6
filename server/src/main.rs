//! `muster-server`: the authoritative server, and the match-log verifier.

use clap::{Parser, Subcommand};
use muster_server::Server;
use muster_server::config::Config;
use std::net::SocketAddr;
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

#[derive(clap::Args)]
struct ServeArgs {
    /// A TOML configuration file; flags override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// WebSocket address [default: 127.0.0.1:7700].
    #[arg(long)]
    ws: Option<SocketAddr>,
    /// QUIC address [default: 127.0.0.1:7701].
    #[arg(long)]
    quic: Option<SocketAddr>,
    /// Metrics address [default: 127.0.0.1:7702].
    #[arg(long)]
    metrics: Option<SocketAddr>,
    /// Data directory [default: ./muster-data].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// PEM certificate chain for QUIC (with --tls-key); default: self-signed.
    #[arg(long)]
    tls_cert: Option<PathBuf>,
    #[arg(long)]
    tls_key: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify { log } => verify::run(&log),
        Command::Serve(args) => serve(args),
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let mut config = match &args.config {
        Some(path) => match Config::from_file(path) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
        None => Config::default(),
    };
    if let Some(a) = args.ws {
        config.ws = a;
    }
    if let Some(a) = args.quic {
        config.quic = a;
    }
    if let Some(a) = args.metrics {
        config.metrics = a;
    }
    if let Some(d) = args.data_dir {
        config.data_dir = d;
    }
    if args.tls_cert.is_some() {
        config.tls_cert = args.tls_cert;
    }
    if args.tls_key.is_some() {
        config.tls_key = args.tls_key;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async move {
        let server = match Server::start(config).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("muster-server: {e}");
                return ExitCode::from(1);
            }
        };
        // One line on stdout that people and scripts (the tests) read.
        println!(
            "muster-server listening ws=ws://{} quic=quic://{} metrics=http://{}/metrics fingerprint={}",
            server.ws_addr, server.quic_addr, server.metrics_addr, server.fingerprint
        );
        use std::io::Write;
        let _ = std::io::stdout().flush();
        wait_for_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await;
        tracing::info!("stopped");
        ExitCode::SUCCESS
    })
}

/// SIGINT (Ctrl-C) or SIGTERM (service managers, containers).
async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
