//! GBACW 17.76: the Leader Casualty Table (rolled per leader, 17.72).

use crate::gbacw::charts::rows::keyed;
use crate::gbacw::charts::source::error_at;
use crate::gbacw::names::named_enum;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

named_enum! {
    /// The table's columns: what caused the casualty.
    pub enum CasualtyCause {
        /// A `K` melee result.
        KMelee = "k-melee",
        SmallArms = "small-arms",
        Artillery = "artillery",
        /// A `C` (capture) melee result.
        CMelee = "c-melee",
        /// A `Rpls` melee result (12.95: both sides roll).
        RplsMelee = "rpls-melee",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LeaderLoss {
    Wounded,
    Killed,
    Captured,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderCasualtyTable {
    /// For each cause, the 2d6 rolls that hurt; other rolls: no effect.
    pub columns: BTreeMap<CasualtyCause, BTreeMap<u8, LeaderLoss>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawColumn {
    wounded: Spanned<Vec<u8>>,
    killed: Spanned<Vec<u8>>,
    captured: Spanned<Vec<u8>>,
}

pub(super) type RawLeader = Spanned<BTreeMap<Spanned<String>, RawColumn>>;

impl LeaderCasualtyTable {
    pub(super) fn read(input: &str, raw: RawLeader) -> Result<Self, TextError> {
        let columns = keyed(input, raw, "cause", |_, c: RawColumn| {
            let mut rolls = BTreeMap::new();
            for (loss, list) in [
                (LeaderLoss::Wounded, c.wounded),
                (LeaderLoss::Killed, c.killed),
                (LeaderLoss::Captured, c.captured),
            ] {
                for &roll in list.get_ref() {
                    if !(2..=12).contains(&roll) {
                        return Err(error_at(input, &list, format!("{roll} is not a 2d6 roll")));
                    }
                    if rolls.insert(roll, loss).is_some() {
                        return Err(error_at(
                            input,
                            &list,
                            format!("roll {roll} given twice in this column"),
                        ));
                    }
                }
            }
            Ok(rolls)
        })?;
        Ok(LeaderCasualtyTable { columns })
    }

    /// GBACW 17.72: what a 2d6 roll does to a leader; `None` = no effect.
    pub fn result(&self, cause: CasualtyCause, roll: u8) -> Option<LeaderLoss> {
        self.columns.get(&cause)?.get(&roll).copied()
    }
}
