//! GBACW 18 (and 17.67): Brigade Combat Effectiveness. The Standard Rules
//! fix only the bookkeeping — one box per infantry or cavalry Strength
//! Point lost, the brigade "loses BCE" when every box left of its Victory
//! Point award is marked — and leave what else marks boxes and what losing
//! BCE does to the Exclusive Rules. Those come in through [`BceRules`].

pub mod ledger;

pub use ledger::{BceEvent, BceLedger, BceRules, BceTrack, StandardBce, may_attach, may_detach};

#[cfg(test)]
mod tests;
