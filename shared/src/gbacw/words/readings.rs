//! The rules readings a table may choose ([`EDITION_001`]) in a player's
//! words: what the box says, and what it changes against the rule as
//! played by default, with the case. The names in [`EDITION_001`] are
//! what a table's log records; a player never reads them.

use crate::gbacw::ruleset::EDITION_001;

/// One reading as a player reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadingWords {
    /// What the box says.
    pub label: &'static str,
    /// The case ("GBACW 13.15").
    pub case: &'static str,
    /// What ticking it changes, against the default.
    pub explained: &'static str,
}

/// The words for the reading called `name` in [`EDITION_001`]; `None`
/// for a name that is not there.
pub fn reading_words(name: &str) -> Option<ReadingWords> {
    let (_, case, _) = EDITION_001.iter().find(|(n, _, _)| *n == name)?;
    let (label, explained) = match name {
        "uncrewed-wagons-move" => (
            "Supply wagons without a crew may move",
            "As the first printing (001) reads it. Unticked, as the later printing (004): an \
             uncrewed wagon may not move in any phase.",
        ),
        "no-battery-resupply" => (
            "Wagons resupply small-arms units only",
            "As the first printing (001) reads it: batteries get rounds only by transfer (11.33). \
             Unticked, as the later printing (004): a wagon resupplies any unit.",
        ),
        "elephant-twelve-is-one" => (
            "Seeing the elephant: a roll of 12 gives morale 1",
            "As the first printing (001) reads it. Unticked, as the later printing (004): a 12 \
             gives morale 4.",
        ),
        "cap-terrain-only" => (
            "The two-column cap limits terrain shifts only",
            "Density and enfilade shifts are added after the cap. Unticked: the cap limits all \
             the shifts together, as the case's own example nets them.",
        ),
        "routed-melee-reroutes" => (
            "A routed unit retreated by melee routs again without a check",
            "Reading 13.33 against 12.92. Unticked: it retreats, then checks morale, and routs \
             again only if it fails (12.92).",
        ),
        "half-crew-halves-final" => (
            "Half a crew halves the strength after range",
            "Unticked: a battery with half its crew fires at half its guns' strength before \
             range (9.45).",
        ),
        "vp-hex-stand" => (
            "Victory hexes are taken only where units stop",
            "A victory hex is taken where units stand when an action ends (a move's end, a \
             retreat's last hex). Unticked: a unit passing through takes it.",
        ),
        "withdrawal-fire-separate" => (
            "Withdrawal fire: each firer shoots alone",
            "Each firer is a shot of its own, at its own strength, with its own die. Unticked: \
             the firers combine into one attack with one die (9.41).",
        ),
        "mounted-always-enfiladed" => (
            "Mounted cavalry is always enfiladed when it checks before a melee",
            "Reading 22.1 with 7.0 and 16.35: mounted cavalry checks as enfiladed whoever \
             attacks it. Unticked: only when an attacker stands in one of its enfilade hexes \
             (22.1's own \"i.e.\"), which also decides 22.2's enfilade modifier.",
        ),
        "overstack-displaced" => (
            "A stack pinned over its stacking limits is displaced at the phase's end",
            "A move may stop over the limits in an enemy Zone of Control; if enemy fire then \
             pins the stack before it is brought within them, the units that entered it are \
             displaced one hex each (14.3) as the Movement Phase ends, until it fits. \
             Unticked: a move may not stop over the limits where enemy fire could pin the \
             stack (an enemy Zone of Control).",
        ),
        "displace-away-from-enemy" => (
            "A unit pushed aside by a retreating friend moves away from the enemy",
            "It takes no step toward the enemy while a hex away from him is open, even onto \
             other friends, who are pushed aside in turn (14.4). Unticked: it must move into an \
             empty hex if there is one, even back toward the enemy (14.3).",
        ),
        _ => return None,
    };
    Some(ReadingWords {
        label,
        case,
        explained,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reading_has_words_and_no_name_shows_in_them() {
        for (name, case, _) in EDITION_001 {
            let w = reading_words(name).unwrap_or_else(|| panic!("no words for {name}"));
            assert_eq!(w.case, *case);
            for text in [w.label, w.explained] {
                assert!(!text.contains(name), "{name} in {text:?}");
                assert!(!text.contains("docs/"), "{text:?}");
                assert!(!text.contains('_'), "{text:?}");
            }
        }
        assert_eq!(reading_words("no-such-reading"), None);
    }
}
