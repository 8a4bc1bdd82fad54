//! Adversarial requests: each refused with its code, and nothing happening on the page
//! (the page's own record, read through the test's own CDP session). Together with
//! `fault.rs` (completion_unknown, browser_lost) and `desktop.rs` (unsupported_on_target)
//! every error code is reached.
//! Drives real headless Chromium (`Rig`: a launched browser and the fixture site).

use crate::common::{Client, Rig, Session};
use arc_host::protocol::ErrorCode;
use arc_host::Limits;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use tokio::io::{AsyncBufRead, AsyncWrite};

/// Input events a page can receive: none may appear after a refused request.
const INPUT_TYPES: [&str; 14] = [
    "click",
    "dblclick",
    "contextmenu",
    "mousedown",
    "mouseup",
    "keydown",
    "keyup",
    "input",
    "change",
    "wheel",
    "submit",
    "drop",
    "pointerdown",
    "pointerup",
];

async fn input_events(rig: &Rig, target: &str) -> Vec<Value> {
    rig.events(target)
        .await
        .into_iter()
        .filter(|e| INPUT_TYPES.iter().any(|t| e["type"] == *t))
        .collect()
}

struct Codes(BTreeSet<String>);

impl Codes {
    /// Expects `method` to fail with `code`; records it.
    async fn expect<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
        &mut self,
        c: &mut Client<R, W>,
        code: &str,
        method: &str,
        params: Value,
    ) -> Value {
        let r = c.call(method, params).await;
        assert_eq!(r["ok"], false, "{method} should fail with {code}: {r}");
        assert_eq!(r["error"]["code"], code, "{method}: {r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.len() > 10 && message.len() < 1200,
            "a message that says what to do: {r}"
        );
        self.0.insert(code.to_owned());
        r
    }
}

fn act(s: &Session, obs: &Value, action: Value) -> Value {
    json!({"session": s.auth, "observation_id": obs, "action": action})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_requests_leave_the_page_untouched_and_reach_every_code() {
    let rig = Rig::start().await;
    let origin = rig
        .url("")
        .trim_end_matches('/')
        .split('/')
        .take(3)
        .collect::<Vec<_>>()
        .join("/");
    let mut codes = Codes(BTreeSet::new());
    let mut c = rig.duplex_client();
    codes
        .expect(&mut c, "hello_required", "ping", json!({}))
        .await;
    codes
        .expect(
            &mut c,
            "invalid_params",
            "hello",
            json!({"protocol_version": 1}),
        )
        .await;
    codes
        .expect(
            &mut c,
            "unsupported_protocol",
            "hello",
            json!({"protocol_version": 7, "client_name": "t"}),
        )
        .await;
    c.hello().await;
    codes
        .expect(
            &mut c,
            "already_greeted",
            "hello",
            json!({"protocol_version": 1, "client_name": "t"}),
        )
        .await;
    codes
        .expect(&mut c, "unknown_method", "type_everything", json!({}))
        .await;
    c.send_raw(b"{\"request_id\":\"j1\",\"method\":").await;
    assert_eq!(c.recv().await.unwrap()["error"]["code"], "invalid_json");
    codes.0.insert("invalid_json".into());
    c.send_raw(b"{\"request_id\":\"r1\",\"method\":\"ping\",\"param\":{}}")
        .await;
    let r = c.recv().await.unwrap();
    assert_eq!(
        (r["request_id"].as_str(), r["error"]["code"].as_str()),
        (Some("r1"), Some("invalid_request"))
    );
    codes.0.insert("invalid_request".into());

    // A grant that is not an origin is refused, not compared and never matched.
    for bad in [
        "*",
        "javascript:alert(1)",
        "HTTP://127.0.0.1",
        "http://127.0.0.1/admin",
    ] {
        let r = c
            .call(
                "open_session",
                json!({"grants": {"allow_navigate": true, "allow_launch": true, "navigate_origins": [bad]},
                       "target": {"url": rig.url("events.html")}}),
            )
            .await;
        assert_eq!(r["error"]["code"], "invalid_params", "{bad}: {r}");
    }
    // Uploads from a directory this host's operator allowed none of: refused, no tab.
    codes
        .expect(
            &mut c,
            "file_not_granted",
            "open_session",
            json!({"grants": {"allow_launch": true, "allow_files": ["/tmp"]},
                   "target": {"url": rig.url("events.html")}}),
        )
        .await;
    let grants = json!({"allow_input": true, "allow_navigate": true, "navigate_origins": [origin]});
    let a = c.open(&rig.url("events.html"), grants.clone()).await;
    let b = c.open(&rig.url("events.html"), grants.clone()).await;

    // An old observation, then a used one.
    let (btn, old) = c.find_id(&a, "Click me").await;
    let latest = c.observe(&a).await["observation_id"].clone();
    codes
        .expect(
            &mut c,
            "stale_observation",
            "act",
            act(&a, &json!(old), json!({"kind": "CLICK", "target_id": btn})),
        )
        .await;
    assert!(
        input_events(&rig, &a.target_id).await.is_empty(),
        "a stale act presses nothing"
    );
    c.ok(
        "act",
        act(&a, &latest, json!({"kind": "CLICK", "target_id": btn})),
    )
    .await;
    codes
        .expect(
            &mut c,
            "stale_observation",
            "act",
            act(&a, &latest, json!({"kind": "CLICK", "target_id": btn})),
        )
        .await;
    let clicks = input_events(&rig, &a.target_id)
        .await
        .iter()
        .filter(|e| e["type"] == "click")
        .count();
    assert_eq!(clicks, 1, "an observation is used once");
    let before = input_events(&rig, &a.target_id).await.len();

    // Another session's capability; a session of another connection.
    let obs = c.observe(&a).await["observation_id"].clone();
    let mut forged = a.clone();
    forged.auth["capability"] = b.auth["capability"].clone();
    codes
        .expect(
            &mut c,
            "invalid_capability",
            "act",
            act(&forged, &obs, json!({"kind": "CLICK", "target_id": btn})),
        )
        .await;
    let mut other = rig.duplex_client();
    other.hello().await;
    codes
        .expect(
            &mut other,
            "unknown_session",
            "act",
            act(&a, &obs, json!({"kind": "CLICK", "target_id": btn})),
        )
        .await;

    // Elements not in the observation, actions they do not offer.
    codes
        .expect(
            &mut c,
            "unknown_element",
            "act",
            act(&a, &obs, json!({"kind": "CLICK", "target_id": "e999999"})),
        )
        .await;
    let (heading, obs) = c.find_id(&a, "Event oracle").await;
    codes
        .expect(
            &mut c,
            "invalid_action",
            "act",
            act(
                &a,
                &json!(obs),
                json!({"kind": "CLICK", "target_id": heading}),
            ),
        )
        .await;

    // Navigation outside the allow-list, or to a scheme never navigated to.
    let obs = c.observe(&a).await["observation_id"].clone();
    codes
        .expect(
            &mut c,
            "navigate_not_granted",
            "act",
            act(
                &a,
                &obs,
                json!({"kind": "NAVIGATE", "url": "http://example.invalid/"}),
            ),
        )
        .await;
    for url in [
        "javascript:document.body.innerHTML='owned'",
        "file:///etc/passwd",
        " JavaScript:alert(1)",
        "data:text/html,x",
    ] {
        codes
            .expect(
                &mut c,
                "forbidden_scheme",
                "act",
                act(&a, &obs, json!({"kind": "NAVIGATE", "url": url})),
            )
            .await;
    }
    assert_eq!(
        rig.eval(&a.target_id, "location.pathname").await,
        "/events.html"
    );
    assert_eq!(
        rig.eval(&a.target_id, "document.body.innerHTML.includes('owned')")
            .await,
        false
    );

    // Oversized text, drags and waits.
    let (field, obs) = c.find_id(&a, "Text").await;
    let r = codes
        .expect(
            &mut c,
            "limit_exceeded",
            "act",
            act(
                &a,
                &json!(obs),
                json!({"kind": "TYPE_TEXT", "target_id": field, "text": "x".repeat(10_001)}),
            ),
        )
        .await;
    assert_eq!(r["error"]["limit"], "text_chars");
    assert_eq!(
        rig.eval(&a.target_id, "document.getElementById('text').value")
            .await,
        ""
    );
    let (drag, obs) = c.find_id(&a, "Drag source").await;
    let r = codes
        .expect(
            &mut c,
            "limit_exceeded",
            "act",
            act(
                &a,
                &json!(obs),
                json!({"kind": "DRAG_BY", "target_id": drag, "dx": 5000.0, "dy": 0.0}),
            ),
        )
        .await;
    assert_eq!(r["error"]["limit"], "drag_px");
    let r = codes
        .expect(&mut c, "limit_exceeded", "wait_for", json!({"session": a.auth, "condition": {"kind": "text_contains", "text": "x"}, "timeout_ms": 60_000}))
        .await;
    assert_eq!(r["error"]["limit"], "wait_ms");
    assert_eq!(
        input_events(&rig, &a.target_id).await.len(),
        before,
        "nothing reached the page"
    );

    // No grants: observe yes, input and navigation no.
    let bare = {
        let r = c
            .ok(
                "open_session",
                json!({"target": {"target_id": b.target_id}}),
            )
            .await;
        Session {
            auth: r["session"].clone(),
            target_id: b.target_id.clone(),
        }
    };
    let (bbtn, obs) = c.find_id(&bare, "Click me").await;
    codes
        .expect(
            &mut c,
            "input_not_granted",
            "act",
            act(
                &bare,
                &json!(obs),
                json!({"kind": "CLICK", "target_id": bbtn}),
            ),
        )
        .await;
    codes
        .expect(
            &mut c,
            "navigate_not_granted",
            "act",
            act(
                &bare,
                &json!(obs),
                json!({"kind": "NAVIGATE", "url": rig.url("form.html")}),
            ),
        )
        .await;
    assert!(input_events(&rig, &b.target_id).await.is_empty());
    codes
        .expect(
            &mut c,
            "launch_not_granted",
            "open_session",
            json!({"target": {"url": rig.url("events.html")}}),
        )
        .await;
    codes
        .expect(
            &mut c,
            "target_not_found",
            "open_session",
            json!({"target": {"target_id": "0123456789ABCDEF0123456789ABCDEF"}}),
        )
        .await;

    // Risks: the gate refuses a press (an outcome, nothing pressed); a subtask may not
    // allow more than the session does.
    let risky = c
        .open(&rig.url("risk/words.html"), json!({"allow_input": true}))
        .await;
    let (del, obs) = c.find_role(&risky, "button", "account").await;
    let r = c
        .ok(
            "act",
            act(
                &risky,
                &json!(obs),
                json!({"kind": "CLICK", "target_id": del}),
            ),
        )
        .await;
    assert_eq!(r["outcome"], "refused", "{r}");
    assert_eq!(
        rig.eval(&risky.target_id, "window.__pressed").await,
        json!([])
    );
    let obs = c.observe(&risky).await["observation_id"].clone();
    codes
        .expect(&mut c, "risk_not_granted", "run_subtask", json!({"session": risky.auth, "observation_id": obs,
            "subtask": {"goal": "Delete the account", "verification": ["The page shows \"Deleted\""], "allowed_risks": ["delete"]}}))
        .await;
    assert_eq!(
        rig.eval(&risky.target_id, "window.__pressed").await,
        json!([])
    );

    // A subtask the contract refuses: the error names the field inside it.
    let r = codes
        .expect(
            &mut c,
            "invalid_params",
            "run_subtask",
            json!({"session": risky.auth, "observation_id": obs,
            "subtask": {"goal": "Keep the account", "verification": [], "colour": "red"}}),
        )
        .await;
    assert!(
        r["error"]["message"].as_str().unwrap().contains("subtask"),
        "{r}"
    );
    // A tab the page opened is another target: visible, never acted on.
    let tabs = c
        .open(&rig.url("newtab.html"), json!({"allow_input": true}))
        .await;
    let (open, obs) = c.find_id(&tabs, "Open window").await;
    c.ok(
        "act",
        act(
            &tabs,
            &json!(obs),
            json!({"kind": "CLICK", "target_id": open}),
        ),
    )
    .await;
    let mut tab = None;
    for _ in 0..50 {
        let r = c
            .ok("find", json!({"session": tabs.auth, "role": "tab"}))
            .await;
        if let Some(hit) = r["hits"].as_array().and_then(|h| h.first()) {
            tab = Some((hit["id"].clone(), r["observation_id"].clone()));
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (tab, obs) = tab.expect("the opened tab shows up");
    codes
        .expect(
            &mut c,
            "target_out_of_scope",
            "act",
            act(&tabs, &obs, json!({"kind": "CLICK", "target_id": tab})),
        )
        .await;
    let after = c.observe(&tabs).await;
    assert!(
        after["url"].as_str().unwrap().ends_with("/newtab.html"),
        "still on its page: {after}"
    );

    // Stopped and interrupted sessions.
    c.ok("stop_session", json!({"session": b.auth})).await;
    codes
        .expect(
            &mut c,
            "session_stopped",
            "observe",
            json!({"session": b.auth}),
        )
        .await;
    let interrupted = c.ok("interrupt_all", json!({})).await;
    assert!(
        interrupted["stopped_sessions"].as_u64().unwrap() >= 3,
        "{interrupted}"
    );
    codes
        .expect(&mut c, "interrupted", "observe", json!({"session": a.auth}))
        .await;
    codes
        .expect(
            &mut c,
            "interrupted",
            "act",
            act(&a, &json!("x"), json!({"kind": "CLICK", "target_id": btn})),
        )
        .await;
    // Nothing more reaches the page: interrupt_all closed the tab it had opened.
    let pages = rig.browser.pages().await.unwrap();
    assert!(
        pages.iter().all(|p| p.target_id.0 != a.target_id),
        "the interrupted session's tab is closed"
    );

    // The remaining codes come from bounds on connections and sessions, and the fault
    // tests.
    let limited = Rig::with_limits(Limits {
        sessions_per_connection: 1,
        connections: 1,
        hello_ms: 300,
        ..Limits::default()
    })
    .await;
    let mut one = limited.duplex_client();
    one.hello().await;
    let s = one.open(&limited.url("events.html"), json!({})).await;
    codes
        .expect(&mut one, "limit_exceeded", "open_session", json!({"grants": {"allow_launch": true}, "target": {"url": limited.url("events.html")}}))
        .await;
    let mut two = limited.duplex_client();
    let r = codes
        .expect(
            &mut two,
            "limit_exceeded",
            "hello",
            json!({"protocol_version": 1, "client_name": "second"}),
        )
        .await;
    assert_eq!(r["error"]["limit"], "connections");
    let mut silent = limited.duplex_client();
    let r = silent.recv().await.expect("the host says why it closes");
    assert_eq!(r["error"]["code"], "hello_timeout");
    assert!(silent.recv().await.is_none(), "and closes");
    codes.0.insert("hello_timeout".into());
    one.ok("stop_session", json!({"session": s.auth})).await;

    let all: BTreeSet<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    // unsupported_on_target: desktop.rs (a screenshot on a window); origin_not_allowed:
    // navigation.rs (a page off the session's origins).
    let elsewhere: BTreeSet<String> = [
        "completion_unknown",
        "browser_lost",
        "backend_failure",
        "unsupported_on_target",
        "origin_not_allowed",
    ]
    .map(String::from)
    .into();
    let missing: Vec<_> = all
        .difference(&codes.0)
        .filter(|c| !elsewhere.contains(*c))
        .collect();
    assert!(missing.is_empty(), "codes not reached here: {missing:?}");
}

/// Opens pipelined on one connection count against `sessions_per_connection` as they are
/// accepted, not as they finish: of 24 sent at once, 16 open (the browser's own list of
/// pages says so) and 8 are `limit_exceeded` naming the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_opens_stop_at_the_per_connection_session_limit() {
    let rig = Rig::start().await;
    let limit = rig.host.limits().sessions_per_connection;
    let sent = limit + 8;
    let pages_before = rig.browser.pages().await.unwrap().len();
    let mut c = rig.duplex_client();
    c.hello().await;
    for i in 0..sent {
        let req = json!({"request_id": format!("open{i}"), "method": "open_session",
            "params": {"grants": {"allow_launch": true},
                       "target": {"url": rig.url("form.html")}}});
        c.send_raw(req.to_string().as_bytes()).await;
    }
    let (mut opened, mut refused) = (0, 0);
    for _ in 0..sent {
        let r = c.recv().await.expect("an answer to every open");
        if r["ok"] == json!(true) {
            opened += 1;
        } else {
            assert_eq!(r["error"]["code"], "limit_exceeded", "{r}");
            assert_eq!(r["error"]["limit"], "sessions_per_connection", "{r}");
            refused += 1;
        }
    }
    assert_eq!((opened, refused), (limit, sent - limit));
    let pages_after = rig.browser.pages().await.unwrap().len();
    assert_eq!(
        pages_after - pages_before,
        limit,
        "the browser holds one new tab per session opened"
    );
}
