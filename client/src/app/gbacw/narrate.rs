//! GBACW in words: log lines for its actions and events, with counters
//! named by their printed designation and leaders by name.

use crate::app::narrate::Narrate;
use muster_shared::gbacw::charts::Mp;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwEvent, GbacwState};
use muster_shared::sandbox::RollResult;

/// Movement Points as players write them: "1", "1.5", "0.5" (egui's
/// bundled fonts have no "½").
pub fn mp_text(mp: Mp) -> String {
    let h = mp.halves();
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// A counter's printed name: a unit's designation, a leader's name.
pub fn counter_name(rules: &Gbacw, id: &CounterId) -> String {
    let oob = &rules.game().oob;
    oob.units
        .get(id)
        .map(|u| u.designation.clone())
        .or_else(|| oob.leaders.get(id).map(|l| l.name.clone()))
        .unwrap_or_else(|| id.to_string())
}

fn names(rules: &Gbacw, ids: &[CounterId]) -> String {
    ids.iter()
        .map(|id| counter_name(rules, id))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Narrate for Gbacw {
    /// Nothing to remember: GBACW's counters never leave the order of battle.
    type Memo = ();

    fn memo(&self, _: &GbacwState) {}

    fn describe_action(&self, action: &GbacwAction) -> String {
        use GbacwAction as A;
        let orientation = self.game().map.grid.orientation;
        match action {
            A::Move { pieces, path } => format!(
                "move {} to {}",
                names(self, pieces),
                path.last()
                    .map_or_else(|| "nowhere".into(), |h| h.to_string())
            ),
            A::Face { unit, facing } => format!(
                "face {} {}",
                counter_name(self, unit),
                facing.name(orientation)
            ),
            A::ChangeFormation { unit, to } => {
                format!("{} to {}", counter_name(self, unit), to.name())
            }
            A::SpendCommandPoints {
                division,
                brigade,
                points,
            } => format!(
                "{} spends {points} Command Point(s) on {}",
                counter_name(self, division),
                counter_name(self, brigade)
            ),
            A::Detach { brigade } => format!("detach {}", counter_name(self, brigade)),
            A::Attach { brigade, division } => format!(
                "attach {} to {}",
                counter_name(self, brigade),
                counter_name(self, division)
            ),
            A::EndPhase => "end phase".into(),
            A::WithdrawalFire { firers } => format!("withdrawal fire by {}", names(self, firers)),
            A::DeclineWithdrawalFire => "decline withdrawal fire".into(),
            // Actions the engine gains later show in their plain form.
            #[allow(unreachable_patterns)]
            other => format!("{other:?}"),
        }
    }

    fn describe_event(&self, event: &GbacwEvent, who: &str, _: &(), _: &[String]) -> String {
        use GbacwEvent as E;
        let game = self.game();
        let orientation = game.map.grid.orientation;
        match event {
            E::PhaseChanged { clock } => format!(
                "Game-Turn {}: {}",
                clock.turn,
                game.sequence.step_name(clock.step)
            ),
            E::GameEnded => "the last Game-Turn is over".into(),
            E::CommandChecked(c) => {
                if c.out_of_command.is_empty() && c.out_of_radius.is_empty() {
                    "command checked: everyone in command (17.0)".into()
                } else {
                    let units: Vec<CounterId> = c.out_of_command.iter().cloned().collect();
                    let leaders: Vec<CounterId> = c.out_of_radius.iter().cloned().collect();
                    format!(
                        "command checked (17.0): out of command: {}; out of radius: {}",
                        if units.is_empty() {
                            "none".into()
                        } else {
                            names(self, &units)
                        },
                        if leaders.is_empty() {
                            "none".into()
                        } else {
                            names(self, &leaders)
                        }
                    )
                }
            }
            E::CommandPointsSpent {
                division,
                brigade,
                points,
            } => format!(
                "{} spent {points} Command Point(s) on {} (17.22)",
                counter_name(self, division),
                counter_name(self, brigade)
            ),
            E::LinksChanged { division, .. } => format!(
                "{who} changed the brigades of {} (17.6)",
                counter_name(self, division)
            ),
            E::UnitMoved {
                unit,
                to,
                facing,
                cost,
            } => format!(
                "{} entered {to} facing {} ({} MP)",
                counter_name(self, unit),
                facing.name(orientation),
                mp_text(*cost)
            ),
            E::LeaderMoved { leader, to, cost } => format!(
                "{} entered {to} ({} MP)",
                counter_name(self, leader),
                mp_text(*cost)
            ),
            E::FacingChanged { unit, facing } => format!(
                "{} faces {}",
                counter_name(self, unit),
                facing.name(orientation)
            ),
            E::FormationChanged { unit, to, cost, .. } => format!(
                "{} changed to {} ({} MP)",
                counter_name(self, unit),
                to.name(),
                mp_text(*cost)
            ),
            E::LeaderLost { leader, casualty } => {
                format!("{} lost: {casualty:?} (17.75)", counter_name(self, leader))
            }
            E::WithdrawalFireOffered(d) => format!(
                "withdrawal fire offered ({}): {} may fire at {} in {}",
                d.trigger.rule(),
                names(self, &d.firers),
                names(self, &d.targets),
                d.hex
            ),
            E::WithdrawalFireDeclined => "withdrawal fire declined".into(),
            // Events the engine gains later show in their plain form.
            #[allow(unreachable_patterns)]
            other => format!("{other:?}"),
        }
    }

    /// Part 1 of the GBACW engine rolls no dice.
    fn rolled(&self, _: &GbacwEvent) -> Option<RollResult> {
        None
    }
}
