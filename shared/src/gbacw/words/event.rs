//! Every [`GbacwEvent`] in words: one log line each, with the dice and
//! the case where there are any.

use super::names::{
    area_name, counter_name, facing_word, formation_word, list, mp_text, names, path_end,
    plan_words, plural, reserve_name, side_name,
};
use crate::gbacw::oob::{CounterId, Crew, Marker};
use crate::gbacw::ruleset::state::{Casualty, SuccessionKind};
use crate::gbacw::ruleset::{Gbacw, GbacwEvent};
use crate::gbacw::tables::{AmmoLoss, FireRow};

fn casualty_word(c: Casualty) -> &'static str {
    match c {
        Casualty::Killed => "killed",
        Casualty::Wounded => "wounded",
        Casualty::Captured => "captured",
    }
}

fn crew_word(c: Crew) -> &'static str {
    match c {
        Crew::Full => "full",
        Crew::Half => "half (15.13)",
        Crew::None => "gone (15.12)",
    }
}

fn marker_word(m: Marker) -> &'static str {
    match m {
        Marker::Pin => "pinned",
        Marker::Rout => "routed",
        Marker::Engaged => "engaged",
        Marker::AmmoDepleted => "out of ammunition",
    }
}

/// GBACW 11.34: what a wagon loses, as the table's key says it.
fn ammo_loss_words(loss: AmmoLoss) -> String {
    match loss {
        AmmoLoss::WagonEliminated => "the wagon is eliminated".into(),
        AmmoLoss::Points {
            small_arms,
            artillery: Some(a),
        } => format!(
            "{small_arms} small-arms and {a} artillery ammunition {} marked off",
            if u16::from(small_arms) + u16::from(a) == 1 {
                "box"
            } else {
                "boxes"
            }
        ),
        AmmoLoss::Points {
            small_arms,
            artillery: None,
        } => format!(
            "{small_arms} small-arms ammunition {} and all its artillery ammunition marked off",
            if small_arms == 1 { "box" } else { "boxes" }
        ),
    }
}

/// A die's modifier when there is one: " +1", "".
fn modified(m: i8) -> String {
    if m == 0 {
        String::new()
    } else {
        format!(" {m:+}")
    }
}

/// One event as a log line.
pub fn event(rs: &Gbacw, event: &GbacwEvent) -> String {
    use GbacwEvent as E;
    let game = rs.game();
    let name = |id: &CounterId| counter_name(rs, id);
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
                let none = |s: String| if s == "nobody" { "none".into() } else { s };
                format!(
                    "command checked (17.0): out of command: {}; out of radius: {}",
                    none(names(rs, &c.out_of_command)),
                    none(names(rs, &c.out_of_radius))
                )
            }
        }
        E::CommandPointsSpent {
            division,
            brigade,
            points,
        } => format!(
            "{} spent {} on {} (17.22)",
            name(division),
            plural(*points, "Command Point", "Command Points"),
            name(brigade)
        ),
        E::LinksChanged { division, links } => format!(
            "{}'s division now: {}, {} (17.6)",
            name(division),
            links.detached.as_ref().map_or_else(
                || "no brigade detached".to_string(),
                |b| format!("{}'s brigade detached", name(b))
            ),
            links.attached.as_ref().map_or_else(
                || "no brigade attached".to_string(),
                |b| format!("{}'s brigade attached", name(b))
            )
        ),
        E::UnitMoved {
            unit,
            to,
            facing,
            cost,
        } => format!(
            "{} entered {to} facing {} ({} MP)",
            name(unit),
            facing_word(rs, *facing),
            mp_text(*cost)
        ),
        E::LeaderMoved { leader, to, cost } => {
            format!("{} entered {to} ({} MP)", name(leader), mp_text(*cost))
        }
        E::FacingChanged { unit, facing } => {
            format!("{} faces {}", name(unit), facing_word(rs, *facing))
        }
        E::FormationChanged { unit, to, cost, .. } => format!(
            "{} changed into {} ({} MP, 6.0)",
            name(unit),
            formation_word(*to),
            mp_text(*cost)
        ),
        E::LeaderRejoined { leader, hex } => format!(
            "{}, his units shot away, joins his command at {hex} (17.53)",
            name(leader)
        ),
        E::LeaderLost { leader, casualty } => format!(
            "{} is {}: alone when the enemy came (17.75)",
            name(leader),
            casualty_word(*casualty)
        ),
        E::WithdrawalFireOffered(d) => format!(
            "withdrawal fire offered ({}): {} may fire at {} in {}",
            d.trigger.rule(),
            names(rs, &d.firers),
            names(rs, &d.targets),
            d.hex
        ),
        E::WithdrawalFireDeclined => "withdrawal fire declined".into(),
        E::WithdrawalFireAnswered => "withdrawal fire! (10.11)".into(),
        E::FireDeclared(f) => format!(
            "fire declared at {} by {} (9.0)",
            f.target,
            names(rs, f.firers.iter().map(|s| &s.unit))
        ),
        E::FireCancelled { index } => {
            format!("declared attack {} taken back", u32::from(*index) + 1)
        }
        E::FirePlanCleared => "the Fire Phase's attacks are all resolved (9.42)".into(),
        E::FireResolved(r) => format!(
            "fire at {} by {}: strength {} on the {} row, shifts: terrain {:+}, density {:+}{}, net {:+} (9.51){}; column {}, die {}{}: {} (9.16)",
            r.target,
            names(rs, &r.firers),
            r.strength,
            match r.row {
                FireRow::Grapeshot => "grapeshot",
                FireRow::SmallArmsAndCounterBattery => "small-arms and counter-battery",
            },
            r.terrain_shift,
            r.density_shift,
            if r.enfilade { ", enfilade +1" } else { "" },
            r.net_shift,
            if r.strength_columns_left > 0 {
                format!(
                    ", {} left for lost BCE (24.13)",
                    plural(r.strength_columns_left, "column", "columns")
                )
            } else {
                String::new()
            },
            r.column,
            r.die,
            modified(r.die_modifier),
            r.result
        ),
        E::UnitHit { unit, points } => format!(
            "{} loses {} (9.81, 8.21)",
            name(unit),
            plural(*points, "Strength Point", "Strength Points")
        ),
        E::CrewHit { unit, crew } => {
            format!(
                "{}'s crew is hit: now {} (9.82)",
                name(unit),
                crew_word(*crew)
            )
        }
        E::RoundFired { unit } => format!("{} fired a round (11.3)", name(unit)),
        E::MarkersSet { unit, markers } => format!(
            "{}: {}",
            name(unit),
            if markers.is_empty() {
                "in good order".to_string()
            } else {
                list(
                    markers
                        .iter()
                        .map(|m| marker_word(*m).to_string())
                        .collect(),
                )
            }
        ),
        E::MoraleRated { unit, rating } => {
            format!("{} sees the elephant: morale {rating} (13.14)", name(unit))
        }
        E::MoraleChecked {
            unit,
            rating,
            die,
            modifier,
            failed,
        } => format!(
            "{} checks morale {rating}: die {die}{} -> {} (13.2)",
            name(unit),
            modified(*modifier),
            if *failed { "failed" } else { "passed" }
        ),
        E::UnitRetreated { unit, path } => {
            format!("{} retreats to {} (14.0)", name(unit), path_end(path))
        }
        E::UnitRemoved { unit, captured } => format!(
            "{} {} (13.31, 14.1, 15.12)",
            name(unit),
            if *captured {
                "is captured"
            } else {
                "is eliminated"
            }
        ),
        E::LeaderRolled {
            leader,
            roll,
            casualty,
        } => format!(
            "{} rolls {roll} for casualty: {} (17.72, 17.76)",
            name(leader),
            casualty.map_or("unharmed", casualty_word)
        ),
        E::RallyPointSpent { leader } => {
            format!("{} spends a Rally Point (17.13)", name(leader))
        }
        E::RallyTried { unit, die, rallied } => format!(
            "{} {}{} (13.5)",
            name(unit),
            if *rallied {
                "rallies"
            } else {
                "fails to rally"
            },
            die.map_or_else(String::new, |d| format!(", die {d}"))
        ),
        E::MeleeDeclared(m, _) => format!(
            "{} declared on {} by {} ({})",
            if m.charge { "charge" } else { "melee" },
            m.target,
            names(rs, &m.attackers),
            if m.charge { "16.2" } else { "12.8" }
        ),
        E::RbmAnswered => "the defender answered the melee (12.81)".into(),
        E::MeleeResolved(r) => format!(
            "melee at {}: {} against {}, differential {:+}, die {}: attacker {}, defender {}{} (12.98)",
            r.target,
            r.attack,
            r.defence,
            r.differential,
            r.die,
            r.result.attacker,
            r.result.defender,
            if r.mutual_elimination {
                " (both would go: engaged instead, 12.97)"
            } else {
                ""
            }
        ),
        E::PointsCaptured { unit, points } => format!(
            "{} loses {} taken prisoner (12.93)",
            name(unit),
            plural(*points, "point", "points")
        ),
        E::FormationSet { unit, to } => {
            format!(
                "{} is now in {}: a Column fired on or meleed goes into Line (6.11, 12.24)",
                name(unit),
                formation_word(*to)
            )
        }
        E::MeleesCleared => "the Melee Phase's melees are resolved".into(),
        E::Resupplied {
            wagon,
            unit,
            amount,
            ..
        } => format!(
            "{} resupplies {} with {amount} (11.24)",
            name(wagon),
            name(unit)
        ),
        E::RetreatOrdered(o) => format!(
            "{} must {} {}: its owner chooses the path (14.4)",
            name(&o.unit),
            if o.rout { "rout" } else { "retreat" },
            plural(o.length, "hex", "hexes")
        ),
        E::UnitPlaced {
            unit,
            hex,
            facing,
            formation,
        } => format!(
            "{} set up at {hex} in {}, facing {}",
            name(unit),
            formation_word(*formation),
            facing_word(rs, *facing)
        ),
        E::LeaderPlaced { leader, hex } => format!("{} set up at {hex}", name(leader)),
        E::SetUpEnded { next: Some(side) } => {
            format!("set-up finished: {} sets up now", side_name(rs, side))
        }
        E::SetUpEnded { next: None } => "set-up finished: play begins".into(),
        E::UnitArrived {
            unit,
            hex,
            facing,
            formation,
            cost,
        } => format!(
            "{} arrives at {hex} in {}, facing {} ({} MP, 26.4)",
            name(unit),
            formation_word(*formation),
            facing_word(rs, *facing),
            mp_text(*cost)
        ),
        E::LeaderArrived { leader, hex, cost } => format!(
            "{} arrives at {hex} ({} MP, 26.4)",
            name(leader),
            mp_text(*cost)
        ),
        E::EntryBlocked { hex, turn } => format!(
            "entry hex {hex} is held by the enemy on Game-Turn {turn}: its reinforcements wait (26.44)"
        ),
        E::EntryCleared { hex } => format!("entry hex {hex} is clear again"),
        E::UnitExited { unit } => format!("{} leaves the map (27.23)", name(unit)),
        E::VictoryHexTaken { hex, side } => {
            format!("{} takes victory hex {hex} (27.22)", side_name(rs, side))
        }
        E::VictoryHexesRecorded(r) => format!(
            "victory hexes after Game-Turn {}: {} (27.22)",
            r.turn,
            list(
                r.control
                    .iter()
                    .map(|(hex, side)| match side {
                        Some(s) => format!("{hex} {}", side_name(rs, s)),
                        None => format!("{hex} nobody"),
                    })
                    .collect()
            )
        ),
        E::BceLost { brigade } => {
            format!("{}'s brigade reaches its BCE limit (18.0)", name(brigade))
        }
        E::OvershootRolled {
            battery,
            target,
            range,
            die,
            accurate,
            scatter_die,
            lands,
        } => {
            if *accurate {
                format!(
                    "{} at {target}, range {range}: overshoot die {die}, on target (22.0)",
                    name(battery)
                )
            } else {
                format!(
                    "{} at {target}, range {range}: overshoot die {die}{}, the fire lands {} (22.0)",
                    name(battery),
                    scatter_die.map_or_else(String::new, |d| format!(", scatter die {d}")),
                    lands.map_or_else(|| "off the map".to_string(), |h| format!("in {h}"))
                )
            }
        }
        E::CornBlownDown { hex } => {
            format!("the corn of {hex} is blown down: clear from now on (21.43)")
        }
        E::CaissonRolled {
            unit,
            die,
            rounds_lost,
        } => {
            if *rounds_lost == 0 {
                format!("{}'s caissons: die {die}, no hit (15.2)", name(unit))
            } else {
                format!(
                    "{}'s caissons are hit: die {die}, {} lost (15.2)",
                    name(unit),
                    plural(*rounds_lost, "round", "rounds")
                )
            }
        }
        E::LeaderSucceeded(r) => {
            let placed = r.placed.as_ref().map_or_else(String::new, |(who, hex)| {
                format!(": {} takes command at {hex}", name(who))
            });
            match &r.kind {
                SuccessionKind::Flip => format!(
                    "{}'s counter is flipped to his replacement{placed} (17.8)",
                    name(&r.lost)
                ),
                SuccessionKind::Redeploy => {
                    format!("{} returns{placed} (17.8)", name(&r.lost))
                }
                SuccessionKind::Promote {
                    division,
                    promoted,
                    stand_in,
                } => format!(
                    "{} is promoted to command {}'s division in place of {}{}{placed} (17.82)",
                    name(promoted),
                    name(division),
                    name(&r.lost),
                    stand_in
                        .as_ref()
                        .map_or_else(String::new, |s| format!("; {} takes his brigade", name(s)))
                ),
            }
        }
        E::AdvanceOffered(a) => {
            format!("{} may advance into {} (12.85)", names(rs, &a.units), a.hex)
        }
        E::AdvanceAnswered => "the advance is answered (12.85)".into(),
        E::LeaderRoutOffered(o) => format!(
            "{} routed from {}: {} may go with it or stay with the units beneath (13.43)",
            name(&o.unit),
            o.hex,
            name(&o.leader)
        ),
        E::LeaderRoutAnswered {
            leader,
            unit,
            go,
            to,
        } => match (go, to) {
            (true, Some(h)) => format!("{} goes with {} to {h} (13.43)", name(leader), name(unit)),
            (true, None) => format!(
                "{} goes with {} on its retreat (13.43)",
                name(leader),
                name(unit)
            ),
            (false, _) => format!("{} stays with the units beneath (13.43)", name(leader)),
        },
        E::StackReordered { hex, order } => format!(
            "the stack in {hex} is now, top first: {} (8.41)",
            names(rs, order)
        ),
        E::RestackOffered(o) => format!(
            "out of ammunition on top of the stack in {}: its owner may change the order (8.41)",
            list(o.hexes.iter().map(|h| h.to_string()).collect())
        ),
        E::RestackDone => "the stacking order stays as it is (8.41)".into(),
        E::PromotionChosen { division, leader } => format!(
            "{} is chosen to command {}'s division (28.32)",
            name(leader),
            name(division)
        ),
        E::WagonRecrewed { wagon, crew } => format!(
            "{} gives a Strength Point to crew {}: the new crew's morale is {}, its weapon {} (11.18)",
            name(&crew.from),
            name(wagon),
            match crew.morale {
                crate::gbacw::oob::Morale::Rated(m) => m.to_string(),
                crate::gbacw::oob::Morale::Green => "green (not yet rated)".to_string(),
            },
            crew.weapon.as_deref().map_or_else(
                || "none".to_string(),
                |w| rs
                    .game()
                    .charts
                    .range
                    .weapon(w)
                    .map_or_else(|| w.to_string(), |x| format!("{} ({w})", x.name.value))
            )
        ),
        E::RetreatFireOffered(o) => format!(
            "{} halts in an enemy ZOC at {}: {} may fire at it (10.2)",
            name(&o.unit),
            o.hex,
            names(rs, &o.firers)
        ),
        E::RetreatFireAnswered => "the retreat fire is answered (10.2)".into(),
        E::RoundsTransferred { from, to, rounds } => format!(
            "{} gives {} {} (11.33)",
            name(from),
            name(to),
            plural(*rounds, "round", "rounds")
        ),
        E::ReserveRolled {
            reserve,
            roll,
            committed,
        } => {
            let commit_on = game
                .scenario
                .reserves
                .list
                .iter()
                .find(|r| r.id == *reserve || r.units.contains(reserve))
                .map_or_else(String::new, |r| {
                    format!(", {} or less commits", r.commit_on)
                });
            format!(
                "{} {} (commitment die {roll}{commit_on}, 30.34)",
                reserve_name(rs, reserve),
                if *committed {
                    "is committed"
                } else {
                    "stays in reserve"
                }
            )
        }
        E::ReserveCommitted { reserve, case } => {
            format!("{} is committed ({case})", reserve_name(rs, reserve))
        }
        E::DayDetermined(d) => {
            let total = format!(
                "{}{}",
                d.halves / 2,
                if d.halves % 2 != 0 { ".5" } else { "" }
            );
            format!(
                "the first day ends on Game-Turn {}: {total} Victory Points, {} uncommitted; {} (31.2)",
                d.turn,
                plural(d.uncommitted, "reserve", "reserves"),
                match &d.winner {
                    Some(w) => format!("{} wins", side_name(rs, w)),
                    None => "the battle goes on".to_string(),
                }
            )
        }
        E::HeatRolled {
            turn,
            dice,
            skipped,
        } => format!(
            "heat roll for Game-Turn {turn}: {} and {}{} (30.5)",
            dice[0],
            dice[1],
            if *skipped { ", doubles: no heat" } else { "" }
        ),
        E::AssaultPlotted {
            commitment,
            plan,
            announced,
            ..
        } => format!(
            "the assault is plotted, commitment {}...{}; {} enters through {} on Game-Turn {} (29.2, 29.23)",
            hex::encode(&commitment[..8]),
            plan.as_ref()
                .map_or_else(String::new, |p| format!(": {}", plan_words(rs, p))),
            name(&announced.division),
            area_name(rs, &announced.area),
            announced.turn
        ),
        E::DivisionRevealed(d) => format!(
            "{}'s division enters through {} (29.31)",
            name(&d.division),
            area_name(rs, &d.area)
        ),
        E::PlanOpened { plan, .. } => format!(
            "the assault plan is opened: {} (29.2)",
            plan_words(rs, plan)
        ),
        E::BrigadesFrozen { brigades } => format!(
            "{} hold their ground until the first attack on them (29.43)",
            names(rs, brigades)
        ),
        E::BrigadesThawed { case } => {
            format!("the brigades by the Hotel are free to act ({case})")
        }
        E::FirstCombat { turn } => format!("the first combat, on Game-Turn {turn}"),
        E::FireMadeRapid { index } => format!(
            "declared attack {} is rapid fire (24.1)",
            u32::from(*index) + 1
        ),
        E::FoulingRolled {
            unit,
            die,
            modifier,
            fouled,
            ..
        } => format!(
            "{} {} (fouling die {die}{}, 24.1)",
            name(unit),
            if *fouled {
                "fouls its guns"
            } else {
                "keeps firing"
            },
            if *modifier > 0 {
                format!(" +{modifier}")
            } else {
                String::new()
            }
        ),
        E::UnfoulRolled {
            unit,
            die,
            unfouled,
        } => format!(
            "{} {} (die {die}, 24.1)",
            name(unit),
            if *unfouled {
                "clears its guns"
            } else {
                "stays fouled"
            }
        ),
        E::ParkFreed { .. } => "the Union artillery park may move and fire (29.44)".into(),
        E::SolitaireStarted { plan, dice } => format!(
            "the Confederate assault is rolled (dice {}): {} (29.51, 29.55)",
            dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" "),
            plan_words(rs, plan)
        ),
        E::SolitaireRolled { turn, rolls, .. } => {
            let each = rolls
                .iter()
                .map(|r| {
                    let die = match r.die {
                        Some(d) => format!("die {d}"),
                        None => "due by now, 29.54".into(),
                    };
                    match &r.entry {
                        Some(e) => format!(
                            "{} ({die}) enters on Game-Turn {} through {}{}",
                            name(&r.division),
                            e.turn,
                            area_name(rs, &e.area),
                            r.area_die
                                .map_or(String::new(), |d| format!(" (area die {d}, 29.57)"))
                        ),
                        None => format!("{} ({die}) stays out", name(&r.division)),
                    }
                })
                .collect::<Vec<_>>();
            format!(
                "Division Arrival rolls for Game-Turn {turn}: {} (29.53)",
                if each.is_empty() {
                    "none".into()
                } else {
                    each.join("; ")
                }
            )
        }
        E::ReinforcementsAttacked { units, .. } => format!(
            "{} attacked: free to leave column (29.47)",
            names(rs, units)
        ),
        E::BrigadeRetreated { brigade, units, .. } => format!(
            "{}'s brigade falls back: {} (25.2)",
            name(brigade),
            names(rs, units)
        ),
        E::MeleeGateChecked(c) => format!(
            "{} {} {} (die {}{} against {}, {})",
            name(&c.unit),
            if c.passed { "may" } else { "may not" },
            if c.attacking {
                format!("melee {}", c.target)
            } else {
                "retreat before melee".to_string()
            },
            c.die,
            modified(c.modifier),
            c.rating,
            if c.attacking { "22.2" } else { "22.1" }
        ),
        E::HeldOffMap { unit, area } => format!(
            "{} leaves the map through {} and waits there (27.3)",
            name(unit),
            area_name(rs, area)
        ),
        E::StragglerRolled(r) => format!(
            "{} {} stragglers (die {}{}, 26.2)",
            name(&r.unit),
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
            "BCE recovery (26.3): {} take their second-day limit; {} stay broken",
            names(rs, &r.extended),
            names(rs, &r.kept_lost)
        ),
        E::BarrageBegun { side } => {
            format!("Pre-Dawn Barrage (26.4): {} may fire", side_name(rs, side))
        }
        E::BarrageRolled(r) => format!(
            "barrage at {} by {}: die {}, {} after -1 (26.42)",
            r.target,
            names(rs, &r.firers),
            r.die,
            r.modified
        ),
        E::BarrageEnded { next: Some(side) } => {
            format!("Pre-Dawn Barrage: {} fires now", side_name(rs, side))
        }
        E::BarrageEnded { next: None } => "the Pre-Dawn Barrage is over".into(),
        E::LeaderBound(b) => format!(
            "{} spared {} its morale check and stays with it until the next Movement Phase (22.33)",
            name(&b.leader),
            names(rs, &b.units)
        ),
        E::BatteryRetreatOffered(o) => format!(
            "{}'s brigade retreats: {} may retreat with it (25.26)",
            name(&o.brigade),
            names(rs, &o.batteries)
        ),
        E::BatteryRetreatAnswered => "the batteries' answer is in (25.26)".into(),
        E::CrewRouted { battery, path } => format!(
            "the crew of {} routs away from its guns{} (24.21)",
            name(battery),
            path.last().map_or(String::new(), |h| format!(" to {h}"))
        ),
        E::BrigadeRetreatHeld(run) => format!(
            "{}'s brigade retreat waits for the withdrawal fire already offered{} (25.23)",
            name(&run.brigade),
            run.members
                .first()
                .map_or(String::new(), |u| format!(": {} is next", name(u)))
        ),
        E::BrigadeRetreatResumed { brigade } => {
            format!("{}'s brigade retreat goes on (25.23)", name(brigade))
        }
        E::CrewMoved {
            battery,
            path,
            rejoined,
        } => {
            if *rejoined {
                format!(
                    "the crew of {} is back at its guns: the Crew marker comes off (24.21)",
                    name(battery)
                )
            } else {
                format!(
                    "the crew of {} moves{} (24.21)",
                    name(battery),
                    path.last().map_or(String::new(), |h| format!(" to {h}"))
                )
            }
        }
        E::EngagedWithdrawn { from, .. } => format!(
            "the engaged units withdraw from {from}: no further melee in that engagement this Player-Turn (12.94)"
        ),
        E::WagonAmmoLost {
            wagon,
            column,
            die,
            loss,
        } => format!(
            "{} is hit by artillery: Ammunition Loss Table column {column}, die {die}: {} (11.34)",
            name(wagon),
            ammo_loss_words(*loss)
        ),
        E::WagonCrewLeft { wagon, routed } => format!(
            "the crew of {} {}; the wagon stays, without a crew, and may neither move nor resupply (11.1, {})",
            name(wagon),
            if *routed {
                "routs away from its wagon"
            } else {
                "retreats from its wagon"
            },
            if *routed { "11.12" } else { "11.17" }
        ),
    }
}
