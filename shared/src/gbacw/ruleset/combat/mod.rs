//! Combat in the hosted ruleset: fire (9.0–9.8), melee (12), withdrawal fire resolved
//! (10.1x), its effects — losses, crews, leader casualties, morale, rout
//! and the rout retreat (13, 14, 17.72) — and rallying (13.5).
//!
//! The rule arithmetic lives in the pure modules (`gbacw::fire`,
//! `gbacw::morale`, `gbacw::leaders`, `gbacw::retreat`, `gbacw::rally`);
//! this module decides *when* they apply to the game state and turns their
//! answers into events.
//!
//! - [`declare`]: validating a declared attack against the phase's plan.
//! - [`attack`]: an attack's strength, CRT row and column shifts.
//! - [`effects`]: what a Fire CRT result does to a hex.
//! - [`resolve`]: rolling the Fire Phase's plan (9.42) and withdrawal fire.
//! - [`melee`]: declaring melee, retreat before melee, resolving melee (12).
//! - [`rally`]: the Rally Phase.
//! - [`resupply`]: the Ammunition Resupply Phase.
//! - [`caisson`]: exploding caissons (15.2).
//! - [`advance`]: retreat before melee under withdrawal fire, the advance (12.83, 12.85).
//! - [`charge`]: cavalry charges (16.2).
//! - [`displacement`]: friends displaced by a retreat (14.3).
//! - [`retreat_fire`]: retreat fire (10.2).
//! - [`engaged`]: engaged units withdrawing two hexes (12.94 option 3).
//! - [`succession`]: leader succession and promotion (17.8).
//! - [`transfer`]: rounds passed between batteries (11.33).
//! - [`recrew`]: a wagon's crew replaced in the Final Command Phase (11.18).

pub(crate) mod advance;
pub(crate) mod attack;
pub(crate) mod caisson;
pub(crate) mod charge;
pub(crate) mod declare;
pub(crate) mod displacement;
pub(crate) mod effects;
pub(crate) mod engaged;
pub(crate) mod melee;
pub(crate) mod rally;
pub(crate) mod rbm_options;
pub(crate) mod recrew;
pub(crate) mod rejoin;
pub(crate) mod resolve;
pub(crate) mod resupply;
pub(crate) mod retreat_fire;
pub(crate) mod retreat_limits;
pub(crate) mod succession;
pub(crate) mod transfer;

use super::event::{GbacwEvent, evolve};
use super::state::GbacwState;
use crate::engine::{Dice, RuleError};

/// The result tables (9.16, 12.98, 13.15, 17.76, 8.35, 11.34), transcribed
/// from the seeds' chart pages.
pub const TABLES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/tables.toml"
));

/// GBACW 9.51: the most columns the shifts may move an attack either way.
pub const MAX_SHIFT: u8 = 2;

/// Events produced one after another, each folded into a scratch copy of
/// the state at once, so that later steps of a resolution (a morale check
/// after losses, a retreat after a rout) see what earlier steps did —
/// exactly as a follower folding the same events will.
pub(crate) struct Unfold {
    pub state: GbacwState,
    pub events: Vec<GbacwEvent>,
    /// How deep a chain of displacements (14.3) runs at the moment.
    pub chain: u8,
    /// GBACW 10.2: the routed retreater under retreat fire, who does not
    /// rout again from it.
    pub no_re_rout: Option<crate::gbacw::oob::CounterId>,
}

impl Unfold {
    pub fn new(state: &GbacwState) -> Self {
        Unfold {
            state: state.clone(),
            events: Vec::new(),
            chain: 0,
            no_re_rout: None,
        }
    }

    pub fn push(&mut self, event: GbacwEvent) {
        evolve(&mut self.state, &event);
        self.events.push(event);
    }
}

/// Six-sided dice from the action's stream, for the pure rule functions
/// that take `FnMut() -> u8`. A failure (which would be the engine's bug:
/// rolling for an action declared dice-free) is kept and reported when
/// the resolution finishes, never a panic.
pub(crate) struct Roller<'d> {
    dice: &'d mut Dice,
    failed: Option<RuleError>,
}

impl<'d> Roller<'d> {
    pub fn new(dice: &'d mut Dice) -> Self {
        Roller { dice, failed: None }
    }

    pub fn d6(&mut self) -> u8 {
        match self.dice.roll(6) {
            Ok(v) => u8::try_from(v).unwrap_or(1),
            Err(e) => {
                self.failed.get_or_insert(e);
                1
            }
        }
    }

    pub fn two_d6(&mut self) -> u8 {
        let a = self.d6();
        a + self.d6()
    }

    pub fn finish(self) -> Result<(), RuleError> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
