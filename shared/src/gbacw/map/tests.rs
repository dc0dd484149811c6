//! The map format against the shipped test map and against broken inputs.

use super::*;
use crate::gbacw::text::TextError;

pub(crate) const TEST_MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/maps/test.map"
));

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn test_map() -> Map {
    parse_map(TEST_MAP).unwrap()
}

#[test]
fn case_3_1_test_map_loads_with_its_grid() {
    let m = test_map();
    assert_eq!(m.name, "Test ground");
    assert!(m.reconstruction.contains("test fixture"));
    assert_eq!(m.grid.orientation, Orientation::Flat);
    assert_eq!(m.grid.offset, Offset::Even);
    assert_eq!(m.hexes().count(), 120);
    assert!(m.hex(n("1210")).is_some());
    assert!(m.hex(n("1311")).is_none());
    assert_eq!(m.level_feet.get(&2), Some(&40));
}

#[test]
fn case_5_15_hexes_hold_several_terrain_types_and_a_level() {
    let m = test_map();
    let orchard = m.hex(n("0403")).unwrap();
    assert!(orchard.has(Terrain::Woods) && orchard.has(Terrain::Orchard));
    let plain = m.hex(n("0101")).unwrap();
    assert_eq!(
        plain.terrain.iter().copied().collect::<Vec<_>>(),
        [Terrain::Clear]
    );
    assert_eq!(plain.level, 0);
    let knoll = m.hex(n("1108")).unwrap();
    assert_eq!((knoll.level, knoll.name.as_deref()), (2, Some("Knoll")));
    assert_eq!(m.ground_feet(n("1108")), Some(40));
}

#[test]
fn case_9_52_crest_hexsides_know_their_high_side() {
    let m = test_map();
    assert!(m.crosses_crest_upward(n("0806"), n("0906")));
    assert!(!m.crosses_crest_upward(n("0906"), n("0806")));
    assert!(m.crosses_crest_upward(n("1107"), n("1108")));
    // Not adjacent, or no crest: never a crest crossing.
    assert!(!m.crosses_crest_upward(n("0101"), n("0103")));
    assert!(!m.crosses_crest_upward(n("0101"), n("0102")));
}

#[test]
fn case_6_12_hexsides_carry_roads_streams_and_bridges() {
    let m = test_map();
    let g = &m.grid;
    let bridge = g.hexside(n("0704"), n("0604")).unwrap();
    for k in [SideKind::Stream, SideKind::Bridge, SideKind::Road] {
        assert!(m.side_has(bridge, k), "{k}");
    }
    let ford = g.hexside(n("0602"), n("0702")).unwrap();
    assert!(m.side_has(ford, SideKind::Ford) && !m.side_has(ford, SideKind::Bridge));
    let wall = g.hexside(n("0807"), n("0808")).unwrap();
    assert_eq!(
        m.side_feature(wall, SideKind::StoneWall).unwrap().side,
        Some(n("0808"))
    );
    assert_eq!(
        m.side_features(g.hexside(n("0101"), n("0102")).unwrap())
            .count(),
        0
    );
    assert!(m.hexsides().count() >= 25);
}

fn err(input: &str) -> TextError {
    parse_map(input).unwrap_err()
}

const HEAD: &str = "gbacw-map 1\nname \"x\"\nreconstruction \"y\"\norientation flat\noffset even\ncolumns 01-05\nrows 01-05\nlevels 0=0 1=20\n";

#[test]
fn errors_name_line_and_column() {
    let e = err(&format!("{HEAD}hex 0203 woods forest\n"));
    assert_eq!((e.line, e.column), (9, 16), "{e}");
    assert!(e.message.contains("unknown terrain `forest`"));

    let e = err(&format!("{HEAD}hex 0609 woods\n"));
    assert_eq!((e.line, e.column), (9, 5));
    assert!(e.message.contains("off the map"));

    let e = err(&format!("{HEAD}side 0202/0204 stream\n"));
    assert!(e.message.contains("not adjacent"), "{e}");

    let e = err(&format!("{HEAD}side 0202/0203 crest\n"));
    assert_eq!((e.line, e.column), (9, 16));
    assert!(e.message.contains("higher side"), "{e}");

    let e = err(&format!("{HEAD}side 0202/0203 crest:0404\n"));
    assert!(e.message.contains("not one of the hexes"), "{e}");

    let e = err(&format!("{HEAD}side 0202/0203 bridge road\n"));
    assert!(e.message.contains("needs a stream"), "{e}");

    let e = err(&format!(
        "{HEAD}side 0202/0203 road\nside 0203/0202 stream\n"
    ));
    assert_eq!(e.line, 10);
    assert!(e.message.contains("already given on line 9"), "{e}");

    let e = err(&format!("{HEAD}hex 0202 woods level=3\n"));
    assert_eq!((e.line, e.column), (9, 16));

    let e = err(&format!("{HEAD}hex 0202 clear\nrows 01-09\n"));
    assert!(e.message.contains("belongs in the header"), "{e}");

    let e = err("gbacw-map 2\n");
    assert_eq!((e.line, e.column), (1, 11));

    let e = err("name \"x\"\n");
    assert_eq!((e.line, e.column), (1, 1));

    let e = err("gbacw-map 1\nname \"x\"\nhex 0101 clear\n");
    assert!(e.message.contains("orientation"), "{e}");

    let e = err("");
    assert!(e.message.contains("empty"));
}

#[test]
fn a_header_only_map_is_all_default_terrain() {
    let m = parse_map(&format!("{HEAD}default woods level=1\n")).unwrap();
    assert_eq!(m.hexes().count(), 25);
    assert!(
        m.hexes()
            .all(|(_, h)| h.has(Terrain::Woods) && h.level == 1)
    );
}

#[test]
fn oversized_map_is_refused_before_parsing() {
    let big = "#".repeat(MAX_MAP_BYTES + 1);
    let e = err(&big);
    assert_eq!(e.line, 0);
}

#[test]
fn garbage_never_panics() {
    // Every prefix and a few mutations of the real file: errors, not panics.
    for cut in (0..TEST_MAP.len()).step_by(37) {
        if TEST_MAP.is_char_boundary(cut) {
            let _ = parse_map(&TEST_MAP[..cut]);
        }
    }
    for junk in [
        "\"",
        "side /",
        "side 0101/",
        "hex",
        "levels =",
        "columns 9-1",
        "hex 0101 level=999",
    ] {
        let _ = parse_map(&format!("{HEAD}{junk}\n"));
    }
}

#[test]
fn area_lines_name_sets_of_hexes_that_may_overlap() {
    let text = "gbacw-map 1\nname \"A\"\nreconstruction \"x\"\norientation flat\noffset even\ncolumns 01-05\nrows 01-05\nlevels 0=0\n\
                area north 0101 0201\narea north 0301\narea east 0301 0501\n";
    let m = parse_map(text).unwrap();
    let north: Vec<String> = m
        .area("north")
        .unwrap()
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert_eq!(north, ["0101", "0201", "0301"]);
    assert!(m.area("east").unwrap().contains(&n("0301")));
    assert!(m.area("west").is_none());
    assert_eq!(m.areas().count(), 2);
    // Maps without areas have none (the test map).
    assert_eq!(test_map().areas().count(), 0);
    for (bad, what) in [
        ("area north 0909", "off the map"),
        ("area North 0101", "lower-case"),
        ("area north", "at least one hex"),
        ("area north 01x1", "four-digit"),
    ] {
        let input = text.replace("area east 0301 0501", bad);
        let e = parse_map(&input).unwrap_err();
        assert!(e.message.contains(what), "{bad}: {e}");
    }
}
