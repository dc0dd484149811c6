//! A battery's fire preview names the Fire CRT row it reads, in the
//! rulebook's words (issue 18: a battery's preview said "small-arms
//! row"). GBACW 9.14: "Artillery fire against infantry or cavalry units is
//! resolved using the Grapeshot row of the CRT. Artillery fire against
//! artillery and supply wagons is resolved using the Small Arms and
//! Counter-Battery row"; 9.15: small arms "always" use the Small-Arms and
//! Counter-Battery row. The `test` battle at a hot-seat table, by clicks
//! only: in the Union's Movement Phase 4 Me (3-inch rifles) unlimbers and
//! turns towards 10 Va by its card's buttons; in the Offensive Fire Phase
//! it is clicked on the map, and each of its fire orders says its row,
//! its range and the Range Effects Chart's multiplier, as the engine's
//! own preview computes them.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::gbacw::orders::column_text;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::facing::hexsides::can_fire_through;
use muster_shared::gbacw::oob::{Formation, UnitKind};
use muster_shared::gbacw::ruleset::GbacwAction;
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::gbacw::tables::FireRow;

mod support;

use support::kittest::{hex, id, test_battle};
use support::play::{Clicker, assert_words_only, legal_now, rules, state};

fn in_phase(h: &Harness<'_, GbacwApp>, want: Phase) -> bool {
    matches!(state(h).clock.step, Step::Phase { phase, .. } if phase == want)
}

/// End phase by clicks until the first `want` phase (bounded).
fn end_phases_until(h: &mut Harness<'_, GbacwApp>, c: &mut Clicker, want: Phase) {
    for _ in 0..12 {
        if in_phase(h, want) {
            return;
        }
        assert!(c.perform(h, &GbacwAction::EndPhase), "{:?}", c.last_miss);
    }
    assert!(in_phase(h, want), "at {:?}", state(h).clock);
}

#[test]
fn case_9_14_a_batterys_fire_preview_names_the_grapeshot_row_and_its_range() {
    let mut h = test_battle();
    let mut c = Clicker::default();
    // The Union's Movement Phase: 4 Me (3-inch rifles, limbered at 0405)
    // unlimbers and turns towards 10 Va (0805) by its card's buttons.
    end_phases_until(&mut h, &mut c, Phase::Movement);
    let battery = id("4-me");
    let (from, target) = (hex("0405"), hex("0805"));
    let unlimber = GbacwAction::ChangeFormation {
        unit: battery.clone(),
        to: Formation::Unlimbered,
    };
    assert!(c.perform(&mut h, &unlimber), "{:?}", c.last_miss);
    let facing = (0..6u8)
        .filter_map(Facing::from_index)
        .find(|f| {
            let grid = &rules(&h).game().map.grid;
            can_fire_through(grid, from, *f, Formation::Unlimbered, target)
        })
        .expect("a facing that sees 0805");
    if state(&h).units[&battery].facing != facing {
        let face = GbacwAction::Face {
            unit: battery.clone(),
            facing,
        };
        assert!(c.perform(&mut h, &face), "{:?}", c.last_miss);
    }
    // Its Offensive Fire Phase: 4 Me clicked on the map; its orders.
    end_phases_until(&mut h, &mut c, Phase::OffensiveFire);
    assert!(c.select(&mut h, &battery), "4 Me selected by a click");
    let fires: Vec<GbacwAction> = legal_now(&h)
        .into_iter()
        .filter(|a| {
            matches!(a, GbacwAction::DeclareFire { firers, .. }
                if firers.len() == 1 && firers[0].unit == battery)
        })
        .collect();
    assert!(!fires.is_empty(), "the battery may fire at someone");
    let mut grapeshot = 0;
    for a in &fires {
        let GbacwAction::DeclareFire { target, firers } = a else {
            unreachable!()
        };
        let report = rules(&h).fire_preview(state(&h), *target, firers).unwrap();
        let text = column_text(rules(&h), state(&h), &report);
        // On screen under its order, as the player reads it.
        h.get_by_label(&text);
        assert!(
            !text.contains("small-arms row") && text.starts_with("artillery at range "),
            "{text}"
        );
        let hit = state(&h)
            .units
            .iter()
            .find(|(_, u)| u.hex == Some(*target))
            .map(|(u, _)| rules(&h).game().oob.units[u].kind.clone())
            .unwrap();
        match hit {
            UnitKind::Infantry | UnitKind::Cavalry => {
                assert_eq!(report.row, FireRow::Grapeshot);
                assert!(
                    text.contains("on the Grapeshot row (9.14: artillery at infantry or cavalry)"),
                    "{text}"
                );
                grapeshot += 1;
            }
            _ => assert!(
                text.contains("Small Arms and Counter-Battery row (9.14: artillery at artillery"),
                "{text}"
            ),
        }
        // The range and the chart's multiplier for 3-inch rifles there.
        let range = rules(&h).game().map.grid.distance(from, *target);
        assert!(text.contains(&format!("range {range} (x")), "{text}");
        eprintln!("{text}");
    }
    assert!(grapeshot > 0, "a fire at infantry or cavalry is offered");
    assert_words_only(&h, "the battery's orders");
    eprintln!("{} fire orders of 4 Me, {} clicks", fires.len(), c.clicks);
}
