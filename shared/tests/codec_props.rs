//! The codec on every protocol message: round trips, and hostile bytes.

use muster_shared::codec::{self, DecodeError};
use muster_shared::dice::{ChainAnchor, ChainHeadState, Die, Party, RollProof, SeatLink};
use muster_shared::engine::{RuleCode, RuleError};
use muster_shared::protocol::*;
use muster_shared::{Hash32, MatchId, SeatId};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn hash() -> impl Strategy<Value = Hash32> {
    any::<[u8; 32]>().prop_map(Hash32)
}
fn seat() -> impl Strategy<Value = SeatId> {
    any::<u8>().prop_map(SeatId)
}
fn table() -> impl Strategy<Value = TableId> {
    any::<u64>().prop_map(TableId)
}
fn text() -> impl Strategy<Value = String> {
    ".{0,40}"
}
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..64)
}
fn party() -> impl Strategy<Value = Party> {
    prop_oneof![Just(Party::Server), seat().prop_map(Party::Seat)]
}
fn anchor() -> impl Strategy<Value = ChainAnchor> {
    (hash(), any::<u32>()).prop_map(|(anchor, len)| ChainAnchor { anchor, len })
}
fn link() -> impl Strategy<Value = SeatLink> {
    (seat(), any::<u32>(), hash()).prop_map(|(seat, index, link)| SeatLink { seat, index, link })
}
fn proof() -> impl Strategy<Value = RollProof> {
    (
        any::<u64>(),
        any::<u32>(),
        hash(),
        vec(link(), 0..3),
        hash(),
        vec(
            (any::<u16>(), any::<u16>()).prop_map(|(sides, value)| Die { sides, value }),
            0..8,
        ),
    )
        .prop_map(
            |(roll_index, server_index, server_link, seat_links, action_digest, dice)| RollProof {
                roll_index,
                server_index,
                server_link,
                seat_links,
                action_digest,
                dice,
            },
        )
}
fn channel() -> impl Strategy<Value = ChatChannel> {
    prop_oneof![Just(ChatChannel::Players), Just(ChatChannel::Spectators)]
}
fn options() -> impl Strategy<Value = TableOptions> {
    (
        text(),
        text(),
        bytes(),
        any::<bool>(),
        any::<bool>(),
        any::<u32>(),
    )
        .prop_map(
            |(ruleset, scenario, config, private, spectators_allowed, spectator_delay)| {
                TableOptions {
                    ruleset,
                    scenario,
                    config,
                    private,
                    spectators_allowed,
                    spectator_delay,
                    take_back_needs_agreement: private,
                }
            },
        )
}
fn summary() -> impl Strategy<Value = TableSummary> {
    (
        table(),
        text(),
        text(),
        vec(option::of(text()), 0..4),
        prop_oneof![
            Just(TableStatus::Open),
            Just(TableStatus::Playing),
            Just(TableStatus::Finished)
        ],
        any::<u32>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(table, ruleset, scenario, seats, status, spectators, private, spectators_allowed)| {
                TableSummary {
                    table,
                    ruleset,
                    scenario,
                    seats,
                    status,
                    spectators,
                    private,
                    spectators_allowed,
                    seat_users: vec![None, Some(UserId(table.0))],
                    to_act: vec![muster_shared::SeatId(spectators as u8)],
                    carried_from: private.then(|| format!("Game-Turn {spectators}")),
                }
            },
        )
}
fn snapshot() -> impl Strategy<Value = Snapshot> {
    (
        table(),
        any::<[u8; 16]>(),
        text(),
        bytes(),
        any::<u64>(),
        bytes(),
        vec(
            (party(), anchor(), any::<u32>(), hash()).prop_map(|(party, anchor, index, link)| {
                ChainHeadState {
                    party,
                    anchor,
                    index,
                    link,
                }
            }),
            0..3,
        ),
        any::<u64>(),
        option::of(seat()),
    )
        .prop_map(
            |(table, id, ruleset, config, seq, state, chains, rolls, seat)| Snapshot {
                table,
                match_id: MatchId(id),
                ruleset,
                config,
                seq,
                state,
                chains,
                rolls,
                seat,
            },
        )
}
fn error_code() -> impl Strategy<Value = ErrorCode> {
    use ErrorCode::*;
    prop::sample::select(vec![
        VersionMismatch,
        HandshakeRequired,
        NotSignedIn,
        BadToken,
        BadMessage,
        NoSuchTable,
        SeatTaken,
        TableFull,
        Forbidden,
        BadInvite,
        UnknownRuleset,
        RateLimited,
        Resync,
        Internal,
    ])
}
fn rule_error() -> impl Strategy<Value = RuleError> {
    use RuleCode::*;
    (
        text(),
        prop::sample::select(vec![
            NotYourTurn,
            NotYours,
            NotFound,
            Illegal,
            Invalid,
            DiceLink,
            GameOver,
            Internal,
        ]),
        text(),
    )
        .prop_map(|(rule, code, message)| RuleError {
            rule,
            code,
            message,
        })
}

fn client_msg() -> impl Strategy<Value = ClientMsg> {
    prop_oneof![
        (any::<u32>(), text()).prop_map(|(protocol, client)| ClientMsg::Hello { protocol, client }),
        text().prop_map(|name| ClientMsg::GuestSignIn { name }),
        text().prop_map(|token| ClientMsg::Resume { token }),
        any::<bool>().prop_map(|on| ClientMsg::WatchLobby { on }),
        options().prop_map(|options| ClientMsg::CreateTable { options }),
        (table(), option::of(seat()), option::of(text())).prop_map(|(table, seat, invite)| {
            ClientMsg::JoinSeat {
                table,
                seat,
                invite,
            }
        }),
        (table(), option::of(text()))
            .prop_map(|(table, invite)| ClientMsg::Spectate { table, invite }),
        table().prop_map(|table| ClientMsg::Leave { table }),
        (table(), anchor()).prop_map(|(table, anchor)| ClientMsg::PublishAnchor { table, anchor }),
        (table(), any::<u32>(), bytes(), vec(link(), 0..3)).prop_map(
            |(table, client_ref, action, links)| ClientMsg::Act {
                table,
                client_ref,
                action,
                links
            }
        ),
        (table(), any::<u64>()).prop_map(|(table, last_seq)| ClientMsg::Resync { table, last_seq }),
        (table(), channel(), text()).prop_map(|(table, channel, text)| ClientMsg::Chat {
            table,
            channel,
            text
        }),
        any::<u64>().prop_map(|nonce| ClientMsg::Ping { nonce }),
        Just(ClientMsg::ListSessions),
        Just(ClientMsg::NewSession),
        any::<u64>().prop_map(|s| ClientMsg::RevokeSession {
            session: SessionId(s)
        }),
    ]
}

fn delta_body() -> impl Strategy<Value = DeltaBody> {
    prop_oneof![
        (party(), anchor()).prop_map(|(party, anchor)| DeltaBody::Anchor { party, anchor }),
        (seat(), bytes(), option::of(proof()), any::<bool>()).prop_map(
            |(seat, events, roll, by_default)| DeltaBody::Action {
                seat,
                events,
                roll,
                by_default
            }
        ),
    ]
}

fn server_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        (any::<u32>(), text())
            .prop_map(|(protocol, server)| ServerMsg::Welcome { protocol, server }),
        (any::<u64>(), text(), option::of(text())).prop_map(|(u, name, token)| {
            ServerMsg::SignedIn {
                user: UserId(u),
                name,
                token,
            }
        }),
        (error_code(), text(), option::of(any::<u32>())).prop_map(|(code, message, client_ref)| {
            ServerMsg::Error {
                code,
                message,
                client_ref,
            }
        }),
        (table(), any::<u32>(), rule_error()).prop_map(|(table, client_ref, error)| {
            ServerMsg::Rejected {
                table,
                client_ref,
                error,
            }
        }),
        (table(), any::<u32>(), any::<u64>()).prop_map(|(table, client_ref, seq)| {
            ServerMsg::Accepted {
                table,
                client_ref,
                seq,
            }
        }),
        vec(summary(), 0..4).prop_map(|tables| ServerMsg::Lobby { tables }),
        summary().prop_map(|table| ServerMsg::LobbyUpdate { table }),
        table().prop_map(|table| ServerMsg::LobbyRemoved { table }),
        (table(), option::of(text()))
            .prop_map(|(table, invite)| ServerMsg::TableCreated { table, invite }),
        snapshot().prop_map(ServerMsg::Snapshot),
        (table(), any::<u64>(), delta_body()).prop_map(|(table, seq, body)| ServerMsg::Delta {
            table,
            seq,
            body
        }),
        (table(), text(), text(), bytes(), any::<u32>()).prop_map(
            |(table, rule, prompt, default, deadline_secs)| ServerMsg::Pending {
                table,
                rule,
                prompt,
                default,
                deadline_secs
            }
        ),
        (table(), channel(), text(), text(), any::<u64>()).prop_map(
            |(table, channel, from, text, user)| {
                ServerMsg::Chat {
                    table,
                    channel,
                    from,
                    text,
                    user: UserId(user),
                }
            }
        ),
        any::<u64>().prop_map(|nonce| ServerMsg::Pong { nonce }),
        vec((any::<u64>(), any::<u64>(), any::<bool>()), 0..4).prop_map(|v| ServerMsg::Sessions {
            sessions: v
                .into_iter()
                .map(|(id, t, current)| SessionInfo {
                    id: SessionId(id),
                    created: t,
                    last_used: t,
                    expires: t.saturating_add(1),
                    current,
                })
                .collect()
        }),
        (table(), ".{0,40}").prop_map(|(table, to)| ServerMsg::Moved { table, to }),
    ]
}

/// Issue 23: `Moved` is appended, so every older message keeps its
/// number on the wire and an older client still reads them all (it
/// cannot read `Moved` itself; the server closes the connection after it,
/// so such a client reconnects instead).
#[test]
fn moved_is_appended_after_every_older_message() {
    let pong = ServerMsg::Pong { nonce: 1 }.encode().unwrap();
    assert_eq!(pong[0], 13);
    let clock = ServerMsg::Clock {
        table: TableId(1),
        seat: None,
        secs_left: None,
    }
    .encode()
    .unwrap();
    assert_eq!(clock[0], 18);
    let moved = ServerMsg::Moved {
        table: TableId(1),
        to: "ws://127.0.0.1:7700".into(),
    }
    .encode()
    .unwrap();
    assert_eq!(moved[0], 19);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_client_message_round_trips(msg in client_msg()) {
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ClientMsg::decode(&bytes).unwrap(), msg);
        // ... and through stream framing.
        let mut framed: &[u8] = &codec::frame(&bytes);
        let payload = codec::read_frame(&mut framed, codec::MAX_CLIENT_MSG).unwrap().unwrap();
        prop_assert_eq!(payload, bytes);
    }

    #[test]
    fn every_server_message_round_trips(msg in server_msg()) {
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ServerMsg::decode(&bytes).unwrap(), msg);
    }

    /// Any prefix of a valid message is an error, never a panic and never
    /// a different message.
    #[test]
    fn truncated_messages_are_errors(msg in client_msg(), smsg in server_msg(), cut in any::<prop::sample::Index>()) {
        let bytes = msg.encode().unwrap();
        let short = &bytes[..cut.index(bytes.len())];
        prop_assert!(ClientMsg::decode(short).is_err());
        let bytes = smsg.encode().unwrap();
        let short = &bytes[..cut.index(bytes.len())];
        prop_assert!(ServerMsg::decode(short).is_err());
    }

    /// Random bytes decode to an error or to some message; never a panic.
    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..512)) {
        let _ = ClientMsg::decode(&bytes);
        let _ = ServerMsg::decode(&bytes);
        let mut input: &[u8] = &bytes;
        let _ = codec::read_frame(&mut input, codec::MAX_CLIENT_MSG);
    }

    /// Flipping one byte of a valid message never panics.
    #[test]
    fn corrupted_messages_never_panic(msg in server_msg(), at in any::<prop::sample::Index>(), x in 1..=255u8) {
        let mut bytes = msg.encode().unwrap();
        let i = at.index(bytes.len());
        bytes[i] ^= x;
        let _ = ServerMsg::decode(&bytes);
    }
}

#[test]
fn oversized_messages_are_refused_by_length_alone() {
    let big = vec![0u8; codec::MAX_CLIENT_MSG + 1];
    assert!(matches!(
        ClientMsg::decode(&big),
        Err(DecodeError::TooLarge { .. })
    ));
    // A frame header claiming more than the limit is refused before the
    // payload is read or any buffer allocated.
    let header = ((codec::MAX_CLIENT_MSG as u32) + 1).to_be_bytes();
    assert!(codec::frame_len(header, codec::MAX_CLIENT_MSG).is_err());
}

#[test]
fn a_huge_claimed_container_is_refused_before_allocating() {
    // Act { table, client_ref, action: Vec<u8> claiming 2^32-1 bytes }: the
    // variant index, two small varints, then the length prefix u32::MAX.
    let mut bytes = vec![9u8, 1, 1];
    bytes.extend([0xfc, 0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        ClientMsg::decode(&bytes),
        Err(DecodeError::Malformed(_))
    ));
    // The same for a list of links (37 bytes each in memory).
    let mut bytes = vec![9u8, 1, 1, 0];
    bytes.extend([0xfc, 0xff, 0xff, 0xff, 0xff]);
    assert!(ClientMsg::decode(&bytes).is_err());
}
