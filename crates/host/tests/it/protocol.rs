//! The protocol over an in-memory duplex: hello first, request_id echoed (errors too),
//! typed errors naming the field, and a first observe → act round trip checked by the
//! page's own record.
//! Drives real headless Chromium (`Rig`: a launched browser and the fixture site).

use crate::common::{of_type, Rig};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_comes_first_and_every_response_echoes_its_request_id() {
    let rig = Rig::start().await;
    let mut c = rig.duplex_client();
    // Before hello: refused with its code, the id echoed.
    assert_eq!(c.code("ping", json!({})).await, "hello_required");
    // Not JSON at all, but the id is still found when it can be.
    c.send_raw(b"{\"request_id\":\"bad-1\",").await;
    let r = c.recv().await.unwrap();
    assert_eq!(r["error"]["code"], "invalid_json");
    c.send_raw(b"{\"request_id\":\"env-1\",\"method\":\"ping\",\"extra\":1}")
        .await;
    let r = c.recv().await.unwrap();
    assert_eq!(r["request_id"], "env-1", "{r}");
    assert_eq!(r["error"]["code"], "invalid_request");
    let bad = c
        .call("hello", json!({"protocol_version": 1, "client_nam": "x"}))
        .await;
    assert_eq!(bad["error"]["code"], "invalid_params");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("client_nam"),
        "{bad}"
    );
    assert_eq!(
        c.code("hello", json!({"protocol_version": 99, "client_name": "t"}))
            .await,
        "unsupported_protocol"
    );
    let hello = c.hello().await;
    assert_eq!(hello["protocol_version"], 1);
    assert!(hello["limits"]["text_chars"].as_u64().unwrap() > 0);
    assert_eq!(
        c.code("hello", json!({"protocol_version": 1, "client_name": "t"}))
            .await,
        "already_greeted"
    );
    assert_eq!(c.ok("ping", json!({})).await["pong"], true);
    assert_eq!(c.code("frobnicate", json!({})).await, "unknown_method");
    let r = c
        .call(
            "observe",
            json!({"session": {"session_id": "x", "capability": "y"}, "optionz": {}}),
        )
        .await;
    assert_eq!(r["error"]["code"], "invalid_params");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("optionz"),
        "{r}"
    );
    let manifest = c.ok("manifest", json!({})).await;
    assert!(manifest["methods"]
        .as_array()
        .unwrap()
        .contains(&json!("run_subtask")));
    assert!(manifest["error_codes"]
        .as_array()
        .unwrap()
        .contains(&json!("stale_observation")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_then_act_clicks_the_button_once() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    let obs = c.observe(&s).await;
    assert!(obs["view"].as_str().unwrap().contains("Click me"), "{obs}");
    let (btn, obs_id) = c.find_id(&s, "Click me").await;
    let r = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": obs_id,
                   "action": {"kind": "CLICK", "target_id": btn},
                   "observe_after": {}}),
        )
        .await;
    assert_eq!(r["outcome"], "changed", "{r}");
    assert!(
        r["observation"]["view"]
            .as_str()
            .unwrap()
            .contains("clicked 1 time"),
        "{r}"
    );
    let events = rig.events(&s.target_id).await;
    let clicks = of_type(&events, "click");
    assert_eq!(clicks.len(), 1, "{events:?}");
    assert_eq!(clicks[0]["target"], "btn");
    assert_eq!(clicks[0]["isTrusted"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_line_is_refused_and_the_connection_closed() {
    let rig = Rig::with_limits(arc_host::Limits {
        frame_bytes: 1024,
        ..arc_host::Limits::default()
    })
    .await;
    let mut c = rig.duplex_client();
    c.hello().await;
    let big = format!(
        r#"{{"request_id":"big","method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(2000)
    );
    c.send_refusable(big.as_bytes()).await;
    let r = c.recv().await.expect("the refusal");
    assert_eq!(r["error"]["code"], "limit_exceeded", "{r}");
    assert_eq!(r["error"]["limit"], "frame_bytes");
    assert!(c.recv().await.is_none(), "then the connection is closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attached_background_tab_is_acted_on_as_it_is_and_promptly() {
    let rig = Rig::start().await;
    // Two tabs of one window, opened by someone else: the first is in the background.
    let first = rig.browser.new_page(&rig.url("events.html")).await.unwrap();
    let _front = rig
        .browser
        .new_page(&rig.url("events.html?front"))
        .await
        .unwrap();
    rig.eval(
        &first.target_id().0,
        "document.getElementById('text').value = 'kept'; 1",
    )
    .await;
    let mut c = rig.duplex_client();
    c.hello().await;
    let targets = c.ok("list_targets", json!({})).await;
    assert!(targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["target_id"] == first.target_id().0));
    let r = c
        .ok(
            "open_session",
            json!({"grants": {"allow_input": true}, "target": {"target_id": first.target_id().0}}),
        )
        .await;
    let s = crate::common::Session {
        auth: r["session"].clone(),
        target_id: first.target_id().0.clone(),
    };
    let (btn, obs) = c.find_role(&s, "button", "Click me").await;
    let started = std::time::Instant::now();
    let r = c
        .ok("act", json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": btn}, "settle": false}))
        .await;
    let took = started.elapsed();
    assert_ne!(r["outcome"], "stale", "{r}");
    // Chromium held a background tab's press ≈5 s; the host brings it to the front.
    assert!(
        took < std::time::Duration::from_secs(3),
        "the press took {took:?}"
    );
    let events = rig.events(&s.target_id).await;
    assert_eq!(of_type(&events, "click").len(), 1, "{events:?}");
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('text').value")
            .await,
        "kept",
        "attached as it is"
    );
}
