//! A session stays on its origins whatever moves its page. Two loopback origins of the
//! test's own (`common::origin`): the session is opened on `a`; `b` is granted nothing.
//! Each way of leaving — a redirect, a link, a form, `location =`, a meta refresh — is
//! checked against `b`'s own record (it must receive no request), the page's own URL and
//! record (still on `a`, where the navigation began), and the browser's account of the
//! request, read through a DevTools session of the test's own.

use crate::common::origin::Origin;
use crate::common::{DuplexClient, Rig, Session};
use arc_browser::cdp::events::{LoadingFailed, LoadingFinished, RequestWillBeSent};
use arc_browser::cdp::methods::network;
use arc_browser::cdp::{Event, RequestId};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

struct Two {
    rig: Rig,
    a: Origin,
    b: Origin,
}

impl Two {
    async fn start() -> Two {
        Two {
            rig: Rig::start().await,
            a: Origin::start().await,
            b: Origin::start().await,
        }
    }

    /// `leave.html` on `a`, its ways out leading to `b`.
    fn leave(&self) -> String {
        self.a
            .url(&format!("leave.html?to={}", self.b.url("landed.html")))
    }

    async fn open(&self, grants: Value) -> (DuplexClient, Session) {
        let mut c = self.rig.duplex_client();
        c.hello().await;
        let s = c.open(&self.leave(), grants).await;
        (c, s)
    }

    /// The browser's own account of the page's requests, from now on.
    async fn watch_requests(&self, s: &Session) -> UnboundedReceiver<Event> {
        let page = self.rig.page(&s.target_id).await;
        let events = page.subscribe();
        page.call(network::Enable::default()).await.unwrap();
        events
    }

    /// Waits (at most 10 s) until the page's request to `b` has ended, answered or
    /// failed, as the browser reports it; true when it was answered.
    async fn request_to_b_ended(&self, events: &mut UnboundedReceiver<Event>) -> bool {
        let mut to_b: Option<RequestId> = None;
        let wait = async {
            while let Some(e) = events.recv().await {
                if let Some(Ok(r)) = e.parse::<RequestWillBeSent>() {
                    if r.request.url.starts_with(&self.b.origin) {
                        to_b = Some(r.request_id);
                    }
                } else if let Some(Ok(r)) = e.parse::<LoadingFinished>() {
                    if to_b.as_ref() == Some(&r.request_id) {
                        return true;
                    }
                } else if let Some(Ok(r)) = e.parse::<LoadingFailed>() {
                    if to_b.as_ref() == Some(&r.request_id) {
                        return false;
                    }
                }
            }
            panic!("the page's events ended")
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("the browser reports the request to b ending within 10 s")
    }

    /// The page never reached `b`, and is still `leave.html` on `a`, where a navigation
    /// began (`beforeunload` ran).
    async fn still_home(&self, s: &Session) {
        assert_eq!(
            self.b.requests(),
            Vec::<String>::new(),
            "b received nothing"
        );
        let href = self.rig.eval(&s.target_id, "location.href").await;
        assert_eq!(href, json!(self.leave()), "the page stayed on a");
        let unloads = self.rig.eval(&s.target_id, "window.__unloads").await;
        assert!(unloads.as_u64() >= Some(1), "a navigation began: {unloads}");
    }
}

fn act(s: &Session, obs: &str, action: Value) -> Value {
    json!({"session": s.auth, "observation_id": obs, "action": action, "observe_after": {}})
}

/// Presses the control named `name` and checks the page stayed home.
async fn press_and_stay(name: &str) {
    let two = Two::start().await;
    let (mut c, s) = two.open(json!({"allow_input": true})).await;
    let mut events = two.watch_requests(&s).await;
    let (id, obs) = c.find_id(&s, name).await;
    let r = c
        .ok(
            "act",
            act(&s, &obs, json!({"kind": "CLICK", "target_id": id})),
        )
        .await;
    assert!(
        !two.request_to_b_ended(&mut events).await,
        "the request to b was stopped, not answered"
    );
    two.still_home(&s).await;
    let reason = r["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&two.b.origin) && reason.contains("stopped"),
        "the act says which navigation was stopped: {r}"
    );
    // The session keeps working on its page.
    let (go, obs) = c.find_id(&s, "Go away").await;
    assert!(!go.is_empty() && !obs.is_empty());
}

/// A hop from a to b refused naming b's origin: a was asked and redirected, b received
/// nothing (its own request log).
fn redirect_refused(two: &Two, r: &Value) {
    assert_eq!(r["error"]["code"], "origin_not_allowed", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&two.b.origin),
        "{r}"
    );
    assert!(
        two.a.requests().iter().any(|t| t.starts_with("/redirect")),
        "a was asked and redirected: {:?}",
        two.a.requests()
    );
    assert_eq!(two.b.requests(), Vec::<String>::new(), "b received nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_to_another_origin_is_stopped() {
    press_and_stay("Other site").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_posted_to_another_origin_is_stopped() {
    press_and_stay("Save note").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn script_setting_location_to_another_origin_is_stopped() {
    press_and_stay("Go away").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meta_refresh_to_another_origin_is_stopped() {
    press_and_stay("Refresh away").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_from_a_granted_origin_to_another_is_stopped() {
    let two = Two::start().await;
    let grants =
        json!({"allow_input": true, "allow_navigate": true, "navigate_origins": [two.a.origin]});
    let (mut c, s) = two.open(grants).await;
    let mut events = two.watch_requests(&s).await;
    let obs = c.observe(&s).await["observation_id"].clone();
    let via_a = two
        .a
        .url(&format!("redirect?to={}", two.b.url("landed.html")));
    let r = c
        .call(
            "act",
            act(
                &s,
                obs.as_str().unwrap(),
                json!({"kind": "NAVIGATE", "url": via_a}),
            ),
        )
        .await;
    assert!(
        !two.request_to_b_ended(&mut events).await,
        "the hop to b was stopped"
    );
    redirect_refused(&two, &r);
    let href = two.rig.eval(&s.target_id, "location.href").await;
    assert_eq!(href, json!(two.leave()), "the page stayed on a");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_from_another_origin_still_loads_and_is_observed() {
    let two = Two::start().await;
    let page = two.a.url(&format!(
        "leave.html?to={}&frame={}",
        two.b.url("landed.html"),
        two.b.url("frame-inner.html")
    ));
    let mut c = two.rig.duplex_client();
    c.hello().await;
    let s = c.open(&page, json!({"allow_input": true})).await;
    let mut found = false;
    for _ in 0..50 {
        let r = c
            .ok("find", json!({"session": s.auth, "text": "Inner button"}))
            .await;
        if r["hits"].as_array().is_some_and(|h| !h.is_empty()) {
            found = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(found, "the frame's button is observed");
    assert!(
        two.b.requests().iter().any(|t| t == "/frame-inner.html"),
        "b served the frame: {:?}",
        two.b.requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_done_on_a_page_off_the_sessions_origins() {
    let two = Two::start().await;
    let (mut c, s) = two.open(json!({"allow_input": true})).await;
    // A document no request brings (about:blank) is beyond any interception; the page
    // then shows a button of its own.
    let (blank, obs) = c.find_id(&s, "Blank").await;
    c.ok(
        "act",
        act(&s, &obs, json!({"kind": "CLICK", "target_id": blank})),
    )
    .await;
    let mut on_blank = false;
    for _ in 0..100 {
        if two.rig.eval(&s.target_id, "location.href").await == json!("about:blank") {
            on_blank = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(on_blank, "the page went to about:blank");
    two.rig
        .eval(
            &s.target_id,
            "window.__pressed = 0; document.body.innerHTML = '<button onclick=\"window.__pressed++\">Press here</button>'; true",
        )
        .await;
    let (button, obs) = c.find_id(&s, "Press here").await;
    let code = c
        .code(
            "act",
            act(&s, &obs, json!({"kind": "CLICK", "target_id": button})),
        )
        .await;
    assert_eq!(code, "origin_not_allowed");
    let obs = c.observe(&s).await["observation_id"].clone();
    let code = c
        .code(
            "act",
            json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK_AT", "x": 20.0, "y": 20.0}}),
        )
        .await;
    assert_eq!(code, "origin_not_allowed");
    let obs = c.observe(&s).await["observation_id"].clone();
    let code = c
        .code(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs,
                   "subtask": {"goal": "Click \"Press here\"", "verification": ["The page shows \"Pressed\""]}}),
        )
        .await;
    assert_eq!(code, "origin_not_allowed");
    assert_eq!(
        two.rig.eval(&s.target_id, "window.__pressed").await,
        json!(0),
        "nothing was pressed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_session_leaves_its_page_free_to_navigate() {
    let two = Two::start().await;
    let (mut c, owner) = two.open(json!({})).await;
    // A second session on the same page, then stopped: nobody answers for it any more.
    let r = c
        .ok(
            "open_session",
            json!({"target": {"target_id": owner.target_id}}),
        )
        .await;
    c.ok("stop_session", json!({"session": r["session"]})).await;
    let mut page = two.rig.page(&owner.target_id).await;
    page.set_navigation_timeout(Duration::from_secs(10));
    page.navigate(&two.a.url("landed.html"))
        .await
        .expect("the page still navigates within its origin");
    assert!(
        two.a.requests().iter().any(|t| t == "/landed.html"),
        "a served it: {:?}",
        two.a.requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_tab_redirected_off_its_origin_is_not_opened() {
    let two = Two::start().await;
    let mut c = two.rig.duplex_client();
    c.hello().await;
    let pages_before = two.rig.browser.pages().await.unwrap().len();
    let via_a = two
        .a
        .url(&format!("redirect?to={}", two.b.url("landed.html")));
    let r = c
        .call(
            "open_session",
            json!({"grants": {"allow_launch": true}, "target": {"url": via_a}}),
        )
        .await;
    redirect_refused(&two, &r);
    assert_eq!(
        two.rig.browser.pages().await.unwrap().len(),
        pages_before,
        "no tab is left open"
    );
}
