//! The small words the descriptions are made of: printed names for
//! counters, sides, areas and reserves; hexes, paths, facings,
//! formations and Movement Points as players write them.

use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::plan::AssaultPlan;

/// A counter's printed name: a unit's designation ("15 Ala"), a leader's
/// name ("Ewell"); a side's name for a side; the id only for a counter
/// the order of battle does not know (never from the engine itself).
pub fn counter_name(rs: &Gbacw, id: &CounterId) -> String {
    let oob = &rs.game().oob;
    oob.units
        .get(id)
        .map(|u| u.designation.clone())
        .or_else(|| oob.leaders.get(id).map(|l| l.name.clone()))
        .or_else(|| oob.sides.get(id).cloned())
        .unwrap_or_else(|| id.0.replace('_', " "))
}

/// Several counters: "15 Ala, 21 Ga and 21 NC".
pub(super) fn names<'a>(rs: &Gbacw, ids: impl IntoIterator<Item = &'a CounterId>) -> String {
    list(ids.into_iter().map(|id| counter_name(rs, id)).collect())
}

/// "a", "a and b", "a, b and c"; "nobody" for none.
pub(super) fn list(mut items: Vec<String>) -> String {
    match items.len() {
        0 => "nobody".into(),
        1 => items.remove(0),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("{} and {last}", items.join(", "))
        }
    }
}

/// A side by its printed name ("Union (Banks)"); the scenario's seat
/// name, else the order of battle's.
pub fn side_name(rs: &Gbacw, side: &CounterId) -> String {
    counter_name(rs, side)
}

/// The player of `seat` as a refusal names them ("the Union player"),
/// never the seat's number.
pub fn seat_name(rs: &Gbacw, seat: crate::ids::SeatId) -> String {
    format!("the {} player", side_name(rs, rs.side_of(seat)))
}

/// A set-up or assault area by its printed name ("Union Deployment Area
/// 1", "Area B").
pub fn area_name(rs: &Gbacw, area: &CounterId) -> String {
    rs.game()
        .scenario
        .area(&area.0)
        .map(|a| a.name.trim_start_matches("Assault ").to_string())
        .unwrap_or_else(|| counter_name(rs, area))
}

/// Corinth 30.3: a reserve by its name, found by its id or by a counter
/// of it.
pub fn reserve_name(rs: &Gbacw, reserve: &CounterId) -> String {
    rs.game()
        .scenario
        .reserves
        .list
        .iter()
        .find(|r| r.id == *reserve || r.units.contains(reserve))
        .map_or_else(|| counter_name(rs, reserve), |r| r.name.clone())
}

/// Where a path ends, with the hexes it passes through: "1328 via 1327".
pub fn hex_path(path: &[HexNumber]) -> String {
    match path {
        [] => "where it stands".to_string(),
        [end] => end.to_string(),
        [via @ .., end] => format!(
            "{end} via {}",
            via.iter()
                .map(HexNumber::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The last hex of a path, or "where it stands".
pub(super) fn path_end(path: &[HexNumber]) -> String {
    path.last()
        .map_or_else(|| "where it stands".into(), HexNumber::to_string)
}

/// A facing as a direction on the printed map: "north-east".
pub fn facing_word(rs: &Gbacw, facing: Facing) -> &'static str {
    match facing.name(rs.game().map.grid.orientation) {
        "n" => "north",
        "ne" => "north-east",
        "e" => "east",
        "se" => "south-east",
        "s" => "south",
        "sw" => "south-west",
        "w" => "west",
        _ => "north-west",
    }
}

/// A formation in the rulebook's words (6.1).
pub fn formation_word(f: Formation) -> &'static str {
    match f {
        Formation::Line => "Line",
        Formation::Column => "Column",
        Formation::Mounted => "Mounted",
        Formation::Dismounted => "Dismounted",
        Formation::Limbered => "Limbered",
        Formation::Unlimbered => "Unlimbered",
        Formation::Wagon => "wagon",
    }
}

/// Movement Points as players write them: "1", "1.5", "0.5".
pub fn mp_text(mp: Mp) -> String {
    let h = mp.halves();
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// "1 Strength Point", "2 Strength Points".
pub(super) fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Corinth 29.2: an assault plan in words: "Price's division through
/// Area B on Game-Turn 1, …".
pub fn plan_words(rs: &Gbacw, plan: &AssaultPlan) -> String {
    list(
        plan.divisions
            .iter()
            .map(|d| {
                format!(
                    "{} through {} on Game-Turn {}",
                    counter_name(rs, &d.division),
                    area_name(rs, &d.area),
                    d.turn
                )
            })
            .collect(),
    )
}
