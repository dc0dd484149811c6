//! A two-seat match with fixed dice chains for the engine-level tests
//! (take-back, continued games): actions are applied as a server would,
//! the acting seat's link attached when the action rolls.

use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::verify::replay;
use muster_shared::engine::{
    LogHeader, Match, MatchError, Ruleset, SeatInfo, Submission, verify_log,
};
use muster_shared::{Hash32, MatchId, SeatId};

/// A match between "Meade" and "Jackson" with the server's and both
/// seats' chains anchored.
pub struct Table<R: Ruleset> {
    pub m: Match<R>,
    pub server: HashChain,
    pub seats: [HashChain; 2],
}

impl<R: Ruleset> Table<R> {
    pub fn new(config: &R::Config) -> Self {
        let header = LogHeader {
            format: LOG_FORMAT,
            match_id: MatchId([7; 16]),
            ruleset: String::new(),
            config: Vec::new(),
            seats: ["Meade", "Jackson"]
                .iter()
                .enumerate()
                .map(|(i, n)| SeatInfo {
                    seat: SeatId(i as u8),
                    name: (*n).into(),
                })
                .collect(),
        };
        let mut m = Match::<R>::new(header, config).unwrap();
        let server = HashChain::from_secret(Hash32([0xa0; 32]), 256);
        let seats = [
            HashChain::from_secret(Hash32([0xb0; 32]), 64),
            HashChain::from_secret(Hash32([0xb1; 32]), 64),
        ];
        m.publish_anchor(Party::Server, server.anchor()).unwrap();
        for (s, chain) in seats.iter().enumerate() {
            m.publish_anchor(Party::Seat(SeatId(s as u8)), chain.anchor())
                .unwrap();
        }
        Table { m, server, seats }
    }

    pub fn act(&mut self, seat: u8, action: R::Action) -> Result<u64, MatchError> {
        let seat_links = if self.m.rolls_dice(SeatId(seat), &action) {
            let index = self.m.book().next_index(Party::Seat(SeatId(seat))).unwrap();
            vec![SeatLink {
                seat: SeatId(seat),
                index,
                link: self.seats[usize::from(seat)].link(index).unwrap(),
            }]
        } else {
            Vec::new()
        };
        let sub = Submission {
            seat: SeatId(seat),
            action,
            seat_links,
            by_default: false,
        };
        self.m.apply(sub, &self.server).map(|a| a.seq)
    }

    /// The log replays (rules and dice) to exactly this match's state.
    pub fn assert_replays(&self) {
        let report = verify_log(self.m.log());
        assert!(report.ok(), "{report}");
        let again = replay::<R>(self.m.log()).unwrap();
        assert!(again.state() == self.m.state(), "replay differs");
    }
}
