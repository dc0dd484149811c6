//! [`Session`]: one table as the UI sees it. It owns the [`TableLink`] and a
//! [`Follower`] per viewer the link serves, folds whatever the link delivers
//! into them, and keeps what the panels list: the log and every roll with
//! its verification. Panels read from here and submit through here; none of
//! them touches the link or a follower's internals.

use super::link::{LinkEvent, TableLink};
use super::narrate::Narrate;
pub use super::narrate::describe_position;
use super::replay::History;
use crate::follow::{FollowError, Follower};
use muster_shared::engine::ActionContext;
use muster_shared::protocol::{ChatChannel, DeltaBody, UserId};
use muster_shared::sandbox::Sandbox;
use muster_shared::{SeatId, Viewer};
use std::collections::BTreeMap;

/// Most log lines kept per viewer; older ones scroll away.
const MAX_LOG: usize = 2000;

/// How a log line is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Event,
    Roll,
    /// The rules refused something you asked for.
    Refused,
    /// Something went wrong with the table or the link.
    Problem,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The table's sequence number, when the line is about a log entry.
    pub seq: Option<u64>,
    pub kind: LineKind,
    pub text: String,
}

/// One roll as this viewer received and checked it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollRecord {
    pub seq: u64,
    pub roll_index: u64,
    pub seat: SeatId,
    pub sides: u16,
    pub dice: Vec<u16>,
    pub note: String,
    /// `Ok` when the follower re-derived the dice from the revealed chain
    /// links and every check passed; otherwise every reason it failed.
    pub verdict: Result<(), Vec<String>>,
}

/// Everything kept for one viewer.
pub struct ViewerBook<R: Narrate> {
    pub viewer: Viewer,
    pub follower: Follower<R>,
    /// What the narration remembers between deltas (the sandbox: piece
    /// labels, so a line about a piece that just left can still name it).
    memo: R::Memo,
    pub log: Vec<LogLine>,
    pub rolls: Vec<RollRecord>,
    /// The snapshots and deltas received, for the replay scrubber.
    pub history: History,
}

/// One table in the UI, for any ruleset the client can narrate
/// ([`Narrate`]); `Session` alone is the sandbox's.
pub struct Session<R: Narrate = Sandbox> {
    link: Box<dyn TableLink<R>>,
    books: Vec<ViewerBook<R>>,
    /// Whose eyes the UI shows the table through; for a seat, also who acts.
    active: Viewer,
    seat_names: Vec<String>,
    /// Each seat's side ("Union"), as the engine's words name it: the
    /// seat names as the session was made, before any player was known.
    seat_sides: Vec<String>,
    /// Submitted actions awaiting an answer: reference → (viewer, what).
    in_flight: BTreeMap<u32, (Viewer, String)>,
    /// Lines that belong to no viewer yet (e.g. a problem before any snapshot).
    orphan_log: Vec<LogLine>,
    /// The last refusal, shown in the status bar until the next action.
    pub last_refusal: Option<String>,
    /// Chat received, oldest first (the most recent [`MAX_CHAT`]).
    pub chat: Vec<ChatLine>,
    /// Issue 18: another player's open take-back request, to agree to or refuse.
    pub take_back_asked: Option<TakeBackAsk>,
    /// Issue 18: this client's own take-back request is waiting on the others.
    pub take_back_waiting: bool,
    /// Issue 18: the server's decision clock: the seat it runs for and
    /// when the server applies the default. Never set at a hot-seat table.
    pub clock: Option<(SeatId, std::time::Instant)>,
}

/// Another player asks to take back their last action (issue 18).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBackAsk {
    pub seat: SeatId,
    pub name: String,
    pub undone: u64,
}

/// Most chat lines kept.
const MAX_CHAT: usize = 500;

/// One chat message as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    pub channel: ChatChannel,
    pub from: String,
    pub text: String,
    /// The speaker's identity.
    pub user: UserId,
}

impl<R: Narrate> Session<R> {
    pub fn new(link: Box<dyn TableLink<R>>, seat_names: Vec<String>) -> Self {
        let active = link
            .seats()
            .first()
            .map_or(Viewer::Spectator, |s| Viewer::Seat(*s));
        let mut s = Session {
            link,
            books: Vec::new(),
            active,
            seat_sides: seat_names.clone(),
            seat_names,
            in_flight: BTreeMap::new(),
            orphan_log: Vec::new(),
            last_refusal: None,
            chat: Vec::new(),
            take_back_asked: None,
            take_back_waiting: false,
            clock: None,
        };
        s.pump();
        s
    }

    /// Fold in everything the link has delivered. Returns whether anything
    /// arrived (so the UI knows to repaint).
    pub fn pump(&mut self) -> bool {
        let events = self.link.poll();
        let any = !events.is_empty();
        for event in events {
            self.receive(event);
        }
        any
    }

    fn receive(&mut self, event: LinkEvent) {
        match event {
            LinkEvent::Snapshot { viewer, .. } | LinkEvent::Delta { viewer, .. }
                if !self.link.viewers().contains(&viewer) =>
            {
                // Only ever show what this client is entitled to see.
                self.problem("the table sent data meant for another viewer; ignored".to_string());
            }
            LinkEvent::Snapshot { viewer, snapshot } => {
                match Follower::<R>::from_snapshot(&snapshot) {
                    Ok(follower) => {
                        let memo = follower.ruleset().memo(follower.state());
                        let mut book = ViewerBook {
                            viewer,
                            follower,
                            memo,
                            log: Vec::new(),
                            rolls: Vec::new(),
                            history: History::default(),
                        };
                        // A resync keeps the history already shown.
                        if let Some(i) = self.books.iter().position(|b| b.viewer == viewer) {
                            let old = self.books.swap_remove(i);
                            book.log = old.log;
                            book.rolls = old.rolls;
                            book.history = old.history;
                        }
                        book.history.start(snapshot.clone());
                        book.log.extend(self.orphan_log.iter().cloned());
                        push_line(
                            &mut book.log,
                            Some(snapshot.seq),
                            LineKind::Event,
                            joined_words(snapshot.seq),
                        );
                        self.books.push(book);
                    }
                    Err(e) => self.problem(format!("cannot follow the table: {e}")),
                }
            }
            LinkEvent::Delta { viewer, seq, body } => self.delta(viewer, seq, &body),
            LinkEvent::Accepted { client_ref, .. } => {
                self.in_flight.remove(&client_ref);
            }
            LinkEvent::Rejected { client_ref, error } => {
                let (viewer, what) = self
                    .in_flight
                    .remove(&client_ref)
                    .unwrap_or((self.active, "action".into()));
                let text = self.players_named(&format!("refused: {what}: {error}"));
                self.last_refusal = Some(text.clone());
                if let Some(b) = self.book_mut(viewer) {
                    push_line(&mut b.log, None, LineKind::Refused, text);
                }
            }
            LinkEvent::Error(text) => self.problem(text),
            LinkEvent::Chat {
                channel,
                from,
                text,
                user,
            } => {
                self.chat.push(ChatLine {
                    channel,
                    from,
                    text,
                    user,
                });
                if self.chat.len() > MAX_CHAT {
                    self.chat.remove(0);
                }
            }
            LinkEvent::Clock { seat, secs_left } => {
                self.clock = seat.zip(secs_left).map(|(s, secs)| {
                    (
                        s,
                        std::time::Instant::now() + std::time::Duration::from_secs(u64::from(secs)),
                    )
                });
            }
            LinkEvent::TakeBackAsked { seat, name, undone } => {
                if self.link.seats().contains(&seat) {
                    // Our own request, echoed: wait for the answer.
                    self.take_back_waiting = true;
                } else {
                    self.take_back_asked = Some(TakeBackAsk { seat, name, undone });
                }
            }
            LinkEvent::TakeBackEnded { refusal } => {
                let mine = self.take_back_waiting || self.take_back_asked.is_none();
                self.take_back_waiting = false;
                self.take_back_asked = None;
                if let (Some(why), true) = (refusal, mine) {
                    self.last_refusal = Some(format!("take-back refused: {why}"));
                }
            }
        }
    }

    /// Issue 18: whether the acting seat may take back its last action now
    /// (as far as its copy tells; the server has the last word).
    pub fn can_take_back(&self) -> bool {
        !self.take_back_waiting
            && self.take_back_asked.is_none()
            && self.acting_seat().is_some_and(|s| {
                self.book()
                    .is_some_and(|b| b.follower.take_back_target(s).is_some())
            })
    }

    /// Issue 18: ask to take back the acting seat's last action.
    pub fn take_back(&mut self) {
        let Some(seat) = self.acting_seat() else {
            return;
        };
        self.last_refusal = None;
        match self.link.take_back(seat) {
            Ok(()) => {
                if !self.is_hot_seat() {
                    self.take_back_waiting = true;
                }
            }
            Err(e) => self.last_refusal = Some(format!("take-back: {e}")),
        }
        self.pump();
    }

    /// Issue 18: agree to (or refuse) the other player's take-back.
    pub fn answer_take_back(&mut self, agree: bool) {
        if self.take_back_asked.take().is_none() {
            return;
        }
        if let Err(e) = self.link.answer_take_back(agree) {
            self.last_refusal = Some(format!("take-back: {e}"));
        }
        self.pump();
    }

    fn delta(&mut self, viewer: Viewer, seq: u64, body: &DeltaBody) {
        let names = self.seat_names.clone();
        let Some(book) = self.book_mut(viewer) else {
            // A delta before its snapshot: ask for the snapshot.
            self.link.resync(viewer);
            return;
        };
        let bad_before = book.follower.bad_rolls().len();
        let result = book.follower.apply(seq, body);
        match result {
            Ok(events) => {
                book.history.push(seq, body);
                let seat = match body {
                    DeltaBody::Action { seat, .. } | DeltaBody::Lean { seat, .. } => Some(*seat),
                    DeltaBody::TakeBack { seat, .. } => Some(*seat),
                    DeltaBody::Anchor { .. } | DeltaBody::Reanchor { .. } => None,
                };
                if let DeltaBody::TakeBack { seat, .. } = body {
                    push_line(
                        &mut book.log,
                        Some(seq),
                        LineKind::Event,
                        format!("{} took back their last move", seat_name(&names, *seat)),
                    );
                }
                // A compact roll's number; it is checked once its links are
                // shown, and a failure then is logged like any other.
                let lean_roll = book.follower.rolls();
                let new_bad: Vec<String> = book.follower.bad_rolls()[bad_before..]
                    .iter()
                    .map(|b| b.failure.to_string())
                    .collect();
                if let DeltaBody::Anchor { party, .. } | DeltaBody::Reanchor { party, .. } = body {
                    push_line(
                        &mut book.log,
                        Some(seq),
                        LineKind::Event,
                        format!("{} published a new dice chain", party_name(&names, *party)),
                    );
                }
                if !new_bad.is_empty() {
                    push_line(
                        &mut book.log,
                        Some(seq),
                        LineKind::Problem,
                        format!("DICE CHECK FAILED: {}", new_bad.join("; ")),
                    );
                }
                let who = seat.map_or_else(|| "table".to_string(), |s| seat_name(&names, s));
                let texts = book
                    .follower
                    .ruleset()
                    .describe_events(&events, &who, &book.memo, &names);
                for (e, text) in events.iter().zip(texts) {
                    let rules = book.follower.ruleset();
                    let rolled = rules.rolled(e);
                    let kind = if rolled.is_some() {
                        LineKind::Roll
                    } else {
                        LineKind::Event
                    };
                    if let Some(text) = text {
                        push_line(&mut book.log, Some(seq), kind, text);
                    }
                    if let (Some(r), DeltaBody::Lean { roll, .. }) = (&rolled, body) {
                        book.rolls.push(RollRecord {
                            seq,
                            roll_index: lean_roll,
                            seat: seat.unwrap_or(r.seat),
                            sides: r.sides,
                            dice: r.dice.clone(),
                            note: r.note.clone(),
                            verdict: match (roll, new_bad.is_empty()) {
                                (Some(_), true) => Ok(()),
                                (None, _) => Err(vec!["the delta carries no roll proof".into()]),
                                (Some(_), false) => Err(new_bad.clone()),
                            },
                        });
                    }
                    if let (Some(r), DeltaBody::Action { roll, .. }) = (rolled, body) {
                        book.rolls.push(RollRecord {
                            seq,
                            roll_index: roll.as_ref().map_or(0, |p| p.roll_index),
                            seat: seat.unwrap_or(r.seat),
                            sides: r.sides,
                            dice: r.dice.clone(),
                            note: r.note.clone(),
                            verdict: match (roll, new_bad.is_empty()) {
                                (Some(_), true) => Ok(()),
                                (None, _) => Err(vec!["the delta carries no roll proof".into()]),
                                (Some(_), false) => Err(new_bad.clone()),
                            },
                        });
                    }
                }
                // A ruleset whose rolls are not events of their own (GBACW:
                // the dice are inside a fire or morale result) still gets
                // one record per proof, so every roll has its verdict.
                if let DeltaBody::Action {
                    seat,
                    roll: Some(proof),
                    ..
                } = body
                    && !book.rolls.iter().any(|r| r.seq == seq)
                {
                    let note = book
                        .log
                        .iter()
                        .rev()
                        .take_while(|l| l.seq == Some(seq))
                        .last()
                        .map(|l| l.text.clone())
                        .unwrap_or_default();
                    book.rolls.push(RollRecord {
                        seq,
                        roll_index: proof.roll_index,
                        seat: *seat,
                        sides: proof.dice.first().map_or(0, |d| d.sides),
                        dice: proof.dice.iter().map(|d| d.value).collect(),
                        note,
                        verdict: if new_bad.is_empty() {
                            Ok(())
                        } else {
                            Err(new_bad.clone())
                        },
                    });
                }
                book.memo = book.follower.ruleset().memo(book.follower.state());
            }
            Err(FollowError::Gap { .. }) => self.link.resync(viewer),
            Err(e) => {
                // A delta we cannot fold leaves the copy unreliable: say so
                // and start again from a snapshot.
                push_line(
                    &mut book.log,
                    Some(seq),
                    LineKind::Problem,
                    format!("could not apply step {seq}: {e}; resyncing"),
                );
                self.link.resync(viewer);
            }
        }
    }

    fn problem(&mut self, text: String) {
        if self.books.is_empty() {
            push_line(&mut self.orphan_log, None, LineKind::Problem, text);
        } else {
            for b in &mut self.books {
                push_line(&mut b.log, None, LineKind::Problem, text.clone());
            }
        }
    }

    fn book_mut(&mut self, viewer: Viewer) -> Option<&mut ViewerBook<R>> {
        self.books.iter_mut().find(|b| b.viewer == viewer)
    }

    /// The book of the viewer the UI is showing.
    pub fn book(&self) -> Option<&ViewerBook<R>> {
        self.books.iter().find(|b| b.viewer == self.active)
    }

    /// The table as the active viewer sees it.
    pub fn state(&self) -> Option<&R::State> {
        self.book().map(|b| b.follower.state())
    }

    pub fn ruleset(&self) -> Option<&R> {
        self.book().map(|b| b.follower.ruleset())
    }

    pub fn active(&self) -> Viewer {
        self.active
    }

    /// Whether this client plays more than one seat (a hot-seat table in
    /// this process): then nobody waits on an absent player.
    pub fn is_hot_seat(&self) -> bool {
        self.link.seats().len() > 1
    }

    /// The seat the UI acts for, if the active viewer is one.
    pub fn acting_seat(&self) -> Option<SeatId> {
        match self.active {
            Viewer::Seat(s) if self.link.seats().contains(&s) => Some(s),
            _ => None,
        }
    }

    /// Show the table through `viewer`'s eyes (the hot-seat switch).
    pub fn set_active(&mut self, viewer: Viewer) {
        if self.link.viewers().contains(&viewer) {
            self.active = viewer;
            self.last_refusal = None;
        }
    }

    pub fn viewers(&self) -> Vec<Viewer> {
        self.link.viewers()
    }

    pub fn seat_name(&self, seat: SeatId) -> String {
        seat_name(&self.seat_names, seat)
    }

    pub fn viewer_name(&self, viewer: Viewer) -> String {
        match viewer {
            Viewer::Seat(s) => self.seat_name(s),
            Viewer::Spectator => "Spectator".into(),
            Viewer::Referee => "Referee".into(),
        }
    }

    /// See [`TableLink::set_waker`].
    pub fn set_waker(&mut self, waker: super::link::Waker) {
        self.link.set_waker(waker);
    }

    pub fn describe_link(&self) -> String {
        self.link.describe()
    }

    /// Every roll that failed its check, for any viewer. Empty in an honest game.
    pub fn bad_roll_count(&self) -> usize {
        self.books
            .iter()
            .map(|b| b.follower.bad_rolls().len())
            .sum()
    }

    /// The channel this client talks on: players at a seat, spectators
    /// otherwise (the server keeps the two apart).
    pub fn chat_channel(&self) -> ChatChannel {
        if self.link.seats().is_empty() {
            ChatChannel::Spectators
        } else {
            ChatChannel::Players
        }
    }

    /// Say `text` on this client's channel; it comes back through the
    /// server like everyone else's.
    pub fn say(&mut self, text: String) {
        let channel = self.chat_channel();
        if let Err(e) = self.link.say(channel, text) {
            self.last_refusal = Some(e.to_string());
        }
    }

    /// Issue 18: the game as it stands, to continue later; `None` at a
    /// table this client cannot save (one on a server).
    pub fn save(&self, title: &str) -> Option<super::saved::SavedGame> {
        self.link.save(title)
    }

    /// Submit `action` for the acting seat. Refusals come back in the log
    /// and the status bar, like every other answer.
    /// Whether an action sent has not been answered yet (accepted or
    /// refused): a run of actions (the tray's "Bring them all in") sends
    /// the next only once the last is answered.
    pub fn awaiting_answer(&self) -> bool {
        !self.in_flight.is_empty()
    }

    pub fn act(&mut self, action: R::Action) {
        let Some(seat) = self.acting_seat() else {
            self.last_refusal = Some("spectators cannot act".into());
            return;
        };
        let what = match self.ruleset() {
            Some(rules) => rules.describe_action(&action),
            None => "action".into(),
        };
        let rolls = self.book().is_some_and(|b| {
            let f = &b.follower;
            let ctx = ActionContext {
                seat,
                seq: f.seq() + 1,
                by_default: false,
            };
            f.ruleset().rolls_dice(f.state(), &ctx, &action)
        });
        self.last_refusal = None;
        match self.link.submit(seat, action, rolls) {
            Ok(client_ref) => {
                self.in_flight.insert(client_ref, (self.active, what));
            }
            Err(e) => self.last_refusal = Some(self.players_named(&format!("{what}: {e}"))),
        }
        self.pump();
    }

    /// Name the seats' players (issue 18): "Union (Meade)" everywhere — the
    /// header, the log, refusals. `names` are `seat_words::seat_label`s,
    /// seat 0 first; lines already in the log keep their words.
    pub fn set_seat_names(&mut self, names: Vec<String>) {
        // The session's own lines about a seat (its dice chain, a
        // take-back) written before the players were known are named
        // again: one name per seat in the whole log, not "Union" above
        // "Union (Meade)".
        let renamed: Vec<(String, String)> = self
            .seat_names
            .iter()
            .zip(&names)
            .filter(|(old, new)| old != new)
            .map(|(old, new)| (format!("{old} "), format!("{new} ")))
            .collect();
        for book in &mut self.books {
            for line in &mut book.log {
                let about_a_seat = line.text.ends_with(" published a new dice chain")
                    || line.text.ends_with(" took back their last move");
                if !about_a_seat {
                    continue;
                }
                if let Some((old, new)) = renamed.iter().find(|(o, _)| line.text.starts_with(o)) {
                    line.text = format!("{new}{}", &line.text[old.len()..]);
                }
            }
        }
        self.seat_names = names;
    }

    /// The seats' names, seat 0 first.
    pub fn seat_names(&self) -> &[String] {
        &self.seat_names
    }

    /// `text` with "the Union player" put as the seat's name.
    fn players_named(&self, text: &str) -> String {
        super::seat_words::name_players(text, &self.seat_sides, &self.seat_names)
    }
}

/// The log's first line at a table (issue 18: "joined the table at entry
/// 3" was jargon; the step numbers are beside every line and in the
/// replay bar).
fn joined_words(_seq: u64) -> String {
    "joined the table".to_string()
}

fn push_line(log: &mut Vec<LogLine>, seq: Option<u64>, kind: LineKind, text: String) {
    log.push(LogLine { seq, kind, text });
    if log.len() > MAX_LOG {
        log.drain(..log.len() - MAX_LOG);
    }
}

/// Who published a dice chain, by the seat's name (issue 18: the log said
/// "seat 0").
fn party_name(names: &[String], party: muster_shared::dice::Party) -> String {
    match party {
        muster_shared::dice::Party::Server => "The server".into(),
        muster_shared::dice::Party::Seat(s) => seat_name(names, s),
    }
}

pub(crate) fn seat_name(names: &[String], seat: SeatId) -> String {
    names
        .get(usize::from(seat.0))
        .cloned()
        .unwrap_or_else(|| seat.to_string())
}
