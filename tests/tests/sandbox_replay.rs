//! Replay determinism for the sandbox: random games are replayed from their
//! logs and must give byte-identical states; every viewer's follower must
//! end where the engine's view of the live state is.

use muster_shared::codec;
use muster_shared::engine::verify::replay;
use muster_shared::engine::{Ruleset, Submission};
use muster_shared::sandbox::*;
use muster_shared::{SeatId, Viewer};
use muster_tests::random_play::{Chooser, new_game, play};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// 200 random games of 300 actions: replaying the log twice gives
    /// byte-identical states equal to the live one, and the log verifies.
    #[test]
    fn replay_is_deterministic(seed in any::<u64>(), alternating in any::<bool>()) {
        let order = if alternating { TurnOrder::Alternating } else { TurnOrder::Free };
        let mut game = new_game(seed, order);
        let accepted = play(&mut game, seed, 300);
        prop_assert!(accepted > 100, "only {accepted} actions accepted");
        let live = codec::encode_infallible(game.m.state());
        let log = game.m.log().clone();
        let bytes = log.to_file_bytes();
        let first = replay::<Sandbox>(&log).expect("the live log replays");
        let reread = muster_shared::engine::MatchLog::from_file_bytes(&bytes).unwrap();
        let second = replay::<Sandbox>(&reread).expect("the stored log replays");
        prop_assert_eq!(codec::encode_infallible(first.state()), live.clone());
        prop_assert_eq!(codec::encode_infallible(second.state()), live);
        prop_assert!(muster_shared::engine::verify_log(&reread).ok());
    }
}

/// Every viewer that follows the deltas from the first snapshot ends with
/// exactly the engine's view of the final state (redaction commutes with
/// the fold), and verifies every roll.
#[test]
fn followers_end_at_the_view_of_the_live_state() {
    use muster_client::Follower;
    use muster_shared::protocol::TableId;
    for seed in 0..20u64 {
        let mut game = new_game(seed, TurnOrder::Free);
        let viewers = [
            Viewer::Seat(SeatId(0)),
            Viewer::Seat(SeatId(1)),
            Viewer::Spectator,
        ];
        let mut followers: Vec<Follower<Sandbox>> = viewers
            .iter()
            .map(|v| Follower::from_snapshot(&game.m.snapshot(TableId(1), *v)).unwrap())
            .collect();
        let mut ch = Chooser::new(seed ^ 0xfeed);
        let mut rolls = 0;
        for _ in 0..300 {
            let mut seat = SeatId(ch.below(2) as u8);
            let mut legal = game.m.ruleset().legal_actions(game.m.state(), seat);
            if legal.is_empty() {
                // A roll request waits on the other seat.
                seat = SeatId(1 - seat.0);
                legal = game.m.ruleset().legal_actions(game.m.state(), seat);
            }
            let action = legal[ch.below(legal.len())].clone();
            let seat_links = game.link(seat);
            let applied = game
                .m
                .apply(
                    Submission {
                        seat,
                        action,
                        seat_links,
                        by_default: false,
                    },
                    &game.server,
                )
                .unwrap();
            rolls += u64::from(applied.roll.is_some());
            for (f, v) in followers.iter_mut().zip(viewers) {
                f.apply(applied.seq, &applied.delta_for(v)).unwrap();
            }
        }
        for (f, v) in followers.iter().zip(viewers) {
            assert_eq!(f.state(), &game.m.view(v), "seed {seed} viewer {v:?}");
            assert!(f.bad_rolls().is_empty(), "{:?}", f.bad_rolls());
            assert_eq!(f.verified_rolls(), rolls);
        }
    }
}
