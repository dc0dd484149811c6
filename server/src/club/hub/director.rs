//! The hub's side of the director's desk (issue 21): pausing a table or
//! the round, adding time, replacing a player, proposing and re-pairing
//! the next round; and what everyone may ask of a running event: the
//! status cards (`Watch`) and "your games". Every director's action is
//! checked first ([`Hub::directed`]: refused in words to anyone else),
//! stored with its event, written to the event's log, and told to the
//! players it touches. The rules of each action are in [`crate::club::desk`].

use super::{Hub, now_ms};
use crate::club::event::Refusal;
use crate::room::{RoomCmd, Who};
use crate::storage::SeatHolder;
use muster_shared::SeatId;
use muster_shared::protocol::TableId;
use muster_shared::protocol::club::{
    ClubError, ClubReply, ClubRequest, EventId, EventView, YourGame,
};
use std::time::Duration;

/// How long the hub waits for a room to store a replaced seat.
const ROOM_ANSWER: Duration = Duration::from_secs(10);

fn no_event(id: EventId) -> Refusal {
    (
        ClubError::NoSuchEvent,
        format!("there is no event {}", id.0),
    )
}

impl Hub {
    /// The desk's requests (see the module).
    pub(super) async fn desk(
        &mut self,
        who: &Who,
        req: ClubRequest,
    ) -> Result<Option<ClubReply>, Refusal> {
        match req {
            ClubRequest::PauseTable { event, table, on } => {
                self.directed(event, who.user)?;
                let changed = self.pause_one(event, table, on)?;
                let verb = if on { "paused" } else { "restarted" };
                if changed {
                    self.save(event).await;
                    self.paused_told(event, &[table], on, who).await;
                }
                let words = if changed {
                    format!("table {} {verb}", table.0)
                } else {
                    format!("table {} was {verb} already", table.0)
                };
                Ok(Some(ClubReply::Notice { event, words }))
            }
            ClubRequest::PauseRound { event, on } => {
                self.directed(event, who.user)?;
                let tables: Vec<TableId> = self
                    .event(event)?
                    .cards(0)
                    .into_iter()
                    .filter(|c| c.result.is_none())
                    .filter_map(|c| c.table)
                    .collect();
                if tables.is_empty() {
                    return Err((
                        ClubError::WrongTime,
                        "no game of the current round is in play".into(),
                    ));
                }
                let mut changed = Vec::new();
                for t in tables {
                    if self.pause_one(event, t, on)? {
                        changed.push(t);
                    }
                }
                if !changed.is_empty() {
                    self.save(event).await;
                    self.paused_told(event, &changed, on, who).await;
                }
                let verb = if on { "paused" } else { "restarted" };
                Ok(Some(ClubReply::Notice {
                    event,
                    words: format!("{} table(s) of the round {verb}", changed.len()),
                }))
            }
            ClubRequest::AddTime {
                event,
                table,
                seat,
                secs,
            } => {
                self.directed(event, who.user)?;
                let e = &mut self.events.get_mut(&event).ok_or(no_event(event))?.event;
                e.add_time(table, seat, secs, now_ms())?;
                let player = self.player_at(event, table, seat);
                self.save(event).await;
                let words = format!("{} more for {player} at table {}", span(secs), table.0);
                self.log(event, who.user, format!("{}: {words}", who.name))
                    .await;
                self.tell_table(event, table, &format!("{} gave {words}", who.name));
                Ok(Some(ClubReply::Notice { event, words }))
            }
            ClubRequest::Replace {
                event,
                table,
                seat,
                user,
            } => {
                self.directed(event, who.user)?;
                self.replace(event, table, seat, user, who).await.map(Some)
            }
            ClubRequest::PairRound { event } => {
                self.directed(event, who.user)?;
                let e = &mut self.events.get_mut(&event).ok_or(no_event(event))?.event;
                e.propose()?;
                let round = e.rounds.len() + 1;
                self.save(event).await;
                self.log(
                    event,
                    who.user,
                    format!("{} paired round {round}", who.name),
                )
                .await;
                self.proposed(event)
            }
            ClubRequest::RePair { event, games } => {
                self.directed(event, who.user)?;
                if games.len() > crate::club::event::MAX_ENTRANTS {
                    return Err((ClubError::BadRequest, "too many games".into()));
                }
                let e = &mut self.events.get_mut(&event).ok_or(no_event(event))?.event;
                e.re_pair(&games)?;
                let round = e.rounds.len() + 1;
                let lines: Vec<String> = games
                    .iter()
                    .map(|g| match g {
                        [Some(a), Some(b)] => format!("{} v {}", e.name_of(*a), e.name_of(*b)),
                        [Some(a), None] => format!("{} a bye", e.name_of(*a)),
                        _ => String::new(),
                    })
                    .collect();
                self.save(event).await;
                self.log(
                    event,
                    who.user,
                    format!("{} re-paired round {round}: {}", who.name, lines.join(", ")),
                )
                .await;
                self.proposed(event)
            }
            ClubRequest::Watch { event } => {
                let director = self.directed(event, who.user).is_ok();
                let e = self.event(event)?;
                let now = now_ms();
                Ok(Some(ClubReply::EventView(Box::new(EventView {
                    event,
                    name: e.settings.name.clone(),
                    scenario: e.settings.scenario.clone(),
                    pairing: e.settings.pairing,
                    rounds: e.settings.rounds,
                    round: u8::try_from(e.rounds.len()).unwrap_or(u8::MAX),
                    director,
                    entrants: e
                        .entrants
                        .iter()
                        .map(|x| (x.user, x.name.clone()))
                        .collect(),
                    tables: e.cards(now),
                    standings: e.standings(),
                    proposed: if director {
                        e.proposed_pairings()
                    } else {
                        None
                    },
                    time: e.settings.time.clone(),
                    points: e.settings.points.clone(),
                    now: now / 1000,
                }))))
            }
            ClubRequest::YourGames => {
                let now = now_ms();
                let games: Vec<YourGame> = self
                    .events
                    .iter()
                    .filter_map(|(id, e)| e.event.your_game(who.user, *id, now))
                    .collect();
                Ok(Some(ClubReply::YourGames { games }))
            }
            _ => Err((ClubError::BadRequest, "that request was refused".into())),
        }
    }

    /// Pause or restart one table; `true` when that changed anything.
    fn pause_one(&mut self, event: EventId, table: TableId, on: bool) -> Result<bool, Refusal> {
        let e = &mut self.events.get_mut(&event).ok_or(no_event(event))?.event;
        let now = now_ms();
        if on {
            e.pause(table, now)
        } else {
            e.resume(table, now)
        }
    }

    /// After pausing or restarting `tables`: tell their rooms, log it,
    /// tell their players.
    async fn paused_told(&mut self, event: EventId, tables: &[TableId], on: bool, who: &Who) {
        for &t in tables {
            self.shared.club.set_paused(t, on);
            if let Some(room) = self.shared.lobby.room(t) {
                let tx = room.tx.clone();
                tokio::spawn(async move {
                    let _ = tx.send(RoomCmd::Pause { on }).await;
                });
            }
            let words = if on {
                format!(
                    "{} paused your game at table {}: the clocks are stopped and no move can be \
                     made until it restarts",
                    who.name, t.0
                )
            } else {
                format!("{} restarted your game at table {}", who.name, t.0)
            };
            self.tell_table(event, t, &words);
        }
        let list: Vec<String> = tables.iter().map(|t| t.0.to_string()).collect();
        let verb = if on { "paused" } else { "restarted" };
        self.log(
            event,
            who.user,
            format!("{} {verb} table(s) {}", who.name, list.join(", ")),
        )
        .await;
    }

    /// Tell both players of `table` something a director did.
    fn tell_table(&self, event: EventId, table: TableId, words: &str) {
        let Some(e) = self.events.get(&event) else {
            return;
        };
        let Some((r, g)) = e.event.game_of_table(table) else {
            return;
        };
        let reply = ClubReply::Notice {
            event,
            words: words.to_string(),
        };
        for u in e.event.rounds[r].games[g].seats.into_iter().flatten() {
            self.tell(u, &reply);
        }
    }

    fn player_at(&self, event: EventId, table: TableId, seat: SeatId) -> String {
        self.events
            .get(&event)
            .and_then(|e| {
                let (r, g) = e.event.game_of_table(table)?;
                let u = e.event.rounds[r].games[g].seats[usize::from(seat.0.min(1))]?;
                Some(e.event.name_of(u))
            })
            .unwrap_or_else(|| "the side".into())
    }

    fn proposed(&self, event: EventId) -> Result<Option<ClubReply>, Refusal> {
        let e = self.event(event)?;
        Ok(Some(ClubReply::Proposed {
            event,
            round: u8::try_from(e.rounds.len() + 1).unwrap_or(u8::MAX),
            pairings: e.proposed_pairings().unwrap_or_default(),
        }))
    }

    /// Put `user` in `seat` at `table`: the event's rules first (on a
    /// copy), then the room stores the seat, then the event is kept.
    async fn replace(
        &mut self,
        event: EventId,
        table: TableId,
        seat: SeatId,
        user: muster_shared::protocol::UserId,
        who: &Who,
    ) -> Result<ClubReply, Refusal> {
        let mut trial = self.event(event)?.clone();
        let old = trial.replace(table, seat, user)?;
        let holder = SeatHolder {
            user,
            name: trial.name_of(user),
        };
        let room = self.shared.lobby.room(table).ok_or((
            ClubError::Internal,
            "that table is not running on this server".to_string(),
        ))?;
        let (done, answer) = tokio::sync::oneshot::channel();
        let sent = room
            .tx
            .send(RoomCmd::Replace {
                seat,
                holder: holder.clone(),
                done,
            })
            .await;
        let stored = match (sent, tokio::time::timeout(ROOM_ANSWER, answer).await) {
            (Ok(()), Ok(Ok(r))) => r,
            _ => Err("the table did not answer".to_string()),
        };
        stored.map_err(|why| {
            (
                ClubError::Internal,
                format!("the seat was not given: {why}"),
            )
        })?;
        let (old_name, new_name) = (trial.name_of(old), holder.name.clone());
        let (r, g) = trial
            .game_of_table(table)
            .ok_or((ClubError::Internal, "the table vanished".to_string()))?;
        let other = trial.rounds[r].games[g].seats[usize::from(1 - seat.0.min(1))];
        let opponent = other.map_or_else(String::new, |u| trial.name_of(u));
        if let Some(entry) = self.events.get_mut(&event) {
            entry.event = trial;
        }
        self.save(event).await;
        let words = format!(
            "{new_name} takes {old_name}'s seat at table {} and place in the event",
            table.0
        );
        self.log(event, who.user, format!("{}: {words}", who.name))
            .await;
        self.tell(
            user,
            &ClubReply::YourTable {
                event,
                round: u8::try_from(r + 1).unwrap_or(u8::MAX),
                table,
                seat,
                opponent,
            },
        );
        self.tell(
            old,
            &ClubReply::Notice {
                event,
                words: format!(
                    "{} gave your seat at table {} to {new_name}",
                    who.name, table.0
                ),
            },
        );
        if let Some(u) = other {
            self.tell(
                u,
                &ClubReply::Notice {
                    event,
                    words: format!("{new_name} now plays against you at table {}", table.0),
                },
            );
        }
        Ok(ClubReply::Notice { event, words })
    }
}

/// Seconds in words: "90 seconds", "5 minutes", "2 hours".
fn span(secs: u32) -> String {
    match secs {
        s if s % 3600 == 0 => format!("{} hour(s)", s / 3600),
        s if s % 60 == 0 => format!("{} minute(s)", s / 60),
        s => format!("{s} second(s)"),
    }
}
