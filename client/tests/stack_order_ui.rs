//! GBACW 8.41: "Units may stack, or change their stacking order, only
//! during a Friendly Movement Phase". At the test battle's hot-seat
//! table, by clicks only (`support::play`): in the Union's first Movement
//! Phase a unit moves onto another's hex, the one beneath is selected and
//! its order "put … on top of its stack (8.41)" clicked; the engine's
//! stack then reads it first, and the map draws it on top. Screenshot
//! `docs/screens/stack-order.png`.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::narrate::Narrate;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::stack_order::stack_at;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

use crate::support;

use support::kittest::{SIZE, gbacw_harness};
use support::play::{Clicker, assert_words_only, legal_now, rules, state, where_is};

/// By clicks, in the Union's first Movement Phase: one Union unit onto
/// another's hex. Returns the hex.
fn stack_two(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>) -> Option<HexNumber> {
    let movement = Step::Phase {
        player: PlayerTurn::First,
        phase: Phase::Movement,
    };
    for _ in 0..10 {
        if state(h).clock.step == movement {
            break;
        }
        assert!(c.perform(h, &GbacwAction::EndPhase));
    }
    let oob = &rules(h).game().oob;
    let union: Vec<(CounterId, HexNumber)> = state(h)
        .units
        .iter()
        .filter(|(u, _)| oob.units[*u].side.0 == "union")
        .filter_map(|(u, x)| x.hex.map(|at| (u.clone(), at)))
        .collect();
    // The first legal one-unit move onto a friend's hex.
    let legal = legal_now(h);
    let mv = legal.into_iter().find(|a| match a {
        GbacwAction::Move { pieces, path } => {
            pieces.len() == 1
                && path.len() == 1
                && union
                    .iter()
                    .any(|(u, at)| *u != pieces[0] && Some(at) == path.last())
        }
        _ => false,
    })?;
    let GbacwAction::Move { pieces, path } = &mv else {
        return None;
    };
    let at = *path.last()?;
    (c.perform(h, &mv) && where_is(h, &pieces[0]) == Some(at)).then_some(at)
}

#[test]
fn case_8_41_a_unit_is_put_on_top_of_its_stack_by_a_click() {
    let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, true);
    let mut c = Clicker::default();
    let at = stack_two(&mut c, &mut h).expect("a Union unit can join a friend");
    let before = stack_at(state(&h), at);
    assert!(before.len() >= 2, "a stack in {at}: {before:?}");
    let beneath = before[1].clone();
    let put = GbacwAction::PutOnTop {
        unit: beneath.clone(),
    };
    let words = rules(&h).describe_action(&put);
    let name = support::play::name(&h, &beneath);
    assert_eq!(words, format!("put {name} on top of its stack (8.41)"));
    // Selected, the unit beneath shows the order; a click makes it.
    assert!(c.select(&mut h, &beneath), "{:?}", c.last_miss);
    h.get_by_label(&words);
    assert_words_only(&h, "the stacking order");
    h.state_mut().map.centre_on(at);
    support::kittest::settle(&mut h);
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    image.save(dir.join("stack-order.png")).unwrap();
    eprintln!("screenshot: docs/screens/stack-order.png");
    assert!(c.perform(&mut h, &put), "{:?}", c.last_miss);
    let after = stack_at(state(&h), at);
    assert_eq!(after[0], beneath, "{name} on top");
    // The map draws it on top of the pile (drawn bottom first).
    let pile = muster_client::app::gbacw::map::stacks_of(&rules(&h).game().oob, state(&h));
    let top_unit = pile[&at]
        .iter()
        .rev()
        .find(|p| matches!(p, muster_client::app::gbacw::map::Piece::Unit(..)))
        .map(|p| p.id().clone());
    assert_eq!(top_unit, Some(beneath));
    // The log says it in words.
    assert!(
        h.state()
            .session
            .book()
            .is_some_and(|b| b.log.iter().any(|l| l.text.contains("top first"))),
        "the log tells the new order"
    );
}
