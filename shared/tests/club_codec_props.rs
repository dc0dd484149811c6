//! Issue 21: the club messages through the codec: the director's desk and
//! watching an event were appended to `ClubRequest` and `ClubReply`, so
//! every older club message keeps its number on the wire (as
//! `ServerMsg::Moved` was appended, keeping `PROTOCOL_VERSION`); every
//! new message round-trips inside `ClientMsg::Club` / `ServerMsg::Club`,
//! and any prefix of one is an error, never a panic.

use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::protocol::club::*;
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId, UserId};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    ".{0,24}"
}
fn event() -> impl Strategy<Value = EventId> {
    any::<u64>().prop_map(EventId)
}
fn table() -> impl Strategy<Value = TableId> {
    any::<u64>().prop_map(TableId)
}
fn user() -> impl Strategy<Value = UserId> {
    any::<u64>().prop_map(UserId)
}
fn seat() -> impl Strategy<Value = SeatId> {
    any::<u8>().prop_map(SeatId)
}
fn player() -> impl Strategy<Value = Option<(UserId, String)>> {
    option::of((user(), text()))
}
fn result() -> impl Strategy<Value = GameResult> {
    (
        any::<[u32; 2]>(),
        any::<i32>(),
        prop_oneof![
            text().prop_map(|summary| ResultHow::Engine { summary }),
            seat().prop_map(|seat| ResultHow::Resigned { seat }),
            seat().prop_map(|seat| ResultHow::Clock { seat }),
            text().prop_map(|reason| ResultHow::Adjudicated { reason }),
            Just(ResultHow::Bye),
        ],
    )
        .prop_map(|(points, vp_margin, how)| GameResult {
            points,
            vp_margin,
            how,
        })
}
fn card() -> impl Strategy<Value = TableCard> {
    (
        option::of(table()),
        (player(), player()),
        option::of(text()),
        option::of(seat()),
        option::of(any::<[u64; 2]>()),
        option::of(any::<u64>()),
        any::<bool>(),
        option::of(result()),
    )
        .prop_map(
            |(table, (a, b), progress, awaiting, clock_ms, last_activity, paused, result)| {
                TableCard {
                    table,
                    players: [a, b],
                    progress,
                    awaiting,
                    clock_ms,
                    last_activity,
                    paused,
                    result,
                }
            },
        )
}
fn pairing() -> impl Strategy<Value = Pairing> {
    (
        option::of(table()),
        (player(), player()),
        option::of(result()),
        option::of(any::<[u64; 2]>()),
    )
        .prop_map(|(table, (a, b), result, clock_ms)| Pairing {
            table,
            players: [a, b],
            result,
            clock_ms,
        })
}
fn row() -> impl Strategy<Value = StandingRow> {
    (
        any::<u32>(),
        user(),
        text(),
        any::<u32>(),
        any::<u32>(),
        any::<i64>(),
        any::<u32>(),
    )
        .prop_map(
            |(rank, user, name, points, buchholz, vp_margin, games)| StandingRow {
                rank,
                user,
                name,
                points,
                buchholz,
                vp_margin,
                games,
            },
        )
}
fn time() -> impl Strategy<Value = TimeControl> {
    (any::<u32>(), any::<u32>(), any::<u32>(), any::<bool>()).prop_map(|(b, i, p, loss)| {
        TimeControl {
            bank_secs: b,
            increment_secs: i,
            per_decision_secs: p,
            at_zero: if loss {
                AtZero::Loss
            } else {
                AtZero::EngineDefaults
            },
        }
    })
}
fn view() -> impl Strategy<Value = EventView> {
    (
        (
            event(),
            text(),
            text(),
            any::<u8>(),
            any::<u8>(),
            any::<bool>(),
        ),
        vec((user(), text()), 0..4),
        vec(card(), 0..4),
        vec(row(), 0..4),
        option::of(vec(pairing(), 0..3)),
        option::of(time()),
        (any::<u32>(), any::<u32>(), any::<u64>()),
    )
        .prop_map(
            |(
                (event, name, scenario, rounds, round, director),
                entrants,
                tables,
                standings,
                proposed,
                time,
                (win, bye, now),
            )| EventView {
                event,
                name: name.clone(),
                scenario: scenario.clone(),
                pairing: PairingMethod::Swiss,
                rounds,
                round,
                director,
                entrants,
                tables,
                standings,
                proposed,
                time,
                points: PointsTable {
                    win,
                    bye,
                    ..PointsTable::default()
                },
                now,
                sides: SideAssignment::Balanced,
                side_names: [name.clone(), "Confederate".into()],
                registration_open: director,
                invite_only: !director,
                check_in: true,
                checked_in: director,
                invite: Some(scenario.clone()).filter(|_| director),
                round_scenarios: (0..rounds % 3)
                    .map(|i| RoundScenario {
                        scenario: format!("{scenario} {i}"),
                        config: vec![i; usize::from(i)],
                        levels: vec![LevelPoints {
                            level: name.clone(),
                            winner: 3,
                            loser: u32::from(i),
                        }],
                    })
                    .collect(),
                ruleset: scenario.clone(),
            },
        )
}
fn your_game() -> impl Strategy<Value = YourGame> {
    (
        (event(), text(), any::<u8>(), table(), seat(), text()),
        option::of(text()),
        (any::<bool>(), any::<bool>()),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
    )
        .prop_map(
            |(
                (event, event_name, round, table, seat, opponent),
                progress,
                (your_move, paused),
                bank_ms,
                decision_ms,
            )| YourGame {
                event,
                event_name,
                round,
                table,
                seat,
                opponent,
                progress,
                your_move,
                paused,
                bank_ms,
                decision_ms,
            },
        )
}

fn event_summary() -> impl Strategy<Value = EventSummary> {
    (
        (event(), text(), text(), text()),
        (any::<u8>(), any::<u8>(), any::<u32>()),
        any::<[bool; 5]>(),
    )
        .prop_map(
            |((event, name, ruleset, scenario), (rounds, round, players), b)| EventSummary {
                event,
                name,
                ruleset,
                scenario,
                rounds,
                round,
                finished: b[0],
                players,
                registration_open: b[1],
                invite_only: b[2],
                entered: b[3],
                director: b[4],
            },
        )
}

/// The appended requests.
fn desk_request() -> impl Strategy<Value = ClubRequest> {
    prop_oneof![
        (event(), table(), any::<bool>()).prop_map(|(event, table, on)| ClubRequest::PauseTable {
            event,
            table,
            on
        }),
        (event(), any::<bool>()).prop_map(|(event, on)| ClubRequest::PauseRound { event, on }),
        (event(), table(), seat(), any::<u32>()).prop_map(|(event, table, seat, secs)| {
            ClubRequest::AddTime {
                event,
                table,
                seat,
                secs,
            }
        }),
        (event(), table(), seat(), user()).prop_map(|(event, table, seat, user)| {
            ClubRequest::Replace {
                event,
                table,
                seat,
                user,
            }
        }),
        event().prop_map(|event| ClubRequest::PairRound { event }),
        (event(), vec((user(), option::of(user())), 0..5)).prop_map(|(event, g)| {
            ClubRequest::RePair {
                event,
                games: g.into_iter().map(|(a, b)| [Some(a), b]).collect(),
            }
        }),
        event().prop_map(|event| ClubRequest::Watch { event }),
        Just(ClubRequest::YourGames),
        Just(ClubRequest::Events),
    ]
}

/// The appended replies.
fn desk_reply() -> impl Strategy<Value = ClubReply> {
    prop_oneof![
        view().prop_map(|v| ClubReply::EventView(Box::new(v))),
        (event(), any::<u8>(), vec(pairing(), 0..4)).prop_map(|(event, round, pairings)| {
            ClubReply::Proposed {
                event,
                round,
                pairings,
            }
        }),
        (event(), text()).prop_map(|(event, words)| ClubReply::Notice { event, words }),
        vec(your_game(), 0..3).prop_map(|games| ClubReply::YourGames { games }),
        vec(event_summary(), 0..3).prop_map(|events| ClubReply::Events { events }),
    ]
}

/// The older club messages keep their numbers: the last of the first
/// requests is still 14 and the first appended 15; the last of the first
/// replies (`Refused`) 13 and the first appended 14. Inside `Club` the
/// club enum's number follows the outer variant's (`ClientMsg::Club` is
/// 16, `ServerMsg::Club` 20).
#[test]
fn the_desk_is_appended_after_every_older_club_message() {
    let event = EventId(1);
    let req = |r: ClubRequest| ClientMsg::Club(r).encode().unwrap()[..2].to_vec();
    assert_eq!(req(ClubRequest::DirectorLog { event })[1], 14);
    assert_eq!(
        req(ClubRequest::PauseTable {
            event,
            table: TableId(1),
            on: true
        })[1],
        15
    );
    assert_eq!(req(ClubRequest::YourGames)[1], 22);
    assert_eq!(req(ClubRequest::Events)[1], 27);
    let rep = |r: ClubReply| ServerMsg::Club(r).encode().unwrap()[..2].to_vec();
    let refused = rep(ClubReply::Refused {
        error: ClubError::Busy,
        message: String::new(),
    });
    assert_eq!(refused[1], 13);
    let notice = rep(ClubReply::Notice {
        event,
        words: String::new(),
    });
    assert_eq!(notice[0], refused[0], "both inside ServerMsg::Club");
    assert_eq!(notice[1], 16);
    assert_eq!(rep(ClubReply::YourGames { games: Vec::new() })[1], 17);
    assert_eq!(rep(ClubReply::Events { events: Vec::new() })[1], 20);
}

/// Appended after the desk: webhooks, vacations, bids.
fn later_request() -> impl Strategy<Value = ClubRequest> {
    prop_oneof![
        (any::<u64>(), option::of(text())).prop_map(|(c, url)| ClubRequest::SetWebhook {
            club: ClubId(c),
            url
        }),
        (event(), any::<u8>())
            .prop_map(|(event, days)| ClubRequest::SetVacationDays { event, days }),
        (event(), any::<u8>()).prop_map(|(event, days)| ClubRequest::TakeVacation { event, days }),
        (event(), seat(), any::<u32>()).prop_map(|(event, seat, vp)| ClubRequest::Bid {
            event,
            seat,
            vp
        }),
    ]
}

fn later_reply() -> impl Strategy<Value = ClubReply> {
    prop_oneof![
        (any::<u64>(), option::of(text())).prop_map(|(c, url)| ClubReply::Webhook {
            club: ClubId(c),
            url
        }),
        (event(), any::<u8>(), option::of(any::<u64>())).prop_map(|(event, days_left, until)| {
            ClubReply::Vacation {
                event,
                days_left,
                until,
            }
        }),
    ]
}

/// Webhooks, vacations and bids come after every desk message: the desk's
/// numbers stay, the new ones follow (requests 23–26, replies 18–19), and
/// the sides' `Bid` follows `Random` (the stored events keep theirs).
#[test]
fn webhooks_vacations_and_bids_are_appended_after_the_desk() {
    let event = EventId(1);
    let req = |r: ClubRequest| ClientMsg::Club(r).encode().unwrap()[1];
    assert_eq!(req(ClubRequest::YourGames), 22);
    assert_eq!(
        req(ClubRequest::SetWebhook {
            club: ClubId(1),
            url: None
        }),
        23
    );
    assert_eq!(req(ClubRequest::SetVacationDays { event, days: 1 }), 24);
    assert_eq!(req(ClubRequest::TakeVacation { event, days: 1 }), 25);
    assert_eq!(
        req(ClubRequest::Bid {
            event,
            seat: SeatId(0),
            vp: 1
        }),
        26
    );
    let rep = |r: ClubReply| ServerMsg::Club(r).encode().unwrap()[1];
    assert_eq!(rep(ClubReply::YourGames { games: Vec::new() }), 17);
    assert_eq!(
        rep(ClubReply::Webhook {
            club: ClubId(1),
            url: None
        }),
        18
    );
    assert_eq!(
        rep(ClubReply::Vacation {
            event,
            days_left: 0,
            until: None
        }),
        19
    );
    let side = |s: SideAssignment| codec::encode_infallible(&s);
    assert_eq!(side(SideAssignment::Random), [1]);
    assert_eq!(side(SideAssignment::Bid), [2]);
}

fn club_summary() -> impl Strategy<Value = ClubSummary> {
    (
        any::<u64>(),
        text(),
        option::of(prop_oneof![
            Just(ClubRole::Member),
            Just(ClubRole::Director),
            Just(ClubRole::Owner)
        ]),
        vec((user(), text()), 0..3),
        option::of(text()),
    )
        .prop_map(|(c, name, role, members, webhook)| ClubSummary {
            club: ClubId(c),
            name,
            role,
            members: members
                .into_iter()
                .map(|(user, name)| ClubMember {
                    user,
                    name,
                    role: ClubRole::Member,
                })
                .collect(),
            webhook_set: webhook.is_some(),
            webhook,
        })
}

/// The client's club screens' list: `Clubs` appended after `Events`
/// (request 28, reply 21); the older numbers stay.
#[test]
fn the_club_list_is_appended_after_the_events() {
    let req = |r: ClubRequest| ClientMsg::Club(r).encode().unwrap()[1];
    assert_eq!(req(ClubRequest::Events), 27);
    assert_eq!(req(ClubRequest::Clubs), 28);
    let rep = |r: ClubReply| ServerMsg::Club(r).encode().unwrap()[1];
    assert_eq!(rep(ClubReply::Events { events: Vec::new() }), 20);
    assert_eq!(
        rep(ClubReply::Clubs {
            account: true,
            clubs: Vec::new()
        }),
        21
    );
}

/// Leaving a club: `LeaveClub` appended after `Clubs` (request 29),
/// `LeftClub` after `Clubs` (reply 22); the older numbers stay.
#[test]
fn leaving_a_club_is_appended_after_the_club_list() {
    let req = |r: ClubRequest| ClientMsg::Club(r).encode().unwrap()[1];
    assert_eq!(req(ClubRequest::Clubs), 28);
    let leave = ClubRequest::LeaveClub {
        club: ClubId(3),
        new_owner: Some(UserId(9)),
    };
    assert_eq!(req(leave.clone()), 29);
    let msg = ClientMsg::Club(leave);
    assert_eq!(ClientMsg::decode(&msg.encode().unwrap()).unwrap(), msg);
    let rep = |r: ClubReply| ServerMsg::Club(r).encode().unwrap()[1];
    let left = ClubReply::LeftClub {
        club: ClubId(3),
        new_owner: None,
    };
    assert_eq!(rep(left.clone()), 22);
    let msg = ServerMsg::Club(left);
    assert_eq!(ServerMsg::decode(&msg.encode().unwrap()).unwrap(), msg);
}

/// Changing a later round's battle: `SetRoundBattle` appended after
/// `LeaveClub` (request 30); it and the event's game in `EventView` (its
/// last field) go and come back whole.
#[test]
fn changing_a_rounds_battle_is_appended_after_leaving_a_club() {
    let req = ClubRequest::SetRoundBattle {
        event: EventId(4),
        round: 2,
        ruleset: "gbacw".into(),
        battle: RoundScenario {
            scenario: "Corinth".into(),
            config: vec![1, 2, 3],
            levels: vec![LevelPoints {
                level: "decisive".into(),
                winner: 6,
                loser: 0,
            }],
        },
    };
    let msg = ClientMsg::Club(req);
    let bytes = msg.encode().unwrap();
    assert_eq!(bytes[1], 30);
    assert_eq!(ClientMsg::decode(&bytes).unwrap(), msg);
}

fn round_scenario() -> impl Strategy<Value = RoundScenario> {
    (
        text(),
        vec(any::<u8>(), 0..40),
        vec((text(), any::<u32>()), 0..4),
    )
        .prop_map(|(scenario, config, levels)| RoundScenario {
            scenario,
            config,
            levels: levels
                .into_iter()
                .map(|(level, winner)| LevelPoints {
                    level,
                    winner,
                    loser: 0,
                })
                .collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// An event of several battles is created in one message; any prefix
    /// of it is an error.
    #[test]
    fn an_event_of_several_battles_round_trips(
        rounds in vec(round_scenario(), 0..5),
        cut in any::<prop::sample::Index>(),
    ) {
        let settings = EventSettings {
            name: "Rapidan Open".into(),
            ruleset: "gbacw".into(),
            scenario: "Cedar Mountain".into(),
            config: vec![1, 2],
            rounds: u8::try_from(rounds.len().max(1)).unwrap(),
            pairing: PairingMethod::Swiss,
            sides: SideAssignment::Balanced,
            invite_only: false,
            check_in: true,
            time: None,
            points: PointsTable::default(),
            seed: 4,
            round_scenarios: rounds,
        };
        let msg = ClientMsg::Club(ClubRequest::CreateEvent { club: ClubId(1), settings });
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ClientMsg::decode(&bytes).unwrap(), msg);
        prop_assert!(ClientMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_desk_request_round_trips(r in desk_request()) {
        let msg = ClientMsg::Club(r);
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ClientMsg::decode(&bytes).unwrap(), msg);
    }

    #[test]
    fn every_desk_reply_round_trips(r in desk_reply()) {
        let msg = ServerMsg::Club(r);
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ServerMsg::decode(&bytes).unwrap(), msg);
    }

    #[test]
    fn every_later_message_round_trips(r in later_request(), s in later_reply()) {
        let msg = ClientMsg::Club(r);
        prop_assert_eq!(ClientMsg::decode(&msg.encode().unwrap()).unwrap(), msg);
        let msg = ServerMsg::Club(s);
        prop_assert_eq!(ServerMsg::decode(&msg.encode().unwrap()).unwrap(), msg);
    }

    #[test]
    fn truncated_later_messages_are_errors(r in later_request(), s in later_reply(), cut in any::<prop::sample::Index>()) {
        let bytes = ClientMsg::Club(r).encode().unwrap();
        prop_assert!(ClientMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
        let bytes = ServerMsg::Club(s).encode().unwrap();
        prop_assert!(ServerMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
    }

    #[test]
    fn every_club_list_round_trips_and_its_prefixes_are_errors(
        account in any::<bool>(),
        clubs in vec(club_summary(), 0..3),
        cut in any::<prop::sample::Index>(),
    ) {
        let msg = ServerMsg::Club(ClubReply::Clubs { account, clubs });
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ServerMsg::decode(&bytes).unwrap(), msg);
        prop_assert!(ServerMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
    }

    /// Any prefix of a desk message is an error, never a panic and never
    /// a different message.
    #[test]
    fn truncated_desk_messages_are_errors(r in desk_request(), s in desk_reply(), cut in any::<prop::sample::Index>()) {
        let bytes = ClientMsg::Club(r).encode().unwrap();
        prop_assert!(ClientMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
        let bytes = ServerMsg::Club(s).encode().unwrap();
        prop_assert!(ServerMsg::decode(&bytes[..cut.index(bytes.len())]).is_err());
    }

    /// Flipping a byte of a desk reply never panics the decoder.
    #[test]
    fn corrupted_desk_replies_never_panic(s in desk_reply(), at in any::<prop::sample::Index>(), x in 1..=255u8) {
        let mut bytes = ServerMsg::Club(s).encode().unwrap();
        let i = at.index(bytes.len());
        bytes[i] ^= x;
        let _ = ServerMsg::decode(&bytes);
        let _ = codec::decode::<ServerMsg>(&bytes, codec::MAX_SERVER_MSG);
    }
}
