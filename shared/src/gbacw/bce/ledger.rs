//! GBACW 18.0: the BCE boxes of each brigade.

use crate::gbacw::oob::{CounterId, UnitKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Something that may mark BCE boxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BceEvent {
    /// A unit of the brigade lost Strength Points (18.0).
    StrengthLost { kind: UnitKind, points: u8 },
    /// A unit ran out of ammunition (18.0 names it as an Exclusive Rules
    /// factor).
    AmmoDepleted,
    /// A unit routed.
    Routed,
}

/// The Exclusive Rules' hook: how many boxes an event marks. The
/// Standard Rules mark one per infantry or cavalry Strength Point and
/// nothing else.
pub trait BceRules {
    fn boxes(&self, event: &BceEvent) -> u16;
}

/// GBACW 18.0 as printed, for games whose Exclusive Rules add nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StandardBce;

impl BceRules for StandardBce {
    fn boxes(&self, event: &BceEvent) -> u16 {
        match event {
            BceEvent::StrengthLost {
                kind: UnitKind::Infantry | UnitKind::Cavalry,
                points,
            } => u16::from(*points),
            _ => 0,
        }
    }
}

/// One brigade's boxes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BceTrack {
    /// Boxes left of the Victory Point award (the brigade's limit).
    pub limit: u16,
    pub marked: u16,
}

impl BceTrack {
    /// GBACW 18.0: all the boxes marked: the brigade has lost its BCE.
    pub fn lost(self) -> bool {
        self.marked >= self.limit
    }
}

/// Every brigade's track, by brigade leader id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BceLedger {
    pub brigades: BTreeMap<CounterId, BceTrack>,
}

impl BceLedger {
    /// Mark the boxes `event` calls for under `rules`; returns `true` when
    /// this event made the brigade lose its BCE (so the caller emits it
    /// once). Brigades without a track (none on the roster) are ignored.
    pub fn record(&mut self, rules: &dyn BceRules, brigade: &CounterId, event: &BceEvent) -> bool {
        let Some(track) = self.brigades.get_mut(brigade) else {
            return false;
        };
        let before = track.lost();
        track.marked = track.marked.saturating_add(rules.boxes(event));
        !before && track.lost()
    }

    pub fn lost(&self, brigade: &CounterId) -> bool {
        self.brigades.get(brigade).is_some_and(|t| t.lost())
    }
}

/// GBACW 17.67: a brigade that has lost its BCE may not be detached.
pub fn may_detach(bce_lost: bool) -> bool {
    !bce_lost
}

/// GBACW 17.67: it may still be attached to a division if it is already
/// detached (and a brigade in good order may be attached under 17.64).
pub fn may_attach(bce_lost: bool, currently_detached: bool) -> bool {
    !bce_lost || currently_detached
}
