//! GBACW 8.0, 8.16, 8.17: which friendly hexes a moving unit may enter.

use crate::gbacw::oob::{Formation, Unit};

/// Whether a unit in `formation` may move into a hex holding the friendly
/// combat units `occupants` (with their formations); `Err` names the case.
/// Units otherwise move through friends freely (8.0), and the limits of
/// the hex are checked only at the end of the phase ([`super::check_hex`]).
/// - GBACW 8.16: infantry in Column never enters a hex holding another
///   combat unit.
/// - GBACW 8.17: mounted cavalry enters only hexes holding nothing but
///   mounted cavalry (and leaders, which are not units).
pub fn may_enter(
    formation: Formation,
    occupants: &[(&Unit, Formation)],
) -> Result<(), &'static str> {
    match formation {
        Formation::Column if !occupants.is_empty() => Err("GBACW 8.16"),
        Formation::Mounted if occupants.iter().any(|(_, f)| *f != Formation::Mounted) => {
            Err("GBACW 8.17")
        }
        _ => Ok(()),
    }
}
