//! Events stored by older servers, brought to the current layout by the
//! club schema's steps (`storage/club.rs`).
//!
//! An event row is the codec's encoding of [`super::event::Event`]: its
//! fields one after another, no names, no lengths of structs. A field
//! appended at the end of the event is read by `desk::decode_stored`; one
//! appended inside it (to the settings, the second field) shifts every
//! field after it, so the rows are rewritten once, by a schema step, and
//! the version number keeps an older server from misreading them.

use muster_shared::codec::{self, DecodeError};
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{
    EventSettings, PairingMethod, PointsTable, RoundScenario, SideAssignment, TimeControl,
};
use serde::{Deserialize, Serialize};

/// `EventSettings` as stored up to club schema 3: without
/// `round_scenarios` (one battle for every round).
#[derive(Serialize, Deserialize)]
pub(crate) struct SettingsOneBattle {
    pub name: String,
    pub ruleset: String,
    pub scenario: String,
    /// `serde_bytes` in the protocol's struct; the codec writes a byte
    /// string and a sequence of bytes alike (a length, then the bytes:
    /// `old_settings_are_the_new_without_their_last_field`).
    pub config: Vec<u8>,
    pub rounds: u8,
    pub pairing: PairingMethod,
    pub sides: SideAssignment,
    pub invite_only: bool,
    pub check_in: bool,
    pub time: Option<TimeControl>,
    pub points: PointsTable,
    pub seed: u64,
}

impl From<SettingsOneBattle> for EventSettings {
    fn from(s: SettingsOneBattle) -> Self {
        EventSettings {
            name: s.name,
            ruleset: s.ruleset,
            scenario: s.scenario,
            config: s.config,
            rounds: s.rounds,
            pairing: s.pairing,
            sides: s.sides,
            invite_only: s.invite_only,
            check_in: s.check_in,
            time: s.time,
            points: s.points,
            seed: s.seed,
            round_scenarios: Vec::new(),
        }
    }
}

/// An event row of one battle for every round, rewritten with an empty
/// `round_scenarios` (which means just that): the director and the old
/// settings are read, the new field's bytes go after them, and the rest
/// of the row (entrants, rounds, desk, extras, whichever it has) is kept
/// byte for byte.
pub(crate) fn with_round_scenarios(row: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let ((_, _), used): ((UserId, SettingsOneBattle), usize) =
        codec::decode_prefix(row, codec::MAX_SERVER_MSG)?;
    let none: Vec<RoundScenario> = Vec::new();
    Ok([
        &row[..used],
        &codec::encode_infallible(&none)[..],
        &row[used..],
    ]
    .concat())
}

/// `event` as a server before club schema 3 stored it (for the tests of
/// the step).
#[cfg(test)]
pub(crate) fn old_row(event: &super::event::Event) -> Vec<u8> {
    let s = &event.settings;
    let settings = SettingsOneBattle {
        name: s.name.clone(),
        ruleset: s.ruleset.clone(),
        scenario: s.scenario.clone(),
        config: s.config.clone(),
        rounds: s.rounds,
        pairing: s.pairing,
        sides: s.sides,
        invite_only: s.invite_only,
        check_in: s.check_in,
        time: s.time.clone(),
        points: s.points.clone(),
        seed: s.seed,
    };
    codec::encode_infallible(&(
        event.director,
        settings,
        &event.invite,
        &event.entrants,
        &event.roster,
        &event.rounds,
        &event.desk,
        &event.extras,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::event::Event;
    use muster_shared::protocol::club::{AtZero, LevelPoints};

    fn old_settings() -> SettingsOneBattle {
        SettingsOneBattle {
            name: "Rapidan Open".into(),
            ruleset: "gbacw".into(),
            scenario: "Cedar Mountain, 9 August 1862".into(),
            config: vec![1, 2, 3],
            rounds: 3,
            pairing: PairingMethod::Swiss,
            sides: SideAssignment::Bid,
            invite_only: true,
            check_in: true,
            time: Some(TimeControl {
                bank_secs: 60,
                increment_secs: 5,
                per_decision_secs: 0,
                at_zero: AtZero::Loss,
            }),
            points: PointsTable {
                levels: vec![LevelPoints {
                    level: "tactical".into(),
                    winner: 3,
                    loser: 0,
                }],
                ..PointsTable::default()
            },
            seed: 77,
        }
    }

    /// A row of the old layout (the fields of an event, the settings
    /// without `round_scenarios`) reads, once rewritten, as the same event
    /// with one battle for every round; so does a row older still (no
    /// desk, no extras).
    #[test]
    fn an_old_event_row_is_rewritten_with_one_battle_for_every_round() {
        let mut now = Event::new(UserId(4), old_settings().into(), Some("1-abcd".into()));
        now.register(UserId(9), "Ewell", Some("1-abcd")).unwrap();
        let rest =
            codec::encode_infallible(&(&now.invite, &now.entrants, &now.roster, &now.rounds));
        let tail = codec::encode_infallible(&(&now.desk, &now.extras));
        let head = codec::encode_infallible(&(now.director, old_settings()));
        for old in [
            [&head[..], &rest, &tail].concat(),
            [&head[..], &rest].concat(),
        ] {
            let row = with_round_scenarios(&old).unwrap();
            let back = crate::club::desk::decode_stored(&row).unwrap();
            assert_eq!(back.settings, now.settings);
            assert!(back.settings.round_scenarios.is_empty());
            assert_eq!(back.entrants[0].name, "Ewell");
            assert_eq!(back.invite.as_deref(), Some("1-abcd"));
        }
    }

    #[test]
    fn old_settings_are_the_new_without_their_last_field() {
        let new: EventSettings = old_settings().into();
        let new = codec::encode_infallible(&new);
        let old = codec::encode_infallible(&old_settings());
        assert_eq!(old[..], new[..new.len() - 1]);
        assert_eq!(new.last(), Some(&0), "an empty list is one byte");
    }

    /// Bad bytes are an error, never a panic.
    #[test]
    fn a_row_that_is_no_event_is_an_error() {
        for bad in [&[][..], &[0xff; 3], &[4, 0, 0]] {
            assert!(with_round_scenarios(bad).is_err());
        }
    }
}
