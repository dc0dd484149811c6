//! Issue 20, item 7: session tokens expire when unused for the configured
//! time, and a player can list their sessions and revoke one: the revoked
//! token no longer signs in, a connection signed in with it is closed at
//! once, and every refusal says in words why.

use muster_client::{Connection, NetError};
use muster_server::config::Config;
use muster_shared::protocol::{ErrorCode, ServerMsg, SessionId};
use muster_tests::e2e::{Target, WAIT, start_server};
use std::time::Duration;

async fn connect(t: &Target) -> Connection {
    Connection::connect(t.url(false), &t.options())
        .await
        .expect("connect")
}

/// The words of a `BadToken` refusal, or a panic saying what came instead.
fn bad_token_words(r: Result<impl std::fmt::Debug, NetError>) -> String {
    match r {
        Err(NetError::Refused {
            code: ErrorCode::BadToken,
            message,
        }) => message,
        other => panic!("expected a refused token, got {other:?}"),
    }
}

#[test]
fn sessions_expire_after_ninety_idle_days_by_default() {
    assert_eq!(Config::default().limits.session_idle_secs, 90 * 24 * 3600);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_lists_and_revokes_sessions_and_revoked_tokens_are_refused_in_words() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);

    // Two sessions of one identity: the sign-in, and one made for a second device.
    let mut laptop = connect(&t).await;
    let (user, first) = laptop.sign_in_guest("Ann").await.unwrap();
    let second = laptop.new_session().await.unwrap();
    assert_ne!(first, second);
    let mut phone = connect(&t).await;
    assert_eq!(phone.resume(&second).await.unwrap(), user);

    let listed = laptop.list_sessions().await.unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed.iter().filter(|s| s.current).count(), 1);
    let here = listed.iter().find(|s| s.current).unwrap().id;
    let there = listed.iter().find(|s| !s.current).unwrap().id;
    assert!(listed.iter().all(|s| s.expires > s.last_used));
    let seen_by_phone = phone.list_sessions().await.unwrap();
    assert_eq!(seen_by_phone.iter().find(|s| s.current).unwrap().id, there);

    // Somebody else cannot revoke Ann's session.
    let mut mallory = connect(&t).await;
    mallory.sign_in_guest("Mallory").await.unwrap();
    match mallory.revoke_session(there).await {
        Err(NetError::Refused {
            code: ErrorCode::Forbidden,
            message,
        }) => assert!(message.contains("no live session"), "{message}"),
        other => panic!("{other:?}"),
    }
    match mallory.revoke_session(SessionId(u64::MAX)).await {
        Err(NetError::Refused { code, .. }) => assert_eq!(code, ErrorCode::Forbidden),
        other => panic!("{other:?}"),
    }

    // Ann revokes the phone's session from the laptop.
    let left = laptop.revoke_session(there).await.unwrap();
    assert_eq!(left.iter().map(|s| s.id).collect::<Vec<_>>(), [here]);
    // The phone's connection is told in words and closed.
    match phone.recv_timeout(WAIT).await {
        Ok(ServerMsg::Error {
            code: ErrorCode::BadToken,
            message,
            ..
        }) => assert!(message.contains("revoked"), "{message}"),
        other => panic!("the phone was not told: {other:?}"),
    }
    assert!(
        phone.recv_timeout(WAIT).await.is_err(),
        "the revoked connection stays open"
    );
    // The token no longer signs in, and says why.
    let mut again = connect(&t).await;
    let words = bad_token_words(again.resume(&second).await);
    assert!(
        words.contains("revoked") && words.contains("sign in again"),
        "{words}"
    );
    // A token the server never issued: words too.
    let words = bad_token_words(again.resume("00ff").await);
    assert!(words.contains("does not know"), "{words}");
    // The laptop's own session still works.
    assert_eq!(again.resume(&first).await.unwrap(), user);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unused_token_expires_and_the_refusal_says_so() {
    // Two seconds instead of 90 days.
    let (server, _dir) = start_server(|c| c.limits.session_idle_secs = 2).await;
    let t = Target::of(&server);
    let mut a = connect(&t).await;
    let (user, token) = a.sign_in_guest("Ben").await.unwrap();
    // Used within the limit: fine, and the use restarts the clock.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut b = connect(&t).await;
    assert_eq!(b.resume(&token).await.unwrap(), user);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut c = connect(&t).await;
    assert_eq!(c.resume(&token).await.unwrap(), user);
    // Unused for longer than the limit: refused, in words.
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let mut d = connect(&t).await;
    let words = bad_token_words(d.resume(&token).await);
    assert!(
        words.contains("expired") && words.contains("sign in again"),
        "{words}"
    );
    // An expired session is not listed either.
    let mut e = connect(&t).await;
    let (_, fresh) = e.sign_in_guest("Ben").await.unwrap();
    assert_ne!(fresh, token);
    assert_eq!(e.list_sessions().await.unwrap().len(), 1);
    server.shutdown().await;
}
