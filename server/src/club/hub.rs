//! The club hub: one task owns every club and event. Requests from
//! connections and notes from event tables arrive on its channels and are
//! handled one at a time, so an event never sees two changes at once; each
//! change is stored (one row per event, `storage/club.rs`) before anyone
//! is told. It creates a round's tables, keeps the clocks (waking when the
//! next one runs out), and tells players their tables and results.

mod clubs;
mod director;
mod hooks;
mod leave;

use super::clock::{GameClock, HEARTBEAT_MS};
use super::desk::TableLive;
use super::event::{Event, MAX_TEXT, Refusal, Round, check_settings};
use super::webhook::{self, Webhooks};
use super::{HubInbox, HubMsg};
use crate::Shared;
use crate::outbox::{Outbox, encode_msg};
use crate::quota::AddrKey;
use crate::room::actor::{CreateError, Room};
use crate::room::{RoomCmd, Who};
use crate::storage::SeatHolder;
use crate::storage::club as sql;
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::engine::{ClockTurn, Outcome};
use muster_shared::protocol::club::{
    AtZero, ClubError, ClubId, ClubReply, ClubRequest, ClubRole, EventId, EventSettings,
    GameResult, Pairing, ResultHow,
};
use muster_shared::protocol::{ServerMsg, TableId, TableOptions, UserId};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

struct Club {
    name: String,
    members: HashMap<UserId, ClubRole>,
    /// Where the club's news is POSTed (`club::webhook`).
    webhook: Option<String>,
}

struct EventEntry {
    club: ClubId,
    event: Event,
    /// The event's last write (its row's or one of its tables' rows'),
    /// so the newest wins at load (`storage/club.rs`).
    seq: u64,
    /// The side names of the next round's battle (what a bid is for; read
    /// once a round: the page asks every second).
    sides: [String; 2],
}

pub struct Hub {
    shared: Arc<Shared>,
    clubs: HashMap<ClubId, Club>,
    events: BTreeMap<EventId, EventEntry>,
    tables: HashMap<TableId, EventId>,
    /// Connections of each identity that asked the hub something: where
    /// news (your table, a result) is sent.
    online: HashMap<UserId, Vec<Outbox>>,
    /// The club webhooks' delivery queue.
    webhooks: Webhooks,
    /// `false` on a node of a fleet (see [`load`]).
    hosts_events: bool,
}

/// Read every club and event from storage and apply the downtime rule to
/// running clocks (see [`super::clock`]). Run before the tables are
/// rebuilt, so their rooms know they belong to an event.
pub async fn load(shared: &Arc<Shared>) -> Result<Hub, String> {
    let mut hub = Hub {
        shared: shared.clone(),
        clubs: HashMap::new(),
        events: BTreeMap::new(),
        tables: HashMap::new(),
        online: HashMap::new(),
        webhooks: Webhooks::start(shared.metrics.clone()),
        hosts_events: shared.config.node.is_empty(),
    };
    // The hub keeps every event in memory and runs its clocks: two nodes
    // of a fleet would both run them and overwrite each other's rows. A
    // fleet's nodes host no events (refused in words); a lone server on
    // PostgreSQL hosts them as on SQLite.
    if !hub.hosts_events {
        tracing::warn!(
            "this node is one of a fleet: club events are hosted by a server of its own, not here"
        );
        return Ok(hub);
    }
    let rows = shared
        .storage
        .club(sql::load)
        .await
        .map_err(|e| format!("cannot read the club tables: {e}"))?;
    for (id, name, webhook) in rows.clubs {
        hub.clubs.insert(
            id,
            Club {
                name,
                members: HashMap::new(),
                webhook,
            },
        );
    }
    for (club, user, role) in rows.members {
        if let Some(c) = hub.clubs.get_mut(&club) {
            c.members.insert(user, role);
        }
    }
    let now = now_ms();
    let mut resumed = Vec::new();
    for stored in rows.events {
        let (id, club) = (stored.id, stored.club);
        let mut event: Event = super::desk::decode_stored(&stored.state)
            .map_err(|e| format!("club event {} does not decode: {e}", id.0))?;
        // A table's own row, written after the event's, is its newer clock
        // and status card.
        let mut seq = stored.seq;
        for (table, table_seq, bytes) in stored.tables {
            if table_seq > stored.seq {
                let live: TableLive = codec::decode(&bytes, codec::MAX_SERVER_MSG)
                    .map_err(|e| format!("the clock of table {} does not decode: {e}", table.0))?;
                event.apply_live(table, live);
            }
            seq = seq.max(table_seq);
        }
        for (t, note) in &event.desk.tables {
            if note.paused.is_some() {
                shared.club.set_paused(*t, true);
            }
        }
        for round in &mut event.rounds {
            for g in &mut round.games {
                if let Some(t) = g.table {
                    hub.tables.insert(t, id);
                    shared.club.add_table(t);
                }
                if g.result.is_none()
                    && let Some(c) = &mut g.clock
                {
                    // No heartbeat recorded yet: charge nothing past the
                    // clock's own last turn (the rule never takes time).
                    c.resume(rows.alive_ms.unwrap_or(0), now);
                    resumed.push(id);
                }
            }
        }
        let sides = super::event::side_names(&event.settings, event.rounds.len());
        hub.events.insert(
            id,
            EventEntry {
                club,
                event,
                seq,
                sides,
            },
        );
    }
    resumed.dedup();
    for id in resumed {
        hub.save(id).await;
    }
    Ok(hub)
}

/// The hub's loop, until the server stops.
pub async fn run(mut hub: Hub, mut inbox: HubInbox) {
    let mut shutdown = hub.shared.shutdown.clone();
    let mut heartbeat = tokio::time::interval(std::time::Duration::from_millis(HEARTBEAT_MS));
    loop {
        let next = hub.next_deadline().map(|ms| {
            tokio::time::Instant::now()
                + std::time::Duration::from_millis(ms.saturating_sub(now_ms()))
        });
        tokio::select! {
            biased;
            _ = shutdown.changed() => break,
            // Before the notes: while tables play, a note waits nearly
            // always (each is stored before the next is read), and a
            // heartbeat polled after them was never recorded, so a crash
            // then charged the whole downtime (issue 21's 16-player test).
            _ = heartbeat.tick() => hub.heartbeat().await,
            Some(m) = inbox.notes.recv() => hub.handle(m).await,
            Some(m) = inbox.requests.recv() => hub.handle(m).await,
            _ = async { tokio::time::sleep_until(next.unwrap_or_else(tokio::time::Instant::now)).await },
                if next.is_some() => hub.check_clocks().await,
        }
    }
    // A clean stop is the last moment the server is known up.
    hub.heartbeat().await;
}

impl Hub {
    async fn handle(&mut self, m: HubMsg) {
        match m {
            HubMsg::Request {
                who,
                addr,
                out,
                req,
            } => self.request(who, addr, out, *req).await,
            HubMsg::Turn {
                table,
                turn,
                progress,
            } => self.turn(table, turn, progress).await,
            HubMsg::GameOver {
                table,
                outcome,
                vp_margin,
            } => self.game_over(table, outcome, vp_margin).await,
            HubMsg::NoDefault { table, seat } => self.no_default(table, seat).await,
            HubMsg::Detach { conn } => {
                for outs in self.online.values_mut() {
                    outs.retain(|o| o.id != conn);
                }
                self.online.retain(|_, v| !v.is_empty());
            }
        }
    }

    /// Record that the server is up, while any clock runs.
    async fn heartbeat(&mut self) {
        if self.next_deadline().is_none() {
            return;
        }
        let now = now_ms();
        if let Err(e) = self
            .shared
            .storage
            .club(move |tx| sql::set_alive(tx, now))
            .await
        {
            tracing::error!("cannot record the club heartbeat: {e}");
        }
    }

    fn send(out: &Outbox, reply: ClubReply) {
        let _ = out.push(encode_msg(&ServerMsg::Club(reply)));
    }

    /// Tell every connection of `user` that asked the hub anything.
    fn tell(&self, user: UserId, reply: &ClubReply) {
        if let Some(outs) = self.online.get(&user) {
            let frame = encode_msg(&ServerMsg::Club(reply.clone()));
            for o in outs {
                let _ = o.push(frame.clone());
            }
        }
    }

    /// Store the whole event (after any change but a move). Clocks of
    /// players on vacation are held first (a restarted table's clock, a
    /// director's added time: whatever started a clock).
    async fn save(&mut self, id: EventId) -> bool {
        let Some(e) = self.events.get_mut(&id) else {
            return false;
        };
        e.event.hold_vacations(now_ms());
        e.seq += 1;
        let seq = e.seq;
        let bytes = codec::encode_infallible(&e.event);
        match self
            .shared
            .storage
            .club(move |tx| sql::save_event(tx, id, seq, &bytes))
            .await
        {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(event = id.0, "cannot store the event: {e}");
                false
            }
        }
    }

    /// Store one table's clock and status card alone (after a move).
    async fn save_table(&mut self, id: EventId, table: TableId) -> bool {
        let Some(e) = self.events.get_mut(&id) else {
            return false;
        };
        let Some(live) = e.event.table_live(table) else {
            return false;
        };
        e.seq += 1;
        let seq = e.seq;
        let bytes = codec::encode_infallible(&live);
        match self
            .shared
            .storage
            .club(move |tx| sql::save_table(tx, id, table, seq, &bytes))
            .await
        {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(
                    event = id.0,
                    table = table.0,
                    "cannot store the table's clock: {e}"
                );
                false
            }
        }
    }

    async fn log(&self, id: EventId, actor: UserId, line: String) {
        if let Err(e) = self
            .shared
            .storage
            .club(move |tx| sql::log_action(tx, id, actor, &line))
            .await
        {
            tracing::error!(event = id.0, "cannot log a director's action: {e}");
        }
    }

    fn role(&self, club: ClubId, user: UserId) -> Option<ClubRole> {
        self.clubs.get(&club)?.members.get(&user).copied()
    }

    /// The event, if `user` directs it (its creator while a member of its
    /// club, or a director or the owner of its club): who left the club
    /// directs none of its events.
    fn directed(&self, id: EventId, user: UserId) -> Result<(), Refusal> {
        let e = self.events.get(&id).ok_or((
            ClubError::NoSuchEvent,
            format!("there is no event {}", id.0),
        ))?;
        let role = self.role(e.club, user);
        if (e.event.director == user && role.is_some())
            || role.is_some_and(|r| r >= ClubRole::Director)
        {
            Ok(())
        } else {
            Err((
                ClubError::NotDirector,
                "only the event's director or its club's owner may do that".into(),
            ))
        }
    }

    /// Issue 21: every battle an event's rounds play can be set up, so no
    /// round fails to start for its battle: each different config is
    /// built once, as a table's is (on the blocking pool, a few at a
    /// time), when the event is created.
    async fn check_battles(&self, settings: &EventSettings) -> Result<(), Refusal> {
        let mut configs: Vec<(usize, Vec<u8>)> = Vec::new();
        for r in 0..usize::from(settings.rounds) {
            let config = settings.round_play(r).config;
            if !configs.iter().any(|(_, c)| c == config) {
                configs.push((r, config.to_vec()));
            }
        }
        for (r, config) in configs {
            let whose = if settings.round_scenarios.is_empty() {
                "the event's battle".to_string()
            } else {
                format!("round {}'s battle", r + 1)
            };
            self.check_battle(&settings.ruleset, config, &whose).await?;
        }
        Ok(())
    }

    /// A battle (`config` of game `ruleset`) can be set up: built once as
    /// a table's would be; refused in words, naming it as `whose`.
    pub(super) async fn check_battle(
        &self,
        ruleset: &str,
        config: Vec<u8>,
        whose: &str,
    ) -> Result<(), Refusal> {
        let Some(entry) = crate::room::any_match::registry(ruleset) else {
            return Err((
                ClubError::BadRequest,
                format!("this server does not host the game of {whose}"),
            ));
        };
        let permit = self
            .shared
            .builds
            .acquire()
            .await
            .map_err(|_| (ClubError::Internal, "the server is stopping".to_string()))?;
        let built = tokio::task::spawn_blocking(move || {
            (entry.create)(&config, muster_shared::MatchId::random())
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .await;
        drop(permit);
        match built {
            Ok(Ok(())) => Ok(()),
            Ok(Err(why)) => Err((
                ClubError::BadRequest,
                format!("{whose} cannot be set up: {why}"),
            )),
            Err(_) => Err((
                ClubError::Internal,
                format!("the server could not set up {whose}"),
            )),
        }
    }

    fn event(&self, id: EventId) -> Result<&Event, Refusal> {
        self.events.get(&id).map(|e| &e.event).ok_or((
            ClubError::NoSuchEvent,
            format!("there is no event {}", id.0),
        ))
    }

    async fn request(&mut self, who: Who, _addr: AddrKey, out: Outbox, req: ClubRequest) {
        let outs = self.online.entry(who.user).or_default();
        if !outs.iter().any(|o| o.id == out.id) {
            outs.push(out.clone());
        }
        match self.answer(&who, req).await {
            Ok(Some(reply)) => Self::send(&out, reply),
            Ok(None) => {}
            Err((error, message)) => Self::send(&out, ClubReply::Refused { error, message }),
        }
    }

    async fn answer(&mut self, who: &Who, req: ClubRequest) -> Result<Option<ClubReply>, Refusal> {
        let storage_failed = |e| {
            tracing::error!("club storage: {e}");
            (
                ClubError::Internal,
                "the server could not store that".to_string(),
            )
        };
        if !self.hosts_events {
            return Err((
                ClubError::BadRequest,
                "this server is one of several sharing a database, and they host no club events; \
                 a club's events are hosted by a server of its own"
                    .into(),
            ));
        }
        match req {
            ClubRequest::ClaimAccount { .. } | ClubRequest::SignIn { .. } => Err((
                ClubError::BadRequest,
                "accounts are handled by the connection".into(),
            )),
            ClubRequest::CreateClub { name } => {
                let name = crate::identity::checked_name(&name)
                    .map_err(|w| (ClubError::BadRequest, format!("a club's name: {w}")))?;
                let user = who.user;
                let is_account = self
                    .shared
                    .storage
                    .club(move |tx| sql::is_account(tx, user))
                    .await
                    .map_err(storage_failed)?;
                if !is_account {
                    return Err((
                        ClubError::NotSignedIn,
                        "claim your name as an account before creating a club".into(),
                    ));
                }
                let n = name.clone();
                let club = self
                    .shared
                    .storage
                    .club(move |tx| sql::create_club(tx, &n, user))
                    .await
                    .map_err(storage_failed)?;
                self.clubs.insert(
                    club,
                    Club {
                        name: name.clone(),
                        members: HashMap::from([(user, ClubRole::Owner)]),
                        webhook: None,
                    },
                );
                Ok(Some(ClubReply::ClubCreated { club, name }))
            }
            ClubRequest::JoinClub { club } => {
                if !self.clubs.contains_key(&club) {
                    return Err((
                        ClubError::NoSuchClub,
                        format!("there is no club {}", club.0),
                    ));
                }
                if let Some(role) = self.role(club, who.user) {
                    return Ok(Some(ClubReply::Member {
                        club,
                        user: who.user,
                        role,
                    }));
                }
                let user = who.user;
                self.shared
                    .storage
                    .club(move |tx| sql::set_member(tx, club, user, ClubRole::Member))
                    .await
                    .map_err(storage_failed)?;
                if let Some(c) = self.clubs.get_mut(&club) {
                    c.members.insert(user, ClubRole::Member);
                }
                Ok(Some(ClubReply::Member {
                    club,
                    user,
                    role: ClubRole::Member,
                }))
            }
            ClubRequest::SetRole { club, user, role } => {
                if !self.clubs.contains_key(&club) {
                    return Err((
                        ClubError::NoSuchClub,
                        format!("there is no club {}", club.0),
                    ));
                }
                if self.role(club, who.user) != Some(ClubRole::Owner) {
                    return Err((
                        ClubError::NotDirector,
                        "only the club's owner gives roles".into(),
                    ));
                }
                if user == who.user || role == ClubRole::Owner {
                    return Err((
                        ClubError::BadRequest,
                        "a club has one owner; the owner's role does not change".into(),
                    ));
                }
                self.shared
                    .storage
                    .club(move |tx| sql::set_member(tx, club, user, role))
                    .await
                    .map_err(storage_failed)?;
                if let Some(c) = self.clubs.get_mut(&club) {
                    c.members.insert(user, role);
                }
                Ok(Some(ClubReply::Member { club, user, role }))
            }
            ClubRequest::LeaveClub { club, new_owner } => {
                self.leave_club(who, club, new_owner).await.map(Some)
            }
            ClubRequest::CreateEvent { club, settings } => {
                if !self.clubs.contains_key(&club) {
                    return Err((
                        ClubError::NoSuchClub,
                        format!("there is no club {}", club.0),
                    ));
                }
                if self
                    .role(club, who.user)
                    .is_none_or(|r| r < ClubRole::Director)
                {
                    return Err((
                        ClubError::NotDirector,
                        "only a director or the owner of the club creates events".into(),
                    ));
                }
                check_settings(&settings)?;
                self.check_battles(&settings).await?;
                let invite = settings.invite_only.then(random_code);
                let sides = super::event::side_names(&settings, 0);
                let event = Event::new(who.user, settings, invite.clone());
                let bytes = codec::encode_infallible(&event);
                let id = self
                    .shared
                    .storage
                    .club(move |tx| sql::create_event(tx, club, &bytes))
                    .await
                    .map_err(storage_failed)?;
                self.events.insert(
                    id,
                    EventEntry {
                        club,
                        event,
                        seq: 0,
                        sides,
                    },
                );
                self.log(id, who.user, format!("{} created the event", who.name))
                    .await;
                Ok(Some(ClubReply::EventCreated { event: id, invite }))
            }
            ClubRequest::Register { event, invite } => {
                let e = self.events.get_mut(&event).ok_or((
                    ClubError::NoSuchEvent,
                    format!("there is no event {}", event.0),
                ))?;
                e.event.register(who.user, &who.name, invite.as_deref())?;
                self.save(event).await;
                Ok(Some(ClubReply::Registered { event }))
            }
            ClubRequest::CheckIn { event } => {
                let e = self.events.get_mut(&event).ok_or((
                    ClubError::NoSuchEvent,
                    format!("there is no event {}", event.0),
                ))?;
                e.event.check_in(who.user)?;
                self.save(event).await;
                Ok(Some(ClubReply::CheckedIn { event }))
            }
            ClubRequest::StartRound { event } => {
                self.directed(event, who.user)?;
                self.start_round(event, who).await.map(Some)
            }
            ClubRequest::Resign { event } => {
                let e = self.event(event)?;
                let (r, g) = e.current_game_of(who.user).ok_or((
                    ClubError::NoSuchGame,
                    "you have no game in play in this event".into(),
                ))?;
                let seat = u8::from(e.rounds[r].games[g].seats[1] == Some(who.user));
                let result = e.loss_for(seat, ResultHow::Resigned { seat: SeatId(seat) });
                self.set_result(event, r, g, result, format!("{} resigned", who.name))
                    .await;
                Ok(None)
            }
            ClubRequest::Adjudicate {
                event,
                table,
                points,
                vp_margin,
                reason,
            } => {
                self.directed(event, who.user)?;
                let reason = reason.trim().to_string();
                if reason.is_empty()
                    || reason.len() > MAX_TEXT
                    || reason.chars().any(char::is_control)
                {
                    return Err((
                        ClubError::BadRequest,
                        format!(
                            "an adjudication needs its reason, 1 to {MAX_TEXT} printable bytes"
                        ),
                    ));
                }
                let e = self.event(event)?;
                let (r, g) = e.game_of_table(table).ok_or((
                    ClubError::NoSuchGame,
                    format!("table {} is not a game of this event", table.0),
                ))?;
                let result = GameResult {
                    points,
                    vp_margin,
                    how: ResultHow::Adjudicated {
                        reason: reason.clone(),
                    },
                };
                e.check_result(&result)?;
                self.log(
                    event,
                    who.user,
                    format!(
                        "{} adjudicated table {}: {}–{}, victory-point margin {vp_margin}: {reason}",
                        who.name, table.0, points[0], points[1]
                    ),
                )
                .await;
                self.set_result(
                    event,
                    r,
                    g,
                    result,
                    format!("adjudicated by {}: {reason}", who.name),
                )
                .await;
                Ok(None)
            }
            ClubRequest::Round { event, round } => {
                let e = self.event(event)?;
                let r = usize::from(round)
                    .checked_sub(1)
                    .filter(|r| *r < e.rounds.len())
                    .ok_or((
                        ClubError::WrongTime,
                        format!("round {round} has not been paired"),
                    ))?;
                Ok(Some(ClubReply::Round {
                    event,
                    round,
                    pairings: pairings(e, r),
                }))
            }
            ClubRequest::Standings { event } => Ok(Some(ClubReply::Standings {
                event,
                rows: self.event(event)?.standings(),
            })),
            ClubRequest::ExportCsv { event } => Ok(Some(ClubReply::Csv {
                event,
                text: super::standings::csv(&self.event(event)?.standings()),
            })),
            req @ (ClubRequest::PauseTable { .. }
            | ClubRequest::PauseRound { .. }
            | ClubRequest::AddTime { .. }
            | ClubRequest::Replace { .. }
            | ClubRequest::PairRound { .. }
            | ClubRequest::RePair { .. }
            | ClubRequest::Watch { .. }
            | ClubRequest::YourGames
            | ClubRequest::SetRoundBattle { .. }
            | ClubRequest::Events) => self.desk(who, req).await,
            ClubRequest::Clubs => self.clubs_listed(who).await.map(Some),
            ClubRequest::SetWebhook { club, url } => {
                if !self.clubs.contains_key(&club) {
                    return Err((
                        ClubError::NoSuchClub,
                        format!("there is no club {}", club.0),
                    ));
                }
                if self
                    .role(club, who.user)
                    .is_none_or(|r| r < ClubRole::Director)
                {
                    return Err((
                        ClubError::NotDirector,
                        "only the club's owner or a director sets its webhook".into(),
                    ));
                }
                let url = url
                    .map(|u| webhook::check_url(&u))
                    .transpose()
                    .map_err(|w| (ClubError::BadRequest, w))?;
                let stored = url.clone();
                self.shared
                    .storage
                    .club(move |tx| sql::set_webhook(tx, club, stored.as_deref()))
                    .await
                    .map_err(storage_failed)?;
                if let Some(c) = self.clubs.get_mut(&club) {
                    c.webhook = url.clone();
                }
                Ok(Some(ClubReply::Webhook { club, url }))
            }
            ClubRequest::SetVacationDays { event, days } => {
                self.directed(event, who.user)?;
                if let Some(e) = self.events.get_mut(&event) {
                    e.event.set_vacation_days(days)?;
                }
                self.save(event).await;
                let words = format!(
                    "each player of the event has {days} vacation day{}",
                    if days == 1 { "" } else { "s" }
                );
                self.log(event, who.user, format!("{} set: {words}", who.name))
                    .await;
                Ok(Some(ClubReply::Notice { event, words }))
            }
            ClubRequest::TakeVacation { event, days } => {
                let now = now_ms();
                let e = self.events.get_mut(&event).ok_or((
                    ClubError::NoSuchEvent,
                    format!("there is no event {}", event.0),
                ))?;
                if days > 0 {
                    e.event.take_vacation(who.user, days, now)?;
                    self.save(event).await;
                } else if !e.event.entrants.iter().any(|x| x.user == who.user) {
                    return Err((
                        ClubError::NotRegistered,
                        "only a player of the event takes vacation days in it".into(),
                    ));
                }
                let e = self.event(event)?;
                Ok(Some(ClubReply::Vacation {
                    event,
                    days_left: e.vacation_left(who.user),
                    until: e.away_until(who.user, now).map(|ms| ms / 1000),
                }))
            }
            ClubRequest::Bid { event, seat, vp } => {
                let e = self.events.get_mut(&event).ok_or((
                    ClubError::NoSuchEvent,
                    format!("there is no event {}", event.0),
                ))?;
                e.event.place_bid(who.user, seat, vp)?;
                let side = e.sides[usize::from(seat.0.min(1))].clone();
                self.save(event).await;
                Ok(Some(ClubReply::Notice {
                    event,
                    words: format!(
                        "your bid of {vp} victory points for {side} counts when the next round \
                         starts"
                    ),
                }))
            }
            ClubRequest::DirectorLog { event } => {
                self.directed(event, who.user)?;
                let lines = self
                    .shared
                    .storage
                    .club(move |tx| sql::read_log(tx, event))
                    .await
                    .map_err(storage_failed)?;
                Ok(Some(ClubReply::DirectorLog { event, lines }))
            }
        }
    }

    /// Pair the next round, create every table with its seats bound, store
    /// the round, tell each player where to sit.
    async fn start_round(&mut self, id: EventId, who: &Who) -> Result<ClubReply, Refusal> {
        let entry = self.events.get_mut(&id).ok_or((
            ClubError::NoSuchEvent,
            format!("there is no event {}", id.0),
        ))?;
        let mut trial = entry.event.clone();
        let fresh = trial.pair_next()?;
        // Pairings proposed (and perhaps re-paired by hand) win.
        let mut games = trial.take_proposal(fresh)?;
        let paid = trial.seat_by_bids(&mut games, trial.rounds.len());
        let settings = trial.settings.clone();
        // Every table of the round plays the round's battle.
        let play = settings.round_play(trial.rounds.len());
        let options = TableOptions {
            ruleset: settings.ruleset.clone(),
            scenario: play.scenario.to_string(),
            config: play.config.to_vec(),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
            // Issue 18: at an event a take-back needs the opponent's agreement.
            take_back_needs_agreement: true,
        };
        // Every table at once: their builds share the blocking pool
        // (`table_builds` at a time) and their commits share groups, so a
        // round of many tables costs about one table's wait per build slot.
        let director = trial.director;
        let jobs = games.iter().enumerate().filter_map(|(i, g)| {
            let [Some(a), Some(b)] = g.seats else {
                return None;
            };
            let seats = vec![
                SeatHolder {
                    user: a,
                    name: trial.name_of(a),
                },
                SeatHolder {
                    user: b,
                    name: trial.name_of(b),
                },
            ];
            let (shared, options) = (self.shared.clone(), options.clone());
            Some(async move {
                (
                    i,
                    Room::create_seated(&shared, options, director, seats).await,
                )
            })
        });
        let mut made = Vec::new();
        let mut failed = None;
        for (i, created) in futures_util::future::join_all(jobs).await {
            match created {
                Ok(table) => {
                    made.push(table);
                    games[i].table = Some(table);
                    games[i].clock = settings.time.as_ref().map(GameClock::new);
                }
                Err(CreateError(_, why)) => failed = Some(why),
            }
        }
        if let Some(why) = failed {
            for t in made {
                self.end_table(t, "the round could not start".into());
            }
            return Err((
                ClubError::Internal,
                format!("the round's tables could not be made: {why}"),
            ));
        }
        for t in &made {
            self.tables.insert(*t, id);
            self.shared.club.add_table(*t);
        }
        for (g, bid) in games.iter().zip(paid) {
            if let (Some(t), Some(bid)) = (g.table, bid) {
                trial.extras.paid.insert(t, bid);
            }
        }
        trial.rounds.push(Round { games });
        let round = trial.rounds.len();
        let battle = options.scenario.clone();
        if let Some(entry) = self.events.get_mut(&id) {
            // Bids from now on are for the next round's battle's sides.
            entry.sides = super::event::side_names(&trial.settings, round);
            entry.event = trial;
        }
        self.save(id).await;
        self.log(
            id,
            who.user,
            format!(
                "{} started round {round} ({} table{} of {battle})",
                who.name,
                made.len(),
                if made.len() == 1 { "" } else { "s" }
            ),
        )
        .await;
        let Some(entry) = self.events.get(&id) else {
            return Err((ClubError::Internal, "the event vanished".into()));
        };
        let e = &entry.event;
        let r8 = u8::try_from(round).unwrap_or(u8::MAX);
        for g in &e.rounds[round - 1].games {
            match (g.seats, g.table) {
                ([Some(a), Some(b)], Some(table)) => {
                    for (seat, me, other) in [(0u8, a, b), (1, b, a)] {
                        self.tell(
                            me,
                            &ClubReply::YourTable {
                                event: id,
                                round: r8,
                                table,
                                seat: SeatId(seat),
                                opponent: e.name_of(other),
                            },
                        );
                    }
                }
                ([Some(a), None], _) => self.tell(
                    a,
                    &ClubReply::Bye {
                        event: id,
                        round: r8,
                    },
                ),
                _ => {}
            }
        }
        self.hook_round_started(id, round - 1);
        let e = self.event(id)?;
        Ok(ClubReply::Round {
            event: id,
            round: r8,
            pairings: pairings(e, round - 1),
        })
    }

    fn end_table(&self, table: TableId, words: String) {
        if let Some(room) = self.shared.lobby.room(table) {
            let tx = room.tx.clone();
            tokio::spawn(async move {
                let _ = tx.send(RoomCmd::EventOver { words }).await;
            });
        }
    }

    /// Record a game's result, stop its clock, end its table, tell both
    /// players and the director.
    async fn set_result(
        &mut self,
        id: EventId,
        r: usize,
        g: usize,
        result: GameResult,
        words: String,
    ) {
        let Some(entry) = self.events.get_mut(&id) else {
            return;
        };
        let Some(game) = entry
            .event
            .rounds
            .get_mut(r)
            .and_then(|x| x.games.get_mut(g))
        else {
            return;
        };
        let now = now_ms();
        if let Some(c) = &mut game.clock {
            c.charge(now);
            c.running = None;
        }
        let (table, seats) = (game.table, game.seats);
        let result = entry.event.with_bid(table, result);
        entry.event.rounds[r].games[g].result = Some(result.clone());
        let director = entry.event.director;
        if !self.save(id).await {
            return;
        }
        self.hook_game_over(id, r, g);
        if let Some(t) = table {
            self.end_table(t, words);
            let reply = ClubReply::Result {
                event: id,
                round: u8::try_from(r + 1).unwrap_or(u8::MAX),
                table: t,
                result,
            };
            for u in seats.into_iter().flatten().chain([director]) {
                self.tell(u, &reply);
            }
        }
    }

    async fn turn(&mut self, table: TableId, turn: Option<ClockTurn>, progress: Option<String>) {
        let Some(&id) = self.tables.get(&table) else {
            return;
        };
        let Some(entry) = self.events.get_mut(&id) else {
            return;
        };
        let Some((r, g)) = entry.event.game_of_table(table) else {
            return;
        };
        let before = entry
            .event
            .desk
            .tables
            .get(&table)
            .and_then(|n| n.awaiting)
            .map(|(s, _)| s);
        // The status card's news; a stopped table's clock stays stopped
        // (the side awaited is kept for its restart).
        let now = now_ms();
        if entry.event.note_turn(table, turn, progress, now) {
            return;
        }
        let Some(tc) = entry.event.settings.time.clone() else {
            return;
        };
        let current = r + 1 == entry.event.rounds.len();
        let game = &mut entry.event.rounds[r].games[g];
        if game.result.is_some() {
            return;
        }
        let Some(clock) = &mut game.clock else { return };
        clock.turn(&tc, turn, now);
        let defaults_now = tc.at_zero == AtZero::EngineDefaults
            && turn.is_some_and(|t| clock.is_flagged(t.seat.0));
        if current {
            entry.event.hold_vacation_at(g, now);
        }
        // Issue 21: a move writes this table's row only, not the event.
        self.save_table(id, table).await;
        // Slow play: news when the move passes to a player.
        if tc.per_decision_secs > 0
            && let Some(t) = turn
            && before != Some(t.seat.0.min(1))
        {
            self.hook_your_move(id, r, g, t.seat.0.min(1));
        }
        if defaults_now
            && let Some(t) = turn
            && let Some(room) = self.shared.lobby.room(table)
        {
            let _ = room.tx.try_send(RoomCmd::TimeOut { seat: t.seat });
        }
    }

    async fn game_over(&mut self, table: TableId, outcome: Outcome, vp_margin: Option<i32>) {
        let Some(&id) = self.tables.get(&table) else {
            return;
        };
        let Some(entry) = self.events.get(&id) else {
            return;
        };
        let Some((r, g)) = entry.event.game_of_table(table) else {
            return;
        };
        if entry.event.rounds[r].games[g].result.is_some() {
            return;
        }
        let result = entry.event.engine_result(r, &outcome, vp_margin);
        self.set_result(id, r, g, result, outcome.summary).await;
    }

    /// Issue 21: a seat out of time plays on with the engine's defaults
    /// (`AtZero::EngineDefaults`), but now owes a decision the engine has
    /// no default for (its own phase). Waiting would stall the table for
    /// good, so the clock's other rule applies: a loss on time, said so in
    /// the words the table ends with.
    async fn no_default(&mut self, table: TableId, seat: SeatId) {
        let Some(&id) = self.tables.get(&table) else {
            return;
        };
        let Some(entry) = self.events.get(&id) else {
            return;
        };
        let Some((r, g)) = entry.event.game_of_table(table) else {
            return;
        };
        let game = &entry.event.rounds[r].games[g];
        let flagged = game.clock.as_ref().is_some_and(|c| c.is_flagged(seat.0));
        if game.result.is_some() || !flagged {
            return;
        }
        let result = entry.event.loss_for(seat.0, ResultHow::Clock { seat });
        let who = game.seats[usize::from(seat.0.min(1))]
            .map_or_else(|| "the side".to_string(), |u| entry.event.name_of(u));
        let words = format!(
            "{who}'s clock reached zero and the game has no default answer for what {who} must \
             decide now: a loss on time"
        );
        self.set_result(id, r, g, result, words).await;
    }

    /// When the next running clock runs out (Unix ms).
    fn next_deadline(&self) -> Option<u64> {
        self.events
            .values()
            .filter_map(|e| Some((e.event.settings.time.as_ref()?, e.event.rounds.last()?)))
            .flat_map(|(tc, round)| {
                round
                    .games
                    .iter()
                    .filter(|g| g.result.is_none())
                    .filter_map(move |g| g.clock.as_ref()?.deadline_ms(tc))
            })
            .min()
    }

    /// Flag every clock that has run out; a loss or defaults as the event says.
    async fn check_clocks(&mut self) {
        let now = now_ms();
        let mut flagged = Vec::new();
        for (id, e) in &mut self.events {
            let Some(tc) = e.event.settings.time.clone() else {
                continue;
            };
            let r = e.event.rounds.len().saturating_sub(1);
            let Some(round) = e.event.rounds.last_mut() else {
                continue;
            };
            for (g, game) in round.games.iter_mut().enumerate() {
                if game.result.is_some() {
                    continue;
                }
                if let Some(c) = &mut game.clock
                    && let Some(seat) = c.check(&tc, now)
                {
                    flagged.push((*id, r, g, seat, tc.at_zero, game.table));
                }
            }
        }
        for (id, r, g, seat, at_zero, table) in flagged {
            match at_zero {
                AtZero::Loss => {
                    let Some(e) = self.events.get(&id) else {
                        continue;
                    };
                    let result = e
                        .event
                        .loss_for(seat, ResultHow::Clock { seat: SeatId(seat) });
                    self.set_result(
                        id,
                        r,
                        g,
                        result,
                        format!("seat {}'s clock reached zero", seat + 1),
                    )
                    .await;
                }
                AtZero::EngineDefaults => {
                    self.save(id).await;
                    if let Some(room) = table.and_then(|t| self.shared.lobby.room(t)) {
                        let _ = room.tx.try_send(RoomCmd::TimeOut { seat: SeatId(seat) });
                    }
                }
            }
        }
    }
}

/// A round as players see it.
fn pairings(e: &Event, r: usize) -> Vec<Pairing> {
    let now = now_ms();
    e.rounds[r]
        .games
        .iter()
        .map(|g| Pairing {
            table: g.table,
            players: g.seats.map(|s| s.map(|u| (u, e.name_of(u)))),
            result: g.result.clone(),
            clock_ms: g.clock.as_ref().map(|c| c.shown(now)),
        })
        .collect()
}

fn random_code() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).expect("the OS random generator is available");
    hex::encode(b)
}
