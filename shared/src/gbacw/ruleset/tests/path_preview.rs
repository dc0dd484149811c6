//! The client's drag-a-path preview (`Gbacw::path_preview`) against the
//! move's own validation: the same costs, the same refusals.

use super::*;

/// Union's Movement Phase on an empty field with 5 Conn (6 SP, line).
fn field() -> T {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("5-conn", "0107", "se", Formation::Line);
    t
}

fn path(hexes: &[&str]) -> Vec<HexNumber> {
    hexes.iter().map(|h| n(h)).collect()
}

#[test]
fn case_5_11_path_preview_runs_the_cost_and_stops_where_the_move_is_refused() {
    let mut t = field();
    // Five clear hexes, then corn (2): 7 Movement Points of line's 6.
    let long = ["0207", "0307", "0407", "0507", "0607", "0707"];
    let p = t.rs.path_preview(&t.s, &ids(&["5-conn"]), &path(&long));
    let whole: Vec<Mp> = (1..=5).map(Mp::from_whole).collect();
    assert_eq!(p.spent, whole);
    assert_eq!(p.left, Mp::from_whole(6));
    assert_eq!(
        p.refused.as_ref().map(|e| e.rule.as_str()),
        Some("GBACW 5.11")
    );
    assert_eq!(p.stop, Ok(()));
    // The move itself refuses the whole path by the same case and takes
    // the allowed part at the previewed cost.
    t.refused(UNION, mv(&["5-conn"], &long), "GBACW 5.11");
    t.mv(UNION, &["5-conn"], &long[..5]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(5));
}

#[test]
fn case_5_16_path_preview_refuses_a_hex_not_next_to_the_last() {
    let t = field();
    let p =
        t.rs.path_preview(&t.s, &ids(&["5-conn"]), &path(&["0207", "0407"]));
    assert_eq!(p.spent, [Mp::from_whole(1)]);
    assert_eq!(
        p.refused.as_ref().map(|e| e.rule.as_str()),
        Some("GBACW 5.16")
    );
    t.refused(UNION, mv(&["5-conn"], &["0207", "0407"]), "GBACW 5.16");
}
