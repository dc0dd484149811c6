//! GBACW 15.0: artillery moves or fires in a Player-Turn, not both.

/// What a battery wants to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    Move,
    Fire,
}

/// GBACW 15.0: once a battery has fired it may not move, once it has
/// moved it may not fire; changing formation in place (limbered to
/// unlimbered) is not moving, so it may still fire. `moved` is true only
/// for leaving the hex.
pub fn may_do(activity: Activity, moved: bool, fired: bool) -> Result<(), &'static str> {
    match activity {
        Activity::Move if fired => Err("GBACW 15.0"),
        Activity::Fire if moved => Err("GBACW 15.0"),
        _ => Ok(()),
    }
}
