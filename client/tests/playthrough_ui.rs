//! Issue 18's UI-only play-throughs: both seats of a battle played at
//! the real table by clicks and keys only (tray rows, lit hexes,
//! counters on the map, buttons by their words; `support::play`), from
//! the set-up through the end of Game-Turn 2, and on until the table
//! has taken at least one arrival, set-up placement, move, fire, melee,
//! rally and retreat choice from a click (bounded in actions). No engine
//! call makes a move: the engine is read to choose (as a player reads
//! the board) and to check what the clicks did. Every label and value in
//! the accesskit tree is checked for programmer text along the way.

use egui_kittest::Harness;
use muster_client::app::gbacw::GbacwApp;
use muster_shared::gbacw::ruleset::GbacwConfig;
use std::collections::BTreeSet;

use crate::support;

use egui_kittest::kittest::Queryable;
use support::bot::{Bot, after_turn};
use support::kittest::{SIZE, gbacw_harness};
use support::play::{UI_PATHS, assert_words_only, state};

fn table(battle: &str, rendered: bool) -> Harness<'static, GbacwApp> {
    let config = GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    };
    gbacw_harness(&config, SIZE, rendered)
}

/// Save the harness's frame as `docs/screens/<name>` (1280 x 800).
fn save(h: &mut Harness<'_, GbacwApp>, name: &str) {
    // llvmpipe under heavy load may time out a frame: tried again
    // (three times at most).
    let mut image = h.render();
    for _ in 0..2 {
        if image.is_ok() {
            break;
        }
        image = h.render();
    }
    let image = image.expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(name)).unwrap();
    eprintln!("screenshot: docs/screens/{name}");
}

/// Play until `stop`, saving `docs/screens/fire.png` the first time a
/// declared fire is resolved (the map on its target, the log's line).
fn play_watching_fire(
    bot: &mut Bot,
    h: &mut Harness<'_, GbacwApp>,
    shot: &mut bool,
    max: usize,
    stop: &dyn Fn(&Harness<'_, GbacwApp>) -> bool,
) -> bool {
    for _ in 0..max {
        if stop(h) {
            return true;
        }
        let target = state(h).fire_plan.first().map(|p| p.target);
        let clock = state(h).clock;
        if bot.actions.is_multiple_of(10) {
            bot.c.texts_checked += assert_words_only(h, "playing");
        }
        if !bot.step(h) {
            return stop(h);
        }
        if !*shot
            && let Some(t) = target
            && state(h).fire_plan.is_empty()
            && state(h).clock != clock
        {
            h.state_mut().map.centre_on(t);
            h.hover_at(h.state().map.hex_screen_pos(t).unwrap_or_default());
            support::kittest::settle(h);
            save(h, "fire.png");
            *shot = true;
        }
    }
    stop(h)
}

/// The kinds a play-through must have produced by clicks (issue 18):
/// a set-up placement, an arrival, a move, a fire, a melee, a rally and a
/// retreat choice (before melee, after it, or standing fast).
const RETREAT_CHOICES: [&str; 3] = ["RetreatBeforeMelee", "StandFast", "Retreat"];

/// Whether every kind issue 18 asks for was produced by clicks.
fn wanted(b: &Bot) -> bool {
    let p = &b.c.produced;
    [
        "PlaceUnit",
        "Arrive",
        "Move",
        "DeclareFire",
        "DeclareMelee",
        "Rally",
    ]
    .iter()
    .all(|k| p.contains_key(k))
        && RETREAT_CHOICES.iter().any(|k| p.contains_key(k))
}

/// Play `battle` at a hot-seat table to the end of Game-Turn 2, then on
/// (at most `turns` Game-Turns) until every kind above was produced.
fn play_through(battle: &str, turns: u16, rendered: bool) -> Bot {
    let t0 = std::time::Instant::now();
    let mut h = table(battle, rendered);
    let mut shot = !rendered;
    let mut bot = Bot::default();
    assert_words_only(&h, "opened");
    let through_2 = play_watching_fire(&mut bot, &mut h, &mut shot, 2000, &|h| after_turn(h, 2));
    assert!(
        through_2,
        "{battle}: Game-Turn 2 not ended in 2000 actions (turn {}); misses: {:?}",
        state(&h).clock.turn,
        bot.misses
    );
    let gt2 = bot.c.produced.clone();
    eprintln!("{battle}: to the end of Game-Turn 2: {gt2:?}");
    let mut turn = 2;
    while !wanted(&bot) && turn < turns && !state(&h).over {
        turn += 1;
        play_watching_fire(&mut bot, &mut h, &mut shot, 2000, &|h| after_turn(h, turn));
    }
    let seen = assert_words_only(&h, "at the end");
    assert!(seen > 50);
    eprintln!(
        "{battle}: {} actions by {} clicks in {:.0?}, to Game-Turn {}; produced {:?}; offered {:?}; {} misses: {:?}",
        bot.actions,
        bot.c.clicks,
        t0.elapsed(),
        state(&h).clock.turn,
        bot.c.produced,
        bot.offered,
        bot.misses.len(),
        bot.misses.iter().take(20).collect::<Vec<_>>()
    );
    // Nothing the table was asked for by a click was refused.
    assert!(
        h.state().session.last_refusal.is_none(),
        "{:?}",
        h.state().session.last_refusal
    );
    bot
}

fn missing(bot: &Bot, kinds: &[&str]) -> Vec<String> {
    kinds
        .iter()
        .filter(|k| !bot.c.produced.contains_key(**k))
        .map(|k| (*k).to_string())
        .collect()
}

#[test]
fn cedar_mountain_hot_seat_both_seats_by_clicks_only() {
    let bot = play_through("cedar_mountain", 8, true);
    let p = &bot.c.produced;
    assert!(
        p.contains_key("PlaceUnit") && p.contains_key("EndSetUp"),
        "{p:?}"
    );
    assert!(p.contains_key("Arrive"), "{p:?}");
    assert!(p.contains_key("Move"), "{p:?}");
    let must = ["DeclareFire", "DeclareMelee", "Rally"];
    let missing: Vec<String> = missing(&bot, &must);
    assert!(
        missing.is_empty(),
        "never produced by clicks: {missing:?}; {p:?}"
    );
    assert!(
        RETREAT_CHOICES.iter().any(|k| p.contains_key(k)),
        "no retreat choice: {p:?}"
    );
    // Every kind the coverage table (action_kinds_ui) says this test
    // produces, it produced.
    let me = "playthrough_ui::cedar_mountain_hot_seat_both_seats_by_clicks_only";
    let claimed: BTreeSet<&str> = UI_PATHS
        .iter()
        .filter(|(_, t)| *t == me)
        .map(|(k, _)| *k)
        .collect();
    let not: Vec<&&str> = claimed.iter().filter(|k| !p.contains_key(**k)).collect();
    assert!(not.is_empty(), "claimed but not produced: {not:?}; {p:?}");
}

/// The same over a real server: the Union's client over WebSocket, the
/// Confederate's over QUIC, each a `GbacwApp` in its own harness; the
/// player whose seat acts clicks in their own window, the other's
/// client follows. Through the end of Game-Turn 2.
/// Over the server: played to the end of Game-Turn 2, then, when
/// `contact_by` is given, on (seeking the enemy, a few arrivals a phase)
/// until every kind was produced or that Game-Turn ended.
fn net_play_through(battle: &str, contact_by: Option<u16>) -> Bot {
    let t0 = std::time::Instant::now();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = support::start_server(&rt);
    let config = GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    };
    let mut hs = net_harnesses(&server, &config);
    let mut bot = Bot::default();
    for _ in 0..3000 {
        catch_up(&mut hs);
        if after_turn(&hs[0], 2) {
            let Some(last) = contact_by else { break };
            if wanted(&bot) || after_turn(&hs[0], last) || state(&hs[0]).over {
                break;
            }
            bot.arrivals_per_phase = Some(support::bot::ARRIVALS_SEEKING_CONTACT);
        }
        if !net_act(&mut hs, &mut bot) {
            break;
        }
    }
    assert!(
        after_turn(&hs[0], 2),
        "{battle} over the server: Game-Turn 2 not ended (turn {}); misses: {:?}",
        state(&hs[0]).clock.turn,
        bot.misses
    );
    assert_clients_agree(&hs, "after the game over the server");
    eprintln!(
        "{battle} over a real server: {} actions by {} clicks in {:.0?}, to {:?}; produced {:?}; {} misses, the last: {:?}",
        bot.actions,
        bot.c.clicks,
        t0.elapsed(),
        state(&hs[0]).clock,
        bot.c.produced,
        bot.misses.len(),
        bot.misses.iter().rev().take(4).collect::<Vec<_>>()
    );
    bot
}

/// A table of `config` on `server`: the Union's client over WebSocket,
/// the Confederate's over QUIC, a spectator over WebSocket, each a
/// `GbacwApp` in its own harness, once every one has the table (bounded).
fn net_harnesses(
    server: &support::TestServer,
    config: &GbacwConfig,
) -> [Harness<'static, GbacwApp>; 3] {
    let [union, confederate, watcher] =
        support::gbacw::three_clients(server, config, ["Banks", "Jackson", "Watcher"]);
    let mut hs = [
        support::kittest::net_gbacw(union, SIZE),
        support::kittest::net_gbacw(confederate, SIZE),
        support::kittest::net_gbacw(watcher, SIZE),
    ];
    for _ in 0..500 {
        if hs.iter().all(|h| h.state().session.state().is_some()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        for h in hs.iter_mut() {
            support::kittest::settle(h);
        }
    }
    hs
}

/// Everyone caught up before anyone looks at the board (bounded).
fn catch_up(hs: &mut [Harness<'_, GbacwApp>; 3]) {
    let top = hs.iter().map(support::play::seq).max().unwrap_or(0);
    for _ in 0..500 {
        if hs.iter().all(|h| support::play::seq(h) == top) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        for h in hs.iter_mut() {
            support::kittest::settle(h);
        }
    }
}

/// The player whose seat acts takes one step by clicks in their own
/// window (words on screen checked every tenth action); false when
/// nobody acts or the player cannot go on.
fn net_act(hs: &mut [Harness<'_, GbacwApp>; 3], bot: &mut Bot) -> bool {
    let acting = {
        let h = &hs[0];
        support::play::rules(h).acting_seat(state(h))
    };
    let Some(seat) = acting else { return false };
    let h = &mut hs[usize::from(seat.0)];
    assert_eq!(h.state().session.acting_seat(), Some(seat));
    if bot.actions.is_multiple_of(10) {
        bot.c.texts_checked += assert_words_only(h, "playing over the server");
    }
    bot.step(h)
}

/// The three clients agree on the state (the clock and every unit's
/// hex), no roll failed its check, and only words are on screen.
fn assert_clients_agree(hs: &[Harness<'_, GbacwApp>; 3], when: &str) {
    let s0 = state(&hs[0]).clone();
    assert_eq!(state(&hs[1]).clock, s0.clock);
    assert_eq!(state(&hs[2]).clock, s0.clock);
    for (u, st) in &s0.units {
        assert_eq!(state(&hs[1]).units[u].hex, st.hex, "{u}");
        assert_eq!(state(&hs[2]).units[u].hex, st.hex, "{u}");
    }
    for h in hs {
        assert_eq!(h.state().session.bad_roll_count(), 0);
        assert_words_only(h, when);
    }
}

#[test]
fn cedar_mountain_over_a_real_server_both_seats_by_clicks_only() {
    let bot = net_play_through("cedar_mountain", Some(8));
    let p = &bot.c.produced;
    for k in ["PlaceUnit", "EndSetUp", "Arrive", "Move", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
    // On to contact: a fire, a melee, a rally and a retreat choice.
    assert!(wanted(&bot), "not every kind over the server: {p:?}");
}

/// Corinth's historical scenario (30.0), hot seat: through Game-Turn 2.
#[test]
fn corinth_historical_hot_seat_both_seats_by_clicks_only() {
    let bot = play_through("corinth", 2, false);
    let p = &bot.c.produced;
    for k in ["PlaceLeader", "PlaceUnit", "EndSetUp", "Move", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Corinth's free set-up (29.0), hot seat: the Confederate plots the
/// assault, the Union sets up, through Game-Turn 2.
#[test]
fn corinth_free_hot_seat_both_seats_by_clicks_only() {
    let bot = play_through("corinth_free", 2, false);
    let p = &bot.c.produced;
    for k in ["PlotAssault", "Move", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Corinth's solitaire game (29.5), hot seat: the assault rolled by its
/// button, through Game-Turn 2.
#[test]
fn corinth_solo_hot_seat_both_seats_by_clicks_only() {
    let bot = play_through("corinth_solo", 2, false);
    let p = &bot.c.produced;
    for k in ["SolitaireRoll", "Move", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Corinth's historical scenario over a real server, through Game-Turn 2.
/// The Confederates enter on Game-Turn 3 (30.2), so no contact is made
/// by then; the contact kinds are required by
/// `corinth_from_a_saved_game_near_contact_…`, whose dice are fixed.
/// Played on to Game-Turn 8 with fresh dice (28 Nov 2026, after Corinth
/// 30.13's advice was made to name a hex the unit may stop in), four runs
/// of five made a fire, a melee, a rally and a retreat choice over the
/// server by Game-Turn 4; the fifth's bot stopped at Game-Turn 6 short of
/// one. A test that fails one run in five is not kept in CI.
#[test]
fn corinth_over_a_real_server_both_seats_by_clicks_only() {
    let bot = net_play_through("corinth", None);
    let p = &bot.c.produced;
    for k in ["PlaceLeader", "PlaceUnit", "EndSetUp", "Move", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Corinth's free set-up (29.0) over a real server: the Confederate's
/// client plots the assault in its panel, the Union's sets up, through
/// Game-Turn 2 (issue 18: each Corinth scenario over a real server).
#[test]
fn corinth_free_over_a_real_server_both_seats_by_clicks_only() {
    let bot = net_play_through("corinth_free", None);
    let p = &bot.c.produced;
    for k in ["PlotAssault", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Corinth's solitaire game (29.5) over a real server: the Confederate's
/// client rolls the assault by its button, through Game-Turn 2.
#[test]
fn corinth_solo_over_a_real_server_both_seats_by_clicks_only() {
    let bot = net_play_through("corinth_solo", None);
    let p = &bot.c.produced;
    for k in ["SolitaireRoll", "EndPhase"] {
        assert!(p.contains_key(k), "{k} not produced: {p:?}");
    }
}

/// Every counter of the Union's default deployment (stacks of two and
/// three included) can be selected by clicks: on the map (its stack
/// hovered, then the counter clicked), else by its order-of-battle row.
#[test]
fn every_deployed_counter_is_selected_by_a_click() {
    let mut h = table("cedar_mountain", false);
    let mut c = support::play::Clicker::default();
    assert!(c.perform(
        &mut h,
        &muster_shared::gbacw::ruleset::GbacwAction::EndSetUp
    ));
    let on_map: Vec<_> = state(&h)
        .units
        .iter()
        .filter(|(_, u)| u.hex.is_some())
        .map(|(id, _)| id.clone())
        .collect();
    assert!(on_map.len() > 20);
    let mut failed = Vec::new();
    for id in &on_map {
        h.state_mut().map.select(Vec::new());
        h.run();
        if !c.select(&mut h, id) {
            failed.push(id.to_string());
        }
    }
    eprintln!("{} counters selected by {} clicks", on_map.len(), c.clicks);
    assert!(failed.is_empty(), "not selectable by a click: {failed:?}");
}

// --- Issue 18: a melee, a rally and a retreat choice by clicks in
// Corinth, from a saved game near contact ---

/// Where the saved games these tests continue are kept.
fn fixture_saves() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saves")
}

/// The saved game of `battle` near contact (made by
/// `make_the_<battle>_near_contact_saved_game`; see the README beside
/// it): `corinth-near-contact.muster-save` and the like.
fn near_contact(battle: &str) -> String {
    format!("{}-near-contact.muster-save", battle.replace('_', "-"))
}

/// The kinds the Corinth test must produce by clicks: a melee, a rally
/// and a retreat choice (a retreat path, or a retreat before melee).
fn contact_made(p: &std::collections::BTreeMap<&str, usize>) -> bool {
    p.contains_key("DeclareMelee")
        && p.contains_key("Rally")
        && (p.contains_key("Retreat") || p.contains_key("RetreatBeforeMelee"))
}

/// At most this many actions, and this long, from the saved game (the
/// time only as a guard for a machine under heavy load).
const CONTACT_ACTIONS: usize = 240;
const CONTACT_SECS: u64 = 900;

/// Play from where `h` stands with a fresh contact-seeking player until
/// the three kinds are produced (bounded).
fn play_to_contact(h: &mut Harness<'_, GbacwApp>, bot: &mut Bot, t0: std::time::Instant) {
    for _ in 0..CONTACT_ACTIONS {
        if contact_made(&bot.c.produced)
            || t0.elapsed() > std::time::Duration::from_secs(CONTACT_SECS)
        {
            break;
        }
        if bot.actions.is_multiple_of(10) && !bot.c.direct {
            bot.c.texts_checked += assert_words_only(h, "playing from the saved game");
        }
        if !bot.step(h) {
            break;
        }
    }
}

/// Issue 18: Corinth's historical game (30.0), continued from a saved game
/// near contact the way a player continues one ("Saved games", then the
/// game's row), is played on by clicks only, seeking a melee, a rally and
/// a retreat choice, each checked against the engine's state right after
/// it is made (`Bot::check_after`: the melee declared, 12.8; the rally
/// tried or the rout gone, 13.51; the retreat off its hex or the
/// retreat-before-melee offer answered, 12.2x, 14.4).
#[test]
fn corinth_from_a_saved_game_near_contact_melee_rally_and_retreat_by_clicks() {
    from_a_saved_game_near_contact("corinth", true);
}

/// The same for Corinth's free set-up (29.0): the plan plotted, the
/// divisions entered by it, then a melee, a rally and a retreat choice.
#[test]
fn corinth_free_from_a_saved_game_near_contact_melee_rally_and_retreat_by_clicks() {
    from_a_saved_game_near_contact("corinth_free", false);
}

/// The same for Corinth's solitaire game (29.5): the Confederate plan
/// rolled, then a melee, a rally and a retreat choice.
#[test]
fn corinth_solo_from_a_saved_game_near_contact_melee_rally_and_retreat_by_clicks() {
    from_a_saved_game_near_contact("corinth_solo", false);
}

/// Issue 18: Corinth's historical game (30.0), begun at one machine and
/// carried on at a server table from the game saved near contact (the
/// create form's "Start from", whose clicks `create_form_ui` drives):
/// the Union's client over WebSocket, the Confederate's over QUIC and a
/// spectator, each in its own window; the players click in their own
/// windows until a melee, a rally and a retreat choice were made, each
/// checked against the engine's state right after (`Bot::check_after`:
/// 12.8, 13.51, 12.2x, 14.4); the three clients agree at the end. The
/// dice are the server table's own, fresh (commit-reveal), so contact
/// comes from the position, not from chosen rolls.
#[test]
fn corinth_over_a_real_server_from_a_saved_game_melee_rally_and_retreat_by_clicks() {
    over_a_real_server_from_a_saved_game("corinth");
}

/// The same for Corinth's free set-up (29.0), from its saved game.
#[test]
fn corinth_free_over_a_real_server_from_a_saved_game_melee_rally_and_retreat_by_clicks() {
    over_a_real_server_from_a_saved_game("corinth_free");
}

/// The same for Corinth's solitaire game (29.5), from its saved game.
#[test]
fn corinth_solo_over_a_real_server_from_a_saved_game_melee_rally_and_retreat_by_clicks() {
    over_a_real_server_from_a_saved_game("corinth_solo");
}

/// At most this many actions from the saved game over a server: twice
/// the hot seat's bound, since the server's dice are fresh on every run
/// where the hot seat's come from the saved chains. The solitaire game's
/// rally came after 73–209 actions in eight runs, once after more than
/// 240.
const NET_CONTACT_ACTIONS: usize = 2 * CONTACT_ACTIONS;

/// `battle`'s saved game near contact carried on at a server table and
/// played by clicks to a melee, a rally and a retreat choice (above).
fn over_a_real_server_from_a_saved_game(battle: &str) {
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::ruleset::{Gbacw, continued};
    let t0 = std::time::Instant::now();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = support::start_server(&rt);
    let fixture =
        muster_client::app::saved::SavedGame::read(&fixture_saves().join(near_contact(battle)))
            .expect("the fixture reads");
    let config = continued::config_for(&fixture.log).expect("a saved game to continue");
    assert_eq!(config.battle, battle, "the saved game of another battle");
    let saved = Gbacw::new(&config).unwrap().initial_state();
    let mut hs = net_harnesses(&server, &config);
    // The server's table stands where the saved game stood, for all three.
    for h in &hs {
        assert_eq!(state(h).clock, saved.clock);
        for (u, st) in &saved.units {
            assert_eq!(state(h).units[u].hex, st.hex, "{u}");
        }
    }
    let mut bot = Bot::seeking_contact();
    for _ in 0..NET_CONTACT_ACTIONS {
        catch_up(&mut hs);
        if contact_made(&bot.c.produced)
            || t0.elapsed() > std::time::Duration::from_secs(CONTACT_SECS)
        {
            break;
        }
        if !net_act(&mut hs, &mut bot) {
            break;
        }
    }
    catch_up(&mut hs);
    let p = &bot.c.produced;
    // The game may end before a routed unit comes to a Rally Phase: the
    // free set-up's saved game stands at Game-Turn 13 and, with fresh
    // dice, was once won on the first day (Corinth 31.2, after Game-Turn
    // 16) with melees and retreats but no rout. The rally is then not
    // asked for; while the game goes on, it is (and the hot seat's run
    // from the same saved game, on the saved dice, always asks it).
    let ended = support::play::rules(&hs[0])
        .outcome(state(&hs[0]))
        .is_some();
    eprintln!(
        "{battle} over a real server from {:?}: {} actions by {} clicks in {:.0?}, to Game-Turn {}{}; produced {p:?}; checked {:?}; {} misses: {:?}",
        saved.clock,
        bot.actions,
        bot.c.clicks,
        t0.elapsed(),
        state(&hs[0]).clock.turn,
        if ended { " (the game ended)" } else { "" },
        bot.checked,
        bot.misses.len(),
        bot.misses.iter().take(10).collect::<Vec<_>>()
    );
    let mut wanted = vec!["melee declared", "retreat"];
    if ended && !p.contains_key("Rally") {
        assert!(
            p.contains_key("DeclareMelee")
                && (p.contains_key("Retreat") || p.contains_key("RetreatBeforeMelee")),
            "the game ended with no melee or retreat choice: {p:?}"
        );
    } else {
        assert!(contact_made(p), "no melee, rally or retreat choice: {p:?}");
        wanted.push("rally of");
    }
    for what in wanted {
        assert!(
            bot.checked.iter().any(|c| c.contains(what)),
            "{what}: not checked against the engine: {:?}",
            bot.checked
        );
    }
    assert_clients_agree(&hs, "after contact over the server");
}

/// Continue `battle`'s saved game near contact by clicks ("Saved games",
/// its row) and play on by clicks until a melee, a rally and a retreat
/// choice were made, each checked; `shot` saves
/// `docs/screens/saved-games.png`.
fn from_a_saved_game_near_contact(battle: &str, shot: bool) {
    use muster_client::app::gbacw::saves;
    let t0 = std::time::Instant::now();
    let mut h = table(battle, shot);
    let file = near_contact(battle);
    // The player's saved-games folder, holding the game saved earlier
    // (a copy: the folder's path is on screen, the checkout's may have
    // any name).
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture_saves().join(&file), dir.path().join(&file)).unwrap();
    h.state_mut().saves.dir = Some(dir.path().to_path_buf());
    support::kittest::settle(&mut h);
    let fixture = muster_client::app::saved::SavedGame::read(&fixture_saves().join(&file))
        .expect("the fixture reads");
    let mut bot = Bot::seeking_contact();
    assert!(bot.c.button(&mut h, saves::SAVED_GAMES, 0));
    let row = saves::continue_label(&fixture.title);
    assert!(h.query_by_label(&row).is_some(), "{row:?} not listed");
    assert_words_only(&h, "the saved games");
    if shot {
        save(&mut h, "saved-games.png");
    }
    assert!(bot.c.button(&mut h, &row, 0));
    // The table stands where the saved game stood.
    assert_eq!(
        support::play::seq(&h),
        fixture.log.entries.len() as u64,
        "not continued"
    );
    assert_eq!(
        h.state().saves.note.as_deref(),
        Some(format!("Continued: {}", fixture.title).as_str())
    );
    assert_words_only(&h, "continued");
    let start = state(&h).clock;
    // Where a step's time goes at this position (issue 18's CI time): a
    // frame of the table, and one query of the acting seat's legal set.
    let t = std::time::Instant::now();
    for _ in 0..5 {
        h.step();
    }
    let frame = t.elapsed() / 5;
    let t = std::time::Instant::now();
    let n = support::play::legal_now(&h).len();
    eprintln!(
        "at the saved game: a frame {frame:.1?}; the legal set ({n} actions) {:.1?}",
        t.elapsed()
    );
    play_to_contact(&mut h, &mut bot, t0);
    let p = &bot.c.produced;
    eprintln!(
        "{battle} from {:?}: {} actions by {} clicks in {:.0?}, to Game-Turn {}; produced {p:?}; checked {:?}; {} misses: {:?}",
        start,
        bot.actions,
        bot.c.clicks,
        t0.elapsed(),
        state(&h).clock.turn,
        bot.checked,
        bot.misses.len(),
        bot.misses.iter().take(10).collect::<Vec<_>>()
    );
    // A melee, a rally and a retreat choice, each made by clicks and
    // checked against the engine's state.
    assert!(contact_made(p), "no melee, rally or retreat choice: {p:?}");
    for what in ["melee declared", "retreat", "rally of"] {
        assert!(
            bot.checked.iter().any(|c| c.contains(what)),
            "{what}: not checked against the engine: {:?}",
            bot.checked
        );
    }
    assert_words_only(&h, "at the end");
    assert!(
        h.state().session.last_refusal.is_none(),
        "{:?}",
        h.state().session.last_refusal
    );
}

/// Issue 18: a hot-seat game saved by clicks ("Saved games", "Save this
/// game") is listed by its title in words and continued by a click in
/// another window, where it stands as it stood.
#[test]
fn a_hot_seat_game_is_saved_and_continued_by_clicks() {
    use muster_client::app::gbacw::saves;
    let dir = tempfile::tempdir().unwrap();
    let mut h = table("cedar_mountain", false);
    h.state_mut().saves.dir = Some(dir.path().to_path_buf());
    let mut c = support::play::Clicker::default();
    assert!(c.perform(
        &mut h,
        &muster_shared::gbacw::ruleset::GbacwAction::EndSetUp
    ));
    assert!(c.button(&mut h, saves::SAVED_GAMES, 0));
    assert!(h.query_by_label("No saved games yet.").is_some());
    assert!(c.button(&mut h, saves::SAVE, 0));
    let title = saves::title(support::play::rules(&h), state(&h));
    assert_eq!(
        h.state().saves.note.as_deref(),
        Some(format!("Saved: {title}").as_str())
    );
    assert!(
        title.starts_with("Cedar Mountain, 9 August 1862 — Game-Turn 1, "),
        "{title}"
    );
    let saved = state(&h).clone();
    let at = support::play::seq(&h);
    assert_words_only(&h, "saved");
    // Another window: a fresh table, then the saved game continued.
    let mut k = table("cedar_mountain", false);
    k.state_mut().saves.dir = Some(dir.path().to_path_buf());
    support::kittest::settle(&mut k);
    assert!(c.button(&mut k, saves::SAVED_GAMES, 0));
    assert!(c.button(&mut k, &saves::continue_label(&title), 0));
    assert_eq!(support::play::seq(&k), at);
    assert_eq!(state(&k).clock, saved.clock);
    for (u, st) in &saved.units {
        assert_eq!(state(&k).units[u].hex, st.hex, "{u}");
    }
    // And it plays on: the next phase ended by a click.
    let before = state(&k).clock;
    assert!(c.perform(
        &mut k,
        &muster_shared::gbacw::ruleset::GbacwAction::EndPhase
    ));
    assert_ne!(state(&k).clock, before);
    assert_eq!(k.state().session.bad_roll_count(), 0);
}

/// Makes `tests/fixtures/saves/corinth-near-contact.muster-save` (run by
/// hand: `MUSTER_BLESS=1 cargo test -p muster-client --test playthrough_ui
/// -- --ignored make_the_corinth`). A Corinth historical game (30.0) at a
/// hot-seat table, played by the same contact-seeking player as the test
/// but acting through the session (no clicks: this only makes a
/// position), until a melee, a rally and a retreat choice have been
/// made. The saved game is that log cut at the start of the phase from
/// which that game made all three soonest.
#[test]
#[ignore = "makes the fixture; run by hand with MUSTER_BLESS=1"]
fn make_the_corinth_near_contact_saved_game() {
    make_near_contact("corinth");
}

/// Makes `corinth-free-near-contact.muster-save` the same way (29.0).
#[test]
#[ignore = "makes the fixture; run by hand with MUSTER_BLESS=1"]
fn make_the_corinth_free_near_contact_saved_game() {
    make_near_contact("corinth_free");
}

/// Makes `corinth-solo-near-contact.muster-save` the same way (29.5).
#[test]
#[ignore = "makes the fixture; run by hand with MUSTER_BLESS=1"]
fn make_the_corinth_solo_near_contact_saved_game() {
    make_near_contact("corinth_solo");
}

fn make_near_contact(battle: &str) {
    use muster_client::app::local::LocalTable;
    use muster_shared::gbacw::ruleset::Gbacw;
    let t0 = std::time::Instant::now();
    let mut h = table(battle, false);
    let mut bot = Bot::seeking_contact();
    bot.c.direct = true;
    // (log length before the action, the kind produced, the clock).
    type Taken = Vec<(u64, &'static str, muster_shared::gbacw::sequence::Clock)>;
    let mut taken: Taken = Vec::new();
    // The cut from which the game made all three soonest, if soon
    // enough: (actions to contact, the cut's entry).
    let best_cut = |taken: &Taken| {
        let mut cuts: Vec<(usize, u64)> = Vec::new();
        let mut last_clock = None;
        for (i, t) in taken.iter().enumerate() {
            if Some(t.2) != last_clock {
                let mut seen = std::collections::BTreeMap::new();
                for (n, u) in taken[i..].iter().enumerate() {
                    seen.insert(u.1, 1usize);
                    if contact_made(&seen) {
                        cuts.push((n + 1, t.0));
                        break;
                    }
                }
            }
            last_clock = Some(t.2);
        }
        cuts.into_iter()
            .filter(|c| c.0 <= CONTACT_ACTIONS / 3)
            .min()
    };
    for _ in 0..6000 {
        // Played on until a cut near enough to contact exists (a rally
        // can come long after the first melee).
        if best_cut(&taken).is_some()
            || state(&h).over
            || t0.elapsed() > std::time::Duration::from_secs(3600)
        {
            break;
        }
        let at = support::play::seq(&h);
        let clock = state(&h).clock;
        let before = bot.c.produced.clone();
        if !bot.step(&mut h) {
            eprintln!(
                "stopped at {:?}: {} legal; refusal {:?}; misses {:?}",
                state(&h).clock,
                support::play::legal_now(&h).len(),
                h.state().session.last_refusal,
                bot.misses.iter().rev().take(5).collect::<Vec<_>>()
            );
            break;
        }
        for (k, n) in &bot.c.produced {
            if before.get(k) != Some(n) {
                taken.push((at, *k, clock));
            }
        }
    }
    eprintln!(
        "the whole game: {} actions in {:.0?}, to {:?}; produced {:?}",
        bot.actions,
        t0.elapsed(),
        state(&h).clock,
        bot.c.produced
    );
    assert!(
        contact_made(&bot.c.produced),
        "no contact: {:?}",
        bot.c.produced
    );
    let whole = h.state().session.save("").expect("a hot-seat table saves");
    // Cuts: the first entry of each phase. For each, how many of the
    // game's actions after it until all three kinds were made again;
    // the one with the fewest (at most a third of the test's bound).
    let (n, cut) = best_cut(&taken).expect("a cut near contact");
    let mut game = whole.clone();
    game.log.entries.truncate(usize::try_from(cut).unwrap());
    let table = LocalTable::<Gbacw>::from_saved(&game).expect("the cut continues");
    game.title =
        muster_client::app::gbacw::saves::title(table.game().ruleset(), table.game().state());
    eprintln!(
        "cut at entry {cut} ({}), {n} actions before contact",
        game.title
    );
    let out = fixture_saves().join(near_contact(battle));
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::create_dir_all(fixture_saves()).unwrap();
        std::fs::write(&out, game.to_file_bytes()).unwrap();
        eprintln!(
            "wrote {} ({} bytes)",
            out.display(),
            game.to_file_bytes().len()
        );
    }
}
