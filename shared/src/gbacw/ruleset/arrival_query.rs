//! The client's arrivals tray (issue 18): what a reinforcement is when
//! it comes in, from the code that brings it in — the formation it
//! enters in and the Game-Turn it is due.

use super::Gbacw;
use super::decide::arrival::entry_class;
use super::state::GbacwState;
use crate::gbacw::oob::{CounterId, Formation};

impl Gbacw {
    /// Cedar Mountain 26.46, Corinth 29.3: the formation `piece` enters
    /// the map in (column, mounted or limbered; Corinth's infantry in
    /// line where its arrival line says so); `None` for a leader or a
    /// counter that does not arrive.
    pub fn arrival_formation(&self, piece: &CounterId) -> Option<Formation> {
        self.game.scenario.arrival_of(piece)?;
        entry_class(self, piece).1
    }

    /// Cedar Mountain 26.4, Corinth 29.2: the Game-Turn from which
    /// `piece` may enter — its arrival line's, or under the Corinth
    /// assault plan the plotted Game-Turn of its division (known to the
    /// plan's owner). `None` if it does not arrive or the plan is hidden.
    pub fn arrival_turn(&self, state: &GbacwState, piece: &CounterId) -> Option<u16> {
        let arrival = self.game.scenario.arrival_of(piece)?;
        if arrival.plan.is_some() {
            return super::plan::entry(self, state, piece).map(|(_, turn, _)| turn);
        }
        Some(arrival.turn)
    }
}
