//! Cedar Mountain 23.0: units retreat only toward their own lines —
//! Confederates northwest, west or southwest (23.1), Union northeast, east
//! or southeast (23.2) — every step of every retreat (the limit is
//! `combat/retreat_limits.rs`'s; this is the compass it is read on).
//! 23.0 does not touch the advance after melee: it speaks of retreats
//! ("may never use the retreat as an advance").

use crate::gbacw::map::{HexNumber, Orientation};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::combat::retreat_limits::compass;
use crate::gbacw::scenario::HookKind;
use hexx::EdgeDirection;

/// Cedar Mountain 23.1, 23.2: the edge directions `unit` may retreat in,
/// from any hex (the compass does not change over the map); `None` if
/// the rule is off or names no limit for its side.
pub(crate) fn directions(rs: &Gbacw, unit: &CounterId) -> Option<Vec<EdgeDirection>> {
    let hook = rs.game.scenario.hook(HookKind::RetreatDirections)?;
    let side = &rs.game.oob.units.get(unit)?.side;
    let allowed: Vec<&str> = hook.param(&side.0)?.split(',').collect();
    let north = rs.game.scenario.north.as_deref()?;
    let grid = &rs.game.map.grid;
    // Only flat-topped grids have a compass here (every shipped battle);
    // a pointy-topped one would need its own reading, not a ban on all.
    if grid.orientation != Orientation::Flat {
        return None;
    }
    // Any hex with all six neighbours shows every direction; both column
    // parities give the same compass.
    let mid = HexNumber::new(
        grid.cols.0.saturating_add(2) | 1,
        grid.rows.0.saturating_add(2),
    )?;
    Some(
        grid.neighbours_on_map(mid)
            .into_iter()
            .filter(|(_, to)| compass(grid, north, mid, *to).is_some_and(|p| allowed.contains(&p)))
            .map(|(d, _)| d)
            .collect(),
    )
}
