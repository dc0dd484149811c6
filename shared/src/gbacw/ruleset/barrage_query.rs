//! The client's Pre-Dawn Barrage panel (Corinth 26.4): who fires now,
//! which of its batteries may still fire and at which hexes, and whether
//! an attack would be accepted. Every answer comes from `decide` itself,
//! as the legal-action set's do, so the panel cannot offer an attack the
//! table would refuse (nor hide one it would take).

use super::action::GbacwAction;
use super::state::GbacwState;
use super::{Gbacw, decide};
use crate::dice::DiceStream;
use crate::engine::{Dice, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::scenario::HookKind;
use std::collections::BTreeSet;

/// One battery of the side firing the barrage, with the hexes it may fire
/// at on its own now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrageBattery {
    pub unit: CounterId,
    pub hex: HexNumber,
    /// Corinth 26.42: enemy hexes less than `range=` hexes away that an
    /// attack by this battery alone may target (facing, line of sight and
    /// every other check of an Offensive Fire Phase's declaration).
    pub targets: Vec<HexNumber>,
}

impl Gbacw {
    /// Corinth 26.41, 26.43: the side firing in the Pre-Dawn Barrage now;
    /// `None` when there is no barrage.
    pub fn barrage_side<'a>(&self, state: &'a GbacwState) -> Option<&'a CounterId> {
        state.night.barrage.as_ref().map(|b| &b.side)
    }

    /// Corinth 26.42: each battery of the firing side on the map that has
    /// not fired in the barrage yet, with its targets (possibly none), in
    /// id order. Empty when there is no barrage.
    pub fn barrage_batteries(&self, state: &GbacwState) -> Vec<BarrageBattery> {
        let Some(b) = &state.night.barrage else {
            return Vec::new();
        };
        let range = self
            .game
            .scenario
            .hook(HookKind::PreDawnBarrage)
            .and_then(|h| h.number("range"))
            .unwrap_or(9);
        let grid = &self.game.map.grid;
        let oob = &self.game.oob;
        let enemy: BTreeSet<HexNumber> = state
            .units
            .iter()
            .filter(|(id, _)| oob.units.get(*id).is_some_and(|u| u.side != b.side))
            .filter_map(|(_, u)| u.hex)
            .collect();
        state
            .units
            .iter()
            .filter(|(id, _)| !b.fired.contains(*id))
            .filter(|(id, _)| {
                oob.units
                    .get(*id)
                    .is_some_and(|u| u.side == b.side && matches!(u.kind, UnitKind::Battery { .. }))
            })
            .filter_map(|(id, u)| {
                let from = u.hex?;
                let targets = enemy
                    .iter()
                    .copied()
                    .filter(|h| grid.distance(from, *h) < u32::from(range))
                    .filter(|h| {
                        self.check_barrage(state, *h, std::slice::from_ref(id))
                            .is_ok()
                    })
                    .collect();
                Some(BarrageBattery {
                    unit: id.clone(),
                    hex: from,
                    targets,
                })
            })
            .collect()
    }

    /// Corinth 26.42: whether the firing side's `firers` may fire at
    /// `target` now: `Ok` exactly when `BarrageFire` would be accepted,
    /// else the table's refusal with its case.
    pub fn check_barrage(
        &self,
        state: &GbacwState,
        target: HexNumber,
        firers: &[CounterId],
    ) -> Result<(), RuleError> {
        let seat = match &state.night.barrage {
            Some(b) => self.seat_of(&b.side),
            None => self.seat_of(&self.game.first),
        };
        let action = GbacwAction::BarrageFire {
            target,
            firers: firers.to_vec(),
        };
        // The die does not change whether the attack is accepted.
        let mut dice = Dice::from_stream(DiceStream::from_seed(b"muster barrage check"));
        decide::decide(self, state, seat, &action, &mut dice).map(|_| ())
    }
}
