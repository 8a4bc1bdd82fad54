//! Faults: the page's renderer, or the whole browser, killed while an act is dispatched.
//! The act is `completion_unknown` (never retried), its session is over, and the host
//! keeps serving: other sessions on live pages go on. A browser the host launched itself
//! is launched again for new sessions once it is lost.

use crate::common::{duplex_client, of_type, processes_of, site_root, Rig};
use serde_json::json;
use std::time::Duration;

/// Makes the page's button hang its renderer on the press (a busy loop in mousedown).
const HANG: &str =
    "document.getElementById('btn').addEventListener('mousedown', () => { for (;;) {} }); 1";

/// `Page.crash`: Chromium kills the page's renderer (handled off its main thread, so
/// also while the page's script hangs).
#[derive(serde::Serialize)]
struct Crash {}

impl arc_browser::cdp::Method for Crash {
    const NAME: &'static str = "Page.crash";
    type Returns = arc_browser::cdp::Empty;
}

/// Returns once the page stops answering (the press is in its hanging handler).
async fn hung(page: &arc_browser::PageSession) {
    for _ in 0..200 {
        if tokio::time::timeout(Duration::from_millis(300), page.evaluate("1"))
            .await
            .is_err()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the page never hung");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renderer_killed_mid_act_is_completion_unknown_and_other_sessions_go_on() {
    let rig = Rig::start().await;
    let mut c = rig.duplex_client();
    c.hello().await;
    let mut other = rig.duplex_client();
    other.hello().await;
    let a = c
        .open(&rig.url("events.html"), json!({"allow_input": true}))
        .await;
    let b = other
        .open(&rig.url("events.html?b"), json!({"allow_input": true}))
        .await;
    rig.eval(&a.target_id, HANG).await;
    let (btn, obs) = c.find_id(&a, "Click me").await;
    let page = rig.page(&a.target_id).await;
    let killer = tokio::spawn(async move {
        hung(&page).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), page.call(Crash {})).await;
    });
    let r = c
        .call("act", json!({"session": a.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": btn}}))
        .await;
    killer.await.unwrap();
    assert_eq!(r["error"]["code"], "completion_unknown", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not retried"),
        "{r}"
    );
    // The session is over; asking again does not act again.
    assert_eq!(
        c.code("observe", json!({"session": a.auth})).await,
        "completion_unknown"
    );

    // The other session's page is alive and acted on.
    let (bbtn, bobs) = other.find_id(&b, "Click me").await;
    let r = other
        .ok("act", json!({"session": b.auth, "observation_id": bobs, "action": {"kind": "CLICK", "target_id": bbtn}}))
        .await;
    assert_eq!(r["outcome"], "changed", "{r}");
    let events = rig.events(&b.target_id).await;
    assert_eq!(of_type(&events, "click").len(), 1, "{events:?}");
    // A new session works on the same connection as the broken one.
    let fresh = c.open(&rig.url("events.html"), json!({})).await;
    assert!(c.observe(&fresh).await["view"]
        .as_str()
        .unwrap()
        .contains("Click me"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_killed_mid_act_is_completion_unknown_and_the_host_still_answers() {
    let rig = Rig::start().await;
    let (mut c, a) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    let b = c.open(&rig.url("events.html"), json!({})).await;
    rig.eval(&a.target_id, HANG).await;
    let (btn, obs) = c.find_id(&a, "Click me").await;
    let group = rig.chromium.pid() as i32;
    let page = rig.page(&a.target_id).await;
    let killer = tokio::spawn(async move {
        hung(&page).await;
        unsafe { libc::kill(-group, libc::SIGKILL) };
    });
    let r = c
        .call("act", json!({"session": a.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": btn}}))
        .await;
    killer.await.unwrap();
    assert_eq!(r["error"]["code"], "completion_unknown", "{r}");
    // The host answers; what needs the browser says it is gone.
    assert_eq!(c.ok("ping", json!({})).await["pong"], true);
    assert_eq!(
        c.code("observe", json!({"session": b.auth})).await,
        "browser_lost"
    );
    assert_eq!(c.code("list_targets", json!({})).await, "browser_lost");
    assert_eq!(c.ok("manifest", json!({})).await["protocol_version"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_launches_a_new_browser_for_new_sessions_when_its_own_dies() {
    let site = arc_browser::StaticServer::start(site_root()).await.unwrap();
    let host = arc_host::Host::start(Default::default(), Default::default())
        .await
        .expect("the host launches Chromium");
    let mut c = duplex_client(&host);
    c.hello().await;
    let old = c.open(&site.url("events.html"), json!({})).await;
    let first = host.chromium_pid().expect("the host launched a browser");
    unsafe { libc::kill(-(first as i32), libc::SIGKILL) };
    let mut code = String::new();
    for _ in 0..300 {
        code = c.code("observe", json!({"session": old.auth})).await;
        if code == "browser_lost" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        code, "browser_lost",
        "the old session learns its browser died"
    );

    // The listing and a new session go to a new browser, in a new process group.
    let listed = c.ok("list_targets", json!({})).await;
    let second = host.chromium_pid().expect("a browser again");
    assert_ne!(first, second, "{listed}");
    assert!(
        processes_of(first).is_empty(),
        "the dead browser's group is reaped"
    );
    assert!(!processes_of(second).is_empty(), "the new browser runs");
    let fresh = c.open(&site.url("events.html"), json!({})).await;
    assert!(c.observe(&fresh).await["view"]
        .as_str()
        .unwrap()
        .contains("Click me"));
    let listed = c.ok("list_targets", json!({})).await;
    assert!(
        listed["targets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["target_id"] == json!(fresh.target_id)),
        "{listed}"
    );
    // The old session stays lost: its page died with its browser.
    assert_eq!(
        c.code("observe", json!({"session": old.auth})).await,
        "browser_lost"
    );
    assert_eq!(
        host.chromium_pid(),
        Some(second),
        "one relaunch, not one per call"
    );
}
