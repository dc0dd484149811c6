//! Sides by bid (issue 21; the event's `SideAssignment::Bid`), without
//! I/O. Before a round starts each player may bid victory points for the
//! side they want in their next game (`ClubRequest::Bid`). When the round
//! starts, for each game:
//!
//! - both want the same side: the higher bid takes it (equal bids: a coin
//!   toss from the event's seed) and that bid counts against the taker's
//!   victory-point margin when the game ends;
//! - they want different sides, or only one bids: each has the side they
//!   want, uncontested, for nothing;
//! - nobody bids: the sides stay as paired (a coin toss).
//!
//! Bids are for one round: they are cleared when it starts.

use super::event::{Event, Game, Refusal};
use super::pairing;
use muster_shared::SeatId;
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{ClubError, GameResult, ResultHow, SideAssignment};

/// The highest bid, in victory points.
pub const MAX_BID: u32 = 1000;

/// A bid: (seat wanted, victory points).
pub type Bid = (u8, u32);

/// Seats 0 and 1 for `a` and `b` (in that order as paired) by their bids,
/// and the bid paid for a contested seat: (seat, victory points).
pub fn by_bid(
    a: UserId,
    b: UserId,
    bid_a: Option<Bid>,
    bid_b: Option<Bid>,
    coin: u64,
) -> ([UserId; 2], Option<Bid>) {
    let seat_for = |who: UserId, other: UserId, seat: u8| {
        if seat == 0 {
            [who, other]
        } else {
            [other, who]
        }
    };
    match (bid_a, bid_b) {
        (None, None) => ([a, b], None),
        (Some((s, _)), None) => (seat_for(a, b, s), None),
        (None, Some((s, _))) => (seat_for(b, a, s), None),
        (Some((sa, _)), Some((sb, _))) if sa != sb => (seat_for(a, b, sa), None),
        (Some((s, va)), Some((_, vb))) => {
            let a_takes = va > vb || (va == vb && coin & 1 == 0);
            let (taker, other, paid) = if a_takes { (a, b, va) } else { (b, a, vb) };
            (seat_for(taker, other, s), Some((s, paid)))
        }
    }
}

impl Event {
    /// `user` bids `vp` for `seat` in their next game.
    pub fn place_bid(&mut self, user: UserId, seat: SeatId, vp: u32) -> Result<(), Refusal> {
        if self.settings.sides != SideAssignment::Bid {
            return Err((
                ClubError::BadRequest,
                "this event does not give sides by bid".into(),
            ));
        }
        if !self.entrants.iter().any(|e| e.user == user) {
            return Err((
                ClubError::NotRegistered,
                "only a player of the event bids for a side".into(),
            ));
        }
        if seat.0 > 1 {
            return Err((
                ClubError::BadRequest,
                "an event game has two sides, 1 and 2".into(),
            ));
        }
        if vp > MAX_BID {
            return Err((
                ClubError::BadRequest,
                format!("bid 0 to {MAX_BID} victory points"),
            ));
        }
        self.extras.bids.insert(user, (seat.0, vp));
        Ok(())
    }

    /// At the start of round `r` (0-based): each game's seats by the bids,
    /// which are then cleared. Returns the bid paid per game, by index.
    pub fn seat_by_bids(&mut self, games: &mut [Game], r: usize) -> Vec<Option<Bid>> {
        if self.settings.sides != SideAssignment::Bid {
            return vec![None; games.len()];
        }
        let seed = self.settings.seed;
        let paid = games
            .iter_mut()
            .enumerate()
            .map(|(i, g)| {
                let [Some(a), Some(b)] = g.seats else {
                    return None;
                };
                let coin = pairing::mix(seed ^ 0xb1d, r as u64, i as u64);
                let (seats, paid) = by_bid(
                    a,
                    b,
                    self.extras.bids.get(&a).copied(),
                    self.extras.bids.get(&b).copied(),
                    coin,
                );
                g.seats = seats.map(Some);
                paid
            })
            .collect();
        self.extras.bids.clear();
        paid
    }

    /// A game's result with the bid its table's taker paid counted
    /// against that side's margin (seat 0's less seat 1's).
    pub fn with_bid(
        &self,
        table: Option<muster_shared::protocol::TableId>,
        mut result: GameResult,
    ) -> GameResult {
        if result.how == ResultHow::Bye {
            return result;
        }
        if let Some((seat, vp)) = table.and_then(|t| self.extras.paid.get(&t).copied()) {
            let vp = i32::try_from(vp).unwrap_or(i32::MAX);
            result.vp_margin = if seat == 0 {
                result.vp_margin.saturating_sub(vp)
            } else {
                result.vp_margin.saturating_add(vp)
            };
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: UserId = UserId(1);
    const B: UserId = UserId(2);

    #[test]
    fn the_higher_bid_takes_a_contested_side_and_pays_for_it() {
        assert_eq!(
            by_bid(A, B, Some((0, 5)), Some((0, 3)), 1),
            ([A, B], Some((0, 5)))
        );
        assert_eq!(
            by_bid(A, B, Some((1, 2)), Some((1, 4)), 0),
            ([A, B], Some((1, 4)))
        );
        // Equal bids: the coin.
        assert_eq!(
            by_bid(A, B, Some((0, 3)), Some((0, 3)), 0),
            ([A, B], Some((0, 3)))
        );
        assert_eq!(
            by_bid(A, B, Some((0, 3)), Some((0, 3)), 1),
            ([B, A], Some((0, 3)))
        );
    }

    #[test]
    fn uncontested_sides_cost_nothing() {
        assert_eq!(by_bid(A, B, Some((1, 9)), Some((0, 2)), 0), ([B, A], None));
        assert_eq!(by_bid(A, B, None, Some((0, 2)), 0), ([B, A], None));
        assert_eq!(by_bid(A, B, Some((0, 7)), None, 1), ([A, B], None));
        assert_eq!(by_bid(A, B, None, None, 1), ([A, B], None));
    }

    /// At the start of a round the bids seat each game, are cleared, and
    /// the taker's bid is counted against their margin at the result.
    #[test]
    fn bids_seat_a_round_and_count_against_the_takers_margin() {
        use crate::club::event::Game;
        use muster_shared::protocol::TableId;
        use muster_shared::protocol::club::{
            EventSettings, PairingMethod, PointsTable, SideAssignment,
        };
        let settings = EventSettings {
            name: "Bids".into(),
            ruleset: "sandbox".into(),
            scenario: "s".into(),
            config: Vec::new(),
            rounds: 1,
            pairing: PairingMethod::Swiss,
            sides: SideAssignment::Bid,
            invite_only: false,
            check_in: false,
            time: None,
            points: PointsTable::default(),
            seed: 3,
            round_scenarios: Vec::new(),
        };
        let mut e = Event::new(UserId(100), settings, None);
        for (u, n) in [(A, "Ann"), (B, "Bo")] {
            e.register(u, n, None).unwrap();
        }
        let (err, words) = e.place_bid(A, SeatId(0), 1001).unwrap_err();
        assert_eq!(err, ClubError::BadRequest);
        assert_eq!(words, "bid 0 to 1000 victory points");
        assert!(e.place_bid(UserId(9), SeatId(0), 1).is_err());
        e.place_bid(A, SeatId(1), 4).unwrap();
        e.place_bid(B, SeatId(1), 6).unwrap();
        let mut games = vec![Game {
            table: None,
            seats: [Some(A), Some(B)],
            result: None,
            clock: None,
        }];
        let paid = e.seat_by_bids(&mut games, 0);
        assert_eq!(
            games[0].seats,
            [Some(A), Some(B)],
            "Bo outbid Ann for side 2"
        );
        assert_eq!(paid, vec![Some((1, 6))]);
        assert!(e.extras.bids.is_empty());
        e.extras.paid.insert(TableId(5), (1, 6));
        // Bo (seat 1) won by 10 victory points: a margin of -10, and his
        // 6 count against him: -4.
        let won = GameResult {
            points: [0, 2],
            vp_margin: -10,
            how: ResultHow::Engine {
                summary: "won".into(),
            },
        };
        assert_eq!(e.with_bid(Some(TableId(5)), won).vp_margin, -4);
        // A game without clocks or bids is left alone.
        let e2 = Event::new(UserId(100), e.settings.clone(), None);
        let bye = GameResult {
            points: [2, 0],
            vp_margin: 0,
            how: ResultHow::Bye,
        };
        assert_eq!(e2.with_bid(Some(TableId(5)), bye.clone()), bye);
    }
}
