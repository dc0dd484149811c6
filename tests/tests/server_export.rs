//! A finished game's log comes out of the server's database with
//! `muster-server export` and verifies with `muster-server verify`.

use muster_shared::engine::{MatchLog, verify_log};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, sandbox_table, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exported_log_verifies_roll_by_roll() {
    let (server, dir) = start_server(|_| {}).await;
    let target = Target::of(&server);
    let mut a = Client::connect(&target, false, "Banks").await;
    let mut b = Client::connect(&target, true, "Jackson").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    for i in 0..12u8 {
        let p = if i % 2 == 0 { &mut a } else { &mut b };
        p.act(&SandboxAction::Roll {
            count: 1 + i % 3,
            sides: 6,
            note: format!("volley {i}"),
        })
        .await
        .expect("accepted");
    }
    assert!(a.follower().bad_rolls().is_empty());
    assert!(b.follower().bad_rolls().is_empty());

    // Exported while the server still runs (the database is read-only to us).
    let log = muster_server::export::read_log(dir.path(), table.0).expect("export");
    let report = verify_log(&log);
    assert!(report.ok(), "{report}");
    assert_eq!(report.rolls, 12);
    // Through the file format, byte for byte.
    let file = dir.path().join("table.log");
    std::fs::write(&file, log.to_file_bytes()).unwrap();
    let back = MatchLog::from_file_bytes(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(back, log);
    assert!(matches!(
        muster_server::export::read_log(dir.path(), 9999),
        Err(muster_server::export::ExportError::NoSuchTable(9999))
    ));
    drop(server);
}
