//! What observations carry: password values never (the raw response text is searched),
//! a delta with `since`, a PNG, and bounded waits that `interrupt_all` from another
//! connection ends at once.
//! Drives real headless Chromium (`Rig`: a launched browser and the fixture site).

use crate::common::Rig;
use serde_json::json;
use std::time::{Duration, Instant};

const PASSWORD_FIELD: &str = "document.querySelector('main').insertAdjacentHTML('beforeend', \
    '<p><label for=pw>Password</label> <input type=password id=pw value=\"hunter2-prefilled\"></p>'); 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_values_never_leave_the_host() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    rig.eval(&s.target_id, PASSWORD_FIELD).await;
    let mut seen = String::new();
    let first = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true}}),
        )
        .await;
    seen.push_str(&first.to_string());
    let (pw, obs) = c.find_role(&s, "password_field", "Password").await;
    let typed = c
        .call(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "TYPE_TEXT", "target_id": pw, "text": "s3cret-typed-pw"},
                   "observe_after": {"include_elements": true, "since": first["observation_id"]}}),
        )
        .await;
    assert_eq!(typed["ok"], true, "{typed}");
    seen.push_str(&typed.to_string());
    seen.push_str(
        &c.call("find", json!({"session": s.auth, "text": "s3cret"}))
            .await
            .to_string(),
    );
    seen.push_str(
        &c.call(
            "wait_for",
            json!({"session": s.auth, "condition": {"kind": "text_contains", "text": "s3cret-typed-pw"}, "timeout_ms": 300}),
        )
        .await
        .to_string(),
    );
    // The page holds the value; nothing the host said does.
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('pw').value")
            .await,
        "s3cret-typed-pw"
    );
    assert!(
        first["view"].as_str().unwrap().contains("Password"),
        "{first}"
    );
    for secret in ["hunter2", "s3cret-typed-pw"] {
        assert!(!seen.contains(secret), "{secret} left the host: {seen}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn since_gives_a_delta_and_include_png_a_screenshot() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    let (btn, first) = c.find_role(&s, "button", "Click me").await;
    let r = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": first,
                   "action": {"kind": "CLICK", "target_id": btn},
                   "observe_after": {"since": first, "include_png": true}}),
        )
        .await;
    let delta = &r["observation"]["delta"];
    assert_eq!(delta["since"], json!(first));
    let changed = delta["changed"].as_array().unwrap();
    let added = delta["added"].as_array().unwrap();
    let names: Vec<&str> = changed
        .iter()
        .chain(added)
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert!(
        names.iter().any(|n| n.contains("clicked 1 time")),
        "the status line changed: {delta}"
    );
    assert!(
        changed.len() + added.len() < 10,
        "only what changed: {delta}"
    );
    let png = r["observation"]["png_base64"].as_str().expect("a PNG");
    assert!(png.starts_with("iVBORw0KGgo"), "PNG signature, base64");
    // value_equals sees what was typed (the page's own value agrees).
    let (field, obs) = c.find_role(&s, "text_field", "Text").await;
    c.ok(
        "act",
        json!({"session": s.auth, "observation_id": obs,
               "action": {"kind": "TYPE_TEXT", "target_id": field, "text": "abc"}, "settle": false}),
    )
    .await;
    let r = c
        .ok(
            "wait_for",
            json!({"session": s.auth, "condition": {"kind": "value_equals", "name": "Text", "value": "abc"}, "timeout_ms": 5_000}),
        )
        .await;
    assert_eq!(r["met"], true, "{r}");
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('text').value")
            .await,
        "abc"
    );
    // An unknown `since` gives no delta rather than a wrong one.
    let r = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"since": "c9-s9/o1"}}),
        )
        .await;
    assert!(r.get("delta").is_none(), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waits_are_bounded_and_interrupt_all_ends_them_on_every_connection() {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened("slow.html", json!({"allow_input": true})).await;
    // Not met: answers at its bound.
    let start = Instant::now();
    let r = c
        .ok(
            "wait_for",
            json!({"session": s.auth, "condition": {"kind": "text_contains", "text": "Report ready"}, "timeout_ms": 400}),
        )
        .await;
    assert_eq!(r["met"], false);
    assert!(start.elapsed() < Duration::from_secs(5));
    // Met once the page shows it (1.2 s after the click).
    let (load, obs) = c.find_role(&s, "button", "Load report").await;
    c.ok("act", json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": load}, "settle": false}))
        .await;
    let r = c
        .ok(
            "wait_for",
            json!({"session": s.auth, "condition": {"kind": "element_present", "text": "Download", "role": "button"}, "timeout_ms": 10_000}),
        )
        .await;
    assert_eq!(r["met"], true, "{r}");
    assert!(r["observation"]["view"]
        .as_str()
        .unwrap()
        .contains("Download"));

    // A long wait on one connection; interrupt_all from another ends it.
    let waiting = tokio::spawn(async move {
        let started = Instant::now();
        let r = c
            .call(
                "wait_for",
                json!({"session": s.auth, "condition": {"kind": "text_contains", "text": "never shown"}, "timeout_ms": 25_000}),
            )
            .await;
        (r, started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut other = rig.duplex_client();
    other.hello().await;
    let stopped = other.ok("interrupt_all", json!({})).await;
    assert_eq!(stopped["stopped_sessions"], 1);
    let (r, took) = waiting.await.unwrap();
    assert_eq!(r["error"]["code"], "interrupted", "{r}");
    assert!(
        took < Duration::from_secs(5),
        "ended at once, not at its bound: {took:?}"
    );
}

/// `wait_for` `changed`: a quiet page outlasts the fence's history (many polls) and
/// answers `met: false`, not a stale id; a node the page gains mid-wait ends it with the
/// delta naming it; an id the session never issued is `stale_observation`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_changed_sees_a_change_and_outlasts_the_history_on_a_quiet_page() {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened("events.html", json!({})).await;
    let first = c.observe(&s).await["observation_id"].clone();

    // ~20 polls on a page nothing touches: the baseline stays, nothing changed.
    let r = c
        .ok(
            "wait_for",
            json!({"session": s.auth, "timeout_ms": 2_000,
                   "condition": {"kind": "changed", "since": first}}),
        )
        .await;
    assert_eq!(r["met"], false, "{r}");
    assert!(r["waited_ms"].as_u64().unwrap() >= 2_000, "{r}");
    let quiet = &r["observation"]["delta"];
    assert_eq!(quiet["since"], first, "{r}");
    for part in ["added", "removed", "changed"] {
        assert_eq!(quiet[part], json!([]), "{part}: {r}");
    }

    // The page gains a button while the wait runs.
    let since = r["observation"]["observation_id"].clone();
    let started = Instant::now();
    let (r, ()) = tokio::join!(
        c.ok(
            "wait_for",
            json!({"session": s.auth, "timeout_ms": 20_000,
                   "condition": {"kind": "changed", "since": since}}),
        ),
        async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            rig.eval(
                &s.target_id,
                "document.querySelector('main').insertAdjacentHTML('beforeend', '<button>Arrived late</button>'); 1",
            )
            .await;
        }
    );
    assert_eq!(r["met"], true, "{r}");
    assert!(started.elapsed() < Duration::from_secs(15), "{r}");
    let added: Vec<&str> = r["observation"]["delta"]["added"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert!(added.contains(&"Arrived late"), "{r}");
    assert_eq!(
        rig.eval(
            &s.target_id,
            "[...document.querySelectorAll('button')].filter(b => b.textContent === 'Arrived late').length"
        )
        .await,
        1
    );

    let code = c
        .code(
            "wait_for",
            json!({"session": s.auth, "timeout_ms": 500,
                   "condition": {"kind": "changed", "since": "c9-s9/o1"}}),
        )
        .await;
    assert_eq!(code, "stale_observation");
}

/// An unchanged page is answered from the page's last scan (`arc-browser`'s fast path),
/// yet every observation has its own id, only the latest can be acted on, and a change the
/// page makes meanwhile is in the next view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observations_of_an_unchanged_page_have_fresh_ids_and_see_the_next_change() {
    let rig = Rig::start().await;
    let mut c = rig.duplex_client();
    c.hello().await;
    let s = c
        .open(&rig.url("events.html"), json!({"allow_input": true}))
        .await;
    let (btn, found) = c.find_id(&s, "Click me").await;
    let first = c.observe(&s).await;
    let second = c.observe(&s).await;
    let ids = [
        json!(found),
        first["observation_id"].clone(),
        second["observation_id"].clone(),
    ];
    assert!(
        ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2],
        "{ids:?}"
    );
    assert_eq!(first["view"], second["view"]);
    for old in &ids[..2] {
        let r = c
            .call(
                "act",
                json!({"session": s.auth, "observation_id": old,
                       "action": {"kind": "CLICK", "target_id": btn}}),
            )
            .await;
        assert_eq!(r["error"]["code"], "stale_observation", "{r}");
    }
    let clicks = rig
        .eval(
            &s.target_id,
            "window.__events.filter(e => e.type === 'click').length",
        )
        .await;
    assert_eq!(clicks, 0, "a stale act presses nothing");

    rig.eval(
        &s.target_id,
        "document.getElementById('last-event').textContent = 'Last event: changed by the page'",
    )
    .await;
    let third = c.observe(&s).await;
    let shown = rig
        .eval(
            &s.target_id,
            "document.getElementById('last-event').textContent",
        )
        .await;
    assert_eq!(shown, "Last event: changed by the page");
    assert!(
        third["view"]
            .as_str()
            .unwrap()
            .contains("changed by the page"),
        "{third}"
    );
}

/// `find` searches the whole page, not what one observation scans near the viewport: on
/// a page of 3,300 buttons it finds "Item 500" and "Item 2500" as well as "Item 10", and a
/// click on the hit presses that very button (the page's own record says which).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_searches_the_whole_page_of_3300_buttons() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("many-buttons.html", json!({"allow_input": true}))
        .await;
    for item in ["Item 10", "Item 500", "Item 2500", "Item 3300"] {
        let r = c
            .ok(
                "find",
                json!({"session": s.auth, "text": item, "role": "button"}),
            )
            .await;
        let exact = format!("\"{item}\"");
        let hit = r["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["line"].as_str().unwrap().contains(&exact));
        assert!(hit.is_some(), "find {item}: {r}");
    }
    let (id, obs) = c.find_role(&s, "button", "Item 2500").await;
    c.ok(
        "act",
        json!({"session": s.auth, "observation_id": obs,
               "action": {"kind": "CLICK", "target_id": id}}),
    )
    .await;
    assert_eq!(
        rig.eval(&s.target_id, "JSON.stringify(window.__pressed)")
            .await,
        json!("[2500]")
    );
}
