//! Table options stored by an older server still load (issue 18 added
//! `take_back_needs_agreement` at the end of `TableOptions`).

use muster_shared::codec;
use muster_shared::protocol::TableOptions;
use serde::Serialize;

/// `TableOptions` as servers stored it before issue 18.
#[derive(Serialize)]
struct OptionsBeforeTakeBack {
    ruleset: String,
    scenario: String,
    #[serde(with = "serde_bytes")]
    config: Vec<u8>,
    private: bool,
    spectators_allowed: bool,
    spectator_delay: u32,
}

#[test]
fn options_stored_before_take_back_load_as_needing_agreement() {
    let old = OptionsBeforeTakeBack {
        ruleset: "gbacw".into(),
        scenario: "cedar_mountain".into(),
        config: vec![1, 2, 3],
        private: true,
        spectators_allowed: false,
        spectator_delay: 7,
    };
    let bytes = codec::encode(&old).unwrap();
    let o = TableOptions::decode_stored(&bytes, codec::MAX_SERVER_MSG).unwrap();
    assert_eq!(o.ruleset, "gbacw");
    assert_eq!(o.config, vec![1, 2, 3]);
    assert!(o.private && !o.spectators_allowed);
    assert_eq!(o.spectator_delay, 7);
    assert!(o.take_back_needs_agreement);
}

#[test]
fn options_stored_now_round_trip_and_garbage_is_refused() {
    let now = TableOptions {
        ruleset: "sandbox".into(),
        scenario: "test".into(),
        config: vec![],
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: false,
    };
    let bytes = codec::encode(&now).unwrap();
    assert_eq!(
        TableOptions::decode_stored(&bytes, codec::MAX_SERVER_MSG).unwrap(),
        now
    );
    assert!(TableOptions::decode_stored(&[0xff; 3], codec::MAX_SERVER_MSG).is_err());
}
