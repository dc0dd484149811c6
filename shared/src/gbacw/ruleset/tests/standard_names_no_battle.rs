//! Issue 17: the Standard Rules modules name no battle. A battle's
//! exclusive rules live in its folder (`cedar/`, `corinth/`) behind the
//! hooks of `battle_rules.rs`; the registry that picks a battle's rules
//! and the exclusive rules more than one battle plays live in
//! `exclusive/`. Every other file of the ruleset is the Standard Rules',
//! and its code (comments aside) names neither battle.

use std::path::{Path, PathBuf};

/// The folders of the ruleset that may name a battle.
const BATTLE_FOLDERS: &[&str] = &["cedar", "corinth", "exclusive", "tests"];

/// The battles' names, as code would spell them (case aside).
const NAMES: &[&str] = &["cedar", "corinth"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the ruleset's folder reads")
        .map(|e| e.expect("a folder entry reads").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `line` without its comment: what follows `//` outside a string.
fn code_of(line: &str) -> &str {
    let mut in_string = false;
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Whether `line` declares a battle's folder as a module (the ruleset's
/// `mod.rs` lists every folder).
fn declares_folder(line: &str) -> bool {
    let t = line.trim();
    NAMES.iter().any(|n| {
        t == format!("mod {n};")
            || t == format!("pub mod {n};")
            || t == format!("pub(crate) mod {n};")
    })
}

#[test]
fn issue_17_the_standard_rules_code_names_no_battle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gbacw/ruleset");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut found = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under the ruleset");
        let first = rel.components().next().and_then(|c| c.as_os_str().to_str());
        if rel.components().count() > 1 && first.is_some_and(|f| BATTLE_FOLDERS.contains(&f)) {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a source file reads");
        for (n, line) in text.lines().enumerate() {
            let code = code_of(line).to_lowercase();
            if NAMES.iter().any(|name| code.contains(name)) && !declares_folder(line) {
                found.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Standard Rules code names a battle (move it behind a hook of battle_rules.rs):\n{}",
        found.join("\n")
    );
}
