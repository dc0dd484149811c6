//! The real `muster` binary in a real window: an X server of the test's
//! own (Xvfb), a real server in this process with two tables on it, and
//! `muster --lobby URL` connecting to it. The screen is read back, saved
//! as `$CARGO_TARGET_DIR/tmp/screenshots/lobby_xvfb.png`, and checked:
//! not blank, many colours, and the lobby's table rows drawn (the green of
//! a free seat and the orange of a private table, in the list's region).
//!
//! Skipped, saying why, only when Xvfb is not installed (`.ci/test`
//! installs it).

use crate::support;

use muster_client::ConnectOptions;
use muster_client::app::{Join, NetTable};
use muster_shared::codec;
use muster_shared::protocol::TableOptions;
use muster_shared::sandbox::{Sandbox, SandboxConfig};
use std::time::Duration;
use support::start_server;
use support::xvfb::{Xvfb, colours, pixels_near, run_window};

/// The lobby's colour for a free seat and for "private" (list.rs).
const FREE_GREEN: [u8; 3] = [0x50, 0xb0, 0x50];
const PRIVATE_ORANGE: [u8; 3] = [0xd0, 0x90, 0x30];
/// Where the table list is drawn: left of the 300-pixel create panel,
/// below the top bar.
const LIST_REGION: (u32, u32, u32, u32) = (0, 40, 960, 760);

fn table(scenario: &str, private: bool) -> TableOptions {
    TableOptions {
        ruleset: "sandbox".into(),
        scenario: scenario.into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    }
}

#[test]
fn the_lobby_in_a_real_window_under_xvfb_lists_the_tables() {
    let x = match Xvfb::start() {
        Ok(x) => x,
        Err(why) if why.contains("not installed") => {
            println!("SKIPPED the_lobby_in_a_real_window_under_xvfb: {why}");
            return;
        }
        Err(why) => panic!("{why}"),
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let open = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Meade",
        Join::Create(table("Gettysburg", false)),
    )
    .expect("a public table");
    let private = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Lee",
        Join::Create(table("Council of war", true)),
    )
    .expect("a private table");

    let config = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let shot = run_window(
        &x,
        env!("CARGO_BIN_EXE_muster"),
        &[
            "--lobby",
            &srv.ws,
            "--name",
            "Window",
            "--config-dir",
            config.path().to_str().unwrap(),
        ],
        Duration::from_secs(120),
        |img| {
            pixels_near(img, LIST_REGION, FREE_GREEN, 16) >= 20
                && pixels_near(img, LIST_REGION, PRIVATE_ORANGE, 16) >= 20
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!("the list was on screen {:?} after start", started.elapsed());

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lobby_xvfb.png");
    shot.save(&path).unwrap();
    println!("screenshot: {}", path.display());

    // Not blank, and drawn by a real UI: many colours.
    let n = colours(&shot);
    assert!(n >= 20, "only {n} colours on screen");
    // The list region is not all background: find the commonest colour
    // there and require plenty of other pixels (text, stripes, buttons).
    let (x0, y0, w, h) = LIST_REGION;
    let mut counts = std::collections::HashMap::new();
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            *counts.entry(shot.get_pixel(x, y).0).or_insert(0usize) += 1;
        }
    }
    let background = counts.values().max().copied().unwrap_or(0);
    let other = (w * h) as usize - background;
    assert!(
        other * 100 >= (w * h) as usize,
        "the list region is {}% background",
        background * 100 / (w * h) as usize
    );
    // The identity was kept for the next start.
    assert!(
        std::fs::read_to_string(config.path().join("sessions.txt"))
            .unwrap()
            .contains(&srv.ws)
    );

    drop((open, private));
    rt.block_on(srv.server.shutdown());
}
