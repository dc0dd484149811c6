//! `muster`: the desktop client. For now it opens a hot-seat sandbox table
//! hosted in this process; network tables come with the network client.

use muster_client::app::MusterApp;
use muster_shared::sandbox::{Board, BoardKind, SandboxConfig, TurnOrder};

fn main() -> eframe::Result {
    let config = SandboxConfig {
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
    };
    let app = match MusterApp::hot_seat(&config, &["Union", "Confederate"]) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("muster: cannot set up the table: {e}");
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
