//! The six GBACW result tables the seeds print (9.16, 12.98, 13.15,
//! 17.76, 8.35, 11.34), loaded from `assets/gbacw/tables.toml`. Nothing
//! here is provisional: the file is a transcription of 004's chart pages.

pub mod ammo;
pub mod density;
pub mod elephant;
pub mod fire;
mod grid;
pub mod leader;
pub mod melee;

pub use ammo::{AmmoLoss, AmmoLossTable};
pub use density::DensityChart;
pub use elephant::ElephantTable;
pub use fire::{FIRE_COLUMNS, FireCrt, FireResult, FireRow};
pub use leader::{CasualtyCause, LeaderCasualtyTable, LeaderLoss};
pub use melee::{MeleeCrt, MeleeEffect, MeleeResult};

use crate::gbacw::charts::source::{error_at, from_toml};
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The result tables, loaded from `tables.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tables {
    pub fire: FireCrt,
    pub density: DensityChart,
    pub ammo_loss: AmmoLossTable,
    pub melee: MeleeCrt,
    pub elephant: ElephantTable,
    pub leader_casualty: LeaderCasualtyTable,
}

const FORMAT: &str = "gbacw-tables 1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTables {
    format: Spanned<String>,
    fire_crt: fire::RawFire,
    density: density::RawDensity,
    ammo_loss: ammo::RawAmmo,
    melee_crt: melee::RawMelee,
    seeing_the_elephant: elephant::RawElephant,
    leader_casualty: leader::RawLeader,
}

impl Tables {
    /// Load and validate `tables.toml`.
    pub fn load(input: &str) -> Result<Self, TextError> {
        let raw: RawTables = from_toml(input, "table file")?;
        if raw.format.get_ref() != FORMAT {
            return Err(error_at(
                input,
                &raw.format,
                format!("expected format \"{FORMAT}\""),
            ));
        }
        Ok(Tables {
            fire: FireCrt::read(input, raw.fire_crt)?,
            density: DensityChart::read(input, raw.density)?,
            ammo_loss: AmmoLossTable::read(input, raw.ammo_loss)?,
            melee: MeleeCrt::read(input, raw.melee_crt)?,
            elephant: ElephantTable::read(input, raw.seeing_the_elephant)?,
            leader_casualty: LeaderCasualtyTable::read(input, raw.leader_casualty)?,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
