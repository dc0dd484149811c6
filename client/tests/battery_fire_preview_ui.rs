//! A battery's fire preview names the Fire CRT row it reads, in the
//! rulebook's words (issue 18: a battery's preview said "small-arms
//! row"). GBACW 9.14: "Artillery fire against infantry or cavalry units is
//! resolved using the Grapeshot row of the CRT. Artillery fire against
//! artillery and supply wagons is resolved using the Small Arms and
//! Counter-Battery row"; 9.15: small arms "always" use the Small-Arms and
//! Counter-Battery row. The `test` battle at a hot-seat table, by clicks
//! only: a Union regiment marches into the sight of Aleghny (Napoleons,
//! unlimbered), the battery turns to face it by its card's buttons, and
//! in the Confederate's Offensive Fire Phase it is clicked on the map:
//! each of its fire orders says its row, its range and the Range Effects
//! Chart's multiplier, as the engine's own preview computes them.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::gbacw::orders::column_text;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::facing::hexsides::can_fire_through;
use muster_shared::gbacw::los::Los;
use muster_shared::gbacw::oob::{Formation, UnitKind};
use muster_shared::gbacw::ruleset::GbacwAction;
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};
use muster_shared::gbacw::tables::FireRow;

use crate::support;

use support::kittest::{hex, id, test_battle};
use support::play::{Clicker, assert_words_only, legal_now, rules, state};

fn in_phase(h: &Harness<'_, GbacwApp>, player: PlayerTurn, want: Phase) -> bool {
    state(h).clock.step
        == Step::Phase {
            player,
            phase: want,
        }
}

/// End phase by clicks until `player`'s `want` phase (bounded); a prompt
/// on the way (withdrawal fire, retreat before melee) is answered by its
/// default's button, as a player in a hurry does.
fn end_phases_until(
    h: &mut Harness<'_, GbacwApp>,
    c: &mut Clicker,
    player: PlayerTurn,
    want: Phase,
) {
    for _ in 0..40 {
        if in_phase(h, player, want) {
            return;
        }
        let decline = legal_now(h).into_iter().find(|a| {
            matches!(
                a,
                GbacwAction::DeclineWithdrawalFire
                    | GbacwAction::StandFast
                    | GbacwAction::DeclineRetreatFire
                    | GbacwAction::DeclineAdvance
            )
        });
        let a = decline.unwrap_or(GbacwAction::EndPhase);
        if c.perform(h, &a) {
            continue;
        }
        // GBACW 17.52, as the refusal says: a lone leader near the enemy
        // joins a unit of his (a click on him, a drag onto it).
        let why = c.last_miss.clone().unwrap_or_default();
        assert!(why.contains("17.52"), "{why}");
        let seat = rules(h).acting_seat(state(h)).expect("someone acts");
        for m in support::gbacw::leaders_to_join(h.state(), seat) {
            assert!(c.perform(h, &m), "{:?}", c.last_miss);
        }
    }
    assert!(in_phase(h, player, want), "at {:?}", state(h).clock);
}

#[test]
fn case_9_14_a_batterys_fire_preview_names_the_grapeshot_row_and_its_range() {
    let mut h = test_battle();
    let mut c = Clicker::default();
    let battery = id("aleghny");
    let from = hex("1007");
    let sees = |h: &Harness<'_, GbacwApp>, t: muster_shared::gbacw::map::HexNumber| {
        let r = rules(h);
        r.game().map.grid.distance(from, t) <= 12
            && r.line_of_sight(state(h), from, t) == Los::Clear
    };
    // The Union's Movement Phase: a regiment marches into the sight of
    // Aleghny (Napoleons, unlimbered at 1007), by a click on it and one
    // on an empty hex the battery sees.
    end_phases_until(&mut h, &mut c, PlayerTurn::First, Phase::Movement);
    let walk = {
        let (r, st) = (rules(&h), state(&h));
        let taken = |x: &muster_shared::gbacw::map::HexNumber| {
            st.units.values().any(|u| u.hex == Some(*x))
                || st.leaders.values().any(|l| l.hex == Some(*x))
        };
        ["10-me", "5-conn", "pa-zd"].iter().find_map(|u| {
            let u = id(u);
            let reach = r.reachable(st, &u)?;
            let to = reach
                .hexes
                .keys()
                .filter(|x| !taken(x) && sees(&h, **x))
                .min_by_key(|x| r.game().map.grid.distance(from, **x))
                .copied()?;
            Some(GbacwAction::Move {
                pieces: vec![u],
                path: vec![to],
            })
        })
    };
    let walk = walk.expect("a regiment can march into the battery's sight");
    assert!(c.perform(&mut h, &walk), "{:?}", c.last_miss);
    let GbacwAction::Move { pieces, .. } = &walk else {
        unreachable!()
    };
    let target = state(&h).units[&pieces[0]].hex.unwrap();
    // The Confederate's Movement Phase: the battery turns to face it
    // (7.12: free in the Movement Phase) by its card's buttons.
    end_phases_until(&mut h, &mut c, PlayerTurn::Second, Phase::Movement);
    let facing = (0..6u8)
        .filter_map(Facing::from_index)
        .find(|f| {
            can_fire_through(
                &rules(&h).game().map.grid,
                from,
                *f,
                Formation::Unlimbered,
                target,
            )
        })
        .expect("a facing with the regiment in front");
    if state(&h).units[&battery].facing != facing {
        let face = GbacwAction::Face {
            unit: battery.clone(),
            facing,
        };
        assert!(c.perform(&mut h, &face), "{:?}", c.last_miss);
    }
    // Its Offensive Fire Phase: the battery clicked on the map; its orders.
    end_phases_until(&mut h, &mut c, PlayerTurn::Second, Phase::OffensiveFire);
    assert!(c.select(&mut h, &battery), "Aleghny selected by a click");
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
        // The range and the chart's multiplier for Napoleons there.
        let range = rules(&h).game().map.grid.distance(from, *target);
        assert!(text.contains(&format!("range {range} (x")), "{text}");
        eprintln!("{text}");
    }
    assert!(grapeshot > 0, "a fire at infantry or cavalry is offered");
    assert_words_only(&h, "the battery's orders");
    eprintln!(
        "{} fire orders of Aleghny, {} clicks",
        fires.len(),
        c.clicks
    );
}
