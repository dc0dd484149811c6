//! The hub's side of the director's desk (issue 21): pausing a table or
//! the round, adding time, replacing a player, proposing and re-pairing
//! the next round; and what everyone may ask of a running event: the
//! status cards (`Watch`) and "your games". Every director's action is
//! checked first ([`Hub::directed`]: refused in words to anyone else),
//! stored with its event, written to the event's log, and told to the
//! players it touches. The rules of each action are in [`crate::club::desk`].

use super::{Hub, now_ms};
use crate::club::event::{Refusal, game_words, side_names};
use crate::room::{RoomCmd, Who};
use crate::storage::SeatHolder;
use muster_shared::SeatId;
use muster_shared::protocol::TableId;
use muster_shared::protocol::club::{
    ClubError, ClubReply, ClubRequest, EventId, EventSummary, EventView, MAX_LISTED_EVENTS,
    YourGame,
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
                let verb = if on { "paused" } else { "resumed" };
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
                let verb = if on { "paused" } else { "resumed" };
                let words = match changed.len() {
                    0 => format!("every table of the round was {verb} already"),
                    1 => format!("1 table of the round {verb}"),
                    n => format!("{n} tables of the round {verb}"),
                };
                Ok(Some(ClubReply::Notice { event, words }))
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
                let (more, t) = (span(secs), table.0);
                let words = format!("{player} has {more} more at table {t}");
                let gave = format!("{} gave {player} {more} more at table {t}", who.name);
                self.log(event, who.user, gave.clone()).await;
                self.tell_table(event, table, &gave);
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
                        [Some(a), None] => format!("{} has a bye", e.name_of(*a)),
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
                let side_names = self
                    .events
                    .get(&event)
                    .map(|e| e.sides.clone())
                    .unwrap_or_default();
                let e = self.event(event)?;
                let now = now_ms();
                Ok(Some(ClubReply::EventView(Box::new(EventView {
                    event,
                    name: e.settings.name.clone(),
                    // The round being played (before the first, round 1).
                    scenario: e
                        .settings
                        .round_play(e.rounds.len().saturating_sub(1))
                        .scenario
                        .to_string(),
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
                    sides: e.settings.sides,
                    side_names,
                    registration_open: !e.started(),
                    invite_only: e.settings.invite_only,
                    check_in: e.settings.check_in,
                    checked_in: e
                        .entrants
                        .iter()
                        .any(|x| x.user == who.user && x.checked_in),
                    invite: e.invite.clone().filter(|_| director),
                    round_scenarios: e.settings.round_scenarios.clone(),
                    ruleset: e.settings.ruleset.clone(),
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
            ClubRequest::SetRoundBattle {
                event,
                round,
                ruleset,
                battle,
            } => {
                self.directed(event, who.user)?;
                let e = &self.events.get(&event).ok_or(no_event(event))?.event;
                e.check_round_battle(round, &battle)?;
                let game = e.settings.ruleset.clone();
                if ruleset != game {
                    return Err((
                        ClubError::BadRequest,
                        format!(
                            "this event plays {}; {} is a battle of {}",
                            game_words(&game),
                            battle.scenario.trim(),
                            game_words(&ruleset)
                        ),
                    ));
                }
                let whose = format!("round {round}'s battle");
                self.check_battle(&game, battle.config.clone(), &whose)
                    .await?;
                let new = battle.scenario.clone();
                let entry = self.events.get_mut(&event).ok_or(no_event(event))?;
                // Checked again: the build above awaited, and nothing may
                // change a started round.
                let old = entry.event.set_round_battle(round, battle)?;
                if usize::from(round) == entry.event.rounds.len() + 1 {
                    entry.sides = side_names(&entry.event.settings, usize::from(round) - 1);
                }
                self.save(event).await;
                self.log(
                    event,
                    who.user,
                    format!(
                        "{} changed round {round}'s battle to {new} (it was {old})",
                        who.name
                    ),
                )
                .await;
                Ok(Some(ClubReply::Notice {
                    event,
                    words: format!("round {round} now plays {new}"),
                }))
            }
            ClubRequest::Events => Ok(Some(ClubReply::Events {
                events: self.listed_events(who.user),
            })),
            _ => Err((ClubError::BadRequest, "that request was refused".into())),
        }
    }

    /// The lobby's list of events for `user`: those entered or directed,
    /// and those anyone may still register for; newest first, bounded.
    fn listed_events(&self, user: muster_shared::protocol::UserId) -> Vec<EventSummary> {
        self.events
            .iter()
            .rev()
            .filter_map(|(&id, entry)| {
                let e = &entry.event;
                let director = self.directed(id, user).is_ok();
                let entered = e.entrants.iter().any(|x| x.user == user);
                let open = !e.started() && !e.settings.invite_only;
                if !(director || entered || open) {
                    return None;
                }
                let round = u8::try_from(e.rounds.len()).unwrap_or(u8::MAX);
                Some(EventSummary {
                    event: id,
                    name: e.settings.name.clone(),
                    ruleset: e.settings.ruleset.clone(),
                    scenario: e.settings.scenarios_words(),
                    rounds: e.settings.rounds,
                    round,
                    finished: round >= e.settings.rounds && e.round_done(),
                    players: u32::try_from(e.entrants.len()).unwrap_or(u32::MAX),
                    registration_open: !e.started(),
                    invite_only: e.settings.invite_only,
                    entered,
                    director,
                })
            })
            .take(MAX_LISTED_EVENTS)
            .collect()
    }

    /// Pause or resume one table; `true` when that changed anything.
    fn pause_one(&mut self, event: EventId, table: TableId, on: bool) -> Result<bool, Refusal> {
        let e = &mut self.events.get_mut(&event).ok_or(no_event(event))?.event;
        let now = now_ms();
        if on {
            e.pause(table, now)
        } else {
            e.resume(table, now)
        }
    }

    /// After pausing or resuming `tables`: tell their rooms, log it,
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
                     made until it is resumed",
                    who.name, t.0
                )
            } else {
                format!("{} resumed your game at table {}", who.name, t.0)
            };
            self.tell_table(event, t, &words);
        }
        let verb = if on { "paused" } else { "resumed" };
        self.log(
            event,
            who.user,
            format!("{} {verb} {}", who.name, tables_in_words(tables)),
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
    let (n, unit) = match secs {
        s if s > 0 && s % 3600 == 0 => (s / 3600, "hour"),
        s if s > 0 && s % 60 == 0 => (s / 60, "minute"),
        s => (s, "second"),
    };
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {unit}{s}")
}

/// Tables for the directors' log: "table 4", "2 tables (3 and 4)",
/// "3 tables (3, 4 and 7)".
pub(crate) fn tables_in_words(tables: &[TableId]) -> String {
    let numbers: Vec<String> = tables.iter().map(|t| t.0.to_string()).collect();
    match numbers.as_slice() {
        [] => "no table".into(),
        [one] => format!("table {one}"),
        [rest @ .., last] => format!("{} tables ({} and {last})", numbers.len(), rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_names_tables_in_words() {
        let t = |ns: &[u64]| ns.iter().map(|n| TableId(*n)).collect::<Vec<_>>();
        assert_eq!(tables_in_words(&t(&[4])), "table 4");
        assert_eq!(tables_in_words(&t(&[3, 4])), "2 tables (3 and 4)");
        assert_eq!(tables_in_words(&t(&[3, 4, 7])), "3 tables (3, 4 and 7)");
        assert_eq!(span(120), "2 minutes");
        assert_eq!(span(3600), "1 hour");
        assert_eq!(span(90), "90 seconds");
    }
}
