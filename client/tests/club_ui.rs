//! Issue 21's club screens through the real UI (egui_kittest, clicks and
//! typing only) against a real server in this process (SQLite in a
//! temporary directory, loopback sockets); the server's state is checked
//! after each step by a scripted client.
//!
//! - A guest claims their name as an account on the account screen, and
//!   signs in to it from another machine (another config directory) with
//!   the connect screen's password: the same identity. A wrong password,
//!   an unknown account and too many failed sign-ins are refused in the
//!   server's words on the connect screen.
//! - An owner creates a club (and sees their role), names a member a
//!   tournament director, sets the club's webhook (a bad address refused
//!   before sending), and creates an event with the form (a Corinth round
//!   robin, sides by bid, slow play with vacation days, invite only,
//!   check-in; an empty name refused before sending): the server holds
//!   the event with every setting chosen.
//! - A player registers with the invite code from the lobby, checks in
//!   and bids for a side named by the scenario on the event's page.
//!
//! - An owner creates an event of a battle per round (round 1 Corinth,
//!   then Cedar Mountain, each battle's levels with their own points),
//!   and leaves the club to a member named by a click.
//!
//! Writes `docs/screens/account.png`, `create-club.png`, `webhook.png`,
//! `create-event.png`, `event-check-in.png`, `create-event-battles.png`
//! and `leave-club.png` (1280×800).

use crate::support;

use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::event::entry;
use muster_client::app::lobby::{
    ACCOUNT_SCREEN, CLUBS_SCREEN, LobbyApp, PASSWORD_LABEL, Screen, Store, account, clubs, events,
    new_event,
};
use muster_shared::gbacw::battles::{side_names, title};
use muster_shared::protocol::club::{
    ClubReply, ClubRequest, ClubRole, PairingMethod, SideAssignment,
};
use std::time::Duration;
use support::club::Scripted;
use support::screens::{clear, no_programmer_text, save, shows, steps, type_into};
use support::{start_server_with, wait};

const PASSWORD: &str = "Slaughter Mountain";
/// Where the pointer rests for a screenshot: over nothing.
const REST: egui::Pos2 = egui::pos2(1279.0, 799.0);

/// The lobby of the machine whose config directory is `dir`, on the
/// connect screen with `url` and `name` typed.
fn machine(dir: &tempfile::TempDir, url: &str, name: &str) -> Harness<'static, LobbyApp> {
    let mut app = LobbyApp::new(Store::at(dir.path()), url, name);
    app.club_every = Duration::from_millis(200);
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut LobbyApp| app.ui(ui), app)
}

fn click<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_label(label).click();
    steps(h);
}

/// Open the combo box named `name` and pick `option` in its list.
fn choose<S>(h: &mut Harness<'_, S>, name: &str, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, name).click();
    steps(h);
    h.get_by(|n| n.role() != Role::Label && n.label().as_deref() == Some(option))
        .click();
    steps(h);
}

/// Connect by clicks, with `password` typed (an account) or none.
fn connect(h: &mut Harness<'_, LobbyApp>, password: Option<&str>) {
    if let Some(p) = password {
        type_into(h, PASSWORD_LABEL, p);
    }
    click(h, "Connect");
}

fn lobby(app: &LobbyApp) -> &muster_client::app::lobby::Lobby {
    app.lobby.as_ref().expect("connected")
}

/// Claim the signed-in guest as an account, by clicks.
fn claim(h: &mut Harness<'_, LobbyApp>, shot: Option<&str>) {
    click(h, ACCOUNT_SCREEN);
    wait(h, "the server says it is a guest", |a| {
        lobby(a).account == Some(false)
    });
    // Two passwords that differ are refused before anything is sent.
    type_into(h, account::PASSWORD, PASSWORD);
    type_into(h, account::PASSWORD_AGAIN, "Slaughter Mountian");
    click(h, account::CLAIM);
    assert!(shows(h, "The two passwords differ"));
    type_into(h, account::PASSWORD_AGAIN, PASSWORD);
    if let Some(name) = shot {
        no_programmer_text(h);
        save(h, name, REST);
    }
    click(h, account::CLAIM);
    wait(h, "the account claimed", |a| lobby(a).account == Some(true));
}

#[test]
fn a_guest_claims_an_account_and_signs_in_to_it_from_another_machine() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let home = tempfile::tempdir().unwrap();
    let mut a = machine(&home, &srv.ws, "Pope");
    connect(&mut a, None);
    wait(&mut a, "Pope signed in as a guest", |a| a.signed_in());
    let pope = lobby(a.state()).identity.clone().unwrap();
    claim(&mut a, Some("account.png"));
    assert!(shows(&a, "Pope is an account."));

    // Another machine: a wrong password, in the server's words.
    let away = tempfile::tempdir().unwrap();
    let mut b = machine(&away, &srv.ws, "Pope");
    connect(&mut b, Some("Cedar Run"));
    wait(&mut b, "the wrong password refused", |b| {
        b.connect_error.is_some()
    });
    let why = b.state().connect_error.clone().unwrap();
    assert_eq!(why, "Wrong password for \"Pope\"");
    assert!(shows(&b, &why));
    // The password, typed again, signs in as the same identity.
    connect(&mut b, Some(PASSWORD));
    wait(&mut b, "Pope signed in on the other machine", |b| {
        b.signed_in()
    });
    let there = lobby(b.state()).identity.clone().unwrap();
    assert_eq!((there.user, there.name.as_str()), (pope.user, "Pope"));
    assert!(!there.token.is_empty() && there.token != pope.token);
    let kept = Store::at(away.path()).session(&srv.ws, Some("Pope"));
    assert_eq!(kept.map(|s| s.token), Some(there.token.clone()));
    click(&mut b, ACCOUNT_SCREEN);
    wait(&mut b, "the account screen", |b| {
        lobby(b).account == Some(true)
    });
    drop(b);

    // A name no account has; then too many failures in a row.
    let third = tempfile::tempdir().unwrap();
    let mut c = machine(&third, &srv.ws, "Sigel");
    let mut refusals = Vec::new();
    for _ in 0..6 {
        connect(&mut c, Some("any password"));
        wait(&mut c, "a refusal", |c| c.connect_error.is_some());
        refusals.push(c.state_mut().connect_error.take().unwrap());
    }
    assert!(
        refusals[0].starts_with("There is no account named \"Sigel\""),
        "{refusals:?}"
    );
    assert!(
        refusals[5].starts_with("Too many failed sign-ins to this account; try again in"),
        "{refusals:?}"
    );
    connect(&mut c, Some("any password"));
    wait(&mut c, "the refusal shown", |c| c.connect_error.is_some());
    assert!(shows(&c, "Too many failed sign-ins"));
    no_programmer_text(&c);
}

#[test]
fn an_owner_makes_a_club_a_director_a_webhook_and_an_event_and_a_player_enters_by_invite() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let home = tempfile::tempdir().unwrap();
    let mut h = machine(&home, &srv.ws, "Pope");
    connect(&mut h, None);
    wait(&mut h, "Pope signed in", |a| a.signed_in());
    claim(&mut h, None);

    // A club: an empty name is refused before sending.
    click(&mut h, CLUBS_SCREEN);
    wait(&mut h, "the clubs listed", |a| lobby(a).clubs.is_some());
    click(&mut h, clubs::CREATE_CLUB);
    assert!(shows(&h, "A club's name:"));
    type_into(&mut h, clubs::CLUB_NAME, "Army of Virginia Club");
    click(&mut h, clubs::CREATE_CLUB);
    wait(&mut h, "the club", |a| {
        lobby(a)
            .clubs
            .as_ref()
            .is_some_and(|c| c.iter().any(|c| c.role == Some(ClubRole::Owner)))
    });
    assert!(shows(&h, "you are its owner"));
    let club = lobby(h.state()).clubs.as_ref().unwrap()[0].club;
    no_programmer_text(&h);
    save(&mut h, "create-club.png", REST);

    // Sigel joins; the owner names him a tournament director by a click.
    let mut sigel = rt.block_on(Scripted::guest(&srv.ws, "Sigel"));
    let r = rt.block_on(sigel.ask(ClubRequest::JoinClub { club }));
    assert!(matches!(r, ClubReply::Member { .. }), "{r:?}");
    click(&mut h, CLUBS_SCREEN);
    let director = clubs::make_director_label("Sigel");
    wait(&mut h, "Sigel listed", |a| {
        lobby(a)
            .clubs
            .as_ref()
            .is_some_and(|c| c[0].members.len() == 2)
    });
    steps(&mut h);
    click(&mut h, &director);
    wait(&mut h, "Sigel a director", |a| {
        lobby(a).clubs.as_ref().is_some_and(|c| {
            c[0].members
                .iter()
                .any(|m| m.name == "Sigel" && m.role == ClubRole::Director)
        })
    });
    let ClubReply::Clubs { clubs: seen, .. } = rt.block_on(sigel.ask(ClubRequest::Clubs)) else {
        panic!("no clubs")
    };
    assert_eq!(seen[0].role, Some(ClubRole::Director), "{seen:?}");
    assert!(!seen[0].webhook_set);

    // The webhook: a bad address is refused before sending.
    let name = "Army of Virginia Club";
    type_into(
        &mut h,
        &clubs::webhook_label(name),
        "ftp://chat.example.org",
    );
    click(&mut h, &clubs::set_webhook_label(name));
    assert!(shows(&h, "starts with http:// or https://"));
    let hook = "http://127.0.0.1:9/army-of-virginia";
    type_into(&mut h, &clubs::webhook_label(name), hook);
    click(&mut h, &clubs::set_webhook_label(name));
    wait(&mut h, "the webhook set", |a| {
        lobby(a).clubs.as_ref().is_some_and(|c| c[0].webhook_set)
    });
    assert!(shows(&h, &format!("Webhook: news is sent to {hook}")));
    no_programmer_text(&h);
    save(&mut h, "webhook.png", REST);
    let ClubReply::Clubs { clubs: seen, .. } = rt.block_on(sigel.ask(ClubRequest::Clubs)) else {
        panic!("no clubs")
    };
    assert_eq!(seen[0].webhook.as_deref(), Some(hook), "{seen:?}");
    // Someone outside the club sees it, not its members or its webhook.
    let mut hooker = rt.block_on(Scripted::guest(&srv.ws, "Hooker"));
    let ClubReply::Clubs {
        clubs: seen,
        account,
    } = rt.block_on(hooker.ask(ClubRequest::Clubs))
    else {
        panic!("no clubs")
    };
    assert!(!account);
    assert_eq!(seen[0].name, name);
    assert_eq!(seen[0].role, None);
    assert!(seen[0].members.is_empty() && seen[0].webhook.is_none() && seen[0].webhook_set);

    // The event: Corinth, round robin, sides by bid, slow play, by invite.
    click(&mut h, &clubs::new_event_label(name));
    assert_eq!(lobby(h.state()).screen, Screen::NewEvent);
    clear(&mut h, new_event::EVENT_NAME);
    click(&mut h, new_event::CREATE_EVENT);
    assert!(shows(&h, "An event's name has 1 to 200 characters."));
    type_into(&mut h, new_event::EVENT_NAME, "Corinth Round Robin");
    choose(&mut h, "Battle:", title("corinth"));
    click(&mut h, "Round robin");
    click(&mut h, "By bid");
    click(&mut h, "Slow play");
    click(&mut h, "By invite code only");
    assert!(shows(&h, "Decisive victory:") && shows(&h, "Substantial victory:"));
    no_programmer_text(&h);
    save(&mut h, "create-event.png", REST);
    click(&mut h, new_event::CREATE_EVENT);
    wait(&mut h, "the event's page", |a| {
        a.event.as_ref().is_some_and(|e| e.view.is_some())
    });
    let page = h.state().event.as_ref().unwrap();
    let event = page.event;
    let code = page
        .view
        .as_ref()
        .unwrap()
        .invite
        .clone()
        .expect("the code");
    let handed_out = entry::invite_code(event, &code);
    assert!(
        shows(&h, &handed_out),
        "the director sees the code to hand out"
    );

    // The server holds every setting chosen.
    let ClubReply::EventView(v) = rt.block_on(sigel.ask(ClubRequest::Watch { event })) else {
        panic!("no view")
    };
    assert!(v.director, "Sigel directs the club's events");
    assert_eq!(v.name, "Corinth Round Robin");
    assert_eq!(v.scenario, title("corinth"));
    assert_eq!(v.pairing, PairingMethod::RoundRobin);
    assert_eq!(v.sides, SideAssignment::Bid);
    assert_eq!(v.rounds, 3);
    assert!(v.invite_only && v.check_in && v.registration_open);
    let time = v.time.clone().expect("slow play");
    assert_eq!(
        (time.per_decision_secs, time.bank_secs),
        (24 * 3600, 14 * 24 * 3600)
    );
    let levels: Vec<_> = v
        .points
        .levels
        .iter()
        .map(|l| (l.level.as_str(), l.winner, l.loser))
        .collect();
    assert_eq!(
        levels,
        [
            ("decisive", 4, 0),
            ("substantial", 3, 0),
            ("marginal", 2, 1)
        ]
    );
    assert_eq!((v.points.win, v.points.draw, v.points.bye), (3, 1, 3));
    assert_eq!(v.side_names, side_names("corinth").unwrap());
    assert_eq!(v.invite.as_deref(), Some(code.as_str()));
    // Vacation days were set with it: a player has three.
    let r = rt.block_on(sigel.ask(ClubRequest::Register {
        event,
        invite: Some(code.clone()),
    }));
    assert!(matches!(r, ClubReply::Registered { .. }), "{r:?}");
    let r = rt.block_on(sigel.ask(ClubRequest::TakeVacation { event, days: 0 }));
    assert!(
        matches!(r, ClubReply::Vacation { days_left: 3, .. }),
        "{r:?}"
    );
    rt.block_on(sigel.ask(ClubRequest::CheckIn { event }));
    drop(h);

    // Banks enters with the invite code from the lobby, by clicks.
    let banks_dir = tempfile::tempdir().unwrap();
    let mut b = machine(&banks_dir, &srv.ws, "Banks");
    connect(&mut b, None);
    wait(&mut b, "Banks signed in", |a| a.signed_in());
    type_into(&mut b, events::INVITE_LABEL, "Corinth please");
    click(&mut b, events::REGISTER_WITH_CODE);
    assert!(shows(&b, "An invite code is the event's number"));
    type_into(&mut b, events::INVITE_LABEL, &format!("{}-0000", event.0));
    click(&mut b, events::REGISTER_WITH_CODE);
    wait(&mut b, "the wrong code refused", |a| {
        lobby(a).problem.is_some()
    });
    assert!(shows(&b, "Wrong invite code: "));
    type_into(&mut b, events::INVITE_LABEL, &handed_out);
    click(&mut b, events::REGISTER_WITH_CODE);
    wait(&mut b, "the event's page", |a| {
        a.event.as_ref().is_some_and(|e| {
            e.view
                .as_ref()
                .is_some_and(|v| v.entrants.iter().any(|(_, n)| n == "Banks"))
        })
    });
    click(&mut b, entry::CHECK_IN);
    wait(&mut b, "checked in", |a| {
        a.event
            .as_ref()
            .is_some_and(|e| e.view.as_ref().is_some_and(|v| v.checked_in))
    });
    // The bid names the scenario's sides.
    let [union, _] = side_names("corinth").unwrap();
    click(&mut b, &union);
    click(&mut b, muster_client::app::event::grid::PLACE_BID);
    wait(&mut b, "the bid placed", |a| {
        a.event.as_ref().is_some_and(|e| {
            e.notice.as_deref().is_some_and(|n| {
                n.starts_with(&format!("Your bid of 0 victory points for {union}"))
            })
        })
    });
    no_programmer_text(&b);
    save(&mut b, "event-check-in.png", REST);

    // Both checked in: the round pairs them, Banks on the side he bid for.
    let banks = lobby(b.state()).identity.clone().unwrap().user;
    let r = rt.block_on(sigel.ask(ClubRequest::StartRound { event }));
    let ClubReply::Round { pairings, .. } = r else {
        panic!("{r:?}")
    };
    assert_eq!(pairings.len(), 1, "{pairings:?}");
    assert_eq!(
        pairings[0].players[0].as_ref().map(|(u, _)| *u),
        Some(banks),
        "{pairings:?}"
    );
}

/// Issue 21: an event of a battle per round by clicks (round 1 Corinth,
/// rounds 2 and 3 Cedar Mountain, each battle's levels with their own
/// points), and the owner leaving the club to a member by clicks.
/// Writes `docs/screens/create-event-battles.png` and `leave-club.png`.
#[test]
fn an_owner_makes_an_event_of_two_battles_and_leaves_the_club_to_a_member() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let home = tempfile::tempdir().unwrap();
    let mut h = machine(&home, &srv.ws, "Pope");
    connect(&mut h, None);
    wait(&mut h, "Pope signed in", |a| a.signed_in());
    claim(&mut h, None);
    let name = "Corinth Club";
    click(&mut h, CLUBS_SCREEN);
    wait(&mut h, "the clubs listed", |a| lobby(a).clubs.is_some());
    type_into(&mut h, clubs::CLUB_NAME, name);
    click(&mut h, clubs::CREATE_CLUB);
    wait(&mut h, "the club", |a| {
        lobby(a)
            .clubs
            .as_ref()
            .is_some_and(|c| c.iter().any(|c| c.role == Some(ClubRole::Owner)))
    });
    let club = lobby(h.state()).clubs.as_ref().unwrap()[0].club;
    let mut halleck = rt.block_on(Scripted::guest(&srv.ws, "Halleck"));
    let r = rt.block_on(halleck.ask(ClubRequest::JoinClub { club }));
    assert!(matches!(r, ClubReply::Member { .. }), "{r:?}");

    // The form: a battle for each round; round 1 Corinth, the others
    // Cedar Mountain (a round not chosen plays the round before's).
    click(&mut h, &clubs::new_event_label(name));
    type_into(&mut h, new_event::EVENT_NAME, "Two Battles Swiss");
    click(&mut h, new_event::PER_ROUND);
    choose(&mut h, &new_event::round_battle_label(1), title("corinth"));
    assert!(shows(&h, "Decisive victory (Corinth):"));
    assert!(shows(&h, "Strategic victory (Cedar Mountain):"));
    no_programmer_text(&h);
    save(&mut h, "create-event-battles.png", REST);
    click(&mut h, new_event::CREATE_EVENT);
    wait(&mut h, "the event's page", |a| {
        a.event.as_ref().is_some_and(|e| e.view.is_some())
    });
    let event = h.state().event.as_ref().unwrap().event;
    assert!(shows(
        &h,
        &format!(
            "Round 1: {} · Round 2: {}",
            title("corinth"),
            title("cedar_mountain")
        )
    ));
    let ClubReply::EventView(v) = rt.block_on(halleck.ask(ClubRequest::Watch { event })) else {
        panic!("no view")
    };
    let battles: Vec<_> = v
        .round_scenarios
        .iter()
        .map(|r| r.scenario.as_str())
        .collect();
    assert_eq!(
        battles,
        [
            title("corinth"),
            title("cedar_mountain"),
            title("cedar_mountain")
        ]
    );
    assert_eq!(v.scenario, title("corinth"));
    assert_eq!(v.round_scenarios[0].levels[0].level, "decisive");
    assert_eq!(v.round_scenarios[1].levels[0].level, "strategic");
    drop(h);

    // The owner leaves: first the next owner is chosen, else the form
    // says so before anything is sent.
    let mut h = machine(&home, &srv.ws, "Pope");
    connect(&mut h, None);
    wait(&mut h, "Pope signed in again", |a| a.signed_in());
    click(&mut h, CLUBS_SCREEN);
    wait(&mut h, "Halleck listed", |a| {
        lobby(a)
            .clubs
            .as_ref()
            .is_some_and(|c| c[0].members.len() == 2)
    });
    click(&mut h, &clubs::leave_label(name));
    assert!(shows(
        &h,
        "You own Corinth Club: choose the member who will own it before you leave."
    ));
    choose(&mut h, &clubs::heir_label(name), "Halleck");
    no_programmer_text(&h);
    save(&mut h, "leave-club.png", REST);
    click(&mut h, &clubs::leave_label(name));
    wait(&mut h, "Pope out of the club", |a| {
        lobby(a).clubs.as_ref().is_some_and(|c| c[0].role.is_none())
    });
    assert!(shows(&h, &clubs::join_label(name)));
    let ClubReply::Clubs { clubs: seen, .. } = rt.block_on(halleck.ask(ClubRequest::Clubs)) else {
        panic!("no clubs")
    };
    assert_eq!(seen[0].role, Some(ClubRole::Owner), "{seen:?}");
    let names: Vec<_> = seen[0].members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Halleck"]);
}
