//! A GBACW table's config as a client sends it (`CreateTable`'s
//! `config`): plain, or a game continued from a saved one, whose log the
//! server replays to find the table's start
//! (`gbacw::ruleset::continued`).

use super::alloc_guard::limited;
use super::wire::decode_ceiling;
use crate::codec;
use crate::engine::Ruleset;
use crate::gbacw::ruleset::Gbacw;

/// Any bytes as a GBACW config: decoded as the server decodes it (bounded
/// by a client message's size); what decodes encodes back to the same
/// config, and the table is built (the battle loaded, a continued game's
/// log replayed through the rules and its proofs) or refused in words,
/// never a panic. The build runs outside the allocation guard: loading a
/// battle's map is the server's own allocation, not the input's.
pub fn gbacw_config(data: &[u8]) {
    let decoded = limited(
        decode_ceiling(codec::MAX_CLIENT_MSG),
        "gbacw config",
        || Gbacw::decode_config(data, codec::MAX_CLIENT_MSG),
    );
    let Ok(config) = decoded else { return };
    let again = Gbacw::encode_config(&config);
    let back = Gbacw::decode_config(&again, usize::MAX).expect("an encoded config decodes");
    assert_eq!(back, config, "the config changed through its encoding");
    if let Err(e) = Gbacw::new(&config) {
        assert!(!e.message.is_empty(), "a refusal without words");
    }
}
