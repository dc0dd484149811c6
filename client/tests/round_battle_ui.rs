//! Issue 21, the director's desk: a later round's battle changed by
//! clicks before that round starts, against a real server in this
//! process (SQLite in a temporary directory, loopback sockets). The
//! desk lists the battle of every round to come; the director picks
//! round 2, picks Corinth in the battle list and changes it: the server
//! holds Corinth for round 2 (rounds 1 and 3 keep the event's Cedar
//! Mountain) and
//! the log says so. Once round 1 starts it is no longer offered. Writes
//! `docs/screens/director-round-battle.png` (1280×800).

use crate::event_ui::{director_with_event, page, save, settings};
use crate::support;

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::app::event::director::{CHANGE_BATTLE, NEW_BATTLE, battle_round_label};
use muster_shared::gbacw::battles::title;
use muster_shared::protocol::club::ClubRequest;
use support::club::Scripted;
use support::screens::{no_programmer_text, shows, steps};
use support::{start_server_with, wait};

#[test]
fn the_director_changes_round_twos_battle_by_clicks_before_it_starts() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let (dora, event) = rt.block_on(async {
        let (dora, event) = director_with_event(&srv.ws, settings()).await;
        for n in ["Banks", "Jackson", "Pope", "Ewell"] {
            let mut p = Scripted::guest(&srv.ws, n).await;
            p.ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
            p.ask(ClubRequest::CheckIn { event }).await;
        }
        (dora, event)
    });
    let mut d = page(&srv.ws, &dora.token, event);
    wait(&mut d, "the event page", |a| a.view.is_some());
    d.get_by_label("Director").click();
    steps(&mut d);
    let corinth = title("corinth");
    assert!(shows(&d, "Battles of the rounds to come"));
    assert!(shows(&d, "Round 3 plays"));

    // Round 2, Corinth, by clicks.
    d.get_by_label(&battle_round_label(2)).click();
    steps(&mut d);
    d.get_by_role_and_label(Role::ComboBox, NEW_BATTLE).click();
    steps(&mut d);
    d.get_by(|n| n.role() != Role::Label && n.label().as_deref() == Some(corinth))
        .click();
    steps(&mut d);
    d.get_by_label(CHANGE_BATTLE).click();
    wait(&mut d, "round 2 at Corinth", |a| {
        a.view.as_ref().is_some_and(|v| {
            v.round_scenarios
                .iter()
                .map(|r| r.scenario.as_str())
                .collect::<Vec<_>>()
                == ["Cedar Mountain", corinth, "Cedar Mountain"]
        })
    });
    wait(&mut d, "the log of the change", |a| {
        a.log
            .iter()
            .any(|l| l.contains("changed round 2's battle to Corinth"))
    });
    // The same battle again would change nothing: the button waits.
    assert!(d.get_by_label(CHANGE_BATTLE).accesskit_node().is_disabled());
    no_programmer_text(&d);
    save(&mut d, "director-round-battle.png");

    // Round 1 starts: only rounds 2 and 3 are offered.
    d.get_by_label("Start the next round").click();
    wait(&mut d, "round 1's tables", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.round == 1 && v.tables.len() == 2)
    });
    assert!(d.query_by_label(&battle_round_label(1)).is_none());
    d.get_by_label(&battle_round_label(2));
    d.get_by_label(&battle_round_label(3));
    no_programmer_text(&d);
}
