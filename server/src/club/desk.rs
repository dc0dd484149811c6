//! The director's desk (issue 21), without I/O: what a director does to a
//! running event beyond starting rounds and adjudicating — pause a table,
//! give a side time, put another player in a seat, propose the next round
//! and re-pair it by hand before it starts — and what the status cards
//! show of each table (where its game is, whose answer it waits for, its
//! last action). The hub ([`super::hub`]) checks who asks, stores the
//! event after every change, logs the action and talks to the rooms.
//!
//! The desk is stored with its event, as the event's last field, so an
//! event stored before the desk existed still loads ([`decode_stored`]).

use super::clock::{GameClock, Running};
use super::event::{Event, Game, Refusal, Round};
use muster_shared::SeatId;
use muster_shared::codec::{self, DecodeError};
use muster_shared::engine::ClockTurn;
use muster_shared::protocol::club::{
    ClubError, GameResult, Pairing, ResultHow, TableCard, TimeControl, YourGame,
};
use muster_shared::protocol::{TableId, UserId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most seconds one `AddTime` gives (a week).
pub const MAX_ADD_SECS: u32 = 7 * 24 * 3600;

/// The director's state of an event.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Desk {
    /// The next round, paired and not started (`PairRound`, `RePair`).
    pub proposed: Option<Round>,
    /// What each table of the event last said, and its pause.
    pub tables: BTreeMap<TableId, TableNote>,
}

/// One table as the desk knows it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TableNote {
    /// The seat awaited and its Player-Turn (the clock's `ClockTurn`).
    pub awaiting: Option<(u8, u32)>,
    pub progress: Option<String>,
    /// The last time the table said anything (Unix ms).
    pub last_ms: u64,
    pub paused: Option<Paused>,
}

/// What a move changes at one table: its clock and its status card. Stored
/// alone, in the table's own row (`storage/club.rs`), so a move writes a
/// hundred bytes and not the whole event.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableLive {
    pub clock: Option<GameClock>,
    pub note: TableNote,
}

/// A table stopped by a director.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Paused {
    pub at_ms: u64,
    /// The side whose time was running when it stopped.
    pub held: Option<Running>,
}

fn refuse<T>(e: ClubError, words: impl Into<String>) -> Result<T, Refusal> {
    Err((e, words.into()))
}

/// An event as stored, from any version: events stored before the desk
/// or the extras (vacations, bids) lack them (their last fields) and load
/// with empty ones. Without this a server upgraded over a database with
/// events would refuse to start.
pub fn decode_stored(bytes: &[u8]) -> Result<Event, DecodeError> {
    let first = match codec::decode(bytes, codec::MAX_SERVER_MSG) {
        Ok(e) => return Ok(e),
        Err(e) => e,
    };
    let extras = codec::encode_infallible(&super::event::Extras::default());
    let desk = codec::encode_infallible(&Desk::default());
    for tail in [extras.clone(), [desk, extras].concat()] {
        let older = [bytes, &tail].concat();
        if let Ok(e) = codec::decode(&older, codec::MAX_SERVER_MSG) {
            return Ok(e);
        }
    }
    Err(first)
}

fn seat_index(seat: SeatId) -> Result<usize, Refusal> {
    match seat.0 {
        0 | 1 => Ok(usize::from(seat.0)),
        _ => refuse(
            ClubError::BadRequest,
            "an event game has two seats, 1 and 2",
        ),
    }
}

impl Event {
    /// The current round's unfinished game at `table`: its index.
    fn live_game(&self, table: TableId) -> Result<usize, Refusal> {
        let r = self.rounds.len().checked_sub(1);
        let found = r.and_then(|r| {
            self.rounds[r]
                .games
                .iter()
                .position(|g| g.table == Some(table))
        });
        match found {
            None if self.game_of_table(table).is_some() => refuse(
                ClubError::WrongTime,
                "that table belongs to an earlier round",
            ),
            None => refuse(
                ClubError::NoSuchGame,
                format!("table {} is not a game of this event", table.0),
            ),
            Some(g) if self.rounds[self.rounds.len() - 1].games[g].result.is_some() => refuse(
                ClubError::WrongTime,
                "the game at that table has its result already",
            ),
            Some(g) => Ok(g),
        }
    }

    fn current_mut(&mut self, g: usize) -> &mut Game {
        let r = self.rounds.len() - 1;
        &mut self.rounds[r].games[g]
    }

    /// Table `table`'s clock and status card, for its own row.
    pub fn table_live(&self, table: TableId) -> Option<TableLive> {
        let (r, g) = self.game_of_table(table)?;
        Some(TableLive {
            clock: self.rounds[r].games[g].clock.clone(),
            note: self.desk.tables.get(&table).cloned().unwrap_or_default(),
        })
    }

    /// At load: a table's own row, newer than the event's.
    pub fn apply_live(&mut self, table: TableId, live: TableLive) {
        if let Some((r, g)) = self.game_of_table(table) {
            self.rounds[r].games[g].clock = live.clock;
            self.desk.tables.insert(table, live.note);
        }
    }

    /// A table said whose answer its game awaits and where it is. Returns
    /// whether the table is paused (then its clock is left stopped).
    pub fn note_turn(
        &mut self,
        table: TableId,
        turn: Option<ClockTurn>,
        progress: Option<String>,
        now_ms: u64,
    ) -> bool {
        let note = self.desk.tables.entry(table).or_default();
        note.awaiting = turn.map(|t| (t.seat.0.min(1), t.player_turn));
        if progress.is_some() {
            note.progress = progress;
        }
        note.last_ms = now_ms;
        match &mut note.paused {
            Some(p) => {
                // The game moved on while stopped (a restart rebuilding
                // it): the side held is no longer the one awaited.
                if p.held
                    .is_some_and(|h| Some(h.seat) != turn.map(|t| t.seat.0.min(1)))
                {
                    p.held = None;
                }
                true
            }
            None => false,
        }
    }

    pub fn is_paused(&self, table: TableId) -> bool {
        self.desk
            .tables
            .get(&table)
            .is_some_and(|n| n.paused.is_some())
    }

    /// Stop `table`: its running clock is charged and held. `false` when
    /// it was stopped already.
    pub fn pause(&mut self, table: TableId, now_ms: u64) -> Result<bool, Refusal> {
        let g = self.live_game(table)?;
        if self.is_paused(table) {
            return Ok(false);
        }
        let game = self.current_mut(g);
        let held = game.clock.as_mut().and_then(|c| {
            c.charge(now_ms);
            c.running.take()
        });
        self.desk.tables.entry(table).or_default().paused = Some(Paused {
            at_ms: now_ms,
            held,
        });
        Ok(true)
    }

    /// Restart `table`: the side held runs again, its slow-play decision
    /// moved on by the pause (a pause takes no one's time). `false` when
    /// it was not stopped.
    pub fn resume(&mut self, table: TableId, now_ms: u64) -> Result<bool, Refusal> {
        let g = self.live_game(table)?;
        let tc = self.settings.time.clone();
        let note = self.desk.tables.entry(table).or_default();
        let Some(p) = note.paused.take() else {
            return Ok(false);
        };
        let awaiting = note.awaiting;
        let game = self.current_mut(g);
        if let (Some(c), Some(tc)) = (&mut game.clock, tc) {
            match p.held {
                Some(h) if !c.is_flagged(h.seat) => {
                    c.running = Some(Running {
                        seat: h.seat,
                        since_ms: now_ms,
                        decision_ms: h.decision_ms.saturating_add(now_ms.saturating_sub(p.at_ms)),
                    });
                }
                Some(_) => {}
                None => c.turn(
                    &tc,
                    awaiting.map(|(seat, player_turn)| ClockTurn {
                        seat: SeatId(seat),
                        player_turn,
                    }),
                    now_ms,
                ),
            }
        }
        Ok(true)
    }

    /// Give `seat` at `table` `secs` more. A side out of time under
    /// "engine defaults" has time again and its clock runs when awaited.
    pub fn add_time(
        &mut self,
        table: TableId,
        seat: SeatId,
        secs: u32,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let i = seat_index(seat)?;
        if secs == 0 || secs > MAX_ADD_SECS {
            return refuse(
                ClubError::BadRequest,
                format!("add 1 to {MAX_ADD_SECS} seconds (a week) at a time"),
            );
        }
        let g = self.live_game(table)?;
        let tc = self.settings.time.clone();
        let paused = self.is_paused(table);
        let awaiting = self.desk.tables.get(&table).and_then(|n| n.awaiting);
        let game = self.current_mut(g);
        let (Some(c), Some(tc)) = (&mut game.clock, tc) else {
            return refuse(ClubError::BadRequest, "this event plays without clocks");
        };
        c.charge(now_ms);
        c.left_ms[i] = c.left_ms[i].saturating_add(u64::from(secs) * 1000);
        if c.flagged[i] {
            c.flagged[i] = false;
            if !paused && c.running.is_none() && awaiting.is_some_and(|(s, _)| usize::from(s) == i)
            {
                c.turn(
                    &tc,
                    awaiting.map(|(seat, player_turn)| ClockTurn {
                        seat: SeatId(seat),
                        player_turn,
                    }),
                    now_ms,
                );
            }
        }
        Ok(())
    }

    /// Put `user` in `seat` at `table` (current round, no result yet). The
    /// newcomer must be an entrant not on the roster (a reserve: registered
    /// and not paired); they take the replaced player's place in the
    /// roster, so later rounds pair them instead. The replaced player's
    /// games stay in the standings. Returns the replaced player.
    pub fn replace(
        &mut self,
        table: TableId,
        seat: SeatId,
        user: UserId,
    ) -> Result<UserId, Refusal> {
        let i = seat_index(seat)?;
        let g = self.live_game(table)?;
        if !self.entrants.iter().any(|e| e.user == user) {
            return refuse(
                ClubError::NotRegistered,
                "the player taking the seat must be registered for the event",
            );
        }
        if self.roster.contains(&user) {
            return refuse(
                ClubError::BadRequest,
                format!(
                    "{} plays in the event already; a seat goes to a registered player who is not \
                     playing",
                    self.name_of(user)
                ),
            );
        }
        let Some(old) = self.current_mut(g).seats[i] else {
            return refuse(ClubError::NoSuchGame, "that seat is empty");
        };
        self.current_mut(g).seats[i] = Some(user);
        if let Some(slot) = self.roster.iter_mut().find(|u| **u == old) {
            *slot = user;
        }
        Ok(old)
    }

    /// Pair the next round without starting it (again: afresh).
    pub fn propose(&mut self) -> Result<&Round, Refusal> {
        let games = self.clone().pair_next()?;
        Ok(self.desk.proposed.insert(Round { games }))
    }

    /// The next round's pairings by hand: the proposal's players, each
    /// once; a bye (seat 1 empty) scores the event's bye points.
    pub fn re_pair(&mut self, games: &[[Option<UserId>; 2]]) -> Result<&Round, Refusal> {
        let Some(proposed) = &self.desk.proposed else {
            return refuse(
                ClubError::WrongTime,
                "pair the next round first; then it can be re-paired",
            );
        };
        let mut want: Vec<UserId> = players(&proposed.games);
        let mut got: Vec<UserId> = Vec::new();
        for g in games {
            match g {
                [Some(a), Some(b)] if a != b => got.extend([*a, *b]),
                [Some(a), None] => got.push(*a),
                _ => {
                    return refuse(
                        ClubError::BadRequest,
                        "each game has two different players, or one with a bye",
                    );
                }
            }
        }
        want.sort();
        got.sort();
        if want != got {
            return refuse(
                ClubError::BadRequest,
                "the pairings must have the round's players, each exactly once",
            );
        }
        let byes = games.iter().filter(|g| g[1].is_none()).count();
        if byes > usize::from(want.len() % 2 == 1) {
            return refuse(
                ClubError::BadRequest,
                "at most one bye, and only when the players are odd in number",
            );
        }
        let bye = self.settings.points.bye;
        let games = games
            .iter()
            .map(|s| Game {
                table: None,
                seats: *s,
                result: s[1].is_none().then_some(GameResult {
                    points: [bye, 0],
                    vp_margin: 0,
                    how: ResultHow::Bye,
                }),
                clock: None,
            })
            .collect();
        Ok(self.desk.proposed.insert(Round { games }))
    }

    /// At `StartRound`: the proposed pairings instead of `fresh` (the
    /// pairing run now), when there are some. Refused when the players
    /// changed since (a late check-in): the director pairs again.
    pub fn take_proposal(&mut self, fresh: Vec<Game>) -> Result<Vec<Game>, Refusal> {
        let Some(p) = self.desk.proposed.take() else {
            return Ok(fresh);
        };
        let (mut a, mut b) = (players(&p.games), players(&fresh));
        a.sort();
        b.sort();
        if a != b {
            self.desk.proposed = Some(p);
            return refuse(
                ClubError::WrongTime,
                "the players changed since the round was paired; pair it again",
            );
        }
        Ok(p.games)
    }

    /// The proposed next round as players see pairings.
    pub fn proposed_pairings(&self) -> Option<Vec<Pairing>> {
        let p = self.desk.proposed.as_ref()?;
        Some(
            p.games
                .iter()
                .map(|g| Pairing {
                    table: None,
                    players: g.seats.map(|s| s.map(|u| (u, self.name_of(u)))),
                    result: g.result.clone(),
                    clock_ms: None,
                })
                .collect(),
        )
    }

    /// The current round's tables as status cards.
    pub fn cards(&self, now_ms: u64) -> Vec<TableCard> {
        let Some(round) = self.rounds.last() else {
            return Vec::new();
        };
        round
            .games
            .iter()
            .map(|g| {
                let note = g.table.and_then(|t| self.desk.tables.get(&t));
                let open = g.result.is_none();
                TableCard {
                    table: g.table,
                    players: g.seats.map(|s| s.map(|u| (u, self.name_of(u)))),
                    progress: note.and_then(|n| n.progress.clone()),
                    awaiting: note
                        .and_then(|n| n.awaiting)
                        .filter(|_| open)
                        .map(|(s, _)| SeatId(s)),
                    clock_ms: g.clock.as_ref().map(|c| c.shown(now_ms)),
                    last_activity: note.map(|n| n.last_ms / 1000).filter(|s| *s > 0),
                    paused: open && note.is_some_and(|n| n.paused.is_some()),
                    result: g.result.clone(),
                }
            })
            .collect()
    }

    /// `user`'s unfinished game of the current round, as "your games"
    /// lists it.
    pub fn your_game(
        &self,
        user: UserId,
        id: muster_shared::protocol::club::EventId,
        now_ms: u64,
    ) -> Option<YourGame> {
        let (r, g) = self.current_game_of(user)?;
        let game = &self.rounds[r].games[g];
        let table = game.table?;
        let i = game.seats.iter().position(|s| *s == Some(user))?;
        let other = game.seats[1 - i]?;
        let note = self.desk.tables.get(&table);
        let paused = note.is_some_and(|n| n.paused.is_some());
        let your_move = note
            .and_then(|n| n.awaiting)
            .is_some_and(|(s, _)| usize::from(s) == i);
        let bank_ms = game.clock.as_ref().map(|c| c.shown(now_ms)[i]);
        let decision_ms =
            decision_left(game.clock.as_ref(), self.settings.time.as_ref(), i, now_ms);
        Some(YourGame {
            event: id,
            event_name: self.settings.name.clone(),
            round: u8::try_from(r + 1).unwrap_or(u8::MAX),
            table,
            seat: SeatId(i as u8),
            opponent: self.name_of(other),
            progress: note.and_then(|n| n.progress.clone()),
            your_move,
            paused,
            bank_ms,
            decision_ms,
        })
    }
}

/// Slow play: what is left of the decision seat `i` is answering.
fn decision_left(
    clock: Option<&GameClock>,
    tc: Option<&TimeControl>,
    i: usize,
    now_ms: u64,
) -> Option<u64> {
    let (c, tc) = (clock?, tc?);
    if tc.per_decision_secs == 0 {
        return None;
    }
    let r = c.running.filter(|r| usize::from(r.seat) == i)?;
    Some(
        r.decision_ms
            .saturating_add(u64::from(tc.per_decision_secs) * 1000)
            .saturating_sub(now_ms),
    )
}

fn players(games: &[Game]) -> Vec<UserId> {
    games
        .iter()
        .flat_map(|g| g.seats.into_iter().flatten())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::protocol::club::{
        AtZero, EventSettings, PairingMethod, PointsTable, SideAssignment,
    };

    fn event(players: u64, time: Option<TimeControl>) -> Event {
        let mut e = Event::new(
            UserId(100),
            EventSettings {
                name: "Desk".into(),
                ruleset: "sandbox".into(),
                scenario: "s".into(),
                config: Vec::new(),
                rounds: 3,
                pairing: PairingMethod::Swiss,
                sides: SideAssignment::Balanced,
                invite_only: false,
                check_in: true,
                time,
                points: PointsTable::default(),
                seed: 3,
                round_scenarios: Vec::new(),
            },
            None,
        );
        for i in 1..=players {
            e.register(UserId(i), &format!("P{i}"), None).unwrap();
            e.check_in(UserId(i)).unwrap();
        }
        e
    }

    fn start(e: &mut Event) {
        let fresh = e.pair_next().unwrap();
        let mut games = e.take_proposal(fresh).unwrap();
        for (i, g) in games.iter_mut().enumerate() {
            if g.seats[1].is_some() {
                g.table = Some(TableId(i as u64 + 1));
                g.clock = e.settings.time.as_ref().map(GameClock::new);
            }
        }
        e.rounds.push(Round { games });
    }

    fn tc() -> TimeControl {
        TimeControl {
            bank_secs: 60,
            increment_secs: 0,
            per_decision_secs: 30,
            at_zero: AtZero::Loss,
        }
    }

    #[test]
    fn a_pause_takes_no_ones_time_and_moves_the_decision_on() {
        let tc = tc();
        let mut e = event(2, Some(tc.clone()));
        start(&mut e);
        let t = TableId(1);
        let turn = Some(ClockTurn {
            seat: SeatId(0),
            player_turn: 1,
        });
        assert!(!e.note_turn(t, turn, Some("Game-Turn 1".into()), 1_000));
        e.rounds[0].games[0]
            .clock
            .as_mut()
            .unwrap()
            .turn(&tc, turn, 1_000);
        assert!(e.pause(t, 11_000).unwrap());
        assert!(!e.pause(t, 12_000).unwrap(), "paused already");
        // Stopped for 100 s: nobody is charged.
        assert_eq!(e.cards(111_000)[0].clock_ms, Some([50_000, 60_000]));
        assert!(e.cards(111_000)[0].paused);
        assert!(e.resume(t, 111_000).unwrap());
        let c = e.rounds[0].games[0].clock.clone().unwrap();
        // 20 s of the 30 s decision were left; they still are.
        assert_eq!(c.deadline_ms(&tc), Some(131_000));
    }

    #[test]
    fn added_time_revives_a_flagged_side() {
        let tc = TimeControl {
            at_zero: AtZero::EngineDefaults,
            ..tc()
        };
        let mut e = event(2, Some(tc.clone()));
        start(&mut e);
        let t = TableId(1);
        let turn = Some(ClockTurn {
            seat: SeatId(1),
            player_turn: 1,
        });
        e.note_turn(t, turn, None, 0);
        let c = e.rounds[0].games[0].clock.as_mut().unwrap();
        c.turn(&tc, turn, 0);
        assert_eq!(c.check(&tc, 30_000), Some(1));
        e.add_time(t, SeatId(1), 90, 40_000).unwrap();
        let c = e.rounds[0].games[0].clock.clone().unwrap();
        assert!(!c.is_flagged(1));
        assert_eq!(c.running.map(|r| r.seat), Some(1));
        assert_eq!(c.shown(40_000), [60_000, 120_000]);
        assert!(e.add_time(t, SeatId(2), 5, 0).is_err());
        assert!(e.add_time(t, SeatId(0), 0, 0).is_err());
    }

    #[test]
    fn a_reserve_takes_the_seat_and_the_place() {
        let mut e = event(4, None);
        // A fifth player registers and does not check in: a reserve.
        e.register(UserId(5), "Reserve", None).unwrap();
        start(&mut e);
        let t = e.rounds[0].games[0].table.unwrap();
        let old = e.rounds[0].games[0].seats[1].unwrap();
        let other = e.rounds[0].games[1].seats[0].unwrap();
        let (err, _) = e.replace(t, SeatId(1), other).unwrap_err();
        assert_eq!(
            err,
            ClubError::BadRequest,
            "a player of the event is not a reserve"
        );
        assert_eq!(e.replace(t, SeatId(1), UserId(5)).unwrap(), old);
        assert_eq!(e.rounds[0].games[0].seats[1], Some(UserId(5)));
        assert!(e.roster.contains(&UserId(5)) && !e.roster.contains(&old));
    }

    #[test]
    fn re_pairing_keeps_the_players_and_start_takes_it() {
        let mut e = event(5, None);
        let p = e.propose().unwrap().games.clone();
        assert_eq!(p.len(), 3);
        // Swap by hand: 1–2, 3–4, 5 a bye.
        let hand = [
            [Some(UserId(1)), Some(UserId(2))],
            [Some(UserId(3)), Some(UserId(4))],
            [Some(UserId(5)), None],
        ];
        e.re_pair(&hand).unwrap();
        assert!(e.re_pair(&hand[..2]).is_err(), "a player left out");
        let twice = [
            [Some(UserId(1)), Some(UserId(2))],
            [Some(UserId(1)), Some(UserId(4))],
            [Some(UserId(5)), Some(UserId(3))],
        ];
        assert!(e.re_pair(&twice).is_err(), "a player twice");
        start(&mut e);
        let seats: Vec<_> = e.rounds[0].games.iter().map(|g| g.seats).collect();
        assert_eq!(seats, hand.to_vec());
        assert_eq!(e.rounds[0].games[2].result.as_ref().unwrap().points, [2, 0]);
        assert!(e.desk.proposed.is_none());
    }

    #[test]
    fn a_late_check_in_voids_the_proposal() {
        let mut e = event(4, None);
        e.register(UserId(9), "Late", None).unwrap();
        e.propose().unwrap();
        e.check_in(UserId(9)).unwrap();
        let fresh = e.pair_next().unwrap();
        let (err, _) = e.take_proposal(fresh).unwrap_err();
        assert_eq!(err, ClubError::WrongTime);
    }

    #[test]
    fn an_event_stored_before_the_desk_loads() {
        let mut e = event(2, None);
        e.propose().unwrap();
        e.extras.vacation_days = 3;
        let whole = codec::encode_infallible(&e);
        let desk = codec::encode_infallible(&e.desk).len();
        let extras = codec::encode_infallible(&e.extras).len();
        let older = &whole[..whole.len() - desk - extras];
        let back = decode_stored(older).unwrap();
        assert!(back.desk.proposed.is_none());
        assert_eq!(back.entrants.len(), 2);
        // Stored with the desk, before the extras (vacations, bids).
        let back = decode_stored(&whole[..whole.len() - extras]).unwrap();
        assert!(back.desk.proposed.is_some());
        assert_eq!(back.extras.vacation_days, 0);
        let now = decode_stored(&whole).unwrap();
        assert!(now.desk.proposed.is_some());
        assert_eq!(now.extras.vacation_days, 3);
    }
}
