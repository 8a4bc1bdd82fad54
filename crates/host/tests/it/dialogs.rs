//! A page that raises one dialog after another: every request answers with the dialog
//! or the page, never a hang or `backend_failure`, and the page's own record counts
//! every dialog answered.

use crate::common::Rig;
use serde_json::{json, Value};

/// The id of the dialog's OK button in an observation, if a dialog is what it shows.
fn dialog_ok(observation: &Value) -> Option<String> {
    let view = observation["view"].as_str()?;
    if !view.contains("alert: Alert") {
        return None;
    }
    let line = view
        .lines()
        .find(|l| l.contains("button") && l.contains("\"OK\""))?;
    let id = line.split_whitespace().next()?;
    Some(id.trim_matches(|c| c == '[' || c == ']').to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialog_after_dialog_is_answered_one_by_one_and_the_page_records_each() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("alert-loop.html", json!({"allow_input": true}))
        .await;
    let (start, obs) = c.find_role(&s, "button", "Start alerts").await;
    c.ok(
        "act",
        json!({"session": s.auth, "observation_id": obs,
               "action": {"kind": "CLICK", "target_id": start}}),
    )
    .await;
    let mut answered = 0;
    // 40 dialogs; every round either answers one or sees the page (bounded).
    for _ in 0..200 {
        let o = c.call("observe", json!({"session": s.auth})).await;
        assert_eq!(
            o["ok"],
            json!(true),
            "observe after {answered} dialogs: {o}"
        );
        let o = &o["result"];
        let Some(ok) = dialog_ok(o) else {
            if o["view"]
                .as_str()
                .unwrap_or("")
                .contains("All alerts answered")
            {
                break;
            }
            continue;
        };
        let r = c
            .call(
                "act",
                json!({"session": s.auth, "observation_id": o["observation_id"],
                       "action": {"kind": "CLICK", "target_id": ok}}),
            )
            .await;
        if r["ok"] == json!(true) {
            answered += 1;
        } else {
            // Only a dialog that moved on between observe and act may refuse.
            assert_eq!(
                r["error"]["code"], "stale_observation",
                "act after {answered} dialogs: {r}"
            );
        }
    }
    assert_eq!(answered, 40, "every dialog answered through the host");
    assert_eq!(rig.eval(&s.target_id, "window.__answered").await, json!(40));
    // The session still reads the page, and a fresh one works.
    let (_, _) = c.find_id(&s, "40 answered").await;
    let fresh = c.open(&rig.url("form.html"), json!({})).await;
    c.observe(&fresh).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_alerting_every_ten_ms_keeps_answering_and_its_tab_closes_on_stop() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("alert-interval.html", json!({"allow_input": true}))
        .await;
    let (start, obs) = c.find_role(&s, "button", "Start alerts").await;
    c.ok(
        "act",
        json!({"session": s.auth, "observation_id": obs,
               "action": {"kind": "CLICK", "target_id": start}}),
    )
    .await;
    let mut answered = 0;
    for _ in 0..60 {
        let o = c.call("observe", json!({"session": s.auth})).await;
        assert_eq!(
            o["ok"],
            json!(true),
            "observe after {answered} dialogs: {o}"
        );
        let Some(ok) = dialog_ok(&o["result"]) else {
            continue;
        };
        let r = c
            .call(
                "act",
                json!({"session": s.auth, "observation_id": o["result"]["observation_id"],
                       "action": {"kind": "CLICK", "target_id": ok}}),
            )
            .await;
        if r["ok"] == json!(true) {
            answered += 1;
        } else {
            assert_eq!(
                r["error"]["code"], "stale_observation",
                "act after {answered} dialogs: {r}"
            );
        }
    }
    assert!(answered >= 30, "the dialogs were answered: {answered}");
    // Stopping ends it: the tab, still raising dialogs, is gone from the browser's list.
    c.ok("stop_session", json!({"session": s.auth})).await;
    let pages = rig.browser.pages().await.unwrap();
    assert!(
        pages.iter().all(|p| p.target_id.0 != s.target_id),
        "its tab is closed"
    );
    let fresh = c.open(&rig.url("form.html"), json!({})).await;
    c.observe(&fresh).await;
}
