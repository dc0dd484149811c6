//! What a Fire CRT result does to the hex it hits (9.8x, 8.21, 9.43, 9.82,
//! 15.12, 17.72, 13.2x, 13.3x, 13.4x, 14.x), as events.

use super::attack::Prepared;
use super::{Roller, Unfold};
use crate::gbacw::command::PathBlocks;
use crate::gbacw::facing::ZocUse;
use crate::gbacw::fire::allocate_losses;
use crate::gbacw::leaders::roll_leaders;
use crate::gbacw::morale::{MoraleMods, rout};
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, Morale, Unit, UnitKind, UnitStatus};
use crate::gbacw::options::elephant_rating;
use crate::gbacw::retreat::{RetreatKind, retreat_paths_on};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::bce_loss;
use crate::gbacw::ruleset::state::{Casualty, GbacwState, LeaderRoutOffer, RetreatOrder};
use crate::gbacw::tables::{AmmoLoss, CasualtyCause, FireResult, LeaderLoss};

/// GBACW 13.31: hexes a routed unit retreats at once.
pub const ROUT_HEXES: usize = 3;

/// How the effects of one result are applied.
pub(crate) struct Hit<'p> {
    pub prepared: &'p Prepared,
    pub result: FireResult,
    /// GBACW 13.26, 9.83: the fire enfiladed the unit hit: +1 to its check.
    pub enfiladed: bool,
    /// GBACW 10.15: a withdrawing unit pinned by withdrawal fire still
    /// moves one hex, then is pinned. Its pin is returned, not set.
    pub defer_pins_of: &'p [CounterId],
}

fn is_foot_or_horse(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
}

/// GBACW 13.2, 13.14, 21.1 (mounted morale): the rating a unit checks
/// with; a green unit sees the elephant first (2d6, 13.15's table).
pub(crate) fn rating_for(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) -> u8 {
    let unit = &rs.game.oob.units[id];
    let st = &u.state.units[id];
    if st.status.formation == Formation::Mounted
        && let Some(m) = unit.mounted_morale
    {
        return m;
    }
    match (unit.morale, st.rating) {
        (Morale::Rated(m), _) => m,
        (Morale::Green, Some(r)) => r,
        (Morale::Green, None) => {
            let two = roll.two_d6();
            let rating = elephant_rating(&rs.tables.elephant, two, rs.options).unwrap_or(4);
            u.push(GbacwEvent::MoraleRated {
                unit: id.clone(),
                rating,
            });
            rating
        }
    }
}

pub(crate) fn set_markers(u: &mut Unfold, id: &CounterId, edit: impl FnOnce(&mut UnitStatus)) {
    let mut s = u.state.units[id].status.clone();
    let before = s.markers.clone();
    edit(&mut s);
    if s.markers != before {
        u.push(GbacwEvent::MarkersSet {
            unit: id.clone(),
            markers: s.markers,
        });
    }
}

/// GBACW 9.84: "When a unit is pinned, place a PIN marker on top of all
/// the units in the hex the pinned unit occupies. ... If any unit in a
/// stack becomes pinned, all units in that hex are pinned." `id` and every
/// friendly unit in its hex take the PIN (a routed one stays routed).
pub(crate) fn pin_hex(rs: &Gbacw, u: &mut Unfold, id: &CounterId) {
    let mut all = vec![id.clone()];
    if let Some(hex) = u.state.units[id].hex {
        let side = &rs.game.oob.units[id].side;
        for other in Board::new(rs, &u.state).units_of(hex, side) {
            if !all.contains(other) {
                all.push(other.clone());
            }
        }
    }
    for x in &all {
        set_markers(u, x, |s| {
            s.markers.insert(Marker::Pin);
        });
    }
}

/// Apply one result to the hex. Returns the units whose pin was deferred
/// (10.15).
pub(crate) fn apply(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, hit: &Hit) -> Vec<CounterId> {
    let p = hit.prepared;
    let at = p.target;
    // The battle's own rule here (hook `apply_lone_hit`).
    if let Some(deferred) = rs.battle().apply_lone_hit(rs, u, roll, hit) {
        return deferred;
    }
    // The stack as it stands now: earlier results this phase may have
    // removed or routed some of it away.
    let stack: Vec<CounterId> = p
        .stack
        .iter()
        .filter(|id| u.state.units[*id].hex == Some(at))
        .cloned()
        .collect();
    if stack.is_empty() || hit.result == FireResult::NoEffect {
        return Vec::new();
    }
    let oob = &rs.game.oob;
    let pairs_of = |state: &GbacwState| -> Vec<(Unit, UnitStatus)> {
        stack
            .iter()
            .map(|id| (oob.units[id].clone(), state.units[id].status.clone()))
            .collect()
    };
    let owned = pairs_of(&u.state);
    let pairs: Vec<(&Unit, &UnitStatus)> = owned.iter().map(|(a, b)| (a, b)).collect();
    let top = crate::gbacw::fire::result_target(&pairs).unwrap_or(0);
    let top_id = stack[top].clone();
    let mut deferred = Vec::new();
    match hit.result {
        FireResult::NoEffect => {}
        FireResult::MaybePin | FireResult::MaybeRout | FireResult::PinOrRout => {
            // GBACW 9.43, 9.87, 9.83: the top unit checks.
            let mut checked = Vec::new();
            check_one(
                rs,
                u,
                roll,
                hit,
                &top_id,
                false,
                &mut checked,
                &mut deferred,
            );
        }
        FireResult::Loss {
            points,
            then_pin_check,
        } => {
            let mut suffered = false;
            if pairs.iter().any(|(x, _)| is_foot_or_horse(x)) {
                // GBACW 8.21, 9.81: losses top unit first.
                for (i, pts) in allocate_losses(&pairs, points) {
                    suffered = true;
                    u.push(GbacwEvent::UnitHit {
                        unit: stack[i].clone(),
                        points: pts,
                    });
                }
            } else {
                suffered = true;
                let id = &stack[top];
                let st = &u.state.units[id].status;
                let battery = matches!(oob.units[id].kind, UnitKind::Battery { .. });
                if battery && p.artillery {
                    // GBACW 9.82: only artillery kills guns.
                    let guns = st.strength;
                    u.push(GbacwEvent::UnitHit {
                        unit: id.clone(),
                        points,
                    });
                    let lost = guns - u.state.units[id].status.strength;
                    if u.state.units[id].status.strength > 0 {
                        super::caisson::roll_caissons(u, roll, id, lost);
                    }
                } else if !battery && p.artillery {
                    // GBACW 11.12 (case_11_12_artillery_hit_on_wagon_ammo_loss):
                    // "Supply wagon crews suffer casualties only from
                    // small-arms fire"; the number reads the Ammunition
                    // Loss Table (11.34).
                    wagon_ammo_loss(rs, u, roll, id, points);
                } else {
                    // GBACW 9.82, 15.12: small arms hit a battery's crew, a
                    // step per point: "If a battery suffers a result of
                    // "1," the gun crew counter is flipped over to its
                    // Reduced Strength side; another Point loss and the
                    // crew is eliminated" — a "2" on a full crew eliminates
                    // it (case_15_12_two_point_result_on_full_crew). GBACW
                    // 11.12 (case_11_12_small_arms_on_wagon_crew): on a
                    // wagon, ""1," "2," etc.: The crew is eliminated and
                    // the wagon is turned over to show that it is crewless."
                    let crew = if battery {
                        (0..points).fold(st.crew, |c, _| match c {
                            Crew::Full => Crew::Half,
                            Crew::Half | Crew::None => Crew::None,
                        })
                    } else {
                        Crew::None
                    };
                    u.push(GbacwEvent::CrewHit {
                        unit: id.clone(),
                        crew,
                    });
                }
            }
            // Units with nothing left leave play (9.81; 15.12: no crew, no
            // battery).
            for id in &stack {
                let st = &u.state.units[id].status;
                let battery = matches!(oob.units[id].kind, UnitKind::Battery { .. });
                if st.strength == 0 || (battery && st.crew == Crew::None) {
                    u.push(GbacwEvent::UnitRemoved {
                        unit: id.clone(),
                        captured: false,
                    });
                }
            }
            if suffered && let Some(first) = p.stack.first() {
                let side = rs.game.oob.units[first].side.clone();
                let cause = if p.artillery {
                    CasualtyCause::Artillery
                } else {
                    CasualtyCause::SmallArms
                };
                leader_casualties(rs, u, roll, &side, p.target, cause);
                // GBACW 17.53: leaders left alone rejoin their command.
                super::rejoin::after_fire(rs, u, &side, p.target);
            }
            // GBACW 13.41–13.44: the top unit checks; those beneath only if
            // it routs, or all of them under artillery from three hexes. A
            // top unit eliminated leaves the next one to check as the top.
            let all = p.artillery && p.max_range >= 3;
            let survivors: Vec<CounterId> = stack
                .iter()
                .filter(|id| u.state.units[*id].hex == Some(at))
                .cloned()
                .collect();
            let mut checked = Vec::new();
            for (k, id) in survivors.iter().enumerate() {
                let routed = check_one(
                    rs,
                    u,
                    roll,
                    hit,
                    id,
                    then_pin_check && k == 0,
                    &mut checked,
                    &mut deferred,
                );
                if k == 0 && !routed && !all {
                    break;
                }
            }
        }
    }
    offer_leader_choice(rs, u, &stack, &owned, at);
    deferred
}

/// GBACW 11.12: "Artillery Fire Results: ... "1," "2," etc.: This number
/// is used to determine the column on the Ammunition Loss Table (11.34). A
/// die is rolled and cross-indexed with the column to determine the number
/// of Supply Points the wagon loses." GBACW 11.34: "Results to the left of
/// the slash apply to the wagon's small-arms supply; to the right its
/// artillery supply. ... E = All artillery ammunition is eliminated and
/// marked off the wagons supply. WE = The supply wagon is eliminated and
/// removed from play." The table has three columns, the Fire CRT's
/// largest artillery result on a wagon (a larger number would read the
/// third: `wagon_fire_effect`).
fn wagon_ammo_loss(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId, points: u8) {
    let column = points.clamp(1, 3);
    let die = roll.d6();
    let Some(loss) = rs.tables.ammo_loss.result(column, die) else {
        return;
    };
    u.push(GbacwEvent::WagonAmmoLost {
        wagon: id.clone(),
        column,
        die,
        loss,
    });
    if loss == AmmoLoss::WagonEliminated {
        u.push(GbacwEvent::UnitRemoved {
            unit: id.clone(),
            captured: false,
        });
    }
}

/// GBACW 11.12: "ROUT: The crew routs. A Wagon Crew Marker is used and the
/// crew routs three hexes. The Wagon Counter is turned over to show that
/// it is crewless." GBACW 11.17: "Crewed supply wagons may retreat before
/// melee. In other forms of retreat the crew retreats but the wagon
/// doesn't." When `id` is a supply wagon that must rout (`routed`) or
/// retreat in any way but before melee, its crew (if it has one) leaves
/// and the wagon stays, uncrewed (11.1: it "may not be used to resupply
/// units, nor may it move"); returns whether `id` is a wagon (the caller
/// then moves nothing). The crew counter's own play once away (its three
/// hexes, its rally, 13.54) is not modelled: the crew leaves the map with
/// no way back to the wagon (11.18 recrews only a wagon whose crew "has
/// been eliminated").
pub(crate) fn wagon_crew_leaves(rs: &Gbacw, u: &mut Unfold, id: &CounterId, routed: bool) -> bool {
    if !matches!(rs.game.oob.units[id].kind, UnitKind::Wagon { .. }) {
        return false;
    }
    let goes = crate::gbacw::ammo::wagon_retreat(&u.state.units[id].status, false);
    if goes.crew && !goes.wagon {
        u.push(GbacwEvent::WagonCrewLeft {
            wagon: id.clone(),
            routed,
        });
    }
    true
}

/// GBACW 15.16: "When an unlimbered artillery crew is routed, the crew
/// routs but the guns remain in the original hex." 13.25: "Unlimbered
/// guns never rout. However, their crews may rout, thus abandoning the
/// guns". `BattleRules::guns_rout` routs the crew three hexes away as a
/// piece of its own, the guns staying with the Rout marker for their
/// absent crew (`ruleset/crews/`, the Standard Rules' in every battle).
/// Should a battle leave the guns to this caller, they stay and take the
/// Rout marker (13.32: no fire, no ZOC until it rallies, 13.54). Returns
/// whether the crew routed (the stack then checks, 13.41).
fn crew_routs_from_guns(rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> bool {
    if let Some(done) = rs.battle().guns_rout(rs, u, id) {
        return done;
    }
    set_markers(u, id, |s| {
        rout(&mut s.markers);
    });
    true
}

/// GBACW 13.43: "Leaders in a stack may choose to retreat with a routed
/// unit or remain with the unit beneath (and take their chances there)."
/// When this result routed a unit of `stack` (the top-most routed) and
/// units beneath it held, each leader in `at` is asked (the default:
/// he stays). With the whole stack routed there is no one to stay with.
fn offer_leader_choice(
    rs: &Gbacw,
    u: &mut Unfold,
    stack: &[CounterId],
    before: &[(Unit, UnitStatus)],
    at: crate::gbacw::map::HexNumber,
) {
    let Some(first) = stack.first() else { return };
    let side = rs.game.oob.units[first].side.clone();
    let routed_now = |id: &CounterId, was: &UnitStatus| {
        let x = &u.state.units[id];
        x.hex.is_some()
            && x.status.markers.contains(&Marker::Rout)
            && !was.markers.contains(&Marker::Rout)
    };
    let Some(unit) = stack
        .iter()
        .zip(before)
        .find(|(id, (_, was))| routed_now(id, was))
        .map(|(id, _)| id.clone())
    else {
        return;
    };
    let board = Board::new(rs, &u.state);
    let holding = board
        .units_of(at, &side)
        .into_iter()
        .any(|x| !u.state.units[x].status.markers.contains(&Marker::Rout));
    if !holding {
        return;
    }
    let leaders: Vec<CounterId> = board.leaders_of(at, &side).into_iter().cloned().collect();
    for leader in leaders {
        if u.state.leader_routs.iter().any(|o| o.leader == leader) {
            continue;
        }
        u.push(GbacwEvent::LeaderRoutOffered(LeaderRoutOffer {
            seat: rs.seat_of(&side),
            leader,
            unit: unit.clone(),
            hex: at,
        }));
    }
}

/// GBACW 6.11: "A unit in Column formation that is fired upon
/// automatically goes into Line formation (this occurs after the combat
/// has been resolved)." Every unit the attack `p` was made on that is
/// still in the target hex and in Column goes into Line, keeping its
/// facing (the texts give a Line no other). Called after every fire
/// combat: a Fire Phase's attacks, withdrawal fire (10.15: "treated as if
/// it had suffered casualties during any regular Fire Phase") and retreat
/// fire (10.2: "The procedure for retreat fire is the same as for
/// withdrawal fire"), and Corinth's barrage (26.4).
pub(crate) fn fired_on_columns_into_line(u: &mut Unfold, p: &Prepared) {
    for id in &p.stack {
        let Some(x) = u.state.units.get(id) else {
            continue;
        };
        if x.hex == Some(p.target) && x.status.formation == Formation::Column {
            u.push(GbacwEvent::FormationSet {
                unit: id.clone(),
                to: Formation::Line,
            });
        }
    }
}

/// One unit's morale check for `hit` (9.81, 9.83, 9.87, 9.88, 13.2x),
/// with 13.33 for a unit already routed and 13.25 for unlimbered guns.
/// Returns whether it routed.
#[allow(clippy::too_many_arguments)]
fn check_one(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    hit: &Hit,
    id: &CounterId,
    pin_check_after: bool,
    checked: &mut Vec<CounterId>,
    deferred: &mut Vec<CounterId>,
) -> bool {
    if checked.contains(id) || u.state.units[id].hex.is_none() {
        return false;
    }
    checked.push(id.clone());
    let unit = &rs.game.oob.units[id];
    let st = u.state.units[id].status.clone();
    let casualties = matches!(hit.result, FireResult::Loss { .. });
    // GBACW 13.33: a routed unit hit again routs again without a check;
    // pinned, it stays routed and is pinned too.
    if st.markers.contains(&Marker::Rout) {
        // 10.2: not under retreat fire.
        let re_rout = (casualties || hit.result == FireResult::MaybeRout)
            && u.no_re_rout.as_ref() != Some(id);
        if hit.result == FireResult::MaybePin || hit.result == FireResult::PinOrRout {
            pin_hex(rs, u, id);
        }
        if re_rout {
            rout_retreat(rs, u, roll, id);
        }
        return re_rout;
    }
    let rating = rating_for(rs, u, roll, id);
    let board = Board::new(rs, &u.state);
    let hex = u.state.units[id].hex;
    // Corinth 28.14: only a leader who may affect it.
    let leader = hex.is_some_and(|h| {
        crate::gbacw::ruleset::leader_reach::stacked_for(&board, h, &unit.side, id)
    });
    let mods = MoraleMods {
        leader,
        over_half_lost: st.lost_over_half(unit),
        enfiladed: hit.enfiladed,
    };
    let die = roll.d6();
    // Cedar Mountain 24.11: +1 for a brigade that has lost BCE.
    let modifier = mods.modifier() + bce_loss::morale_modifier(rs, &u.state, id);
    let failed = i16::from(die) + modifier > i16::from(rating);
    u.push(GbacwEvent::MoraleChecked {
        unit: id.clone(),
        rating,
        die,
        modifier: i8::try_from(modifier).unwrap_or(0),
        failed,
    });
    let (routed, mut pinned) = match hit.result {
        FireResult::MaybePin => (false, failed),
        FireResult::MaybeRout => (failed, false),
        FireResult::PinOrRout => (failed, !failed),
        FireResult::Loss { .. } => (failed, false),
        FireResult::NoEffect => (false, false),
    };
    // GBACW 9.88: a unit that does not rout rolls again; an unmodified die
    // above its morale pins it.
    if pin_check_after && !routed {
        let second = roll.d6();
        pinned = second > rating;
        u.push(GbacwEvent::MoraleChecked {
            unit: id.clone(),
            rating,
            die: second,
            modifier: 0,
            failed: pinned,
        });
    }
    // GBACW 13.25: unlimbered guns never rout; their crew routs, the guns
    // staying (15.16; Corinth 24.21: away from them).
    if routed && (st.formation == Formation::Unlimbered || rs.battle().guns_held_in_place(rs, id)) {
        return crew_routs_from_guns(rs, u, id);
    }
    if routed {
        rout_with_brigade(rs, u, roll, id);
    } else if pinned {
        if hit.defer_pins_of.contains(id) {
            deferred.push(id.clone());
        } else {
            pin_hex(rs, u, id);
        }
    }
    routed
}

/// GBACW 13.2, 13.0 (melee "R" results, 12.83 retreat before melee):
/// a plain morale check — failing routs the unit (13.31, retreat three
/// hexes); a unit already routed routs again without a check (13.33).
/// Unlimbered guns never rout (13.25). Returns whether it routed.
pub(crate) fn check_morale(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) -> bool {
    if u.state.units[id].hex.is_none() {
        return false;
    }
    let st = u.state.units[id].status.clone();
    if st.markers.contains(&Marker::Rout) {
        rout_retreat(rs, u, roll, id);
        return true;
    }
    if !roll_check(rs, u, roll, id) {
        return false;
    }
    // GBACW 13.25: unlimbered guns never rout; their crew routs, the guns
    // staying (15.16; Corinth 24.21: away from them).
    if st.formation == Formation::Unlimbered || rs.battle().guns_held_in_place(rs, id) {
        return crew_routs_from_guns(rs, u, id);
    }
    rout_with_brigade(rs, u, roll, id);
    true
}

/// GBACW 13.21–13.24: `id` (on the map) rolls a plain morale check
/// (no enfilade); returns whether it failed. Nothing follows from it here.
fn roll_check(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) -> bool {
    let Some(hex) = u.state.units[id].hex else {
        return false;
    };
    let st = u.state.units[id].status.clone();
    let unit = &rs.game.oob.units[id];
    let rating = rating_for(rs, u, roll, id);
    // Corinth 28.14: only a leader who may affect it.
    let leader = crate::gbacw::ruleset::leader_reach::stacked_for(
        &Board::new(rs, &u.state),
        hex,
        &unit.side,
        id,
    );
    let mods = MoraleMods {
        leader,
        over_half_lost: st.lost_over_half(unit),
        enfiladed: false,
    };
    let die = roll.d6();
    // Cedar Mountain 24.11: +1 for a brigade that has lost BCE.
    let modifier = mods.modifier() + bce_loss::morale_modifier(rs, &u.state, id);
    let failed = i16::from(die) + modifier > i16::from(rating);
    u.push(GbacwEvent::MoraleChecked {
        unit: id.clone(),
        rating,
        die,
        modifier: i8::try_from(modifier).unwrap_or(0),
        failed,
    });
    failed
}

/// GBACW 13.31: `id` fails its check and routs three hexes; Corinth 25.2:
/// its broken brigade may retreat with it (asked where it routed).
fn rout_with_brigade(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) {
    // GBACW 11.12: a wagon's crew routs away; the wagon stays.
    if wagon_crew_leaves(rs, u, id, true) {
        return;
    }
    let brigade = rs.battle().brigade_retreat(rs, &u.state, id);
    set_markers(u, id, |s| {
        rout(&mut s.markers);
    });
    rout_retreat(rs, u, roll, id);
    if let Some((b, members)) = brigade {
        rs.battle()
            .carry_out_brigade_retreat(rs, u, roll, id, b, members);
    }
}

/// GBACW 17.72, 17.76, 9.86: every leader in the hit hex rolls two dice
/// after a combat casualty, before the morale checks.
pub(crate) fn leader_casualties(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    side: &CounterId,
    hex: crate::gbacw::map::HexNumber,
    cause: CasualtyCause,
) {
    let board = Board::new(rs, &u.state);
    let leaders: Vec<CounterId> = board.leaders_of(hex, side).into_iter().cloned().collect();
    for c in roll_leaders(&rs.tables.leader_casualty, cause, &leaders, true, || {
        roll.two_d6()
    }) {
        u.push(GbacwEvent::LeaderRolled {
            leader: c.leader,
            roll: c.roll,
            casualty: c.loss.map(|l| match l {
                LeaderLoss::Wounded => Casualty::Wounded,
                LeaderLoss::Killed => Casualty::Killed,
                LeaderLoss::Captured => Casualty::Captured,
            }),
        });
    }
}

/// GBACW 13.31, 14.0–14.4: a routed unit retreats three hexes at once
/// ([`retreat`]), displacing friends it must go through (14.3) and
/// drawing retreat fire where it enters enemy ZOCs (10.2).
pub(crate) fn rout_retreat(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) {
    // GBACW 13.25: unlimbered guns never move in rout; Corinth 24.21,
    // 24.3: guns whose crew is away, or that leave a routed crew go, stay.
    if rs.battle().guns_stay_in_rout(rs, u, id) {
        return;
    }
    if u.state.units[id].status.formation == Formation::Unlimbered {
        return;
    }
    retreat(rs, u, roll, id, ROUT_HEXES, RetreatKind::Rout);
}

/// GBACW 14.0–14.4: the paths `id` may retreat `length` hexes of `kind`
/// along now: those of the most preferred tier (14.3) that do not end
/// over the stacking limits, in a fixed order (the first is the default).
/// A path shorter than `length` goes off the map from its last hex (an
/// exclusive rule's goal reached with hexes left:
/// `BattleRules::retreat_leaves_at_goal`); [`leaves_map`] tells.
pub(crate) fn retreat_options(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    length: usize,
    kind: RetreatKind,
) -> Vec<Vec<crate::gbacw::map::HexNumber>> {
    retreat_options_as(rs, state, id, length, kind, false)
}

/// [`retreat_options`] for a unit `displaced` (14.3) or not. A displaced
/// unit under the reading `displace-away-from-enemy` takes no step nearer
/// the enemy while a path away from him is open, even one onto friends
/// (who are displaced in turn: 14.3's "chain reaction"); with none, the
/// ordinary paths.
pub(crate) fn retreat_options_as(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    length: usize,
    kind: RetreatKind,
    displaced: bool,
) -> Vec<Vec<crate::gbacw::map::HexNumber>> {
    let Some(start) = state.units.get(id).and_then(|u| u.hex) else {
        return Vec::new();
    };
    let unit = &rs.game.oob.units[id];
    let class = retreat_class(state, id);
    let board = Board::new(rs, state);
    let blocks = retreat_blocks(rs, state, &board, id, start);
    // Cedar Mountain 23.0 (toward one's own lines), 24.14 (BCE lost: no
    // enemy ZOC); no limits where the battle has no such rules.
    // Corinth 27.0 (toward a goal), with its fallback when no path leads
    // toward the first.
    let mut all = crate::gbacw::ruleset::combat::retreat_limits::limits(rs, state, id);
    if displaced && rs.options.displace_away_from_enemy {
        // GBACW 14.4 under `displace-away-from-enemy`: each limit first
        // away from the enemy, then as it is.
        let enemy: std::collections::BTreeSet<_> =
            board.enemy_units(&unit.side).map(|(_, h)| h).collect();
        all = all
            .into_iter()
            .flat_map(|l| {
                let away = crate::gbacw::retreat::RetreatLimits {
                    away_from: Some(enemy.clone()),
                    ..l.clone()
                };
                [away, l]
            })
            .collect();
    }
    all.iter()
        .map(|limits| {
            // Corinth 23.31: the ruleset's steps, town entry by road only.
            retreat_paths_on(
                &rs.game.map,
                &rs.steps,
                class,
                start,
                length,
                kind,
                &blocks,
                limits,
            )
        })
        .find(|paths| !paths.is_empty())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            // Corinth 27.3: a path that goes off the map from its last
            // hex does not stay there.
            if p.hexes.len() < length {
                return true;
            }
            // 14.3: friends at the end are displaced, so the path may end on
            // them (if the hex can hold the unit once they are gone: 8.11,
            // a redan's four points, 23.27); else it must not end over the
            // stacking limits.
            p.hexes.last().is_some_and(|end| {
                board
                    .check_stack(*end, &unit.side, &[], &[id], None)
                    .is_ok()
                    || super::displacement::displaced_by(rs, state, id, &[*end])
                        .first()
                        .is_some_and(|d| {
                            // 14.3: unlimbered guns stay, their crew goes.
                            let gone: Vec<&CounterId> = d
                                .iter()
                                .filter(|x| super::displacement::displaceable(rs, state, x))
                                .collect();
                            d.len() == board.units_of(*end, &unit.side).len()
                                && board
                                    .check_stack(*end, &unit.side, &gone, &[id], None)
                                    .is_ok()
                        })
            })
        })
        .map(|p| p.hexes)
        .collect()
}

/// Whether a retreat of `length` hexes along `path` (one of
/// [`retreat_options`]) goes off the map at its end: it is shorter than
/// asked (Corinth 27.3's Assault Area reached with hexes left).
pub(crate) fn leaves_map(path: &[crate::gbacw::map::HexNumber], length: usize) -> bool {
    !path.is_empty() && path.len() < length
}

/// The class `id` retreats as (its formation's; line when it has none).
pub(crate) fn retreat_class(state: &GbacwState, id: &CounterId) -> crate::gbacw::charts::MoveClass {
    state.units[id]
        .status
        .formation
        .move_class()
        .unwrap_or(crate::gbacw::charts::MoveClass::Line)
}

/// GBACW 14.1–14.3: what stands in the way of `id` retreating from
/// `start`: enemy units, friends (other than in `start`), and the enemy
/// ZOCs that count against it (10.0: mounted cavalry's only against
/// mounted cavalry).
pub(crate) fn retreat_blocks(
    rs: &Gbacw,
    state: &GbacwState,
    board: &Board,
    id: &CounterId,
    start: crate::gbacw::map::HexNumber,
) -> PathBlocks {
    let unit = &rs.game.oob.units[id];
    let mounted = state.units[id].status.formation == Formation::Mounted;
    let mut blocks = PathBlocks::default();
    for (other, s) in &state.units {
        let Some(h) = s.hex else { continue };
        if rs.game.oob.units[other].side == unit.side {
            if other != id && h != start {
                blocks.friendly_units.insert(h);
            }
        } else {
            blocks.enemy_units.insert(h);
        }
    }
    // The battle's own rule here (hook `friendly_pieces_in_the_way`).
    blocks.friendly_units.extend(
        rs.battle()
            .friendly_pieces_in_the_way(rs, state, &unit.side, id, start),
    );
    // The battle's own rule here (hook `enemy_pieces`).
    blocks
        .enemy_units
        .extend(rs.battle().enemy_pieces(rs, state, &unit.side));
    blocks.enemy_zoc = board.enemy_zoc(
        &unit.side,
        ZocUse::WithdrawalAndRetreat {
            mover_mounted: mounted,
        },
    );
    blocks
}

/// GBACW 14.4: `id` must retreat `length` hexes of `kind`. With no legal
/// path it is captured (13.31, 12.92, 14.1); with one it takes it; with a
/// choice, the owning seat chooses (a pending decision whose default is
/// the first path: [`crate::gbacw::ruleset::state::RetreatOrder`]).
pub(crate) fn retreat(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    length: usize,
    kind: RetreatKind,
) {
    retreat_then(rs, u, roll, id, length, kind, None, false);
}

/// GBACW 14.3: the one-hex retreat of `id`, displaced by a friend's
/// retreat (a rout's kind: it may pass enemy ZOCs, 14.2), its path chosen
/// by [`retreat_options_as`] for a displaced unit.
pub(crate) fn displaced_retreat(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) {
    retreat_then(
        rs,
        u,
        roll,
        id,
        super::displacement::DISPLACED_HEXES,
        RetreatKind::Rout,
        None,
        true,
    );
}

/// GBACW 12.92, 12.98: a melee result's retreat of `length` hexes, then
/// (if `check`) the morale check "At the end of the retreat" — made at
/// once when the retreat is, or when the owner answers the retreat order
/// (14.4). `lost`: the unit lost Strength Points in the melee (13.33).
pub(crate) fn melee_retreat(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    length: usize,
    check: bool,
    lost: bool,
) {
    retreat_then(
        rs,
        u,
        roll,
        id,
        length,
        RetreatKind::MeleeResult,
        check.then_some(lost),
        false,
    );
}

/// [`retreat`], then, with `then_check` = `Some(lost)`, the check at the
/// end of a melee result's retreat ([`check_after_melee_retreat`]);
/// `displaced`: a displacement's retreat (14.3, [`retreat_options_as`]).
#[allow(clippy::too_many_arguments)]
fn retreat_then(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    length: usize,
    kind: RetreatKind,
    then_check: Option<bool>,
    displaced: bool,
) {
    if u.state.units[id].hex.is_none() {
        return;
    }
    // GBACW 11.17: the crew retreats, the wagon doesn't (and the crew,
    // not on the map, makes no check at the end of its retreat). A wagon
    // never routs (its crew does, `rout_with_brigade`), so this is a
    // melee result's retreat or a displacement (14.3).
    if wagon_crew_leaves(rs, u, id, false) {
        return;
    }
    // A unit already waiting for its owner's choice of path (14.4) that is
    // told to retreat again (it routed meanwhile) keeps one order, the
    // longer and the rout if either is: two orders would be answered by
    // one move and the second retreat lost. A rout drops the check still
    // owed (the unit has routed already).
    let (length, kind, then_check, displaced) =
        match u.state.retreats.iter().find(|o| o.unit == *id) {
            Some(o) => {
                let kind = if o.rout { RetreatKind::Rout } else { kind };
                let owed = o.check.then_some(o.lost);
                let check = match (owed, then_check) {
                    (Some(a), Some(b)) => Some(a || b),
                    (a, b) => a.or(b),
                };
                let length = length.max(usize::from(o.length));
                (
                    length,
                    kind,
                    check.filter(|_| kind != RetreatKind::Rout),
                    // Still a displacement's one hex only if both were.
                    displaced && o.displaced && length == super::displacement::DISPLACED_HEXES,
                )
            }
            None => (length, kind, then_check, displaced),
        };
    let mut options = retreat_options_as(rs, &u.state, id, length, kind, displaced);
    match options.len() {
        0 => u.push(rs.battle().retreat_blocked(rs, &u.state, id)),
        1 => {
            // GBACW 14.3, 10.2: friends in the way are displaced; enemy
            // ZOCs entered draw retreat fire.
            let path = options.remove(0);
            let leaves = leaves_map(&path, length);
            super::retreat_fire::go_along(rs, u, roll, id, &path, leaves, Vec::new(), None);
            if let Some(lost) = then_check {
                check_after_melee_retreat(rs, u, roll, id, lost);
            }
        }
        _ => {
            let side = &rs.game.oob.units[id].side;
            u.push(GbacwEvent::RetreatOrdered(RetreatOrder {
                unit: id.clone(),
                seat: rs.seat_of(side),
                length: u8::try_from(length).unwrap_or(u8::MAX),
                rout: kind == RetreatKind::Rout,
                check: then_check.is_some(),
                lost: then_check.unwrap_or(false),
                displaced,
            }));
        }
    }
}

/// GBACW 12.92, 13.31, 13.33: the morale check "At the end of the
/// retreat" of a melee result. A unit in good order checks as always
/// ([`check_morale`]): failing, it routs and retreats three hexes more
/// (13.31: "in addition to any other retreats that may have been mandated
/// in that Combat Phase"). A unit already routed that lost Strength Points
/// in the melee routs again without a check (13.33: "suffers additional
/// casualties while in a state of rout will rout again"); one that lost
/// none checks, and only a failure routs it again, three hexes more,
/// still routed — unless the table plays the `routed-melee-reroutes`
/// reading (13.33's "second rout result" read as any result that calls
/// for a check), where it routs again without one. Returns whether it
/// routed.
pub(crate) fn check_after_melee_retreat(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    lost: bool,
) -> bool {
    let Some(x) = u.state.units.get(id) else {
        return false;
    };
    if x.hex.is_none() {
        return false;
    }
    if !x.status.markers.contains(&Marker::Rout) {
        return check_morale(rs, u, roll, id);
    }
    if lost || rs.options.routed_melee_reroutes || roll_check(rs, u, roll, id) {
        rout_retreat(rs, u, roll, id);
        return true;
    }
    false
}

fn kind_of(order: &RetreatOrder) -> RetreatKind {
    if order.rout {
        RetreatKind::Rout
    } else {
        RetreatKind::MeleeResult
    }
}

/// The paths `order`'s unit may take now.
pub(crate) fn order_options(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
) -> Vec<Vec<crate::gbacw::map::HexNumber>> {
    retreat_options_as(
        rs,
        state,
        &order.unit,
        usize::from(order.length),
        kind_of(order),
        order.displaced,
    )
}

/// The default answer to a retreat order: the first legal path (empty
/// when none is left: captured).
pub(crate) fn default_retreat(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
) -> crate::gbacw::ruleset::GbacwAction {
    crate::gbacw::ruleset::GbacwAction::Retreat {
        unit: order.unit.clone(),
        path: order_options(rs, state, order)
            .into_iter()
            .next()
            .unwrap_or_default(),
    }
}

/// GBACW 14.4: the owner retreats the ordered unit along `path`, one of
/// the legal paths now; with none left, an empty path: it is captured.
pub(crate) fn answer_retreat(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
    unit: &CounterId,
    path: &[crate::gbacw::map::HexNumber],
    dice: &mut crate::engine::Dice,
) -> Result<Vec<GbacwEvent>, crate::engine::RuleError> {
    use crate::engine::RuleCode;
    if *unit != order.unit {
        return Err(crate::gbacw::ruleset::err(
            "GBACW 14.4",
            RuleCode::Illegal,
            format!("{} retreats first", order.unit),
        ));
    }
    let options = order_options(rs, state, order);
    if options.is_empty() {
        if path.is_empty() {
            return Ok(vec![rs.battle().retreat_blocked(rs, state, unit)]);
        }
        return Err(crate::gbacw::ruleset::err(
            "GBACW 14.1",
            RuleCode::Illegal,
            format!("{unit} has no retreat path left: it is captured (send an empty path)"),
        ));
    }
    if !options.iter().any(|p| p == path) {
        return Err(crate::gbacw::ruleset::err(
            "GBACW 14.4",
            RuleCode::Illegal,
            format!(
                "not a legal retreat path for {unit}: {} hexes, each farther away, not into the enemy{}",
                order.length,
                if order.rout {
                    ""
                } else {
                    " or an enemy Zone of Control (12.92)"
                }
            ),
        ));
    }
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    // GBACW 14.3, 10.2: friends in the way are displaced; enemy ZOCs
    // entered draw retreat fire.
    let leaves = leaves_map(path, usize::from(order.length));
    super::retreat_fire::go_along(rs, &mut u, &mut roll, unit, path, leaves, Vec::new(), None);
    // GBACW 12.92: "At the end of the retreat, the owning Player conducts
    // a morale check."
    if order.check {
        check_after_melee_retreat(rs, &mut u, &mut roll, unit, order.lost);
    }
    roll.finish()?;
    Ok(u.events)
}

/// Whether answering `order` along `path` rolls dice: displaced friends
/// check morale (14.3), and a melee result's retreat ends with a check
/// (12.92).
pub(crate) fn answer_rolls(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
    path: &[crate::gbacw::map::HexNumber],
) -> bool {
    order.check
        || !super::displacement::displaced_by(rs, state, &order.unit, path).is_empty()
        || rs.battle().displaces_pieces(rs, state, &order.unit, path)
}

/// GBACW 8.22, 8.23, 13.44: artillery firing at a stack from three hexes
/// or more "fires separately at (and the die is rolled once for) *each*
/// unit in the hex, top unit first. Any result to one unit affects only
/// that unit. If a unit is routed as a result of combat, all units in the
/// hex must undergo morale checks, even if they do not suffer any losses.
/// All units in the hex take fire before checking for rout." `parts` are
/// the attack on each unit (its `stack` that unit alone; the shifts, and
/// so the density, the whole hex's: 8.23) with its result. Every loss is
/// taken first, then the leaders roll (17.72), then the checks: every
/// unit in the hex when any suffered a casualty (13.44), otherwise each
/// unit its own result's check, and all the others once one routs.
pub(crate) fn apply_per_unit(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    parts: &[(&Prepared, FireResult, bool)],
) {
    let oob = &rs.game.oob;
    let Some((first, _, _)) = parts.first() else {
        return;
    };
    let at = first.target;
    let here = |u: &Unfold, id: &CounterId| u.state.units[id].hex == Some(at);
    let mut suffered = false;
    for (p, result, _) in parts {
        let Some(id) = p.stack.first() else { continue };
        let FireResult::Loss { points, .. } = *result else {
            continue;
        };
        if !here(u, id) {
            continue;
        }
        let st = u.state.units[id].status.clone();
        let kind = &oob.units[id].kind;
        suffered = true;
        if is_foot_or_horse(&oob.units[id]) {
            u.push(GbacwEvent::UnitHit {
                unit: id.clone(),
                points: points.min(st.strength),
            });
        } else if matches!(kind, UnitKind::Battery { .. }) {
            // GBACW 9.82: artillery fire kills guns (15.2: caissons).
            u.push(GbacwEvent::UnitHit {
                unit: id.clone(),
                points,
            });
            let lost = st.strength - u.state.units[id].status.strength;
            if u.state.units[id].status.strength > 0 {
                super::caisson::roll_caissons(u, roll, id, lost);
            }
        } else {
            // GBACW 11.12: a wagon under artillery fire loses no crew
            // ("Supply wagon crews suffer casualties only from small-arms
            // fire"); the number reads the Ammunition Loss Table (11.34).
            wagon_ammo_loss(rs, u, roll, id, points);
        }
        let st = &u.state.units[id].status;
        let battery = matches!(kind, UnitKind::Battery { .. });
        if st.strength == 0 || (battery && st.crew == Crew::None) {
            u.push(GbacwEvent::UnitRemoved {
                unit: id.clone(),
                captured: false,
            });
        }
    }
    if suffered {
        let side = oob.units[&first.stack[0]].side.clone();
        leader_casualties(rs, u, roll, &side, at, CasualtyCause::Artillery);
        // GBACW 17.53: leaders left alone rejoin their command.
        super::rejoin::after_fire(rs, u, &side, at);
    }
    // The checks, top first; a unit whose own roll did nothing checks
    // plainly (a failed check routs) when it must check at all.
    let plain = FireResult::Loss {
        points: 0,
        then_pin_check: false,
    };
    let mut checked = Vec::new();
    let mut deferred = Vec::new();
    let mut any_routed = false;
    let mut waiting = Vec::new();
    for (p, result, enfiladed) in parts {
        let Some(id) = p.stack.first() else { continue };
        if !here(u, id) {
            continue;
        }
        let own = !matches!(result, FireResult::NoEffect);
        if !suffered && !own {
            waiting.push((*p, *enfiladed));
            continue;
        }
        let pin_after = matches!(
            result,
            FireResult::Loss {
                then_pin_check: true,
                ..
            }
        );
        let hit = Hit {
            prepared: p,
            result: if own { *result } else { plain },
            enfiladed: *enfiladed,
            defer_pins_of: &[],
        };
        any_routed |= check_one(
            rs,
            u,
            roll,
            &hit,
            id,
            pin_after,
            &mut checked,
            &mut deferred,
        );
    }
    if any_routed {
        for (p, enfiladed) in waiting {
            let id = &p.stack[0];
            let hit = Hit {
                prepared: p,
                result: plain,
                enfiladed,
                defer_pins_of: &[],
            };
            check_one(rs, u, roll, &hit, id, false, &mut checked, &mut deferred);
        }
    }
}
