//! The `serve` command: flags over a config file over defaults, logs,
//! the server, and a clean stop on SIGINT or SIGTERM. In the library so the
//! binary and the end-to-end tests' copy of it run the same code.

use crate::Server;
use crate::config::Config;
use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// `serve` on its own, for binaries that only serve.
#[derive(Parser)]
#[command(name = "muster-server serve")]
pub struct ServeCli {
    #[command(flatten)]
    pub args: ServeArgs,
}

#[derive(clap::Args)]
pub struct ServeArgs {
    /// A TOML configuration file; flags override it.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// WebSocket address [default: 127.0.0.1:7700].
    #[arg(long)]
    pub ws: Option<SocketAddr>,
    /// QUIC address [default: 127.0.0.1:7701].
    #[arg(long)]
    pub quic: Option<SocketAddr>,
    /// Metrics address [default: 127.0.0.1:7702].
    #[arg(long)]
    pub metrics: Option<SocketAddr>,
    /// Data directory [default: ./muster-data].
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Storage: `sqlite:` (the file in the data directory) or
    /// `postgres://user:password@host:port/db` [default: sqlite:]. Also
    /// read from MUSTER_DATABASE, which keeps a password out of the
    /// process list.
    #[arg(long, env = "MUSTER_DATABASE", hide_env_values = true)]
    pub database: Option<String>,
    /// This node's name in a fleet sharing one PostgreSQL database
    /// (takes table leases) [default: none, the only node].
    #[arg(long)]
    pub node: Option<String>,
    /// Seconds a table lease lasts without renewal [default: 10].
    #[arg(long)]
    pub lease_secs: Option<u64>,
    /// Where clients reach this node in a fleet (`ws://host:port`; other
    /// nodes redirect clients here) [default: the WebSocket address].
    #[arg(long)]
    pub public_addr: Option<String>,
    /// PEM certificate chain for QUIC (with --tls-key); default: self-signed.
    #[arg(long)]
    pub tls_cert: Option<PathBuf>,
    #[arg(long)]
    pub tls_key: Option<PathBuf>,
    /// Runtime threads (0: one per core) [default: 1].
    #[arg(long)]
    pub workers: Option<usize>,
    /// Longest storage group-commit wait in milliseconds, used only under load [default: 2].
    #[arg(long)]
    pub commit_window_ms: Option<u64>,
    /// Start without the unfinished tables that cannot be rebuilt (they are
    /// named in the log and kept in the database); default: refuse to start.
    #[arg(long)]
    pub skip_damaged: bool,
}

/// Run the server until a signal; the exit code for `main`.
pub fn serve(args: ServeArgs) -> ExitCode {
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
    if let Some(d) = args.database {
        config.database = d;
    }
    if let Some(n) = args.node {
        config.node = n;
    }
    if let Some(l) = args.lease_secs {
        config.lease_secs = l;
    }
    if let Some(a) = args.public_addr {
        config.public_addr = a;
    }
    if args.tls_cert.is_some() {
        config.tls_cert = args.tls_cert;
    }
    if args.tls_key.is_some() {
        config.tls_key = args.tls_key;
    }
    if let Some(w) = args.workers {
        config.workers = w;
    }
    if let Some(w) = args.commit_window_ms {
        config.commit_window_ms = w;
    }
    if args.skip_damaged {
        config.skip_damaged = true;
    }
    let runtime = match build_runtime(config.workers) {
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
        // Handlers first: whoever reads the line below may signal at once,
        // and a SIGTERM before the handler exists would kill the process
        // without the flush.
        let signalled = shutdown_signal();
        // One line on stdout that people and scripts (the tests) read.
        println!(
            "muster-server listening ws=ws://{} quic=quic://{} metrics=http://{}/metrics fingerprint={}",
            server.ws_addr, server.quic_addr, server.metrics_addr, server.fingerprint
        );
        use std::io::Write;
        let _ = std::io::stdout().flush();
        signalled.await;
        tracing::info!("shutting down");
        server.shutdown().await;
        tracing::info!("stopped");
        ExitCode::SUCCESS
    })
}

/// One thread for everything, or Tokio's work-stealing pool. The storage
/// thread is separate either way (a commit waits for `fsync`).
fn build_runtime(workers: usize) -> std::io::Result<tokio::runtime::Runtime> {
    match workers {
        1 => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        0 => tokio::runtime::Runtime::new(),
        n => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(n)
            .enable_all()
            .build(),
    }
}

/// SIGINT (Ctrl-C) or SIGTERM (service managers, containers). The handlers
/// are installed when this is called, not when the future is first polled.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let term = signal(SignalKind::terminate());
        let int = signal(SignalKind::interrupt());
        async move {
            match (term, int) {
                (Ok(mut term), Ok(mut int)) => {
                    tokio::select! {
                        _ = int.recv() => {}
                        _ = term.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
