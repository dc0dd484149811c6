//! Issue 20: `muster-server check`, the operator's report on a data
//! directory. A real server writes a real SQLite file (three tables with
//! play); the check says every table is ok with its sequence number and
//! head hash and exits 0. Then the stopped file is damaged on purpose (an
//! entry's bytes changed, an acknowledged entry deleted): the check names
//! each damaged table and why, keeps reporting the intact one, and exits 1.

use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, sandbox_table, start_server_in};
use std::process::Command;

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 2,
        sides: 6,
        note: "fire".into(),
    }
}

/// Run `check` on `dir` with the server binary: (exit code, stdout).
fn check(dir: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muster-server-e2e"))
        .arg("check")
        .arg("--data-dir")
        .arg(dir)
        .output()
        .expect("the check runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn line_of(report: &str, table: u64) -> String {
    report
        .lines()
        .find(|l| l.starts_with(&format!("table {table}:")))
        .unwrap_or_else(|| panic!("no line for table {table} in:\n{report}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_reports_every_table_and_fails_on_damage() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, false, "b").await;
    let mut tables = Vec::new();
    let mut heads = Vec::new();
    for n in 0..3 {
        let (table, _) = a.create_table(sandbox_table(false, 0)).await;
        a.sit(table, None).await;
        b.sit(table, None).await;
        let mut seq = 0;
        for _ in 0..(3 + n) {
            seq = a.act(&roll()).await.unwrap();
        }
        b.sync_to(seq).await;
        tables.push(table.0);
        heads.push(seq);
    }
    // Beside the running server: its newest moves are still in the
    // journal, not yet folded into their tables' logs (issue 22); the
    // check reads them there.
    let (code, report) = check(dir.path());
    assert_eq!(code, 0, "{report}");
    for (table, seq) in tables.iter().zip(&heads) {
        let line = line_of(&report, *table);
        assert!(
            line.contains(&format!(": ok; playing; seq {seq};")),
            "{line}"
        );
    }
    drop((a, b));
    server.shutdown().await;

    let (code, report) = check(dir.path());
    assert_eq!(code, 0, "{report}");
    for (table, seq) in tables.iter().zip(&heads) {
        let line = line_of(&report, *table);
        assert!(line.contains(": ok;"), "{line}");
        assert!(line.contains(&format!("seq {seq};")), "{line}");
        assert!(line.contains("playing"), "{line}");
        let head = line.rsplit("head ").next().unwrap();
        assert_eq!(head.len(), 16, "{line}");
        assert!(head.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
    }
    assert!(report.contains("3 table(s): 3 ok, 0 damaged"), "{report}");

    // Damage the stopped file: one entry's bytes of the first table, and
    // the last acknowledged entry of the second.
    {
        let db = rusqlite::Connection::open(dir.path().join("muster.sqlite3")).unwrap();
        db.execute(
            "UPDATE entries SET entry = CAST(entry || X'00' AS BLOB) WHERE table_id = ?1 AND seq = 3",
            [tables[0] as i64],
        )
        .unwrap();
        db.execute(
            "DELETE FROM entries WHERE table_id = ?1 AND seq = ?2",
            [tables[1] as i64, heads[1] as i64],
        )
        .unwrap();
    }
    let (code, report) = check(dir.path());
    assert_eq!(code, 1, "{report}");
    let first = line_of(&report, tables[0]);
    assert!(
        first.contains("DAMAGED") && first.contains("entry 3 does not match its checksum"),
        "{first}"
    );
    let second = line_of(&report, tables[1]);
    assert!(
        second.contains("DAMAGED")
            && second.contains(&format!(
                "{} log entries were committed but {} are in the database",
                heads[1],
                heads[1] - 1
            )),
        "{second}"
    );
    let third = line_of(&report, tables[2]);
    assert!(third.contains(": ok;"), "{third}");
    assert!(report.contains("3 table(s): 1 ok, 2 damaged"), "{report}");
    assert!(
        !report.contains('{'),
        "programmer text in the report: {report}"
    );

    // No database at all: exit 2 and words.
    let empty = tempfile::tempdir().unwrap();
    let (code, _) = check(empty.path());
    assert_eq!(code, 2);
}
