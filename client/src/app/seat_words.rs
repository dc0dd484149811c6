//! One name per seat, the same everywhere a player reads it (issue 18:
//! the lobby said "1: Meade", the log "seat 0", the table "Union"): the
//! seat's side and, where a player holds it, the player —
//! "Union (Meade)". The lobby's rows, "Your tables", the table's header,
//! its log and its refusals all take their names from here.

use muster_shared::protocol::TableSummary;

/// The sides of a table's seats, seat 0 first: a GBACW battle's from its
/// scenario file ("Union", "Confederate"), the sandbox's own.
pub fn sides(ruleset: &str, scenario: &str) -> [String; 2] {
    if ruleset == "gbacw" {
        // "Union (Rosecrans)" in Corinth's file: the side alone, as the
        // engine's words and the table name it (the player goes in the
        // brackets).
        super::lobby::create::side_names(ruleset, scenario)
            .map(|s| s.split(" (").next().unwrap_or_default().to_string())
    } else {
        SANDBOX_SIDES.map(String::from)
    }
}

/// The sandbox's two seats, as its table calls them.
pub const SANDBOX_SIDES: [&str; 2] = ["Union", "Confederate"];

/// A seat as every screen names it: "Union (Meade)"; the side alone when
/// nobody holds it (a hot-seat table, a free seat).
pub fn seat_label(side: &str, player: Option<&str>) -> String {
    match player {
        Some(p) => format!("{side} ({p})"),
        None => side.to_string(),
    }
}

/// A free seat in the lobby's list: "Confederate: free".
pub fn free_label(side: &str) -> String {
    format!("{side}: free")
}

/// Every seat of a listed table by [`seat_label`], the players told apart
/// by the lobby's identity tags when two names look alike.
pub fn table_seat_names(t: &TableSummary) -> Vec<String> {
    let sides = sides(&t.ruleset, &t.scenario);
    let players = super::lobby::list::seat_labels(t);
    (0..t.seats.len())
        .map(|i| {
            let side = sides
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("Seat {}", i + 1));
            seat_label(&side, players.get(i).cloned().flatten().as_deref())
        })
        .collect()
}

/// A refusal or prompt from the engine names a seat by its side ("the
/// Union player is to act…", GBACW's `words::seat_name`); the player who
/// holds it is named as everywhere else: "Union (Meade) is to act…".
pub fn name_players(text: &str, sides: &[String], names: &[String]) -> String {
    let mut out = text.to_string();
    for (side, name) in sides.iter().zip(names) {
        if side != name {
            for the in ["the", "The"] {
                out = out.replace(&format!("{the} {side} player"), name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_seat_is_its_side_and_its_player() {
        assert_eq!(seat_label("Union", Some("Meade")), "Union (Meade)");
        assert_eq!(seat_label("Union", None), "Union");
        let sides = ["Union".to_string(), "Confederate".to_string()];
        let names = ["Union (Meade)".to_string(), "Confederate".to_string()];
        assert_eq!(
            name_players("GBACW 5.1: the Union player is to act", &sides, &names),
            "GBACW 5.1: Union (Meade) is to act"
        );
        assert_eq!(
            name_players("the Confederate player is setting up", &sides, &names),
            "the Confederate player is setting up"
        );
    }
}
