//! A game's two clocks, as a pure state machine on wall-clock milliseconds
//! (Unix time), so it can be stored, restored and tested without waiting.
//!
//! - Each side has a bank; only the side whose answer the engine awaits
//!   (`Ruleset::clock_turn`) is charged, and only while it is awaited.
//! - The increment is added once per Player-Turn, when the side is first
//!   awaited in a Player-Turn (its first included).
//! - Slow play: one decision may take at most `per_decision_secs`; a new
//!   decision starts whenever the engine's state moves on.
//! - A side whose bank is empty, or whose decision took too long, is
//!   *flagged*; what follows is the event's `AtZero`.
//!
//! **Time while the server was down.** The server writes a heartbeat
//! (`alive`) every [`HEARTBEAT_MS`] and at a clean stop. On start, a
//! running clock is charged up to the last heartbeat only, then runs again
//! from the restart; a decision's slow-play deadline moves by the time
//! the server was down. So downtime counts against nobody, and a crash
//! can give the side on move at most one heartbeat's time back, never
//! take any ([`GameClock::resume`]).

use muster_shared::engine::ClockTurn;
use muster_shared::protocol::club::TimeControl;
use serde::{Deserialize, Serialize};

/// How often the server records that it is up.
pub const HEARTBEAT_MS: u64 = 5_000;

/// The side whose time runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub seat: u8,
    /// Charged up to here.
    pub since_ms: u64,
    /// When the decision it is answering began (slow play).
    pub decision_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    pub left_ms: [u64; 2],
    pub running: Option<Running>,
    /// The last Player-Turn each seat received its increment for.
    pub credited: [Option<u32>; 2],
    /// The sides that ran out of time, per seat. Both can: under
    /// `AtZero::EngineDefaults` the game goes on after the first, and the
    /// other side's bank still runs out (one flag for the game left the
    /// second side's clock past its deadline and never flagged, so its
    /// table waited and the hub's timer fired at once, over and over).
    pub flagged: [bool; 2],
}

impl GameClock {
    pub fn new(tc: &TimeControl) -> GameClock {
        let bank = u64::from(tc.bank_secs) * 1000;
        GameClock {
            left_ms: [bank, bank],
            running: None,
            credited: [None, None],
            flagged: [false, false],
        }
    }

    /// Charge the running side up to `now_ms`.
    pub fn charge(&mut self, now_ms: u64) {
        if let Some(r) = &mut self.running {
            let spent = now_ms.saturating_sub(r.since_ms);
            let i = usize::from(r.seat.min(1));
            self.left_ms[i] = self.left_ms[i].saturating_sub(spent);
            r.since_ms = r.since_ms.max(now_ms);
        }
    }

    /// The engine now awaits `turn` (or nobody): charge the side that was
    /// running, credit a new Player-Turn's increment, start the awaited side.
    pub fn turn(&mut self, tc: &TimeControl, turn: Option<ClockTurn>, now_ms: u64) {
        self.charge(now_ms);
        // A side out of time has nothing left to run (it plays on with
        // defaults, when the event says so); the other side's clock runs.
        let turn = turn.filter(|t| !self.is_flagged(t.seat.0));
        self.running = turn.map(|t| {
            let seat = t.seat.0.min(1);
            let i = usize::from(seat);
            if self.credited[i] != Some(t.player_turn) {
                self.credited[i] = Some(t.player_turn);
                self.left_ms[i] =
                    self.left_ms[i].saturating_add(u64::from(tc.increment_secs) * 1000);
            }
            Running {
                seat,
                since_ms: now_ms,
                decision_ms: now_ms,
            }
        });
    }

    /// When the running side runs out (bank or decision limit), if it does.
    pub fn deadline_ms(&self, tc: &TimeControl) -> Option<u64> {
        let r = self.running?;
        let bank = r
            .since_ms
            .saturating_add(self.left_ms[usize::from(r.seat.min(1))]);
        if tc.per_decision_secs == 0 {
            return Some(bank);
        }
        let decision = r
            .decision_ms
            .saturating_add(u64::from(tc.per_decision_secs) * 1000);
        Some(bank.min(decision))
    }

    /// Charge up to `now_ms`; the seat that is flagged now, if one is
    /// (returned once: later calls return `None`).
    pub fn check(&mut self, tc: &TimeControl, now_ms: u64) -> Option<u8> {
        let seat = self.running?.seat.min(1);
        if self.is_flagged(seat) {
            return None;
        }
        let due = self.deadline_ms(tc)?;
        self.charge(now_ms);
        if now_ms >= due {
            self.flagged[usize::from(seat)] = true;
            self.running = None;
            return Some(seat);
        }
        None
    }

    /// Whether `seat` has run out of time.
    pub fn is_flagged(&self, seat: u8) -> bool {
        self.flagged[usize::from(seat.min(1))]
    }

    /// After a restart: the server was last known up at `alive_ms` and is
    /// up again at `now_ms`. See the module's rule.
    pub fn resume(&mut self, alive_ms: u64, now_ms: u64) {
        let Some(r) = self.running else { return };
        let up_to = alive_ms.max(r.since_ms).min(now_ms);
        self.charge(up_to);
        let down = now_ms.saturating_sub(up_to);
        if let Some(r) = &mut self.running {
            // A clock held by a vacation stays held to its end.
            r.since_ms = r.since_ms.max(now_ms);
            r.decision_ms = r.decision_ms.saturating_add(down);
        }
    }

    /// A vacation (slow play): `seat`'s running time stands still until
    /// `until_ms`, bank and decision alike. Charged up to `now_ms` first;
    /// the clock then starts again by itself at `until_ms` (its charge
    /// starts there, and its decision's deadline moves by the days held).
    /// Nothing changes when `seat` is not running or is held that long
    /// already.
    pub fn hold_until(&mut self, seat: u8, until_ms: u64, now_ms: u64) {
        self.charge(now_ms);
        if let Some(r) = &mut self.running
            && r.seat == seat.min(1)
            && until_ms > r.since_ms
        {
            let held = until_ms - r.since_ms;
            r.since_ms = until_ms;
            r.decision_ms = r.decision_ms.saturating_add(held);
        }
    }

    /// Time left per side at `now_ms`, as a display would show it.
    pub fn shown(&self, now_ms: u64) -> [u64; 2] {
        let mut c = self.clone();
        c.charge(now_ms);
        c.left_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::SeatId;
    use muster_shared::protocol::club::AtZero;

    fn tc(bank: u32, inc: u32, per: u32) -> TimeControl {
        TimeControl {
            bank_secs: bank,
            increment_secs: inc,
            per_decision_secs: per,
            at_zero: AtZero::Loss,
        }
    }
    fn t(seat: u8, pt: u32) -> Option<ClockTurn> {
        Some(ClockTurn {
            seat: SeatId(seat),
            player_turn: pt,
        })
    }

    #[test]
    fn only_the_awaited_side_is_charged_and_increments_come_per_player_turn() {
        let tc = tc(60, 10, 0);
        let mut c = GameClock::new(&tc);
        c.turn(&tc, t(0, 2), 0); // +10 s for Player-Turn 2
        c.turn(&tc, t(0, 2), 5_000); // another decision, same Player-Turn: no increment
        c.turn(&tc, t(1, 3), 12_000);
        assert_eq!(c.left_ms, [58_000, 70_000]);
        c.turn(&tc, None, 20_000); // nobody awaited: nobody charged
        c.turn(&tc, t(1, 3), 100_000);
        assert_eq!(c.shown(101_000), [58_000, 61_000]);
    }

    #[test]
    fn the_bank_and_the_decision_limit_flag_a_side_once() {
        let tc = tc(10, 0, 4);
        let mut c = GameClock::new(&tc);
        c.turn(&tc, t(1, 1), 1_000);
        assert_eq!(c.deadline_ms(&tc), Some(5_000));
        assert_eq!(c.check(&tc, 4_999), None);
        assert_eq!(c.check(&tc, 5_000), Some(1));
        assert_eq!(c.check(&tc, 9_000), None);
        // Play goes on (engine defaults): the other side can run out too.
        c.turn(&tc, t(1, 1), 9_000);
        assert_eq!(c.running, None, "a side out of time has no clock to run");
        c.turn(&tc, t(0, 1), 9_000);
        assert_eq!(c.deadline_ms(&tc), Some(13_000));
        assert_eq!(c.check(&tc, 13_000), Some(0));
        assert_eq!(c.flagged, [true, true]);
        assert_eq!(c.check(&tc, 20_000), None);
    }

    /// The rule for time while the server was down: the side on move is
    /// charged up to the last heartbeat, not for the downtime, and its
    /// decision's deadline moves by the downtime.
    #[test]
    fn downtime_is_charged_to_nobody() {
        let tc = tc(100, 0, 30);
        let mut c = GameClock::new(&tc);
        c.turn(&tc, t(0, 1), 10_000);
        // Last heartbeat at 14 s, crash, back up at 500 s.
        c.resume(14_000, 500_000);
        assert_eq!(c.left_ms, [96_000, 100_000]);
        assert_eq!(c.running.unwrap().since_ms, 500_000);
        // The 30 s decision limit had 26 s left at the heartbeat.
        assert_eq!(c.deadline_ms(&tc), Some(526_000));
        // A heartbeat older than the turn's start charges nothing.
        let mut d = GameClock::new(&tc);
        d.turn(&tc, t(1, 1), 20_000);
        d.resume(15_000, 40_000);
        assert_eq!(d.left_ms, [100_000, 100_000]);
    }

    /// Issue 21, vacation days: a side held until its vacation ends is
    /// charged nothing meanwhile, its decision's deadline moves by the
    /// days held, a decision that comes during the vacation starts at its
    /// end, and a restart during it keeps it held.
    #[test]
    fn a_vacation_holds_the_bank_and_the_decision_until_it_ends() {
        let day = 86_400_000;
        let tc = tc(10 * 86_400, 0, 86_400);
        let mut c = GameClock::new(&tc);
        c.turn(&tc, t(0, 1), 0);
        // Six hours into the decision, two days' vacation.
        c.hold_until(0, 6 * 3_600_000 + 2 * day, 6 * 3_600_000);
        assert_eq!(c.deadline_ms(&tc), Some(3 * day));
        assert_eq!(c.shown(day), [10 * day - 6 * 3_600_000, 10 * day]);
        // Held again as long: nothing changes; the other seat: nothing.
        let before = c.clone();
        c.hold_until(0, 6 * 3_600_000 + 2 * day, day);
        c.hold_until(1, 5 * day, day);
        assert_eq!(c, before);
        // A restart during the vacation keeps it held.
        c.resume(day, day + 60_000);
        assert_eq!(c.deadline_ms(&tc), Some(3 * day));
        assert_eq!(c.check(&tc, 3 * day - 1), None);
        assert_eq!(c.check(&tc, 3 * day), Some(0));
        // A new decision during a vacation starts when it ends.
        let mut d = GameClock::new(&tc);
        d.turn(&tc, t(1, 1), day);
        d.hold_until(1, 4 * day, day);
        assert_eq!(d.deadline_ms(&tc), Some(5 * day));
        assert_eq!(d.check(&tc, 5 * day), Some(1));
    }
}
