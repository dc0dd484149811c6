//! Display names people read as "who is this": what a name may contain so
//! that nobody can pass for somebody else on screen.
//!
//! A name is shown beside every seat and every chat line, so it must not
//! hide characters (zero-width joiners, a byte-order mark, Hangul fillers
//! that render as nothing), reorder what follows it (bidirectional
//! overrides and isolates: `U+202E` makes "Grant" out of "tnarG"), or
//! look like another name by invisible difference. The server checks every
//! name with [`check`]; the client can check before sending. Two names at
//! one table are the same if their [`same_person_key`]s (confusable
//! skeletons, [`skeleton`]) are equal.
//!
//! Names are kept in Unicode normalisation form NFKC, so "ﬁ" and "fi",
//! a full-width "Ｇｒａｎｔ" and "Grant", or "é" typed as one character or
//! as "e" and an accent are one spelling.

use std::fmt;
use unicode_normalization::UnicodeNormalization;

/// Longest display name, in bytes (UTF-8).
pub const MAX_NAME_BYTES: usize = 32;

/// Why a display name is refused, in words for the person typing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong,
    /// A character that is invisible, reorders text or is a control.
    Hidden(char),
    /// Whitespace other than single ordinary spaces between words.
    Spacing,
    /// No letter or digit at all.
    NoLetters,
    /// A letter buried under a pile of combining marks.
    TooManyMarks,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "a name cannot be empty"),
            NameError::TooLong => write!(f, "a name is at most {MAX_NAME_BYTES} bytes"),
            NameError::Hidden(c) => write!(
                f,
                "a name cannot contain invisible or text-reordering characters (U+{:04X})",
                u32::from(*c)
            ),
            NameError::Spacing => write!(
                f,
                "a name may have single spaces between words, and no other spacing"
            ),
            NameError::NoLetters => write!(f, "a name needs at least one letter or digit"),
            NameError::TooManyMarks => write!(f, "a name cannot stack accents on one letter"),
        }
    }
}

/// Characters that render as nothing, change the direction of the text
/// around them, or are controls: never in a name.
fn hidden(c: char) -> bool {
    let u = u32::from(c);
    c.is_control()
        || matches!(u,
            0x00AD            // soft hyphen
            | 0x034F          // combining grapheme joiner
            | 0x061C          // Arabic letter mark
            | 0x115F | 0x1160 // Hangul choseong/jungseong fillers
            | 0x17B4 | 0x17B5 // Khmer inherent vowels (invisible)
            | 0x180B..=0x180F // Mongolian free variation selectors, vowel separator
            | 0x200B..=0x200F // zero-width space, ZWNJ, ZWJ, LRM, RLM
            | 0x2028..=0x202E // line/paragraph separators, bidi embeddings and overrides
            | 0x2060..=0x206F // word joiner, invisible operators, bidi isolates, deprecated formats
            | 0x2800          // braille blank
            | 0x3164          // Hangul filler
            | 0xFE00..=0xFE0F // variation selectors
            | 0xFEFF          // byte-order mark / zero-width no-break space
            | 0xFFA0          // halfwidth Hangul filler
            | 0xFFF0..=0xFFFF // specials, noncharacters
            | 0xE000..=0xF8FF // private use
            | 0x1D173..=0x1D17A // musical formatting
            | 0xE0000..=0xE0FFF // tags, variation selectors supplement
            | 0xF0000..=0x10FFFF // private use planes
        )
}

fn combining(c: char) -> bool {
    matches!(u32::from(c),
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Check a display name as typed; `Ok` gives it in NFKC, trimmed of
/// outer spaces.
pub fn check(name: &str) -> Result<String, NameError> {
    // Hidden characters are refused as typed (NFKC would turn some, like
    // a no-break space, into ordinary ones), then the name is normalised
    // and checked again as it will be shown.
    if let Some(c) = name.chars().find(|c| hidden(*c)) {
        return Err(NameError::Hidden(c));
    }
    if name.chars().any(|c| c.is_whitespace() && c != ' ') {
        return Err(NameError::Spacing);
    }
    // Marks are counted as typed too: NFKC folds one into its letter.
    let mut run = 0;
    for c in name.chars() {
        run = if combining(c) { run + 1 } else { 0 };
        if run > 2 {
            return Err(NameError::TooManyMarks);
        }
    }
    if name.len() > 4 * MAX_NAME_BYTES {
        return Err(NameError::TooLong);
    }
    let normal: String = name.nfkc().collect();
    let name = normal.trim_matches(' ');
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameError::TooLong);
    }
    let mut previous_space = false;
    let mut marks = 0;
    for c in name.chars() {
        if hidden(c) {
            return Err(NameError::Hidden(c));
        }
        if c.is_whitespace() {
            if c != ' ' || previous_space {
                return Err(NameError::Spacing);
            }
            previous_space = true;
        } else {
            previous_space = false;
        }
        if combining(c) {
            marks += 1;
            if marks > 2 {
                return Err(NameError::TooManyMarks);
            }
        } else {
            marks = 0;
        }
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(NameError::NoLetters);
    }
    Ok(name.to_string())
}

/// What two names must differ in to be told apart at one table: their
/// [`skeleton`]s.
pub fn same_person_key(name: &str) -> String {
    skeleton(name)
}

/// A name reduced to what a reader tells apart, in the spirit of Unicode's
/// confusable skeletons (UTS #39) but smaller. Two names with the same
/// skeleton are one person to a reader. What it folds:
///
/// - compatibility forms (NFKC, then NFKD): full-width and styled letters,
///   ligatures, superscripts;
/// - accents and other combining marks ("Gránt" is "Grant");
/// - case, after the look-alikes below ("GRANT" is "grant");
/// - spaces and the punctuation people sprinkle in names (`.` `_` `-` `'`
///   `·`): "G. rant", "G_rant" are "Grant";
/// - Cyrillic and Greek letters that look Latin (а е о р с у х і ј ѕ ԁ һ
///   ӏ, Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ, ο ν ρ α ι κ τ υ χ …);
/// - digits and letters that look alike: `0`/`O`/`o`, `1`/`I`/`l`/`|`,
///   `5`/`S`; and the letter pairs `rn` (m), `vv` (w), `cl` (d).
///
/// It does not cover every script's look-alikes (the full UTS #39 table
/// has thousands); what it misses is still told apart by the identity tag
/// clients show beside colliding names ([`labels`]).
pub fn skeleton(name: &str) -> String {
    let mut flat = String::with_capacity(name.len());
    for c in name.nfkc().collect::<String>().nfkd() {
        if c.is_whitespace() || combining(c) || matches!(c, '.' | '_' | '-' | '\'' | '·' | '’') {
            continue;
        }
        flat.push(look_alike(c));
    }
    let lower: String = flat.chars().flat_map(char::to_lowercase).collect();
    // Letter pairs that read as one letter.
    lower
        .replace("rn", "m")
        .replace("vv", "w")
        .replace("cl", "d")
}

/// The Latin letter (or digit) a character is read as, before case folding.
fn look_alike(c: char) -> char {
    match c {
        // Digits and symbols read as letters (and the letters they are read as).
        '0' | 'O' | 'o' | 'О' | 'о' | 'Ο' | 'ο' | 'σ' | 'Օ' | 'օ' => 'o',
        '1' | 'I' | 'l' | '|' | 'Ι' | 'ι' | 'І' | 'і' | 'ӏ' | 'Ӏ' | 'ǀ' => 'l',
        '5' | 'S' | 's' | 'Ѕ' | 'ѕ' => 's',
        // Cyrillic letters that look Latin.
        'А' | 'а' | 'Α' | 'α' => 'a',
        'В' | 'Β' | 'в' => 'b',
        'Е' | 'е' | 'Ε' | 'ε' => 'e',
        'Н' | 'Η' | 'һ' => 'h',
        'Ј' | 'ј' => 'j',
        'К' | 'Κ' | 'к' | 'κ' => 'k',
        'М' | 'Μ' | 'м' => 'm',
        'Р' | 'р' | 'Ρ' | 'ρ' => 'p',
        'С' | 'с' | 'Ϲ' | 'ϲ' => 'c',
        'Т' | 'Τ' | 'т' | 'τ' => 't',
        'У' | 'у' | 'Υ' | 'υ' | 'γ' => 'y',
        'Х' | 'х' | 'Χ' | 'χ' => 'x',
        'ԁ' => 'd',
        'ɡ' => 'g',
        'Ζ' => 'z',
        'ν' => 'v',
        'ω' | 'ѡ' => 'w',
        'Ԛ' | 'ԛ' => 'q',
        other => other,
    }
}

/// How to show each of several names (`(identity, name)`, e.g. the lines
/// of a chat or the seats of a table): the name itself, or the name and a
/// short tag of its identity (`Grant #12`) when another identity's name
/// looks the same ([`skeleton`]). Names that do not collide show no tag.
pub fn labels<I: Copy + PartialEq + fmt::Display>(people: &[(I, &str)]) -> Vec<String> {
    let skeletons: Vec<String> = people.iter().map(|(_, n)| skeleton(n)).collect();
    people
        .iter()
        .enumerate()
        .map(|(i, (id, name))| {
            let collides = people
                .iter()
                .zip(&skeletons)
                .any(|((other, _), sk)| other != id && *sk == skeletons[i]);
            if collides {
                format!("{name} #{id}")
            } else {
                (*name).to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_pass_trimmed() {
        assert_eq!(check("Grant").unwrap(), "Grant");
        assert_eq!(check("  J. E. B. Stuart ").unwrap(), "J. E. B. Stuart");
        assert_eq!(check("Müller").unwrap(), "Müller");
        assert_eq!(check("李鸿章").unwrap(), "李鸿章");
        assert_eq!(check("Player 2").unwrap(), "Player 2");
    }

    #[test]
    fn names_that_hide_or_reorder_are_refused() {
        // The attacks an outside review found accepted (issue 20, item 4).
        for bad in [
            "tnarG\u{202E}",         // right-to-left override
            "\u{2067}Grant\u{2069}", // bidi isolate
            "Gr\u{200B}ant",         // zero-width space
            "Gr\u{200D}ant",         // zero-width joiner
            "\u{200D}",              // a joiner alone
            "\u{FEFF}",              // a BOM alone
            "\u{3164}",              // Hangul filler
            "Grant\u{3164}",
            "Gr\u{00AD}ant", // soft hyphen
            "Grant\u{0007}", // a control
        ] {
            assert!(check(bad).is_err(), "{bad:?} passed");
        }
    }

    #[test]
    fn spacing_marks_and_length() {
        assert_eq!(check("Gr  ant"), Err(NameError::Spacing));
        assert_eq!(check("Gr\u{00A0}ant"), Err(NameError::Spacing));
        assert_eq!(check("Gr\tant"), Err(NameError::Hidden('\t')));
        assert_eq!(check("   "), Err(NameError::Empty));
        assert_eq!(check("..."), Err(NameError::NoLetters));
        assert_eq!(
            check("a\u{0301}\u{0301}\u{0301}"),
            Err(NameError::TooManyMarks)
        );
        assert!(check("e\u{0301}").is_ok());
        assert_eq!(check(&"x".repeat(33)), Err(NameError::TooLong));
        assert!(check(&"x".repeat(32)).is_ok());
    }

    #[test]
    fn same_person_ignores_case_spaces_and_accents() {
        let k = same_person_key("Grant");
        assert_eq!(same_person_key("grant"), k);
        assert_eq!(same_person_key("G rant"), k);
        assert_eq!(same_person_key("Gra\u{0301}nt"), k);
        assert_ne!(same_person_key("Grants"), k);
    }

    #[test]
    fn names_are_kept_in_nfkc() {
        // Full-width letters, a ligature, an accent typed as two characters.
        assert_eq!(check("Ｇｒａｎｔ").unwrap(), "Grant");
        assert_eq!(check("ﬁnn").unwrap(), "finn");
        assert_eq!(check("Jose\u{0301}").unwrap(), "Jos\u{00E9}");
        // A no-break space is refused as typed, not turned into a space.
        assert_eq!(check("Gr\u{00A0}ant"), Err(NameError::Spacing));
    }

    #[test]
    fn confusable_names_share_a_skeleton() {
        let k = skeleton("Grant");
        for alike in [
            "grant",
            "GRANT",
            "G rant",
            "G.rant",
            "Gra\u{0301}nt",
            "Ｇｒａｎｔ",
            "Grаnt", // Cyrillic а
        ] {
            assert_eq!(skeleton(alike), k, "{alike}");
        }
        assert_eq!(skeleton("Bill"), skeleton("BiII"));
        assert_eq!(skeleton("Al"), skeleton("A1"));
        assert_eq!(skeleton("Bill"), skeleton("BiIl"));
        assert_eq!(skeleton("Bob"), skeleton("B0b"));
        assert_eq!(skeleton("Sam"), skeleton("Sarn"));
        assert_eq!(skeleton("Lee"), skeleton("Lее")); // Cyrillic е
        assert_ne!(skeleton("Grant"), skeleton("Meade"));
        assert_ne!(skeleton("Grant"), skeleton("Grants"));
    }

    #[test]
    fn labels_tag_only_names_that_collide() {
        let shown = labels(&[(1u64, "Grant"), (2, "Lee"), (3, "Grаnt"), (1, "Grant")]);
        assert_eq!(shown, ["Grant #1", "Lee", "Grаnt #3", "Grant #1"]);
        assert_eq!(labels(&[(1u64, "Grant"), (2, "Lee")]), ["Grant", "Lee"]);
    }

    #[test]
    fn refusals_are_words() {
        let e = check("a\u{202E}").unwrap_err().to_string();
        assert!(e.contains("U+202E") && !e.contains('{'), "{e}");
    }
}
