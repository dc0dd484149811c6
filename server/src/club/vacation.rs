//! Vacation days for slow play (issue 21), without I/O. The director
//! gives each player of an event a number of whole vacation days
//! (`SetVacationDays`); a player takes some of them from now
//! (`TakeVacation`), and until the vacation ends their clocks stand
//! still: the bank is not charged and a decision's deadline moves by the
//! days held ([`GameClock::hold_until`]). A decision that comes during a
//! vacation starts when it ends. The opponent's clock is untouched.
//!
//! The vacation is kept with the event (stored after each change), and a
//! held clock keeps its end across a restart (`GameClock::resume`).

use super::clock::GameClock;
use super::event::{Event, Refusal};
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::ClubError;
use serde::{Deserialize, Serialize};

/// Most vacation days an event may give each player.
pub const MAX_VACATION_DAYS: u8 = 60;
pub const DAY_MS: u64 = 86_400_000;

/// One player's vacation in an event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vacation {
    /// Whole days taken so far.
    pub taken_days: u8,
    /// When the last vacation taken ends (Unix ms).
    pub until_ms: u64,
}

fn refuse<T>(e: ClubError, words: impl Into<String>) -> Result<T, Refusal> {
    Err((e, words.into()))
}

impl Event {
    /// The director's setting: `days` per player (fewer than a player has
    /// taken leaves them none to take, and takes back nothing).
    pub fn set_vacation_days(&mut self, days: u8) -> Result<(), Refusal> {
        if days > MAX_VACATION_DAYS {
            return refuse(
                ClubError::BadRequest,
                format!("an event gives at most {MAX_VACATION_DAYS} vacation days"),
            );
        }
        if days > 0 && self.settings.time.is_none() {
            return refuse(
                ClubError::BadRequest,
                "this event plays without clocks: there are no deadlines for a vacation to stop",
            );
        }
        self.extras.vacation_days = days;
        Ok(())
    }

    /// Whole vacation days `user` may still take.
    pub fn vacation_left(&self, user: UserId) -> u8 {
        let taken = self.extras.vacations.get(&user).map_or(0, |v| v.taken_days);
        self.extras.vacation_days.saturating_sub(taken)
    }

    /// When `user`'s vacation under way ends (Unix ms), if one is.
    pub fn away_until(&self, user: UserId, now_ms: u64) -> Option<u64> {
        self.extras
            .vacations
            .get(&user)
            .map(|v| v.until_ms)
            .filter(|u| *u > now_ms)
    }

    /// `user` takes `days` from now (on vacation already: added to its
    /// end); their running clocks are held. Returns when it ends (Unix ms).
    pub fn take_vacation(&mut self, user: UserId, days: u8, now_ms: u64) -> Result<u64, Refusal> {
        if !self.entrants.iter().any(|e| e.user == user) {
            return refuse(
                ClubError::NotRegistered,
                "only a player of the event takes vacation days in it",
            );
        }
        if self.extras.vacation_days == 0 {
            return refuse(ClubError::BadRequest, "this event gives no vacation days");
        }
        if days == 0 {
            return refuse(ClubError::BadRequest, "take one or more whole days");
        }
        let left = self.vacation_left(user);
        if days > left {
            return refuse(
                ClubError::BadRequest,
                format!(
                    "you have {left} vacation day{} left in this event, not {days}",
                    if left == 1 { "" } else { "s" }
                ),
            );
        }
        let start = self.away_until(user, now_ms).unwrap_or(now_ms);
        let until = start.saturating_add(u64::from(days) * DAY_MS);
        let v = self.extras.vacations.entry(user).or_default();
        v.taken_days = v.taken_days.saturating_add(days);
        v.until_ms = until;
        self.hold_vacations(now_ms);
        Ok(until)
    }

    /// Hold the running clock of every unfinished game of the current
    /// round whose side on move is away. Returns whether any changed.
    pub fn hold_vacations(&mut self, now_ms: u64) -> bool {
        let n = self.rounds.last().map_or(0, |r| r.games.len());
        let mut changed = false;
        for g in 0..n {
            changed |= self.hold_vacation_at(g, now_ms);
        }
        changed
    }

    /// Hold the clock of game `g` of the current round if the side on
    /// move is away. Returns whether it changed.
    pub fn hold_vacation_at(&mut self, g: usize, now_ms: u64) -> bool {
        let Some(game) = self.rounds.last().and_then(|r| r.games.get(g)) else {
            return false;
        };
        let Some(running) = game.clock.as_ref().and_then(|c| c.running) else {
            return false;
        };
        if game.result.is_some() {
            return false;
        }
        let Some(until) =
            game.seats[usize::from(running.seat.min(1))].and_then(|u| self.away_until(u, now_ms))
        else {
            return false;
        };
        let r = self.rounds.len() - 1;
        let Some(clock) = self.rounds[r].games[g].clock.as_mut() else {
            return false;
        };
        let before: GameClock = clock.clone();
        clock.hold_until(running.seat, until, now_ms);
        *clock != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::event::{Game, Round};
    use muster_shared::SeatId;
    use muster_shared::engine::ClockTurn;
    use muster_shared::protocol::TableId;
    use muster_shared::protocol::club::{
        AtZero, EventSettings, PairingMethod, PointsTable, SideAssignment, TimeControl,
    };

    fn slow_event() -> Event {
        let tc = TimeControl {
            bank_secs: 30 * 86_400,
            increment_secs: 0,
            per_decision_secs: 86_400,
            at_zero: AtZero::Loss,
        };
        let mut e = Event::new(
            UserId(100),
            EventSettings {
                name: "By mail".into(),
                ruleset: "sandbox".into(),
                scenario: "s".into(),
                config: Vec::new(),
                rounds: 1,
                pairing: PairingMethod::Swiss,
                sides: SideAssignment::Balanced,
                invite_only: false,
                check_in: false,
                time: Some(tc.clone()),
                points: PointsTable::default(),
                seed: 1,
                round_scenarios: Vec::new(),
            },
            None,
        );
        e.register(UserId(1), "Ann", None).unwrap();
        e.register(UserId(2), "Bo", None).unwrap();
        let mut clock = GameClock::new(&tc);
        clock.turn(
            &tc,
            Some(ClockTurn {
                seat: SeatId(0),
                player_turn: 1,
            }),
            0,
        );
        e.rounds.push(Round {
            games: vec![Game {
                table: Some(TableId(7)),
                seats: [Some(UserId(1)), Some(UserId(2))],
                result: None,
                clock: Some(clock),
            }],
        });
        e
    }

    #[test]
    fn vacation_days_are_whole_days_within_the_allowance_and_hold_the_clock() {
        let mut e = slow_event();
        let (err, words) = e.take_vacation(UserId(1), 1, 0).unwrap_err();
        assert_eq!(err, ClubError::BadRequest);
        assert_eq!(words, "this event gives no vacation days");
        e.set_vacation_days(3).unwrap();
        assert!(e.set_vacation_days(61).is_err());
        let until = e.take_vacation(UserId(1), 2, 1_000).unwrap();
        assert_eq!(until, 1_000 + 2 * DAY_MS);
        assert_eq!(e.vacation_left(UserId(1)), 1);
        // Ann's decision (one day from 0) now ends a day after her vacation.
        let tc = e.settings.time.clone().unwrap();
        let c = e.rounds[0].games[0].clock.clone().unwrap();
        assert_eq!(c.deadline_ms(&tc), Some(DAY_MS + 2 * DAY_MS));
        // Past the allowance: refused in words.
        let (_, words) = e.take_vacation(UserId(1), 2, 5_000).unwrap_err();
        assert_eq!(words, "you have 1 vacation day left in this event, not 2");
        // The last day is added to the end of the vacation under way.
        let until = e.take_vacation(UserId(1), 1, 5_000).unwrap();
        assert_eq!(until, 1_000 + 3 * DAY_MS);
        let c = e.rounds[0].games[0].clock.clone().unwrap();
        assert_eq!(c.deadline_ms(&tc), Some(4 * DAY_MS));
        // Bo is not on move: his days stop nothing now; not a player: refused.
        assert!(!e.hold_vacations(10_000));
        assert_eq!(
            e.take_vacation(UserId(9), 1, 0).unwrap_err().0,
            ClubError::NotRegistered
        );
    }
}
