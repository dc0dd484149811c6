//! The battles' exclusive rules as the Standard Rules see them: which
//! battle's rules a table plays ([`rules_for`]), the state those rules keep
//! in the game state and its events, and their folds of that state.
//!
//! This is the one module that names the battles. A battle brings its
//! folder (`cedar/`, `corinth/`) with a [`BattleRules`] implementation and
//! is listed here; a battle written for a test hands its implementation to
//! [`crate::gbacw::ruleset::Gbacw::with_rules`] and touches nothing else.
//!
//! The folder also holds the exclusive rules more than one battle plays,
//! each switched on by its scenario `hook` line: a brigade that has lost
//! its Brigade Combat Effectiveness ([`bce_loss`]), dismounted cavalry in
//! melee ([`dismounted_cavalry`]).

pub(crate) mod bce_loss;
pub(crate) mod dismounted_cavalry;

/// Cedar Mountain 27.22 "actually occupied": an ambiguity of 004 (the
/// Cedar Mountain rules are in no other printing), offered as a table
/// option (`vp-hex-stand`, `config.rs`).
pub(crate) const VP_HEX_STAND_CASE: &str = "Cedar Mountain 27.22";
/// Corinth 22.1 "always enfiladed" for mounted cavalry in a
/// retreat-before-melee check: by the attacker's hex (22.1's own "i.e.")
/// or always (GBACW 7.0, 16.35); a named option
/// (`mounted-always-enfiladed`, `config.rs`; docs/gbacw-notes.md).
pub(crate) const MOUNTED_ALWAYS_ENFILADED_CASE: &str = "Corinth 22.1";

use super::battle_rules::{BattleRules, StandardRules};
use super::cedar::rules::CedarMountain;
use super::corinth::rules::Corinth;
use super::event::GbacwEvent;
use super::state::GbacwState;
use crate::gbacw::scenario::{HookKind, Scenario};
use std::sync::Arc;

pub use super::corinth::barrage::{Barrage, BarrageRoll};
pub use super::corinth::bce_recovery::BceRecovery;
pub use super::corinth::brigade_retreat::BrigadeRun;
pub use super::corinth::leader_binding::LeaderBinding;
pub use super::corinth::melee_gate::GateCheck;
pub use super::corinth::rapid_fire::RapidFireState;
pub use super::corinth::retreat_batteries::BatteryRetreatOffer;
pub use super::corinth::solitaire::DivisionRoll;
pub use super::corinth::stragglers::{NightRecord, StragglerRoll};

/// The exclusive rules of `battle` (a shipped battle's name), or, for a
/// battle the registry does not list (a rule case's position), of the
/// shipped battle whose `hook` lines its scenario uses (none: the Standard
/// Rules alone).
pub(crate) fn rules_for(battle: &str, scenario: &Scenario) -> Result<Arc<dyn BattleRules>, String> {
    use crate::gbacw::battles::{cedar_mountain, corinth, test};
    let name = match battle {
        n if n == cedar_mountain::NAME => "cedar_mountain",
        n if n == corinth::NAME || n == corinth::FREE_NAME || n == corinth::SOLO_NAME => "corinth",
        n if n == test::NAME => "test",
        _ if scenario.hooks.iter().any(|h| corinth_only(h.kind)) => "corinth",
        _ if !scenario.hooks.is_empty() => "cedar_mountain",
        _ => "test",
    };
    Ok(match name {
        "cedar_mountain" => Arc::new(CedarMountain::for_scenario(scenario)?),
        "corinth" => Arc::new(Corinth::for_scenario(scenario)?),
        _ => Arc::new(StandardRules),
    })
}

/// Whether only Corinth's rules play the hook `kind` (the hooks before
/// Corinth's in the scenario format are Cedar Mountain's; three of them,
/// BCE loss, dismounted cavalry and army commanders not replaced, serve
/// both and are read by the Standard Rules modules they live in).
fn corinth_only(kind: HookKind) -> bool {
    !matches!(
        kind,
        HookKind::DismountedCavalry
            | HookKind::NoAmmunition
            | HookKind::PathsOverHexsides
            | HookKind::CrestHexHigher
            | HookKind::SteepCrest
            | HookKind::LakeHexsides
            | HookKind::Runs
            | HookKind::Cornfields
            | HookKind::ArtilleryOvershoot
            | HookKind::RetreatDirections
            | HookKind::BceLoss
            | HookKind::ArmyCommandPoints
            | HookKind::ArmyNotReplaced
            | HookKind::ColumnEntry
            | HookKind::NoLeavingMap
            | HookKind::EntryTurnCommandFree
            | HookKind::BlockedEntryDelay
    )
}

/// Fold one event into the state the exclusive rules keep: the record
/// every event adds to (who moved or fired, leaders bound to units), in
/// every battle, so that a log replays to the same state whoever reads it.
pub(crate) fn note(state: &mut GbacwState, event: &GbacwEvent) {
    // Corinth 26.21, 26.23: who moved or fired, when BCE was lost.
    super::corinth::stragglers::note(state, event);
    // Corinth 22.33: leaders bound to units, until a Movement Phase.
    super::corinth::leader_binding::evolve(state, event);
}

/// Fold an event of the exclusive rules' own (or one they follow: crews
/// on a rout or a capture) into the state.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    use super::corinth;
    use GbacwEvent as E;
    match event {
        E::FireMadeRapid { .. } | E::FoulingRolled { .. } | E::UnfoulRolled { .. } => {
            corinth::rapid_fire::evolve(state, event)
        }
        E::SolitaireStarted { .. } | E::SolitaireRolled { .. } => {
            corinth::solitaire::evolve(state, event)
        }
        E::MeleeGateChecked(check) => corinth::melee_gate::evolve(state, check),
        E::StragglerRolled(r) => corinth::stragglers::evolve(state, r),
        E::BceRecovered(r) => corinth::bce_recovery::evolve(state, r),
        E::BarrageBegun { .. } | E::BarrageRolled(_) | E::BarrageEnded { .. } => {
            corinth::barrage::evolve(state, event)
        }
        E::BatteryRetreatOffered(_) | E::BatteryRetreatAnswered => {
            corinth::retreat_batteries::evolve(state, event)
        }
        // Crews away from their guns (the Standard Rules', GBACW 15.16):
        // routed, moved, and what becomes of them when their guns are
        // removed or move.
        _ => super::crews::evolve(state, event),
    }
}
