//! The scenario format: the shipped Cedar Mountain file, broken inputs and
//! the limits.

use super::*;
use crate::gbacw::battles::cedar_mountain::SCENARIO;
use crate::gbacw::text::TextError;

fn err(from: &str, to: &str) -> TextError {
    assert!(
        SCENARIO.contains(from),
        "fixture `{from}` not in the scenario"
    );
    parse_scenario(&SCENARIO.replacen(from, to, 1)).unwrap_err()
}

fn line_of(needle: &str) -> usize {
    SCENARIO.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn the_shipped_scenario_parses() {
    let s = parse_scenario(SCENARIO).unwrap();
    assert_eq!(s.name, "Cedar Mountain");
    assert_eq!(
        (s.map_file.as_str(), s.oob_file.as_str()),
        ("cedar_mountain.map", "cedar_mountain.oob")
    );
    assert_eq!(s.sides.len(), 2);
    assert_eq!(s.areas.len(), 6);
    assert_eq!(s.arrivals.len(), 9);
    assert_eq!(s.options.len(), 1);
    assert!(!s.options[0].default_on);
    assert_eq!(s.hooks.len(), 17);
}

#[test]
fn errors_name_line_and_column() {
    let e = err("hook runs case=21.35", "hook rivers case=21.35");
    assert_eq!((e.line, e.column), (line_of("hook runs"), 6));
    assert!(e.message.contains("unknown hook"), "{e}");
    let e = err("victory-hex 1921 vp=2", "victory-hex 19x1 vp=2");
    assert_eq!((e.line, e.column), (line_of("victory-hex 1921"), 13));
    let e = err("area a2 centre=2416", "area a2 center=2416");
    assert_eq!((e.line, e.column), (line_of("area a2"), 9));
    let e = err(
        "victory-level tactical from=11",
        "victory-level tactical from=5",
    );
    assert!(e.message.contains("ascending"), "{e}");
    let e = err("restrict any-formation", "restrict any-shape");
    assert!(e.message.contains("unknown restriction"), "{e}");
    let e = err("setup pool units=", "setup pool hex=0101 units=");
    assert!(e.message.contains("one place"), "{e}");
    let e = err("arrive turn=4", "arrive turn=0");
    assert!(e.message.contains("from 1"), "{e}");
    let e = err(
        "exit 0101 mp=1 vp=confederate:1,union:0",
        "exit 0101 mp=1 vp=confederate",
    );
    assert!(e.message.contains("side:N"), "{e}");
    let e = err("replace ewell by=trimble,forno", "replace ewell by=Trimble");
    assert!(e.message.contains("an id"), "{e}");
    let e = err("length turns=13", "length turns=0");
    assert!(e.message.contains("at least one"), "{e}");
    let e = err("hook runs", "hook steep-crest");
    assert!(e.message.contains("twice"), "{e}");
}

#[test]
fn required_lines_and_limits() {
    let e = parse_scenario("").unwrap_err();
    assert_eq!(e.line, 1);
    let e = parse_scenario("gbacw-scenario 2\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let e = parse_scenario("gbacw-scenario 1\nname \"X\"\n").unwrap_err();
    assert!(e.message.contains("needs"), "{e}");
    let e = parse_scenario(&"#".repeat(MAX_SCENARIO_BYTES + 1)).unwrap_err();
    assert_eq!((e.line, e.column), (0, 0));
    let long = (0..=MAX_LIST)
        .map(|i| format!("u{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let e = parse_scenario(&format!("gbacw-scenario 1\nsetup pool units={long}\n")).unwrap_err();
    assert!(e.message.contains("more than"), "{e}");
}

#[test]
fn garbage_never_panics() {
    for cut in (0..SCENARIO.len()).step_by(97) {
        if SCENARIO.is_char_boundary(cut) {
            let _ = parse_scenario(&SCENARIO[..cut]);
        }
    }
    for junk in [
        "setup",
        "area",
        "arrive turn=",
        "exit",
        "hook",
        "vp-loss gun",
        "side x",
        "north up",
        "option o default=maybe",
        "= = =",
        "\"",
        "restrict fixed-area case=1",
        "victory-level x from=99999",
    ] {
        let _ = parse_scenario(&format!("gbacw-scenario 1\n{junk}\n"));
    }
}
