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
            A::DeclareFire { target, firers } => format!(
                "fire at {target} with {}",
                firers
                    .iter()
                    .map(|f| format!("{} ({} pts)", counter_name(self, &f.unit), f.points))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            A::CancelFire { index } => format!("take back declared attack {}", index + 1),
            A::DeclareMelee { target, attackers } => {
                format!("melee {target} with {}", names(self, attackers))
            }
            // 12.81: two hexes name the one passed through, so two
            // retreats to one hex by different ways read differently.
            A::RetreatBeforeMelee { units, path } => format!(
                "retreat {} before melee to {}",
                names(self, units),
                match path.as_slice() {
                    [] => "nowhere".to_string(),
                    [end] => end.to_string(),
                    [via @ .., end] => format!(
                        "{end} via {}",
                        via.iter()
                            .map(|h| h.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            ),
            A::StandFast => "stand fast".into(),
            A::Retreat { unit, path } => match path.last() {
                Some(h) => format!("retreat {} to {h}", counter_name(self, unit)),
                None => format!("{} surrenders: no way back", counter_name(self, unit)),
            },
            A::Rally { unit } => format!("rally {}", counter_name(self, unit)),
            A::Resupply { wagon, unit } => format!(
                "{} resupplies {}",
                counter_name(self, wagon),
                counter_name(self, unit)
            ),
            A::PlotAssault { plan, announce, .. } => format!(
                "plot the assault (secret): {}",
                super::plot::describe_plan(self, plan, Some(announce))
            ),
            // Corinth 26.4.
            A::BarrageFire { target, firers } => {
                format!("Pre-Dawn Barrage at {target} by {}", names(self, firers))
            }
            A::EndBarrage => "finish the Pre-Dawn Barrage".into(),
            // Corinth 24.1, 29.5.
            A::RapidFire { index } => {
                format!("make declared attack {} rapid fire (24.1)", index + 1)
            }
            A::Unfoul { unit } => format!("{} tries to unfoul (24.1)", counter_name(self, unit)),
            A::SolitaireRoll => "roll the Confederate assault (29.5)".into(),
            // Corinth 30.34, 30.35.
            A::CommitReserve { reserve } => format!(
                "commit {} (30.34)",
                super::corinth_card::reserve_of(self, reserve)
                    .map_or_else(|| counter_name(self, reserve), |r| r.name.clone())
            ),
            // Corinth 25.26.
            A::RetreatBatteries { batteries } => format!(
                "{} retreat with their brigade (25.26)",
                names(self, batteries)
            ),
            A::DeclineBatteryRetreat => "the batteries stay (25.26)".into(),
            A::MoveCrew { battery, path } => format!(
                "move the crew of {} to {}",
                counter_name(self, battery),
                path.last()
                    .map_or_else(|| "nowhere".into(), |h| h.to_string())
            ),
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
            E::WithdrawalFireAnswered => "withdrawal fire! (10.11)".into(),
            E::FireDeclared(f) => format!(
                "{who} declared fire at {} by {} (9.0)",
                f.target,
                f.firers
                    .iter()
                    .map(|x| counter_name(self, &x.unit))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            E::FireCancelled { index } => format!("declared attack {} taken back", index + 1),
            E::FirePlanCleared => "the Fire Phase's attacks are all resolved (9.42)".into(),
            E::FireResolved(r) => format!(
                "fire at {} by {}: strength {} on the {} row, shifts terrain {:+} density {:+}{} = {:+} (9.51), column {}, die {}: {} (9.16)",
                r.target,
                names(self, &r.firers),
                r.strength,
                match r.row {
                    muster_shared::gbacw::tables::FireRow::Grapeshot => "grapeshot",
                    muster_shared::gbacw::tables::FireRow::SmallArmsAndCounterBattery =>
                        "small-arms",
                },
                r.terrain_shift,
                r.density_shift,
                if r.enfilade { " enfilade +1" } else { "" },
                r.net_shift,
                r.column,
                r.die,
                r.result
            ),
            E::UnitHit { unit, points } => {
                format!("{} loses {points} (9.81, 8.21)", counter_name(self, unit))
            }
            E::CrewHit { unit, crew } => {
                format!(
                    "{}'s crew hit: now {crew:?} (9.82)",
                    counter_name(self, unit)
                )
            }
            E::RoundFired { unit } => format!("{} fired a round (11.3)", counter_name(self, unit)),
            E::MarkersSet { unit, markers } => format!(
                "{}: {}",
                counter_name(self, unit),
                if markers.is_empty() {
                    "no markers".to_string()
                } else {
                    markers
                        .iter()
                        .map(|m| format!("{m:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            E::MoraleRated { unit, rating } => format!(
                "{} sees the elephant: morale {rating} (13.14)",
                counter_name(self, unit)
            ),
            E::MoraleChecked {
                unit,
                rating,
                die,
                modifier,
                failed,
            } => format!(
                "{} checks morale {rating}: die {die}{} -> {} (13.2)",
                counter_name(self, unit),
                if *modifier == 0 {
                    String::new()
                } else {
                    format!(" {modifier:+}")
                },
                if *failed { "failed" } else { "passed" }
            ),
            E::UnitRetreated { unit, path } => format!(
                "{} retreats to {} (14.0)",
                counter_name(self, unit),
                path.last().map_or_else(|| "?".into(), |h| h.to_string())
            ),
            E::UnitRemoved { unit, captured } => format!(
                "{} {} (13.31, 14.1, 15.12)",
                counter_name(self, unit),
                if *captured { "captured" } else { "eliminated" }
            ),
            E::LeaderRolled {
                leader,
                roll,
                casualty,
            } => format!(
                "{} rolls {roll} for casualty: {} (17.72, 17.76)",
                counter_name(self, leader),
                casualty.map_or_else(|| "unharmed".into(), |c| format!("{c:?}"))
            ),
            E::RallyPointSpent { leader } => {
                format!(
                    "{} spends a Rally Point (17.13)",
                    counter_name(self, leader)
                )
            }
            E::RallyTried { unit, die, rallied } => format!(
                "{} {}{} (13.5)",
                counter_name(self, unit),
                if *rallied {
                    "rallies"
                } else {
                    "fails to rally"
                },
                die.map_or_else(String::new, |d| format!(", die {d}"))
            ),
            E::MeleeDeclared(m, _) => format!(
                "{who} declares melee on {} by {} (12.8)",
                m.target,
                names(self, &m.attackers)
            ),
            E::RbmAnswered => "the defender answered the melee (12.8)".into(),
            E::MeleeResolved(r) => format!(
                "melee at {}: {} against {}, differential {:+}, die {}: attacker {:?}, defender {:?}{} (12.98)",
                r.target,
                r.attack,
                r.defence,
                r.differential,
                r.die,
                r.result.attacker,
                r.result.defender,
                if r.mutual_elimination {
                    " (both would go: engaged, 12.97)"
                } else {
                    ""
                }
            ),
            E::PointsCaptured { unit, points } => format!(
                "{} loses {points} taken prisoner (12.93)",
                counter_name(self, unit)
            ),
            E::FormationSet { unit, to } => {
                format!(
                    "{} is now in {}: a Column fired on or meleed goes into Line (6.11, 12.24)",
                    counter_name(self, unit),
                    to.name()
                )
            }
            E::MeleesCleared => "the Melee Phase's melees are resolved".into(),
            E::RetreatOrdered(o) => format!(
                "{} must retreat {} hexes: its owner chooses the path (14.4)",
                counter_name(self, &o.unit),
                o.length
            ),
            E::Resupplied {
                wagon,
                unit,
                amount,
                ..
            } => format!(
                "{} gives {} {amount} (11.24)",
                counter_name(self, wagon),
                counter_name(self, unit)
            ),
            E::AssaultPlotted {
                commitment,
                announced,
                ..
            } => format!(
                "the assault is plotted, commitment {}...; {} enters through {} on Game-Turn {} (Corinth 29.2, 29.23)",
                hex::encode(&commitment[..8]),
                counter_name(self, &announced.division),
                super::plot::area_name(self, &announced.area),
                announced.turn
            ),
            E::DivisionRevealed(d) => format!(
                "{}'s division enters through {} (Corinth 29.31)",
                counter_name(self, &d.division),
                super::plot::area_name(self, &d.area)
            ),
            E::PlanOpened { plan, .. } => format!(
                "the assault plan is opened: {} (Corinth 29.2)",
                super::plot::describe_plan(self, plan, None)
            ),
            // Corinth 26.2, 26.3, 26.4.
            E::StragglerRolled(r) => format!(
                "{} {} stragglers (die {}{}, 26.2)",
                counter_name(self, &r.unit),
                if r.recovered {
                    "recovers"
                } else {
                    "recovers no"
                },
                r.die,
                if r.modifier != 0 {
                    ", -1: BCE lost on day 1"
                } else {
                    ""
                }
            ),
            E::BceRecovered(r) => format!(
                "BCE recovery (26.3): {} brigade(s) take their second-day limit, {} stay broken",
                r.extended.len(),
                r.kept_lost.len()
            ),
            E::BarrageBegun { side } => format!("Pre-Dawn Barrage (26.4): {side} may fire"),
            E::BarrageRolled(r) => format!(
                "barrage at {} by {}: die {}, {} after -1 (26.42)",
                r.target,
                names(self, &r.firers),
                r.die,
                r.modified
            ),
            E::BarrageEnded { next: Some(side) } => format!("Pre-Dawn Barrage: {side} fires now"),
            E::BarrageEnded { next: None } => "the Pre-Dawn Barrage is over".into(),
            // Corinth 24.1: rapid fire and fouling.
            E::FireMadeRapid { index } => {
                format!("declared attack {} is rapid fire (24.1)", index + 1)
            }
            E::FoulingRolled {
                unit, die, fouled, ..
            } => format!(
                "{} {} (fouling die {die}, 24.1)",
                counter_name(self, unit),
                if *fouled {
                    "fouls its guns"
                } else {
                    "keeps firing"
                }
            ),
            E::UnfoulRolled {
                unit,
                die,
                unfouled,
            } => format!(
                "{} {} (die {die}, 24.1)",
                counter_name(self, unit),
                if *unfouled {
                    "clears its guns"
                } else {
                    "stays fouled"
                }
            ),
            // Corinth 22.0: the melee initiation checks.
            E::MeleeGateChecked(c) => format!(
                "{} {} {} (die {}{:+} against {}, {})",
                counter_name(self, &c.unit),
                if c.passed { "may" } else { "may not" },
                if c.attacking {
                    format!("melee {}", c.target)
                } else {
                    "retreat before melee".to_string()
                },
                c.die,
                c.modifier,
                c.rating,
                if c.attacking { "22.2" } else { "22.1" }
            ),
            // Corinth 25.2, 27.3, 29.44.4, 29.47.
            E::BrigadeRetreated { brigade, units, .. } => format!(
                "{}'s brigade falls back: {} (25.2)",
                counter_name(self, brigade),
                names(self, units)
            ),
            E::HeldOffMap { unit, area } => format!(
                "{} leaves the map through {} and waits there (27.3)",
                counter_name(self, unit),
                super::plot::area_name(self, area)
            ),
            E::ParkFreed { .. } => "the Union artillery park may move and fire (29.44)".into(),
            E::ReinforcementsAttacked { units, .. } => format!(
                "{} attacked: free to leave column (29.47)",
                names(self, &units.iter().cloned().collect::<Vec<_>>())
            ),
            // Corinth 29.5: the solitaire version's rolls.
            E::SolitaireStarted { plan, dice } => format!(
                "the Confederate assault is rolled (dice {}): {} (29.51, 29.55)",
                dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" "),
                super::plot::describe_plan(self, plan, None)
            ),
            // Corinth 30.33-30.35: the Union reserves.
            E::ReserveRolled {
                reserve,
                roll,
                committed,
            } => {
                let r = super::corinth_card::reserve_of(self, reserve);
                format!(
                    "{} {} (commitment die {roll}{}, 30.34)",
                    r.map_or_else(|| counter_name(self, reserve), |r| r.name.clone()),
                    if *committed {
                        "is committed"
                    } else {
                        "stays in reserve"
                    },
                    r.map_or(String::new(), |r| format!(
                        ", {} or less commits",
                        r.commit_on
                    ))
                )
            }
            E::ReserveCommitted { reserve, case } => format!(
                "{} is committed ({case})",
                super::corinth_card::reserve_of(self, reserve)
                    .map_or_else(|| counter_name(self, reserve), |r| r.name.clone())
            ),
            E::SolitaireRolled { turn, rolls, .. } => {
                let each = rolls
                    .iter()
                    .map(|r| {
                        let die = match r.die {
                            Some(d) => format!("die {d}"),
                            None => "due by now (29.54)".into(),
                        };
                        match &r.entry {
                            Some(e) => format!(
                                "{} ({die}) enters on Game-Turn {} through {}{}",
                                counter_name(self, &r.division),
                                e.turn,
                                super::plot::area_name(self, &e.area),
                                r.area_die
                                    .map_or(String::new(), |d| format!(" (area die {d}, 29.57)"))
                            ),
                            None => {
                                format!("{} ({die}) stays out", counter_name(self, &r.division))
                            }
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                if each.is_empty() {
                    format!("Division Arrival rolls for Game-Turn {turn}: none (29.53)")
                } else {
                    format!("Division Arrival rolls for Game-Turn {turn}: {each} (29.53)")
                }
            }
            E::LeaderBound(b) => format!(
                "{} spared {} its morale check and stays with it until the next Movement Phase (22.33)",
                counter_name(self, &b.leader),
                names(self, &b.units)
            ),
            E::BatteryRetreatOffered(o) => format!(
                "{}'s brigade retreats: {} may retreat with it (25.26)",
                counter_name(self, &o.brigade),
                names(self, &o.batteries)
            ),
            E::BatteryRetreatAnswered => "the batteries' answer is in (25.26)".into(),
            E::CrewRouted { battery, path } => format!(
                "the crew of {} routs away from its guns{} (24.21)",
                counter_name(self, battery),
                path.last().map_or(String::new(), |h| format!(" to {h}"))
            ),
            E::BrigadeRetreatHeld(run) => format!(
                "{}'s brigade retreat waits for the withdrawal fire already offered{} (25.23)",
                counter_name(self, &run.brigade),
                run.members.first().map_or(String::new(), |u| format!(
                    ": {} is next",
                    counter_name(self, u)
                ))
            ),
            E::BrigadeRetreatResumed { brigade } => format!(
                "{}'s brigade retreat goes on (25.23)",
                counter_name(self, brigade)
            ),
            E::CrewMoved {
                battery,
                path,
                rejoined,
            } => {
                if *rejoined {
                    format!(
                        "the crew of {} is back at its guns: the Crew marker comes off (24.21)",
                        counter_name(self, battery)
                    )
                } else {
                    format!(
                        "the crew of {} moves{} (24.21)",
                        counter_name(self, battery),
                        path.last().map_or(String::new(), |h| format!(" to {h}"))
                    )
                }
            }
            // Events the engine gains later show in their plain form.
            #[allow(unreachable_patterns)]
            other => format!("{other:?}"),
        }
    }

    /// GBACW's dice are shown in its own log lines (each with its case);
    /// the session records each roll from its proof instead (the dice
    /// panel lists them with their verdicts).
    fn rolled(&self, _: &GbacwEvent) -> Option<RollResult> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::SeatId;
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::map::HexNumber;
    use muster_shared::gbacw::ruleset::GbacwConfig;
    use muster_shared::gbacw::ruleset::corinth::{leader_binding, retreat_batteries};

    /// The Corinth actions and events added with 22.33, 24.21 and 25.26
    /// read as words naming their case, not as their debug form.
    #[test]
    fn corinth_leader_binding_crews_and_battery_retreat_read_as_words() {
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let id = |s: &str| CounterId(s.into());
        let lines = [
            rules.describe_action(&GbacwAction::RetreatBatteries {
                batteries: vec![id("d-1-mo")],
            }),
            rules.describe_action(&GbacwAction::DeclineBatteryRetreat),
            rules.describe_event(
                &GbacwEvent::LeaderBound(leader_binding::LeaderBinding {
                    leader: id("hackleman"),
                    units: vec![id("52-ill")],
                }),
                "",
                &(),
                &[],
            ),
            rules.describe_event(
                &GbacwEvent::BatteryRetreatOffered(retreat_batteries::BatteryRetreatOffer {
                    seat: SeatId(0),
                    brigade: id("hackleman"),
                    batteries: vec![id("d-1-mo")],
                }),
                "",
                &(),
                &[],
            ),
            rules.describe_event(&GbacwEvent::BatteryRetreatAnswered, "", &(), &[]),
            rules.describe_event(
                &GbacwEvent::CrewRouted {
                    battery: id("d-1-mo"),
                    path: vec![],
                },
                "",
                &(),
                &[],
            ),
        ];
        for (line, case) in lines
            .iter()
            .zip(["25.26", "25.26", "22.33", "25.26", "25.26", "24.21"])
        {
            assert!(line.contains(case), "{line}");
            // No debug form: no struct braces, no type names.
            assert!(!line.contains('{') && !line.contains("CounterId"), "{line}");
        }
    }

    /// Corinth 25.23's held brigade retreats read as words too.
    #[test]
    fn corinth_held_brigade_retreats_read_as_words() {
        use muster_shared::gbacw::ruleset::corinth::brigade_retreat::BrigadeRun;
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let id = |s: &str| CounterId(s.into());
        let held = rules.describe_event(
            &GbacwEvent::BrigadeRetreatHeld(BrigadeRun {
                brigade: id("bowen"),
                members: vec![id("6-miss")],
                batteries: Vec::new(),
            }),
            "",
            &(),
            &[],
        );
        let resumed = rules.describe_event(
            &GbacwEvent::BrigadeRetreatResumed {
                brigade: id("bowen"),
            },
            "",
            &(),
            &[],
        );
        for line in [&held, &resumed] {
            assert!(line.contains("25.23"), "{line}");
            assert!(!line.contains('{') && !line.contains("CounterId"), "{line}");
        }
        assert!(held.contains("6 Miss"), "{held}");
    }

    /// GBACW 12.81: the legal set offers two-hex retreats before melee;
    /// two of them ending in one hex by different ways read differently.
    #[test]
    fn case_12_81_a_two_hex_retreat_before_melee_names_the_hex_it_passes() {
        let rules = Gbacw::new(&GbacwConfig {
            battle: "corinth".into(),
            ..GbacwConfig::default()
        })
        .expect("corinth loads");
        let hex = |s: &str| HexNumber::parse(s).unwrap();
        let go = |path: &[&str]| {
            rules.describe_action(&GbacwAction::RetreatBeforeMelee {
                units: vec![CounterId("52-ill".into())],
                path: path.iter().map(|h| hex(h)).collect(),
            })
        };
        assert!(go(&["1327"]).ends_with("to 1327"), "{}", go(&["1327"]));
        let a = go(&["1327", "1328"]);
        let b = go(&["1227", "1328"]);
        assert!(a.ends_with("to 1328 via 1327"), "{a}");
        assert_ne!(a, b);
    }
}
