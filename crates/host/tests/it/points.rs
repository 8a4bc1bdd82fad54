//! Point and focus acts (CLICK_AT, SCROLL_AT, DRAG_PATH, TYPE_FOCUSED — the MCP tools
//! `click_at`, `scroll_at`, `drag`, `type_text`) over the protocol, on real headless
//! Chromium. Each outcome is read from the page's own record (`window.__events` with
//! clientX/clientY, `__pressed`, field values, scrollTop), never from the host's reply.

use crate::common::{Rig, Session};
use serde_json::{json, Value};

async fn centre(rig: &Rig, s: &Session, id: &str) -> (f64, f64) {
    rig.centre(&s.target_id, id).await
}

/// The page's trusted input records of `kind`.
async fn trusted(rig: &Rig, s: &Session, kind: &str) -> Vec<Value> {
    rig.events(&s.target_id)
        .await
        .into_iter()
        .filter(|e| e["type"] == kind && e["isTrusted"] == true)
        .collect()
}

const PRESSED: &str = "JSON.stringify(window.__pressed)";
const TOPS: &str = "JSON.stringify([document.getElementById('list').scrollTop, window.scrollY])";

async fn read(rig: &Rig, s: &Session, expression: &str) -> Value {
    rig.eval(&s.target_id, expression).await
}

fn near(e: &Value, (x, y): (f64, f64)) -> bool {
    let (ex, ey) = (e["x"].as_f64().unwrap(), e["y"].as_f64().unwrap());
    (ex - x).abs() <= 1.0 && (ey - y).abs() <= 1.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_lands_one_trusted_click_at_the_point_and_refuses_outside_the_viewport() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    let at = centre(&rig, &s, "btn").await;

    let r = c
        .act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_eq!(r["ok"], true, "{r}");
    let clicks = trusted(&rig, &s, "click").await;
    assert_eq!(clicks.len(), 1, "one trusted click: {clicks:?}");
    assert_eq!(clicks[0]["target"], "btn", "{clicks:?}");
    assert!(near(&clicks[0], at), "at {at:?}: {clicks:?}");
    let journal_seq = r["result"]["journal_seq"].as_u64().unwrap();
    assert!(journal_seq > 0, "journaled: {r}");

    // Outside the viewport (1280×800): refused, naming the limit; nothing pressed.
    for (x, y) in [(at.0, 5000.0), (-1.0, at.1), (1280.0, at.1)] {
        let r = c
            .act_fresh(&s, json!({"kind": "CLICK_AT", "x": x, "y": y}))
            .await;
        assert_eq!(r["ok"], false, "{r}");
        assert_eq!(r["error"]["code"], "limit_exceeded", "{r}");
        assert_eq!(r["error"]["limit"], "viewport", "{r}");
    }
    // A used observation is stale.
    let obs = c.observe(&s).await["observation_id"].clone();
    let click = json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK_AT", "x": at.0, "y": at.1}});
    assert_eq!(c.call("act", click.clone()).await["ok"], true);
    assert_eq!(c.code("act", click).await, "stale_observation");
    let downs = trusted(&rig, &s, "mousedown").await;
    assert_eq!(
        downs.len(),
        2,
        "refused and stale acts pressed nothing: {downs:?}"
    );

    // Without the allow_input grant: refused, nothing pressed.
    let ro = c.open(&rig.url("events.html"), json!({})).await;
    let r = c
        .act_fresh(&ro, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_eq!(r["error"]["code"], "input_not_granted", "{r}");
    assert!(trusted(&rig, &ro, "mousedown").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_on_a_risky_button_is_refused_and_presses_nothing() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/words.html", json!({"allow_input": true}))
        .await;
    for id in ["shy", "fullwidth"] {
        let at = centre(&rig, &s, id).await;
        let r = c
            .act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
            .await;
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["result"]["outcome"], "refused", "{id}: {r}");
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains("delete"), "{reason}");
        assert_eq!(
            read(&rig, &s, PRESSED).await,
            "[]",
            "nothing pressed on {id}"
        );
    }
    // A harmless button at a point is pressed.
    let at = centre(&rig, &s, "keep").await;
    let r = c
        .act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_eq!(r["ok"], true, "{r}");
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(
        read(&rig, &s, PRESSED).await,
        r#"["mousedown keep","mouseup keep","click keep"]"#
    );
    // A session granted the risk presses it.
    let ok = c
        .open(
            &rig.url("risk/words.html"),
            json!({"allow_input": true, "allowed_risks": ["delete"]}),
        )
        .await;
    let at = centre(&rig, &ok, "shy").await;
    let r = c
        .act_fresh(&ok, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(
        read(&rig, &ok, PRESSED).await,
        r#"["mousedown shy","mouseup shy","click shy"]"#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn type_focused_types_into_the_focused_field_and_is_refused_without_one() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    // Nothing focused: refused, nothing typed.
    let r = c
        .act_fresh(&s, json!({"kind": "TYPE_FOCUSED", "text": "nope"}))
        .await;
    assert_eq!(r["error"]["code"], "invalid_action", "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("focus"),
        "{r}"
    );
    assert!(trusted(&rig, &s, "input").await.is_empty());
    // A focused button is not a text field either.
    rig.eval(&s.target_id, "document.getElementById('btn').focus()")
        .await;
    let r = c
        .act_fresh(&s, json!({"kind": "TYPE_FOCUSED", "text": "nope"}))
        .await;
    assert_eq!(r["error"]["code"], "invalid_action", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("button#btn"),
        "{r}"
    );
    assert!(trusted(&rig, &s, "input").await.is_empty());

    // Focus the field by a click at its point, then type there.
    let at = centre(&rig, &s, "text").await;
    let r = c
        .act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_eq!(r["ok"], true, "{r}");
    let r = c
        .act_fresh(&s, json!({"kind": "TYPE_FOCUSED", "text": "hello there"}))
        .await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        read(&rig, &s, "document.getElementById('text').value").await,
        "hello there"
    );
    let inputs = trusted(&rig, &s, "input").await;
    assert!(
        !inputs.is_empty() && inputs.iter().all(|e| e["target"] == "text"),
        "trusted input events on the field: {inputs:?}"
    );
    // Too long: refused with its limit, the field unchanged.
    let long = "x".repeat(10_001);
    let r = c
        .act_fresh(&s, json!({"kind": "TYPE_FOCUSED", "text": long}))
        .await;
    assert_eq!(r["error"]["limit"], "text_chars", "{r}");
    assert_eq!(
        read(&rig, &s, "document.getElementById('text').value").await,
        "hello there"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drag_path_presses_moves_and_releases_at_the_points() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    let from = centre(&rig, &s, "drag").await;
    let to = centre(&rig, &s, "drop").await;
    let mid = ((from.0 + to.0) / 2.0, from.1 - 20.0);

    // One point is no drag.
    let r = c
        .act_fresh(
            &s,
            json!({"kind": "DRAG_PATH", "points": [[from.0, from.1]]}),
        )
        .await;
    assert_eq!(r["error"]["limit"], "drag_points", "{r}");
    assert!(trusted(&rig, &s, "mousedown").await.is_empty());

    // The oracle does not record moves: the test's own listener does.
    rig.eval(
        &s.target_id,
        "window.__moves = []; document.addEventListener('mousemove', (e) => { if (e.isTrusted) window.__moves.push({x: e.clientX, y: e.clientY}); }, true)",
    )
    .await;
    let r = c.act_fresh(&s, json!({"kind": "DRAG_PATH", "points": [[from.0, from.1], [mid.0, mid.1], [to.0, to.1]]}),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    let downs = trusted(&rig, &s, "mousedown").await;
    let ups = trusted(&rig, &s, "mouseup").await;
    assert_eq!((downs.len(), ups.len()), (1, 1), "{downs:?} {ups:?}");
    assert!(near(&downs[0], from), "pressed at {from:?}: {downs:?}");
    assert!(near(&ups[0], to), "released at {to:?}: {ups:?}");
    let moves: Vec<Value> = serde_json::from_str(
        rig.eval(&s.target_id, "JSON.stringify(window.__moves)")
            .await
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert!(
        moves.iter().any(|e| near(e, mid)),
        "the path went through {mid:?}"
    );
    assert_eq!(
        rig.eval(&s.target_id, "window.__dropped === true").await,
        true,
        "the page saw the drop"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scroll_at_scrolls_the_element_under_the_point() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("scroll.html", json!({"allow_input": true}))
        .await;
    let at = centre(&rig, &s, "list").await;
    assert_eq!(read(&rig, &s, TOPS).await, "[0,0]");
    // Negative dy shows what is below (the reference's sign).
    let r = c
        .act_fresh(
            &s,
            json!({"kind": "SCROLL_AT", "x": at.0, "y": at.1, "dy": -120}),
        )
        .await;
    assert_eq!(r["ok"], true, "{r}");
    let v: Vec<f64> = serde_json::from_str(read(&rig, &s, TOPS).await.as_str().unwrap()).unwrap();
    assert!(v[0] > 0.0, "the list scrolled: {v:?}");
    assert_eq!(v[1], 0.0, "the page did not: {v:?}");
    let wheels = trusted(&rig, &s, "wheel").await;
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    assert!(near(&wheels[0], at), "{wheels:?}");
    assert_eq!(wheels[0]["deltaY"], 120.0, "{wheels:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_holds_its_modifiers_and_none_unless_asked() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("modifiers.html", json!({"allow_input": true}))
        .await;
    let at = centre(&rig, &s, "btn").await;
    let r = c
        .act_fresh(
            &s,
            json!({"kind": "CLICK_AT", "x": at.0, "y": at.1, "modifiers": ["shift", "alt"]}),
        )
        .await;
    assert_eq!(r["ok"], true, "{r}");
    let r = c
        .act_fresh(
            &s,
            json!({"kind": "CLICK_AT", "x": at.0, "y": at.1, "modifiers": ["ctrl", "meta"]}),
        )
        .await;
    assert_eq!(r["ok"], true, "{r}");
    let r = c
        .act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
        .await;
    assert_eq!(r["ok"], true, "{r}");
    // An unknown modifier is refused at the boundary, naming it and the known ones.
    let r = c
        .act_fresh(
            &s,
            json!({"kind": "CLICK_AT", "x": at.0, "y": at.1, "modifiers": ["hyper"]}),
        )
        .await;
    assert_eq!(r["error"]["code"], "invalid_params", "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("hyper") && message.contains("shift"),
        "{r}"
    );

    let mods: Vec<Value> = serde_json::from_str(
        read(&rig, &s, "JSON.stringify(window.__mods)")
            .await
            .as_str()
            .unwrap(),
    )
    .unwrap();
    let flags = |e: &Value| {
        ["shift", "ctrl", "alt", "meta"]
            .into_iter()
            .filter(|k| e[*k] == true)
            .collect::<Vec<_>>()
    };
    let seen: Vec<(String, Vec<&str>)> = mods
        .iter()
        .map(|e| (e["type"].as_str().unwrap().to_owned(), flags(e)))
        .collect();
    assert_eq!(
        seen,
        [
            ("mousedown".into(), vec!["shift", "alt"]),
            ("click".into(), vec!["shift", "alt"]),
            ("mousedown".into(), vec!["ctrl", "meta"]),
            ("click".into(), vec!["ctrl", "meta"]),
            ("mousedown".into(), vec![]),
            ("click".into(), vec![]),
        ],
        "{mods:?}"
    );
    assert!(mods.iter().all(|e| e["trusted"] == true));
}
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_on_an_element_holds_its_click_modifier() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("modifiers.html", json!({"allow_input": true}))
        .await;
    for modifier in [json!("MOD"), json!("SHIFT"), Value::Null] {
        let (btn, obs) = c.find_role(&s, "button", "Press me").await;
        let mut action = json!({"kind": "CLICK", "target_id": btn});
        if !modifier.is_null() {
            action["click_modifier"] = modifier;
        }
        let r = c
            .call(
                "act",
                json!({"session": s.auth, "observation_id": obs, "action": action}),
            )
            .await;
        assert_eq!(r["ok"], true, "{r}");
    }
    // A key a click does not hold is refused at the boundary.
    let (btn, obs) = c.find_role(&s, "button", "Press me").await;
    let r = c
        .call(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "CLICK", "target_id": btn, "click_modifier": "ALT"}}),
        )
        .await;
    assert_eq!(r["error"]["code"], "invalid_params", "{r}");
    let mods: Vec<Value> = serde_json::from_str(
        read(&rig, &s, "JSON.stringify(window.__mods)")
            .await
            .as_str()
            .unwrap(),
    )
    .unwrap();
    let seen: Vec<(bool, bool, bool, bool)> = mods
        .iter()
        .filter(|e| e["type"] == "click" && e["trusted"] == true)
        .map(|e| {
            (
                e["ctrl"] == true,
                e["shift"] == true,
                e["alt"] == true,
                e["meta"] == true,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (true, false, false, false),
            (false, true, false, false),
            (false, false, false, false)
        ],
        "{mods:?}"
    );
}
