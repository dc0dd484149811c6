//! Every [`GbacwAction`] in words: what the button says, and what the log
//! says a player asked for ("refused: …").

use super::names::{
    counter_name, facing_word, formation_word, hex_path, names, path_end, plan_words, plural,
    reserve_name,
};
use crate::gbacw::ruleset::{Gbacw, GbacwAction};

/// One action in a few words, naming its case where it helps.
pub fn action(rs: &Gbacw, action: &GbacwAction) -> String {
    use GbacwAction as A;
    let name = |id| counter_name(rs, id);
    match action {
        A::Move { pieces, path } => format!("move {} to {}", names(rs, pieces), path_end(path)),
        A::Face { unit, facing } => format!("face {} {}", name(unit), facing_word(rs, *facing)),
        A::ChangeFormation { unit, to } => {
            format!("{} into {} (6.0)", name(unit), formation_word(*to))
        }
        A::SpendCommandPoints {
            division,
            brigade,
            points,
        } => format!(
            "{} spends {} on {} (17.22)",
            name(division),
            plural(*points, "Command Point", "Command Points"),
            name(brigade)
        ),
        A::Detach { brigade } => format!("detach {}'s brigade (17.61)", name(brigade)),
        A::Attach { brigade, division } => format!(
            "attach {}'s brigade to {}'s division (17.64)",
            name(brigade),
            name(division)
        ),
        A::EndPhase => "end the phase".into(),
        A::WithdrawalFire { firers } => {
            format!("withdrawal fire by {} (10.1)", names(rs, firers))
        }
        A::DeclineWithdrawalFire => "decline withdrawal fire".into(),
        A::DeclareFire { target, firers } => format!(
            "fire at {target} with {} (9.0)",
            super::names::list(
                firers
                    .iter()
                    .map(|f| format!(
                        "{} ({})",
                        name(&f.unit),
                        plural(f.points, "point", "points")
                    ))
                    .collect()
            )
        ),
        A::CancelFire { index } => {
            format!("take back declared attack {}", u32::from(*index) + 1)
        }
        A::Rally { unit } => format!("rally {} (13.5)", name(unit)),
        A::DeclareMelee { target, attackers } => {
            format!("melee {target} with {} (12.8)", names(rs, attackers))
        }
        // 12.81: two hexes name the one passed through, so two retreats
        // to one hex by different ways read differently.
        A::RetreatBeforeMelee { units, path } => format!(
            "retreat {} before melee to {} (12.81)",
            names(rs, units),
            hex_path(path)
        ),
        A::StandFast => "stand fast".into(),
        A::Resupply { wagon, unit } => {
            format!("{} resupplies {} (11.23)", name(wagon), name(unit))
        }
        A::Retreat { unit, path } if path.is_empty() => {
            format!("{} surrenders: no way back (14.1)", name(unit))
        }
        A::Retreat { unit, path } => {
            format!("retreat {} to {} (14.4)", name(unit), hex_path(path))
        }
        A::PlaceUnit {
            unit,
            hex,
            facing,
            formation,
        } => format!(
            "set up {} at {hex} in {}, facing {}",
            name(unit),
            formation_word(*formation),
            facing_word(rs, *facing)
        ),
        A::PlaceLeader { leader, hex } => format!("set up {} at {hex}", name(leader)),
        A::EndSetUp => "finish the set-up (the rest by the default deployment)".into(),
        A::Arrive { piece, hex, facing } => format!(
            "{} enters at {hex}, facing {}",
            name(piece),
            facing_word(rs, *facing)
        ),
        A::ExitMap { unit } => format!("{} leaves the map", name(unit)),
        A::DeclareCharge { target, attackers } => {
            format!("charge {target} with {} (16.2)", names(rs, attackers))
        }
        A::ReplaceLeader { lost, hex } => {
            format!("replace {} with a leader at {hex} (17.8)", name(lost))
        }
        A::WithdrawEngaged { units, path } => format!(
            "withdraw {} from the engagement to {} (12.94)",
            names(rs, units),
            hex_path(path)
        ),
        A::Advance { units } => format!("advance {} (12.85)", names(rs, units)),
        A::DeclineAdvance => "decline the advance".into(),
        A::LeaderRout { leader, go: true } => {
            format!("{} goes with the routed unit (13.43)", name(leader))
        }
        A::LeaderRout { leader, go: false } => {
            format!("{} stays with the units beneath (13.43)", name(leader))
        }
        A::RetreatFire { firers } => format!("retreat fire by {} (10.2)", names(rs, firers)),
        A::DeclineRetreatFire => "decline retreat fire".into(),
        A::TransferRounds { from, to, rounds } => format!(
            "{} gives {} {} (11.33)",
            name(from),
            name(to),
            plural(*rounds, "round", "rounds")
        ),
        A::CommitReserve { reserve } => {
            format!("commit {} (30.34)", reserve_name(rs, reserve))
        }
        A::PlotAssault { plan, announce, .. } => format!(
            "plot the assault (secret): {}; {} announced (29.2)",
            plan_words(rs, plan),
            name(announce)
        ),
        A::RapidFire { index } => format!(
            "make declared attack {} rapid fire (24.1)",
            u32::from(*index) + 1
        ),
        A::Unfoul { unit } => format!("{} tries to unfoul its guns (24.1)", name(unit)),
        A::SolitaireRoll => "roll the Confederate assault (29.5)".into(),
        A::BarrageFire { target, firers } => format!(
            "Pre-Dawn Barrage at {target} by {} (26.42)",
            names(rs, firers)
        ),
        A::EndBarrage => "finish the Pre-Dawn Barrage".into(),
        A::RetreatBatteries { batteries } => format!(
            "{} retreat with their brigade (25.26)",
            names(rs, batteries)
        ),
        A::DeclineBatteryRetreat => "the batteries stay (25.26)".into(),
        A::PutOnTop { unit } => format!("put {} on top of its stack (8.41)", name(unit)),
        A::StackOrderDone => "keep the stacking order as it is now (8.41)".into(),
        A::Recrew { wagon, unit } => format!(
            "{} gives a Strength Point to crew {} (11.18)",
            name(unit),
            name(wagon)
        ),
        A::ChoosePromotion { division, leader } => format!(
            "promote {} to command {}'s division (28.32)",
            name(leader),
            name(division)
        ),
        A::MoveCrew { battery, path } => format!(
            "move the crew of {} to {} (24.21)",
            name(battery),
            path_end(path)
        ),
    }
}
