//! Display names people read as "who is this": what a name may contain so
//! that nobody can pass for somebody else on screen.
//!
//! A name is shown beside every seat and every chat line, so it must not
//! hide characters (zero-width joiners, a byte-order mark, Hangul fillers
//! that render as nothing), reorder what follows it (bidirectional
//! overrides and isolates: `U+202E` makes "Grant" out of "tnarG"), or
//! look like another name by invisible difference. The server checks every
//! name with [`check`]; the client can check before sending. Two names at
//! one table are the same if their [`same_person_key`]s are equal.

use std::fmt;

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

/// Check a display name as typed; `Ok` gives it trimmed of outer spaces.
pub fn check(name: &str) -> Result<String, NameError> {
    let name = name.trim_matches(' ');
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

/// What two names must differ in to be told apart at one table: case,
/// accents and spaces do not count ("Grant", "grant", "G rant" and
/// "Gránt" are one person to a reader).
pub fn same_person_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && !combining(*c))
        .flat_map(char::to_lowercase)
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
    fn refusals_are_words() {
        let e = check("a\u{202E}").unwrap_err().to_string();
        assert!(e.contains("U+202E") && !e.contains('{'), "{e}");
    }
}
