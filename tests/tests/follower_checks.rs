//! What a client checks on every delta beyond the chain links: that the
//! dice its events show are the dice proved, that a roll of its own action
//! is about the action it sent, and that nobody anchors a chain in its name.

use muster_client::Follower;
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party, RollFailure, SeatLink};
use muster_shared::engine::{Applied, Match, Submission};
use muster_shared::protocol::{DeltaBody, TableId};
use muster_shared::sandbox::*;
use muster_shared::{SeatId, Viewer};
use muster_tests::random_play::new_game;

fn roll(count: u8) -> SandboxAction {
    SandboxAction::Roll {
        count,
        sides: 6,
        note: "volley".into(),
    }
}

/// Apply a rolling action for `seat` with `link` (already chosen by the caller).
fn roll_as(
    m: &mut Match<Sandbox>,
    server: &HashChain,
    seat: u8,
    link: SeatLink,
    action: SandboxAction,
) -> Applied<Sandbox> {
    m.apply(
        Submission {
            seat: SeatId(seat),
            action,
            seat_links: vec![link],
            by_default: false,
        },
        server,
    )
    .unwrap()
}

#[test]
fn honest_rolls_verify_and_forged_numbers_are_flagged() {
    let mut game = new_game(7, TurnOrder::Free);
    let me = Viewer::Seat(SeatId(0));
    let mut follower: Follower<Sandbox> =
        Follower::from_snapshot(&game.m.snapshot(TableId(1), me)).unwrap();
    let link = follower.next_link(SeatId(0), &game.seats[0]).unwrap();
    follower.note_sent(link.index, &codec::encode_infallible(&roll(3)));
    let applied = roll_as(&mut game.m, &game.server, 0, link, roll(3));
    follower.apply(applied.seq, &applied.delta_for(me)).unwrap();
    assert_eq!(follower.verified_rolls(), 1);
    assert!(follower.bad_rolls().is_empty());

    // The next roll arrives with a valid proof but other numbers in the events.
    let link = game.link(SeatId(1)).remove(0);
    let applied = roll_as(&mut game.m, &game.server, 1, link, roll(2));
    let mut events = applied.views[0].1.clone();
    let SandboxEvent::Rolled(r) = &mut events[0] else {
        panic!("a roll event")
    };
    r.dice = r.dice.iter().map(|d| d % 6 + 1).collect();
    let DeltaBody::Action {
        seat,
        roll: proof,
        by_default,
        ..
    } = applied.delta_for(me)
    else {
        panic!("an action delta")
    };
    let forged = DeltaBody::Action {
        seat,
        events: codec::encode_infallible(&events),
        roll: proof,
        by_default,
    };
    follower.apply(applied.seq, &forged).unwrap();
    assert!(matches!(
        follower.bad_rolls()[0].failure,
        RollFailure::ShownDiceDiffer { .. }
    ));
}

#[test]
fn a_roll_for_another_action_than_the_one_sent_is_flagged() {
    let mut game = new_game(8, TurnOrder::Free);
    let me = Viewer::Seat(SeatId(0));
    let mut follower: Follower<Sandbox> =
        Follower::from_snapshot(&game.m.snapshot(TableId(1), me)).unwrap();
    let link = follower.next_link(SeatId(0), &game.seats[0]).unwrap();
    // The client asked for one die; the server resolved three with its link.
    follower.note_sent(link.index, &codec::encode_infallible(&roll(1)));
    let applied = roll_as(&mut game.m, &game.server, 0, link, roll(3));
    follower.apply(applied.seq, &applied.delta_for(me)).unwrap();
    assert_eq!(follower.bad_rolls()[0].failure, RollFailure::ActionChanged);
}

#[test]
fn an_anchor_published_in_my_name_is_flagged() {
    let mut game = new_game(9, TurnOrder::Free);
    let me = Viewer::Seat(SeatId(0));
    let mut follower: Follower<Sandbox> =
        Follower::from_snapshot(&game.m.snapshot(TableId(1), me)).unwrap();
    follower.note_own_anchor(game.seats[0].anchor());
    let forged = HashChain::generate(64);
    let seq = game
        .m
        .publish_anchor(Party::Seat(SeatId(0)), forged.anchor())
        .unwrap();
    let body = game.m.anchor_delta(seq).unwrap();
    follower.apply(seq, &body).unwrap();
    assert_eq!(
        follower.bad_rolls()[0].failure,
        RollFailure::ForeignAnchor { seat: SeatId(0) }
    );
    // The other seat cannot tell a forged anchor from a new device.
    let other = Viewer::Seat(SeatId(1));
    let mut theirs: Follower<Sandbox> =
        Follower::from_snapshot(&game.m.snapshot(TableId(1), other)).unwrap();
    let seq = game
        .m
        .publish_anchor(Party::Seat(SeatId(0)), HashChain::generate(64).anchor())
        .unwrap();
    theirs
        .apply(seq, &game.m.anchor_delta(seq).unwrap())
        .unwrap();
    assert!(theirs.bad_rolls().is_empty());
}

#[test]
fn no_link_is_offered_while_the_server_chain_is_used_up() {
    use muster_shared::engine::{LogHeader, SeatInfo, log::LOG_FORMAT};
    let header = LogHeader {
        format: LOG_FORMAT,
        match_id: Default::default(),
        ruleset: String::new(),
        config: Vec::new(),
        seats: (0..2)
            .map(|s| SeatInfo {
                seat: SeatId(s),
                name: format!("p{s}"),
            })
            .collect(),
    };
    let mut m = Match::<Sandbox>::new(header, &SandboxConfig::default()).unwrap();
    // A one-link server chain, used up by the first roll.
    let server = HashChain::generate(1);
    let mine = HashChain::generate(8);
    m.publish_anchor(Party::Server, server.anchor()).unwrap();
    m.publish_anchor(Party::Seat(SeatId(0)), mine.anchor())
        .unwrap();
    let me = Viewer::Seat(SeatId(0));
    let mut follower: Follower<Sandbox> =
        Follower::from_snapshot(&m.snapshot(TableId(1), me)).unwrap();
    let link = follower.next_link(SeatId(0), &mine).unwrap();
    let applied = roll_as(&mut m, &server, 0, link, roll(1));
    follower.apply(applied.seq, &applied.delta_for(me)).unwrap();
    // Until the server publishes its next anchor, the client keeps its link.
    assert_eq!(follower.next_link(SeatId(0), &mine), None);
    let next = HashChain::generate(8);
    let seq = m.publish_anchor(Party::Server, next.anchor()).unwrap();
    follower.apply(seq, &m.anchor_delta(seq).unwrap()).unwrap();
    assert_eq!(
        follower.next_link(SeatId(0), &mine).map(|l| l.index),
        Some(2)
    );
}
