//! `muster`: the desktop client.
//!
//! ```text
//! muster                                   hot-seat sandbox table in this process
//! muster --battle test                     hot-seat GBACW table in this process
//!                                          ("Saved games": save it, continue one)
//! muster --lobby [URL] [--name NAME] [--profile P]
//!                                          the lobby (connect screen without URL)
//! muster --connect URL [--name NAME]       the lobby, connected to URL
//! muster --connect URL --event N [--name NAME]
//!                                          a club event's page (tables, standings,
//!                                          the director's desk for its directors)
//! muster --connect URL [--fingerprint HEX] [--name NAME] [--ruleset gbacw --battle NAME]
//!        (--create | --join TABLE [--seat N] | --spectate TABLE) [--invite CODE]
//! ```
//!
//! URL is `ws://host:port` or `quic://host:port` (QUIC needs the server's
//! certificate fingerprint, as `muster-server` prints it). A lobby screen
//! will replace the flags.

use muster_client::ConnectOptions;
use muster_client::app::event::EventApp;
use muster_client::app::lobby::{LobbyApp, LobbyFlags, Store};
use muster_client::app::your_move::{Desktop, YourMoveWatch};
use muster_client::app::{Join, MusterApp, NetTable, Session};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::protocol::club::EventId;
use muster_shared::protocol::{TableId, TableOptions};
use muster_shared::sandbox::{Sandbox, SandboxConfig};
// GBACW
use muster_client::app::gbacw::GbacwApp;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};

const NAMES: [&str; 2] = ["Union", "Confederate"];

/// Without `--connect`, a hot-seat sandbox table in this process.
#[derive(clap::Parser)]
#[command(name = "muster", version, about = "Muster's desktop client")]
struct Args {
    /// The server: ws://HOST:PORT or quic://HOST:PORT.
    #[arg(long, value_name = "URL")]
    connect: Option<String>,
    /// The server's QUIC certificate fingerprint, as `muster-server` prints it.
    #[arg(long, value_name = "HEX")]
    fingerprint: Option<String>,
    /// Your display name. In the lobby: the identity of that name kept
    /// for the server, or a new one (without it: the identity used last).
    #[arg(long)]
    name: Option<String>,
    /// The lobby keeps this profile's identities apart from the others
    /// (two players on one machine: `--profile meade`, `--profile jackson`).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
    /// Create a table (private when `--invite` is given): the sandbox, or
    /// GBACW with `--ruleset gbacw --battle NAME`.
    #[arg(long, group = "table_choice")]
    create: bool,
    /// Take a seat at table TABLE.
    #[arg(long, value_name = "TABLE", group = "table_choice")]
    join: Option<u64>,
    /// Watch table TABLE.
    #[arg(long, value_name = "TABLE", group = "table_choice")]
    spectate: Option<u64>,
    /// Open club event N's page (with `--connect`): its tables, standings
    /// and, for its directors, the director's desk.
    #[arg(long, value_name = "N", group = "table_choice", requires = "connect")]
    event: Option<u64>,
    /// Which seat to take with `--join` (1, 2, …); the first free one otherwise.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..))]
    seat: Option<u8>,
    /// A private table's invite code.
    #[arg(long, value_name = "CODE")]
    invite: Option<String>,
    // --- GBACW (see gbacw_app below) ---
    /// The ruleset of the table: sandbox, or gbacw (implied by --battle).
    #[arg(long, value_name = "RULESET")]
    ruleset: Option<String>,
    /// A GBACW battle (`test`): a GBACW table instead of the sandbox.
    #[arg(long, value_name = "NAME")]
    battle: Option<String>,
    /// Open the lobby: connected to URL, or the connect screen without one.
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = "", conflicts_with_all = ["connect", "table_choice"])]
    lobby: Option<String>,
    /// Where the lobby keeps session tokens and pinned certificates
    /// (default: $MUSTER_CONFIG_DIR, else $XDG_CONFIG_HOME/muster, else ~/.config/muster).
    #[arg(long, value_name = "DIR")]
    config_dir: Option<std::path::PathBuf>,
}

/// `--lobby [URL]`, or `--connect URL` with no table chosen: the lobby.
fn lobby_app(args: &Args, url: Option<&str>) -> Result<LobbyApp, String> {
    let flags = LobbyFlags {
        config_dir: args.config_dir.clone(),
        profile: args.profile.clone(),
        name: args.name.clone(),
        fingerprint: args.fingerprint.clone(),
    };
    LobbyApp::from_flags(&flags, url)
}

impl Args {
    /// The name a table joined straight from the flags signs in with.
    fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or("Guest")
    }

    /// What to do once connected, if a table was chosen.
    fn join(&self) -> Option<Join> {
        if self.create {
            return Some(Join::Create(TableOptions {
                ruleset: "sandbox".into(),
                scenario: "Sandbox".into(),
                config: codec::encode_infallible(&SandboxConfig::default()),
                private: self.invite.is_some(),
                spectators_allowed: true,
                spectator_delay: 0,
                take_back_needs_agreement: true,
            }));
        }
        if let Some(t) = self.join {
            return Some(Join::Seat {
                table: TableId(t),
                seat: self.seat.map(|n| SeatId(n - 1)),
                invite: self.invite.clone(),
            });
        }
        self.spectate.map(|t| Join::Spectate {
            table: TableId(t),
            invite: self.invite.clone(),
        })
    }
}

fn main() -> eframe::Result {
    let args = <Args as clap::Parser>::parse();
    if let (Some(url), Some(n)) = (&args.connect, args.event) {
        let app = event_app(&args, url, n).unwrap_or_else(|e| {
            eprintln!("muster: {e}");
            std::process::exit(1);
        });
        return run(Box::new(app));
    }
    // `--lobby [URL]`, or `--connect URL` with no table chosen: the lobby.
    let lobby_url = match (&args.lobby, &args.connect, args.join()) {
        (Some(url), _, _) => Some(Some(url.as_str()).filter(|u| !u.is_empty())),
        (None, Some(url), None) => Some(Some(url.as_str())),
        _ => None,
    };
    if let Some(url) = lobby_url {
        let app = lobby_app(&args, url).unwrap_or_else(|e| {
            eprintln!("muster: {e}");
            std::process::exit(1);
        });
        return run(Box::new(app));
    }
    let names: Vec<String> = NAMES.iter().map(|n| (*n).to_string()).collect();
    let app: Result<Box<dyn eframe::App>, String> = match gbacw_app(&args) {
        Some(app) => app,
        None => sandbox_app(&args, names),
    };
    let app = match app {
        Ok(app) => app,
        Err(e) => {
            eprintln!("muster: {e}");
            std::process::exit(1);
        }
    };
    run(app)
}

/// `--connect URL --event N`: the event's page, as the lobby's identity.
fn event_app(args: &Args, url: &str, event: u64) -> Result<EventApp, String> {
    let dir = match &args.config_dir {
        Some(d) => d.clone(),
        None => Store::default_dir().map_err(|e| e.to_string())?,
    };
    let store = match &args.profile {
        Some(p) => Store::with_profile(dir, p).map_err(|e| e.to_string())?,
        None => Store::at(dir),
    };
    let opts = ConnectOptions {
        fingerprint: args.fingerprint.clone(),
        ..ConnectOptions::default()
    };
    let notify = store.notify();
    let mut app = EventApp::open(url, &store, args.name.as_deref(), opts, EventId(event))
        .map_err(|e| e.to_string())?;
    // Issue 21: your move told, as in the lobby (the lobby's setting).
    let mut watch = YourMoveWatch::new(Box::new(Desktop), notify);
    watch.sound = store.sound();
    app.watch = Some(watch);
    Ok(app)
}

/// Open the window and run `app` in it.
fn run(app: Box<dyn eframe::App>) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native("Muster", options, Box::new(|_cc| Ok(app)))
}

fn sandbox_app(args: &Args, names: Vec<String>) -> Result<Box<dyn eframe::App>, String> {
    let app = match (&args.connect, args.join()) {
        (None, _) => {
            MusterApp::hot_seat(&SandboxConfig::default(), &NAMES).map_err(|e| e.to_string())
        }
        (Some(url), Some(join)) => {
            let opts = ConnectOptions {
                fingerprint: args.fingerprint.clone(),
                ..ConnectOptions::default()
            };
            NetTable::<Sandbox>::join(url, opts, args.display_name(), join)
                .map(|t| {
                    if let Some(code) = t.invite() {
                        println!("table {} created; invite code {code}", t.table().0);
                    }
                    MusterApp::new(Session::new(Box::new(t), names))
                })
                .map_err(|e| e.to_string())
        }
        (Some(_), None) => {
            Err("with --connect, say --create, --join TABLE or --spectate TABLE".into())
        }
    };
    app.map(|a| Box::new(a) as Box<dyn eframe::App>)
}

// --- GBACW: `--battle NAME` (hot-seat) or `--ruleset gbacw --battle NAME`
// with `--connect` ---

/// The GBACW table the flags ask for; `None` when they ask for the sandbox.
fn gbacw_app(args: &Args) -> Option<Result<Box<dyn eframe::App>, String>> {
    let wanted = args.battle.is_some() || args.ruleset.as_deref() == Some("gbacw");
    if !wanted {
        return match args.ruleset.as_deref() {
            None | Some("sandbox") => None,
            Some(other) => Some(Err(format!(
                "no game called \u{201c}{other}\u{201d} (sandbox or gbacw)"
            ))),
        };
    }
    let config = GbacwConfig {
        battle: args.battle.clone().unwrap_or_else(|| "test".into()),
        ..GbacwConfig::default()
    };
    let names: Vec<String> = NAMES.iter().map(|n| (*n).to_string()).collect();
    let app = match &args.connect {
        None => GbacwApp::hot_seat(&config, &NAMES)
            .map(|mut a| {
                // Issue 18: "Saved games" keeps them in the config folder.
                a.saves.dir = args
                    .config_dir
                    .clone()
                    .or_else(|| Store::default_dir().ok())
                    .map(|d| d.join("saves"));
                a
            })
            .map_err(|e| e.to_string()),
        Some(url) => {
            let join = match args.join() {
                Some(Join::Create(mut opts)) => {
                    opts.ruleset = "gbacw".into();
                    opts.scenario = config.battle.clone();
                    opts.config = codec::encode_infallible(&config);
                    Join::Create(opts)
                }
                Some(j) => j,
                None => {
                    return Some(Err(
                        "with --connect, say --create, --join TABLE or --spectate TABLE".into(),
                    ));
                }
            };
            let opts = ConnectOptions {
                fingerprint: args.fingerprint.clone(),
                ..ConnectOptions::default()
            };
            NetTable::<Gbacw>::join(url, opts, args.display_name(), join)
                .map(|t| {
                    if let Some(code) = t.invite() {
                        println!("table {} created; invite code {code}", t.table().0);
                    }
                    GbacwApp::new(Session::new(Box::new(t), names))
                })
                .map_err(|e| e.to_string())
        }
    };
    Some(app.map(|a| Box::new(a) as Box<dyn eframe::App>))
}
