//! One event's state and the rules of running it, without I/O: settings
//! checked, registration, check-in, the next round's pairings from the
//! pairing functions, results. The hub ([`super::hub`]) stores it after
//! every change and does the talking.

use super::clock::GameClock;
use super::pairing::{self, History, SwissEntry};
use super::standings::{self, Played};
use muster_shared::engine::Outcome;
use muster_shared::protocol::club::{
    ClubError, EventSettings, GameResult, LevelPoints, PairingMethod, ResultHow, RoundScenario,
    SideAssignment, StandingRow,
};
use muster_shared::protocol::{TableId, UserId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most rounds an event may have.
pub const MAX_ROUNDS: u8 = 30;
/// Most players in one event.
pub const MAX_ENTRANTS: usize = 1024;
/// Longest text a director gives (event name, adjudication reason), bytes.
pub const MAX_TEXT: usize = 200;
/// Longest name of a battle, bytes: a table's scenario's (`room/actor.rs`),
/// since each table of a round is made with it.
pub const MAX_SCENARIO: usize = 64;

/// A refusal: its kind and words.
pub type Refusal = (ClubError, String);

fn refuse<T>(e: ClubError, words: impl Into<String>) -> Result<T, Refusal> {
    Err((e, words.into()))
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entrant {
    pub user: UserId,
    pub name: String,
    pub checked_in: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Game {
    pub table: Option<TableId>,
    /// Seat 0 and seat 1; seat 1 empty for a bye.
    pub seats: [Option<UserId>; 2],
    pub result: Option<GameResult>,
    pub clock: Option<GameClock>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Round {
    pub games: Vec<Game>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event {
    pub director: UserId,
    pub settings: EventSettings,
    pub invite: Option<String>,
    pub entrants: Vec<Entrant>,
    /// Who plays, fixed when the first round starts (round robin and
    /// elimination seeds, in registration order).
    pub roster: Vec<UserId>,
    pub rounds: Vec<Round>,
    /// The director's desk (pauses, proposals, what tables said). Near
    /// the end, so events stored before it still load
    /// (`desk::decode_stored`).
    pub desk: super::desk::Desk,
    /// Vacations and bids. Last, so events stored before them still load.
    pub extras: Extras,
}

/// What an event keeps of vacations (slow play) and bids for sides.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Extras {
    /// Whole vacation days each player may take (`SetVacationDays`).
    pub vacation_days: u8,
    pub vacations: BTreeMap<UserId, super::vacation::Vacation>,
    /// Each player's bid for the next round: (seat wanted, victory points).
    pub bids: BTreeMap<UserId, (u8, u32)>,
    /// The bid each table's side paid for its seat: (seat, victory points),
    /// counted against that side's margin when the game ends.
    pub paid: BTreeMap<TableId, (u8, u32)>,
}

/// The names of the two sides of round `round` (0-based) of an event,
/// seat 0 first: its GBACW battle's as the scenario file gives them
/// ("Union (Banks)"), else the seats'.
pub fn side_names(s: &EventSettings, round: usize) -> [String; 2] {
    let config = s.round_play(round).config;
    (s.ruleset == "gbacw")
        .then(|| {
            // The ruleset's own decoder: a config continuing a saved game
            // (issue 18) is not the plain encoding.
            <muster_shared::gbacw::ruleset::Gbacw as muster_shared::engine::Ruleset>::decode_config(
                config,
                muster_shared::codec::MAX_CLIENT_MSG,
            )
            .ok()
        })
        .flatten()
        .and_then(|c| muster_shared::gbacw::battles::side_names(&c.battle))
        .unwrap_or_else(|| ["the first side".into(), "the second side".into()])
}

fn levels_bad(levels: &[LevelPoints]) -> bool {
    levels.len() > 16
        || levels
            .iter()
            .any(|l| l.level.trim().is_empty() || l.level.len() > 64)
}

fn scenario_named(name: &str) -> bool {
    !name.trim().is_empty() && name.len() <= MAX_SCENARIO && !name.chars().any(char::is_control)
}

/// A game's name in words, for a refusal.
pub fn game_words(ruleset: &str) -> &'static str {
    match ruleset {
        "gbacw" => "Great Battles of the American Civil War",
        "sandbox" => "the test sandbox",
        _ => "a game this server does not host",
    }
}

/// Check a director's settings; the text says what is wrong.
pub fn check_settings(s: &EventSettings) -> Result<(), Refusal> {
    let bad = |w: String| refuse(ClubError::BadRequest, w);
    if s.name.trim().is_empty() || s.name.len() > MAX_TEXT || s.name.chars().any(char::is_control) {
        return bad(format!("an event name has 1 to {MAX_TEXT} printable bytes"));
    }
    if crate::room::any_match::registry(&s.ruleset).is_none() {
        return bad(format!(
            "this server does not host the game \"{}\"",
            s.ruleset
        ));
    }
    if !scenario_named(&s.scenario) {
        return bad(format!(
            "the event's battle is named in 1 to {MAX_SCENARIO} printable bytes"
        ));
    }
    if s.rounds == 0 || s.rounds > MAX_ROUNDS {
        return bad(format!("an event has 1 to {MAX_ROUNDS} rounds"));
    }
    if let Some(t) = &s.time
        && t.bank_secs == 0
    {
        return bad("a time control needs a bank of at least one second".into());
    }
    if levels_bad(&s.points.levels) {
        return bad("at most 16 victory levels, each named in 1 to 64 bytes".into());
    }
    // A battle per round, given up front: a list of another length would
    // leave a round without its battle, or name one no round plays.
    let n = s.round_scenarios.len();
    if n > 0 && n != usize::from(s.rounds) {
        return bad(format!(
            "{n} battles for {} rounds: give one battle for each round, or one for them all",
            s.rounds
        ));
    }
    for (i, r) in s.round_scenarios.iter().enumerate() {
        let round = i + 1;
        if !scenario_named(&r.scenario) {
            return bad(format!(
                "round {round}'s battle is named in 1 to {MAX_SCENARIO} printable bytes"
            ));
        }
        if levels_bad(&r.levels) {
            return bad(format!(
                "round {round}'s battle has at most 16 victory levels, each named in 1 to 64 bytes"
            ));
        }
    }
    Ok(())
}

impl Event {
    /// Whether round `round` (1-based) may be given `battle` now: a round
    /// of the event, not started, and the battle well named. The words
    /// say why not.
    pub fn check_round_battle(&self, round: u8, battle: &RoundScenario) -> Result<(), Refusal> {
        let rounds = self.settings.rounds;
        if round == 0 || round > rounds {
            return refuse(
                ClubError::BadRequest,
                format!("the event has {rounds} rounds; there is no round {round}"),
            );
        }
        if usize::from(round) <= self.rounds.len() {
            return refuse(
                ClubError::WrongTime,
                format!("round {round} has started: its battle can no longer change"),
            );
        }
        if !scenario_named(&battle.scenario) {
            return refuse(
                ClubError::BadRequest,
                format!("a battle is named in 1 to {MAX_SCENARIO} printable bytes"),
            );
        }
        if levels_bad(&battle.levels) {
            return refuse(
                ClubError::BadRequest,
                "a battle has at most 16 victory levels, each named in 1 to 64 bytes",
            );
        }
        Ok(())
    }

    /// Round `round` (1-based) plays `battle` (checked as
    /// [`Event::check_round_battle`]); the name of the battle it played
    /// before. An event of one battle gets a battle per round first, each
    /// the event's own, so the other rounds play what they did.
    pub fn set_round_battle(
        &mut self,
        round: u8,
        battle: RoundScenario,
    ) -> Result<String, Refusal> {
        self.check_round_battle(round, &battle)?;
        let s = &mut self.settings;
        if s.round_scenarios.is_empty() {
            let own = RoundScenario {
                scenario: s.scenario.clone(),
                config: s.config.clone(),
                levels: s.points.levels.clone(),
            };
            s.round_scenarios = vec![own; usize::from(s.rounds)];
        }
        let slot = &mut s.round_scenarios[usize::from(round) - 1];
        Ok(std::mem::replace(slot, battle).scenario)
    }

    pub fn new(director: UserId, settings: EventSettings, invite: Option<String>) -> Event {
        Event {
            director,
            settings,
            invite,
            entrants: Vec::new(),
            roster: Vec::new(),
            rounds: Vec::new(),
            desk: super::desk::Desk::default(),
            extras: Extras::default(),
        }
    }

    pub fn started(&self) -> bool {
        !self.rounds.is_empty()
    }

    pub fn register(
        &mut self,
        user: UserId,
        name: &str,
        invite: Option<&str>,
    ) -> Result<(), Refusal> {
        if self.started() {
            return refuse(
                ClubError::RegistrationClosed,
                "the event has started; registration is closed",
            );
        }
        if self.settings.invite_only && invite != self.invite.as_deref() {
            return refuse(
                ClubError::BadInvite,
                "this event takes players by invite code; that code is not it",
            );
        }
        if self.entrants.iter().any(|e| e.user == user) {
            return Ok(());
        }
        if self.entrants.len() >= MAX_ENTRANTS {
            return refuse(
                ClubError::RegistrationClosed,
                format!("the event is full ({MAX_ENTRANTS} players)"),
            );
        }
        self.entrants.push(Entrant {
            user,
            name: name.to_string(),
            checked_in: false,
        });
        Ok(())
    }

    pub fn check_in(&mut self, user: UserId) -> Result<(), Refusal> {
        if self.started() {
            return refuse(
                ClubError::WrongTime,
                "check-in closed when the first round started",
            );
        }
        match self.entrants.iter_mut().find(|e| e.user == user) {
            Some(e) => {
                e.checked_in = true;
                Ok(())
            }
            None => refuse(
                ClubError::NotRegistered,
                "register for the event before checking in",
            ),
        }
    }

    pub fn name_of(&self, user: UserId) -> String {
        self.entrants
            .iter()
            .find(|e| e.user == user)
            .map_or_else(|| format!("player {}", user.0), |e| e.name.clone())
    }

    /// Whether every game of the last round has a result.
    pub fn round_done(&self) -> bool {
        self.rounds
            .last()
            .is_none_or(|r| r.games.iter().all(|g| g.result.is_some()))
    }

    pub fn standings(&self) -> Vec<StandingRow> {
        // The roster, and anyone who played a game (a player replaced by
        // a reserve keeps their results).
        let played = |u: UserId| {
            self.rounds
                .iter()
                .flat_map(|r| r.games.iter())
                .any(|g| g.seats.contains(&Some(u)))
        };
        let players: Vec<(UserId, String)> = self
            .entrants
            .iter()
            .filter(|e| self.roster.is_empty() || self.roster.contains(&e.user) || played(e.user))
            .map(|e| (e.user, e.name.clone()))
            .collect();
        standings::standings(
            &players,
            self.rounds
                .iter()
                .flat_map(|r| r.games.iter())
                .map(|g| Played {
                    seats: g.seats,
                    result: g.result.as_ref(),
                }),
        )
    }

    /// The next round's games (seats only, no tables yet), or why not.
    pub fn pair_next(&mut self) -> Result<Vec<Game>, Refusal> {
        if !self.round_done() {
            return refuse(
                ClubError::WrongTime,
                "the current round still has games without a result",
            );
        }
        let r = self.rounds.len();
        if r >= usize::from(self.settings.rounds) {
            return refuse(
                ClubError::WrongTime,
                format!(
                    "the event's {} rounds have been played",
                    self.settings.rounds
                ),
            );
        }
        if r == 0 {
            self.roster = self
                .entrants
                .iter()
                .filter(|e| !self.settings.check_in || e.checked_in)
                .map(|e| e.user)
                .collect();
            if self.roster.len() < 2 {
                return refuse(
                    ClubError::NotEnoughPlayers,
                    format!(
                        "{} player(s) {}; a round needs two",
                        self.roster.len(),
                        if self.settings.check_in {
                            "checked in"
                        } else {
                            "registered"
                        }
                    ),
                );
            }
        }
        let seed = self.settings.seed;
        let pairs: Vec<(UserId, Option<UserId>)> = match self.settings.pairing {
            PairingMethod::Swiss => {
                let rows = self.standings();
                let mut history = History::default();
                let mut byes = Vec::new();
                for g in self.rounds.iter().flat_map(|r| r.games.iter()) {
                    match g.seats {
                        [Some(a), Some(b)] => history.add(a, b),
                        [Some(a), None] => byes.push(a),
                        _ => {}
                    }
                }
                // Seeded order among equal scores, then by score (stable).
                let mut order: Vec<UserId> = self.roster.clone();
                order.sort_by_key(|u| pairing::mix(seed, r as u64, u.0));
                let entries: Vec<SwissEntry<UserId>> = order
                    .iter()
                    .map(|u| SwissEntry {
                        id: *u,
                        score: rows.iter().find(|x| x.user == *u).map_or(0, |x| x.points),
                        had_bye: byes.contains(u),
                    })
                    .collect();
                let p = pairing::swiss(&entries, &history);
                p.pairs
                    .into_iter()
                    .map(|(a, b)| (a, Some(b)))
                    .chain(p.bye.map(|b| (b, None)))
                    .collect()
            }
            PairingMethod::RoundRobin => {
                let n = self.roster.len();
                if r >= pairing::round_robin_rounds(n) {
                    return refuse(
                        ClubError::WrongTime,
                        format!(
                            "a round robin of {n} players has {} rounds; all are played",
                            pairing::round_robin_rounds(n)
                        ),
                    );
                }
                let p = pairing::round_robin(n, r);
                p.pairs
                    .into_iter()
                    .map(|(a, b)| (self.roster[a], Some(self.roster[b])))
                    .chain(p.bye.map(|b| (self.roster[b], None)))
                    .collect()
            }
            PairingMethod::SingleElimination => {
                if r == 0 {
                    pairing::elimination_first_round(self.roster.len())
                        .into_iter()
                        .map(|(a, b)| (self.roster[a], b.map(|b| self.roster[b])))
                        .collect()
                } else {
                    let winners: Vec<UserId> =
                        self.rounds[r - 1].games.iter().filter_map(winner).collect();
                    if winners.len() < 2 {
                        return refuse(
                            ClubError::WrongTime,
                            "the elimination has its winner; no round is left",
                        );
                    }
                    pairing::elimination_next(&winners)
                }
            }
        };
        let balanced = self.settings.sides == SideAssignment::Balanced;
        let games = pairs
            .into_iter()
            .enumerate()
            .map(|(i, (a, b))| {
                let seats = match b {
                    Some(b) => {
                        let (x, y) = pairing::sides(
                            a,
                            b,
                            (self.firsts(a), self.firsts(b)),
                            balanced,
                            pairing::mix(seed ^ 0x5151, r as u64, i as u64),
                        );
                        [Some(x), Some(y)]
                    }
                    None => [Some(a), None],
                };
                let result = b.is_none().then_some(GameResult {
                    points: [self.settings.points.bye, 0],
                    vp_margin: 0,
                    how: ResultHow::Bye,
                });
                Game {
                    table: None,
                    seats,
                    result,
                    clock: None,
                }
            })
            .collect();
        Ok(games)
    }

    /// Games `user` played in seat 0 (the first side).
    fn firsts(&self, user: UserId) -> u32 {
        self.rounds
            .iter()
            .flat_map(|r| r.games.iter())
            .filter(|g| g.seats[0] == Some(user) && g.seats[1].is_some())
            .count() as u32
    }

    /// Where table `table` is: (round index, game index).
    pub fn game_of_table(&self, table: TableId) -> Option<(usize, usize)> {
        self.rounds.iter().enumerate().find_map(|(r, round)| {
            round
                .games
                .iter()
                .position(|g| g.table == Some(table))
                .map(|g| (r, g))
        })
    }

    /// `user`'s unfinished game in the current round.
    pub fn current_game_of(&self, user: UserId) -> Option<(usize, usize)> {
        let r = self.rounds.len().checked_sub(1)?;
        self.rounds[r]
            .games
            .iter()
            .position(|g| g.result.is_none() && g.seats.contains(&Some(user)))
            .map(|g| (r, g))
    }

    /// A result from the engine's end of game: the victory level named in
    /// its words, mapped by the event's points table (the first level
    /// whose name appears), else a plain win, loss or draw. The margin is
    /// the engine's victory-point difference (seat 0 less seat 1; 0 for a
    /// game without victory points).
    ///
    /// The levels are those of the game's round (`round`, 0-based): each
    /// battle of an event names its own (Cedar Mountain 27.1, Corinth
    /// 31.33).
    pub fn engine_result(
        &self,
        round: usize,
        outcome: &Outcome,
        vp_margin: Option<i32>,
    ) -> GameResult {
        let p = &self.settings.points;
        let levels = self.settings.round_play(round).levels;
        let summary = outcome.summary.to_lowercase();
        let points = match outcome.winner {
            None => [p.draw, p.draw],
            Some(w) => {
                let (win, lose) = levels
                    .iter()
                    .find(|l| summary.contains(&l.level.to_lowercase()))
                    .map_or((p.win, p.loss), |l| (l.winner, l.loser));
                if w.0 == 0 { [win, lose] } else { [lose, win] }
            }
        };
        GameResult {
            points,
            vp_margin: vp_margin.unwrap_or(0),
            how: ResultHow::Engine {
                summary: outcome.summary.clone(),
            },
        }
    }

    /// A loss for `seat` (a resignation or a clock at zero).
    pub fn loss_for(&self, seat: u8, how: ResultHow) -> GameResult {
        let p = &self.settings.points;
        GameResult {
            points: if seat == 0 {
                [p.loss, p.win]
            } else {
                [p.win, p.loss]
            },
            vp_margin: 0,
            how,
        }
    }

    /// An elimination game needs a winner.
    pub fn check_result(&self, result: &GameResult) -> Result<(), Refusal> {
        if self.settings.pairing == PairingMethod::SingleElimination
            && result.points[0] == result.points[1]
        {
            return refuse(
                ClubError::BadRequest,
                "an elimination game needs a winner: give the two sides different points",
            );
        }
        Ok(())
    }
}

/// The player who goes on from an elimination game (or its bye).
fn winner(g: &Game) -> Option<UserId> {
    let r = g.result.as_ref()?;
    match g.seats {
        [Some(a), None] => Some(a),
        [Some(a), Some(b)] => Some(if r.points[0] > r.points[1] { a } else { b }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::SeatId;
    use muster_shared::protocol::club::{PointsTable, RoundScenario};

    fn settings(pairing: PairingMethod, rounds: u8) -> EventSettings {
        EventSettings {
            name: "Test".into(),
            ruleset: "sandbox".into(),
            scenario: "s".into(),
            config: Vec::new(),
            rounds,
            pairing,
            sides: SideAssignment::Balanced,
            invite_only: false,
            check_in: false,
            time: None,
            points: PointsTable {
                levels: vec![LevelPoints {
                    level: "decisive".into(),
                    winner: 3,
                    loser: 0,
                }],
                ..PointsTable::default()
            },
            seed: 7,
            round_scenarios: Vec::new(),
        }
    }

    #[test]
    fn engine_levels_map_to_event_points() {
        let e = Event::new(UserId(1), settings(PairingMethod::Swiss, 3), None);
        let o = Outcome {
            winner: Some(SeatId(1)),
            summary: "Confederate Decisive victory".into(),
        };
        assert_eq!(e.engine_result(0, &o, None).points, [0, 3]);
        let o = Outcome {
            winner: Some(SeatId(0)),
            summary: "Union marginal victory".into(),
        };
        assert_eq!(e.engine_result(0, &o, None).points, [2, 0]);
        let o = Outcome {
            winner: None,
            summary: "draw".into(),
        };
        assert_eq!(e.engine_result(0, &o, None).points, [1, 1]);
    }

    /// Issue 21, an event of several battles: each round's games are
    /// scored by that round's battle's levels (Cedar Mountain 27.1 names
    /// "strategic", Corinth 31.33 "decisive"); the settings are refused in
    /// words when the list does not give one battle per round.
    #[test]
    fn each_rounds_battle_maps_its_own_levels() {
        let level = |level: &str, winner| LevelPoints {
            level: level.into(),
            winner,
            loser: 0,
        };
        let mut s = settings(PairingMethod::Swiss, 2);
        s.round_scenarios = vec![
            RoundScenario {
                scenario: "Cedar Mountain".into(),
                config: Vec::new(),
                levels: vec![level("strategic", 5), level("marginal", 3)],
            },
            RoundScenario {
                scenario: "Corinth".into(),
                config: Vec::new(),
                levels: vec![level("decisive", 6), level("marginal", 4)],
            },
        ];
        check_settings(&s).unwrap();
        let e = Event::new(UserId(1), s.clone(), None);
        let won = |summary: &str| Outcome {
            winner: Some(SeatId(0)),
            summary: summary.into(),
        };
        let marginal = won("Union marginal victory");
        assert_eq!(e.engine_result(0, &marginal, None).points, [3, 0]);
        assert_eq!(e.engine_result(1, &marginal, None).points, [4, 0]);
        assert_eq!(
            e.engine_result(0, &won("Union strategic victory"), None)
                .points,
            [5, 0]
        );
        // Corinth's list has no "strategic": a plain win.
        assert_eq!(
            e.engine_result(1, &won("Union strategic victory"), None)
                .points,
            [2, 0]
        );
        assert_eq!(
            e.engine_result(1, &won("Union decisive victory"), None)
                .points,
            [6, 0]
        );
        assert_eq!(s.round_play(1).scenario, "Corinth");
        assert_eq!(s.scenarios_words(), "Cedar Mountain, then Corinth");

        let mut three = s.clone();
        three.rounds = 3;
        let (e, words) = check_settings(&three).unwrap_err();
        assert_eq!(e, ClubError::BadRequest);
        assert_eq!(
            words,
            "2 battles for 3 rounds: give one battle for each round, or one for them all"
        );
        let mut unnamed = s.clone();
        unnamed.round_scenarios[1].scenario = " ".into();
        let (_, words) = check_settings(&unnamed).unwrap_err();
        assert!(words.starts_with("round 2's battle is named"), "{words}");
    }

    #[test]
    fn elimination_of_five_runs_to_one_winner() {
        let mut e = Event::new(
            UserId(100),
            settings(PairingMethod::SingleElimination, 3),
            None,
        );
        for i in 1..=5 {
            e.register(UserId(i), &format!("P{i}"), None).unwrap();
        }
        for _ in 0..3 {
            let mut games = e.pair_next().unwrap();
            for g in &mut games {
                if g.result.is_none() {
                    g.result = Some(e.loss_for(1, ResultHow::Adjudicated { reason: "t".into() }));
                }
            }
            e.rounds.push(Round { games });
        }
        assert_eq!(e.rounds[0].games.len(), 4);
        assert_eq!(e.rounds[1].games.len(), 2);
        assert_eq!(e.rounds[2].games.len(), 1);
        assert!(e.pair_next().is_err());
    }
}
