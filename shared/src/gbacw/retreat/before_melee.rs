//! GBACW 12.8–12.89, 16.1, 16.26, 11.17, 10.15: retreat before melee.

use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, Unit, UnitKind, UnitStatus};

/// How a unit retreats before melee, and what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RbmTerms {
    /// GBACW 12.83: withdrawal fire from the enemies whose ZOC it leaves.
    pub withdrawal_fire: bool,
    /// GBACW 12.83: a morale check whether fired on or not.
    pub morale_check: bool,
}

/// Who is coming.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// The would-be attackers are all infantry or dismounted cavalry.
    pub foot_only: bool,
    /// The melee declared is a cavalry charge (16.2).
    pub charge: bool,
}

/// Whether a unit threatened with melee may retreat before it, and on
/// which terms. In or out of command makes no difference (12.89).
/// - GBACW 12.86: never unlimbered artillery; 11.17: never an uncrewed wagon.
/// - GBACW 12.87, 9.84, 13.32: never pinned or routed units.
/// - GBACW 16.26: charged units may not, except mounted cavalry.
/// - GBACW 16.1, 12.84: unrouted mounted cavalry threatened only by foot,
///   or charged, goes without withdrawal fire or morale check; dismounted
///   cavalry retreats as infantry.
pub fn may_retreat_before_melee(
    unit: &Unit,
    status: &UnitStatus,
    threat: Threat,
) -> Result<RbmTerms, &'static str> {
    let m = &status.markers;
    if m.contains(&Marker::Pin) || m.contains(&Marker::Rout) {
        return Err("GBACW 12.87");
    }
    if matches!(unit.kind, UnitKind::Battery { .. }) && status.formation == Formation::Unlimbered {
        return Err("GBACW 12.86");
    }
    if matches!(unit.kind, UnitKind::Wagon { .. }) && status.crew == Crew::None {
        return Err("GBACW 11.17");
    }
    let mounted = status.formation == Formation::Mounted;
    if threat.charge && !mounted {
        return Err("GBACW 16.26");
    }
    let cavalry_terms = mounted && (threat.foot_only || threat.charge);
    Ok(RbmTerms {
        withdrawal_fire: !cavalry_terms,
        morale_check: !cavalry_terms,
    })
}

/// GBACW 12.81: one or two hexes away.
pub fn rbm_length_ok(hexes: usize) -> bool {
    (1..=2).contains(&hexes)
}

/// GBACW 12.8: the defender answers the attacker's declarations at once,
/// retreating only units the attacker declared against. `Err` names a
/// unit not threatened.
pub fn answer_declarations(
    threatened: &[CounterId],
    retreating: &[CounterId],
) -> Result<(), CounterId> {
    match retreating.iter().find(|r| !threatened.contains(r)) {
        Some(r) => Err(r.clone()),
        None => Ok(()),
    }
}

/// GBACW 10.15, 12.88: hexes a unit pinned by withdrawal fire still moves:
/// one in the Movement Phase (then it is pinned); none when it was trying
/// to retreat before melee — it stands and takes the melee.
pub fn hexes_after_withdrawal_pin(retreating_before_melee: bool) -> u8 {
    if retreating_before_melee { 0 } else { 1 }
}
