//! GBACW 4.0: the last Game-Turn is over; nothing is asked.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::ruleset::err;
use crate::gbacw::ruleset::event::GbacwEvent;

pub(super) fn prompt() -> String {
    "the battle is over".into()
}

pub(super) fn decide() -> Result<Vec<GbacwEvent>, RuleError> {
    Err(err(
        "GBACW 4.0",
        RuleCode::GameOver,
        "the last Game-Turn is over",
    ))
}
