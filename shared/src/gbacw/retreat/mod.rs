//! Retreats (GBACW 14.0, 12.8, 12.92, 13.31) as a pure query: every legal
//! path, so the owning player can choose (14.4: "the retreating Player
//! has the final say") and the engine can offer the choice as a pending
//! decision. No path means the unit is captured. Who may retreat before
//! melee, and on what terms, is [`before_melee`].

pub mod before_melee;
pub mod paths;

pub use before_melee::{
    RbmTerms, Threat, answer_declarations, hexes_after_withdrawal_pin, may_retreat_before_melee,
    rbm_length_ok,
};
pub use paths::{
    MAX_LENGTH, RetreatKind, RetreatLimits, RetreatPath, retreat_paths, retreat_paths_on,
};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_before_melee;
