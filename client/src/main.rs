//! `muster`: the desktop client.
//!
//! ```text
//! muster                                   hot-seat sandbox table in this process
//! muster --connect URL [--fingerprint HEX] [--name NAME]
//!        (--create | --join TABLE [--seat N] | --spectate TABLE) [--invite CODE]
//! ```
//!
//! URL is `ws://host:port` or `quic://host:port` (QUIC needs the server's
//! certificate fingerprint, as `muster-server` prints it). A lobby screen
//! will replace the flags.

use muster_client::ConnectOptions;
use muster_client::app::{Join, MusterApp, NetTable, Session};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::protocol::{TableId, TableOptions};
use muster_shared::sandbox::{Board, BoardKind, Sandbox, SandboxConfig, TurnOrder};

const NAMES: [&str; 2] = ["Union", "Confederate"];

fn sandbox_config() -> SandboxConfig {
    SandboxConfig {
        seats: 2,
        boards: vec![
            Board {
                name: "Map".into(),
                kind: BoardKind::Hex {
                    columns: 40,
                    rows: 30,
                },
            },
            Board {
                name: "Off-map box".into(),
                kind: BoardKind::Free {
                    width: 1000,
                    height: 600,
                },
            },
        ],
        turn_order: TurnOrder::Free,
    }
}

struct Args {
    connect: Option<String>,
    fingerprint: Option<String>,
    name: String,
    join: Option<Join>,
    seat: Option<SeatId>,
    invite: Option<String>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        connect: None,
        fingerprint: None,
        name: "Guest".into(),
        join: None,
        seat: None,
        invite: None,
    };
    let mut it = std::env::args().skip(1);
    let table = |v: Option<String>| -> Result<TableId, String> {
        v.as_deref()
            .and_then(|s| s.parse().ok())
            .map(TableId)
            .ok_or_else(|| "a table number is needed".to_string())
    };
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--connect" => a.connect = it.next(),
            "--fingerprint" => a.fingerprint = it.next(),
            "--name" => a.name = it.next().ok_or("--name needs a value")?,
            "--invite" => a.invite = it.next(),
            "--seat" => {
                let n: u8 = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seat needs a number")?;
                a.seat = Some(SeatId(n.saturating_sub(1)));
            }
            "--create" => {
                a.join = Some(Join::Create(TableOptions {
                    ruleset: "sandbox".into(),
                    scenario: "Sandbox".into(),
                    config: codec::encode_infallible(&sandbox_config()),
                    private: false,
                    spectators_allowed: true,
                    spectator_delay: 0,
                }))
            }
            "--join" => {
                a.join = Some(Join::Seat {
                    table: table(it.next())?,
                    seat: None,
                    invite: None,
                })
            }
            "--spectate" => {
                a.join = Some(Join::Spectate {
                    table: table(it.next())?,
                    invite: None,
                })
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    // --seat and --invite apply to whichever join was chosen.
    a.join = a.join.map(|j| match j {
        Join::Seat { table, .. } => Join::Seat {
            table,
            seat: a.seat,
            invite: a.invite.clone(),
        },
        Join::Spectate { table, .. } => Join::Spectate {
            table,
            invite: a.invite.clone(),
        },
        Join::Create(mut o) => {
            o.private = a.invite.is_some();
            Join::Create(o)
        }
    });
    Ok(a)
}

fn main() -> eframe::Result {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("muster: {e}");
            }
            eprintln!(
                "usage: muster [--connect ws://HOST:PORT|quic://HOST:PORT [--fingerprint HEX] [--name NAME]\n\
                 \x20             (--create | --join TABLE [--seat N] | --spectate TABLE) [--invite CODE]]"
            );
            std::process::exit(2);
        }
    };
    let names: Vec<String> = NAMES.iter().map(|n| (*n).to_string()).collect();
    let app = match (&args.connect, args.join.clone()) {
        (None, _) => MusterApp::hot_seat(&sandbox_config(), &NAMES).map_err(|e| e.to_string()),
        (Some(url), Some(join)) => {
            let opts = ConnectOptions {
                fingerprint: args.fingerprint.clone(),
                ..ConnectOptions::default()
            };
            NetTable::<Sandbox>::join(url, opts, &args.name, join)
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
    let app = match app {
        Ok(app) => app,
        Err(e) => {
            eprintln!("muster: {e}");
            std::process::exit(1);
        }
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native("Muster", options, Box::new(|_cc| Ok(Box::new(app))))
}
