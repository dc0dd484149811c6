//! Fixtures for the rule modules' own unit tests (muster-shared only: the
//! texts come from `#[cfg(test)]` modules): the shipped charts and tables,
//! the test map and the test order of battle, and a unit in a chosen state.

use super::id;
use crate::gbacw::charts::Charts;
use crate::gbacw::map::{Map, parse_map};
use crate::gbacw::oob::{Formation, Oob, Unit, UnitStatus, parse_oob};
use crate::gbacw::tables::Tables;

pub(crate) struct World {
    pub map: Map,
    pub charts: Charts,
    pub tables: Tables,
    pub oob: Oob,
}

pub(crate) fn world() -> World {
    let charts = Charts::load(crate::gbacw::charts::tests::CHARTS).unwrap();
    let tables = Tables::load(crate::gbacw::tables::tests::TABLES).unwrap();
    let map = parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap();
    let oob = parse_oob(crate::gbacw::oob::tests::TEST_OOB, &charts.range).unwrap();
    World {
        map,
        charts,
        tables,
        oob,
    }
}

impl World {
    pub fn unit(&self, s: &str) -> Unit {
        self.oob.units[&id(s)].clone()
    }

    /// The unit fresh from the order of battle, in `formation`.
    pub fn status(&self, s: &str, formation: Formation) -> UnitStatus {
        let mut st = UnitStatus::fresh(&self.unit(s));
        st.formation = formation;
        st
    }
}

/// A die stream from a fixed list (the last value repeats).
pub(crate) fn dice(values: &[u8]) -> impl FnMut() -> u8 + '_ {
    let mut i = 0;
    move || {
        let v = values[i.min(values.len() - 1)];
        i += 1;
        v
    }
}
