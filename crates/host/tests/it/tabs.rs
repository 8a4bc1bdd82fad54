//! No tab outlives the session that owns it: popups its page opened go when it stops, an
//! interrupted session's tab goes at once, and a client that hangs up mid-open leaves no
//! tab. Each checked in the browser's own target list (`Target.getTargets`, the test's
//! own DevTools connection), never through the host.

use crate::common::Rig;
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The browser's own page targets, as ids.
async fn page_ids(rig: &Rig) -> Vec<String> {
    let pages = rig.browser.pages().await.expect("Target.getTargets");
    pages.into_iter().map(|p| p.target_id.0).collect()
}

/// Polls (bounded) until `done` holds of the browser's page list; that list.
async fn pages_until(rig: &Rig, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    for _ in 0..100 {
        let ids = page_ids(rig).await;
        if done(&ids) {
            return ids;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    page_ids(rig).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_a_session_closes_the_tabs_its_page_opened() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("newtab.html", json!({"allow_input": true}))
        .await;
    let (open, obs) = c.find_id(&s, "Open window").await;
    c.ok(
        "act",
        json!({"session": s.auth, "observation_id": obs,
               "action": {"kind": "CLICK", "target_id": open}}),
    )
    .await;
    // The popup, as the browser lists it: a page our page opened.
    let mut popup = None;
    for _ in 0..100 {
        let targets = rig.browser.targets().await.unwrap();
        popup = targets.into_iter().find(|t| {
            t.is_page() && t.opener_id.as_ref().map(|o| o.0.as_str()) == Some(&s.target_id)
        });
        if popup.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let popup = popup.expect("the page opened a window").target_id.0;
    c.ok("stop_session", json!({"session": s.auth})).await;
    let left = page_ids(&rig).await;
    assert!(
        !left.contains(&s.target_id),
        "the session's tab is closed: {left:?}"
    );
    assert!(
        !left.contains(&popup),
        "the window its page opened is closed: {left:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_all_closes_the_tabs_of_the_sessions_it_stops() {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened("form.html", json!({})).await;
    assert!(page_ids(&rig).await.contains(&s.target_id));
    let mut other = rig.duplex_client();
    other.hello().await;
    let r = other.ok("interrupt_all", json!({})).await;
    assert_eq!(r["stopped_sessions"], 1, "{r}");
    // The interrupted session's connection is still open: its tab is gone all the same.
    let left = page_ids(&rig).await;
    assert!(
        !left.contains(&s.target_id),
        "the interrupted session's tab is closed: {left:?}"
    );
    assert_eq!(
        c.code("observe", json!({"session": s.auth})).await,
        "interrupted"
    );
    // The connection still serves: a new session opens and observes.
    let again = c.open(&rig.url("form.html"), json!({})).await;
    c.observe(&again).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_hanging_up_mid_open_leaves_no_tab() {
    let rig = Rig::start().await;
    // A server that holds every request until told to answer: the tab's first load
    // is still under way when the client hangs up.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/slow", listener.local_addr().unwrap());
    let (release, released) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut released = released.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf).await;
                let _ = released.wait_for(|r| *r).await;
                let body = "<!DOCTYPE html><title>Late</title><h1>Late page</h1>";
                let reply = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    let before = page_ids(&rig).await;
    let mut c = rig.duplex_client();
    c.hello().await;
    let req = json!({"request_id": "open", "method": "open_session",
        "params": {"grants": {"allow_launch": true}, "target": {"url": url}}});
    c.send_raw(req.to_string().as_bytes()).await;
    let during = pages_until(&rig, |ids| ids.len() > before.len()).await;
    let tab: Vec<_> = during
        .iter()
        .filter(|id| !before.contains(id))
        .cloned()
        .collect();
    assert_eq!(tab.len(), 1, "the open made its tab: {during:?}");
    drop(c);
    release.send(true).unwrap();
    let after = pages_until(&rig, |ids| !ids.contains(&tab[0])).await;
    assert!(
        !after.contains(&tab[0]),
        "the tab of the dropped open is closed: {after:?}"
    );
}
