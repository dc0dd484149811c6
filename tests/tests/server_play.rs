//! Issue 3, "must show" 1: two players and three spectators, mixed
//! WebSocket and QUIC, play 300 sandbox actions with dice over real
//! loopback sockets and a real SQLite file. Every client verifies every
//! roll; the spectators' final view equals the public part of the players'
//! states; no hidden piece's label is in any byte the opponent or a
//! spectator received.

use muster_shared::engine::{ActionContext, Ruleset};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, sandbox_table, start_server};
use muster_tests::random_play::Chooser;

const ACTIONS: usize = 300;

/// A random legal action for `p`, never revealing a hidden piece (so every
/// secret stays secret for the whole game), and every tenth action a new
/// hidden piece with a unique secret label.
fn choose(p: &Client, ch: &mut Chooser, i: usize, secrets: &mut Vec<String>) -> SandboxAction {
    let f = p.follower();
    let seat = p.seat.expect("seated");
    let legal = f.ruleset().legal_actions(f.state(), seat);
    if i % 10 == 3
        && let Some(SandboxAction::Place {
            at, owner, face_up, ..
        }) = legal
            .iter()
            .find(|a| matches!(a, SandboxAction::Place { hidden: true, .. }))
            .cloned()
    {
        let label = format!(
            "SECRET-{}-{i}-{:08x}",
            seat.0,
            ch.below(65535) * 65536 + ch.below(65535)
        );
        secrets.push(label.clone());
        return SandboxAction::Place {
            at,
            label,
            owner,
            face_up,
            hidden: true,
        };
    }
    let open: Vec<SandboxAction> = legal
        .into_iter()
        .filter(|a| {
            !matches!(
                a,
                SandboxAction::Reveal { .. } | SandboxAction::Place { hidden: true, .. }
            )
        })
        .collect();
    open[ch.below(open.len())].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_three_spectators_mixed_transports_play_300_actions() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "Meade").await;
    let mut b = Client::connect(&t, true, "Lee").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    let mut specs = vec![
        Client::connect(&t, true, "watcher-quic").await,
        Client::connect(&t, false, "watcher-ws").await,
        Client::connect(&t, true, "watcher-quic-2").await,
    ];
    for s in &mut specs {
        s.spectate(table, None).await;
    }
    a.sit(table, None).await;
    b.sit(table, None).await;

    let mut ch = Chooser::new(0x5eed);
    let mut secrets = [Vec::new(), Vec::new()];
    let mut rolls = 0u64;
    let mut last = b.seq();
    let started = std::time::Instant::now();
    for i in 0..ACTIONS {
        let p = if i % 2 == 0 { &mut a } else { &mut b };
        p.sync_to(last).await;
        let seat = p.seat.expect("seated");
        let action = choose(p, &mut ch, i, &mut secrets[usize::from(seat.0)]);
        let f = p.follower();
        let ctx = ActionContext {
            seat,
            seq: f.seq() + 1,
            by_default: false,
        };
        if f.ruleset().rolls_dice(f.state(), &ctx, &action) {
            rolls += 1;
        }
        last = p
            .act(&action)
            .await
            .unwrap_or_else(|e| panic!("action {i} {action:?} refused: {e}"));
        if i % 25 == 0 {
            for s in &mut specs {
                s.sync_to(last).await;
            }
        }
    }
    let took = started.elapsed();
    for c in std::iter::once(&mut a)
        .chain(std::iter::once(&mut b))
        .chain(specs.iter_mut())
    {
        c.sync_to(last).await;
    }
    eprintln!(
        "{ACTIONS} actions ({rolls} rolls) in {took:?}: {:?} per action round trip",
        took / ACTIONS as u32
    );

    assert!(rolls > 20, "the game rolled dice ({rolls})");
    for c in std::iter::once(&a)
        .chain(std::iter::once(&b))
        .chain(specs.iter())
    {
        let f = c.follower();
        assert!(f.bad_rolls().is_empty(), "{}: {:?}", c.name, f.bad_rolls());
        assert_eq!(f.verified_rolls(), rolls, "{} verified every roll", c.name);
        assert_eq!(f.seq(), last);
    }
    for s in &specs {
        assert_eq!(
            s.follower().state(),
            &a.public_view(),
            "{} sees the public state",
            s.name
        );
        assert_eq!(
            s.follower().state(),
            &b.public_view(),
            "{} sees the public state",
            s.name
        );
    }
    // Hidden pieces: never in the bytes anyone but the owner received.
    let total: usize = secrets.iter().map(Vec::len).sum();
    assert!(total >= 20, "hidden pieces were placed ({total})");
    for (owner, others) in [(&a, [&b]), (&b, [&a])] {
        let seat = usize::from(owner.seat.unwrap().0);
        for secret in &secrets[seat] {
            assert!(owner.saw(secret.as_bytes()), "the owner received {secret}");
            for o in others.iter().copied().chain(specs.iter()) {
                assert!(!o.saw(secret.as_bytes()), "{} received {secret}", o.name);
            }
        }
    }
    server.shutdown().await;
}
