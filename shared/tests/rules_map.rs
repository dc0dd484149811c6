//! `docs/RULES.md`, the map of the rules: every rule case the code cites
//! (`/// GBACW 9.51: …`, `Cedar Mountain 21.42`, `Corinth 24.1`), the
//! files that enforce it, and the tests named after it
//! (`case_9_51_…`, `example_9_45_…`, `cedar_21_42_…`, `corinth_24_1_…`).
//!
//! This test regenerates the map from the sources and fails when the
//! committed file differs, so the map is never stale. After changing
//! rules or tests, write it afresh with
//!
//! ```sh
//! MUSTER_BLESS=1 cargo test -p muster-shared --test rules_map
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A rule case: its book and its number, ordered as printed (9.5 < 9.51 < 9.6 < 10.1).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Case {
    book: Book,
    major: u32,
    minor: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Book {
    Gbacw,
    Cedar,
    Corinth,
}

impl Book {
    fn title(self) -> &'static str {
        match self {
            Book::Gbacw => "GBACW Standard Rules",
            Book::Cedar => "Cedar Mountain exclusive rules",
            Book::Corinth => "Corinth exclusive rules",
        }
    }
}

#[derive(Default)]
struct Entry {
    enforced: BTreeSet<String>,
    tests: BTreeSet<String>,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Test code: a `tests` folder, a `tests.rs`, the test kit.
fn is_test_file(rel: &str) -> bool {
    rel.contains("/tests/") || rel.ends_with("/tests.rs") || rel.contains("/testkit/")
}

/// A case number right after `at` in `text` ("9.51", "24.1"): digits, a
/// dot, digits.
fn number_at(text: &str) -> Option<(u32, String)> {
    let major: String = text.chars().take_while(char::is_ascii_digit).collect();
    let rest = text.get(major.len()..)?;
    let rest = rest.strip_prefix('.')?;
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if major.is_empty() || major.len() > 2 || minor.is_empty() || minor.len() > 3 {
        return None;
    }
    Some((major.parse().ok()?, minor))
}

/// Every case a comment line cites.
fn cited(line: &str) -> Vec<Case> {
    let Some(at) = line.find("//") else {
        return Vec::new();
    };
    let comment = &line[at..];
    let mut out = Vec::new();
    for (word, book) in [
        ("GBACW ", Book::Gbacw),
        ("Cedar Mountain ", Book::Cedar),
        ("Corinth ", Book::Corinth),
    ] {
        let mut from = 0;
        while let Some(i) = comment[from..].find(word) {
            let mut start = from + i + word.len();
            // "GBACW 9.43, 8.21 and 9.82": a list after one book's name.
            while let Some((major, minor)) = number_at(&comment[start..]) {
                start += major.to_string().len() + 1 + minor.len();
                out.push(Case { book, major, minor });
                let rest = &comment[start..];
                let Some(skip) = [", ", " and ", "/", " or "]
                    .iter()
                    .find(|sep| rest.starts_with(**sep))
                else {
                    break;
                };
                start += skip.len();
            }
            from = start;
        }
    }
    out
}

/// The case a test's name is about (`case_9_51_…`, `example_12_98_…`,
/// `cedar_21_42_…`, `corinth_24_1_…`).
fn named(line: &str) -> Option<(Case, String)> {
    let t = line.trim_start();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let t = t.strip_prefix("async ").unwrap_or(t);
    let name = t.strip_prefix("fn ")?;
    let name: String = name
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let (book, rest) = [
        ("case_", Book::Gbacw),
        ("example_", Book::Gbacw),
        ("cedar_", Book::Cedar),
        ("corinth_", Book::Corinth),
    ]
    .iter()
    .find_map(|(p, b)| name.strip_prefix(p).map(|r| (*b, r)))?;
    // `example_cedar_22_0_…`, `example_corinth_26_32_…`
    let (book, rest) = match (book, rest) {
        (Book::Gbacw, r) if r.starts_with("cedar_") => (Book::Cedar, &r[6..]),
        (Book::Gbacw, r) if r.starts_with("corinth_") => (Book::Corinth, &r[8..]),
        other => other,
    };
    let mut parts = rest.split('_');
    let major: u32 = parts.next()?.parse().ok()?;
    let minor = parts.next()?;
    if minor.is_empty() || !minor.chars().all(|c| c.is_ascii_digit()) || minor.len() > 3 {
        return None;
    }
    Some((
        Case {
            book,
            major,
            minor: minor.to_string(),
        },
        name,
    ))
}

fn generate() -> String {
    let root = repo();
    let mut files = Vec::new();
    for dir in [
        "shared/src",
        "server/src",
        "client/src",
        "client/tests",
        "tests/src",
        "tests/tests",
        "shared/tests",
    ] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut map: BTreeMap<Case, Entry> = BTreeMap::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.ends_with("shared/tests/rules_map.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let test = is_test_file(&rel);
        let mut in_test_module = false;
        for line in text.lines() {
            if line.trim_start().starts_with("mod tests") {
                in_test_module = true;
            }
            if let Some((case, name)) = named(line) {
                map.entry(case)
                    .or_default()
                    .tests
                    .insert(format!("`{name}` ({rel})"));
                continue;
            }
            if !(test || in_test_module) {
                for case in cited(line) {
                    map.entry(case)
                        .or_default()
                        .enforced
                        .insert(format!("`{rel}`"));
                }
            }
        }
    }
    let mut out = String::from(
        "# The rules, case by case\n\n\
         Generated by `shared/tests/rules_map.rs` from the `GBACW x.y`, `Cedar Mountain x.y` and\n\
         `Corinth x.y` citations in the code's comments and from the tests named after a case\n\
         (`case_9_51_…`, `example_9_45_…`, `cedar_21_42_…`, `corinth_24_1_…`). Do not edit by hand:\n\
         `MUSTER_BLESS=1 cargo test -p muster-shared --test rules_map` writes it afresh, and the\n\
         same test fails in CI when it is stale.\n\n\
         A case with tests but no enforcing file is one whose rule lives in data (`assets/`) or\n\
         is tested where another case's code does the work; one with no tests is listed so it\n\
         shows.\n",
    );
    let mut book = None;
    let (mut cases, mut tested) = (0, 0);
    for (case, e) in &map {
        if book != Some(case.book) {
            book = Some(case.book);
            let _ = write!(
                out,
                "\n## {}\n\n| case | enforced in | tests |\n|---|---|---|\n",
                case.book.title()
            );
        }
        cases += 1;
        if !e.tests.is_empty() {
            tested += 1;
        }
        let enforced = e.enforced.iter().cloned().collect::<Vec<_>>().join(", ");
        let tests = e.tests.iter().cloned().collect::<Vec<_>>().join("<br>");
        let _ = writeln!(
            out,
            "| {}.{} | {} | {} |",
            case.major,
            case.minor,
            if enforced.is_empty() {
                "—"
            } else {
                &enforced
            },
            if tests.is_empty() { "**none**" } else { &tests }
        );
    }
    let _ = write!(
        out,
        "\n{cases} cases cited or tested; {tested} with a test named after them.\n"
    );
    out
}

#[test]
fn rules_map_is_current() {
    let path = repo().join("docs/RULES.md");
    let fresh = generate();
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "docs/RULES.md is stale: run `MUSTER_BLESS=1 cargo test -p muster-shared --test rules_map`"
    );
}

#[test]
fn case_numbers_are_read_as_printed() {
    assert_eq!(cited("/// GBACW 9.51: the cap")[0].minor, "51");
    assert_eq!(cited("// Corinth 23.31 and GBACW 12.3").len(), 2);
    assert_eq!(cited("/// GBACW 9.43, 8.21 and 9.82: losses").len(), 3);
    let (c, n) = named("fn case_12_98_c2r2_retreats() {").unwrap();
    assert_eq!(
        (c.book, c.major, c.minor.as_str(), n.as_str()),
        (Book::Gbacw, 12, "98", "case_12_98_c2r2_retreats")
    );
    assert_eq!(
        named("fn example_corinth_26_32_cabell() {").unwrap().0.book,
        Book::Corinth
    );
    assert!(named("fn case_study() {").is_none());
}
