//! What a GBACW table is created with: a battle and the readings of the
//! rules where the two printings differ.

use crate::gbacw::options::RuleOptions;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A GBACW table's configuration, fixed when the table is created and
/// recorded in the match log's header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GbacwConfig {
    /// One of [`crate::gbacw::battles::BATTLES`] (`"test"`).
    pub battle: String,
    /// The 001 readings chosen instead of 004's, by name
    /// ([`EDITION_001`]). Empty = the later text, as DESIGN.md §1 makes
    /// the default. Names rather than [`RuleOptions`] itself, so that an
    /// option added later does not change how an older log's config
    /// decodes.
    pub readings_001: BTreeSet<String>,
    /// The scenario's options chosen at the table (an exclusive rule's
    /// free deployment, say), by the option's id: on or off. An option not
    /// named keeps the scenario's `default=`.
    pub scenario_options: BTreeMap<String, bool>,
    /// A game continued from a saved one (issue 18: a hot-seat game put
    /// on a server): the saved game's log, whose end is this table's
    /// start ([`super::continued`]). Not part of the derived encoding, so
    /// every config written before it reads as before; only
    /// `Ruleset::encode_config` writes it, behind its own magic.
    #[serde(skip)]
    pub continued: Option<std::sync::Arc<crate::engine::MatchLog>>,
}

impl Default for GbacwConfig {
    fn default() -> Self {
        GbacwConfig {
            battle: "test".into(),
            readings_001: BTreeSet::new(),
            scenario_options: BTreeMap::new(),
            continued: None,
        }
    }
}

/// One 001 reading: its name, its case, and what it changes in [`RuleOptions`].
pub type Reading = (&'static str, &'static str, fn(&mut RuleOptions));

/// The 001 readings a table may choose (differences.md; docs/gbacw-notes.md
/// lists the rest).
pub const EDITION_001: &[Reading] = &[
    ("uncrewed-wagons-move", "GBACW 11.1", |o| {
        o.uncrewed_wagons_move = true
    }),
    ("no-battery-resupply", "GBACW 11.23", |o| {
        o.batteries_resupply = false
    }),
    ("elephant-twelve-is-one", "GBACW 13.15", |o| {
        o.elephant_twelve_is_one = true
    }),
    // Not an 001 reading but an ambiguity both printings share; it is
    // chosen by name in the same list so that a table's log records it.
    ("cap-terrain-only", "GBACW 9.51", |o| {
        o.cap_terrain_only = true
    }),
    // Likewise an ambiguity of both printings (13.33 against 12.92).
    ("routed-melee-reroutes", "GBACW 13.33", |o| {
        o.routed_melee_reroutes = true
    }),
    // Likewise an ambiguity of both printings (15.13).
    ("half-crew-halves-final", "GBACW 15.13", |o| {
        o.half_crew_halves_final = true
    }),
    // An exclusive rule's ambiguity, chosen the same way (its case and
    // why: `exclusive::VP_HEX_STAND_CASE`).
    ("vp-hex-stand", super::exclusive::VP_HEX_STAND_CASE, |o| {
        o.vp_hex_where_units_stand = true
    }),
    // GBACW 10.19 against 9.41: an ambiguity of both printings.
    ("withdrawal-fire-separate", "GBACW 10.19", |o| {
        o.withdrawal_fire_separate = true
    }),
    // An exclusive rule's ambiguity: mounted cavalry's enfilade in a
    // retreat-before-melee check, by the attacker's hex or always (GBACW
    // 7.0, 16.35; `exclusive::MOUNTED_ALWAYS_ENFILADED_CASE`).
    (
        "mounted-always-enfiladed",
        super::exclusive::MOUNTED_ALWAYS_ENFILADED_CASE,
        |o| o.mounted_always_enfiladed = true,
    ),
    // GBACW 8.0: a silence of both printings (a stack pinned over its
    // limits before it could be mended), read two ways.
    ("overstack-displaced", "GBACW 8.0", |o| {
        o.overstack_displaced = true
    }),
    // GBACW 14.3 against 14.4: an ambiguity of both printings (where a
    // displaced unit goes when the only vacant hex lies toward the enemy).
    ("displace-away-from-enemy", "GBACW 14.3", |o| {
        o.displace_away_from_enemy = true
    }),
];

impl GbacwConfig {
    /// The rule options this table plays with; `Err` names a reading that
    /// does not exist.
    pub fn rule_options(&self) -> Result<RuleOptions, String> {
        let mut o = RuleOptions::default();
        for name in &self.readings_001 {
            let (_, _, set) = EDITION_001
                .iter()
                .find(|(n, _, _)| n == name)
                .ok_or_else(|| {
                    format!(
                        "there is no 001 reading {name:?} (known: {})",
                        EDITION_001
                            .iter()
                            .map(|(n, _, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?;
            set(&mut o);
        }
        Ok(o)
    }
}
