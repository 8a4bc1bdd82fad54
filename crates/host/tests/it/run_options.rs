//! `run_subtask`'s options on a real page: a dry run acts on nothing, and a bad threshold
//! or second-look wait is refused naming it and uses nothing up. Checked by the page's own
//! record.

use crate::common::{DuplexClient, Rig, Session};
use serde_json::{json, Value};

/// A rig with `page` open (input granted) and its first observation's id.
async fn opened(page: &str) -> (Rig, DuplexClient, Session, Value) {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened(page, json!({"allow_input": true})).await;
    let obs = c.observe(&s).await["observation_id"].clone();
    (rig, c, s, obs)
}

fn note() -> Value {
    json!({"goal": "Type the note and save it", "inputs": {"note": "Buy stamps"},
           "verification": ["The page shows \"Saved\""]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_plans_the_next_action_and_the_page_records_nothing() {
    let (rig, mut c, s, obs) = opened("late-save.html?after=0").await;
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs, "subtask": note(), "dry_run": true}),
        )
        .await;
    assert_eq!(r["result"]["status"], "DRY_RUN", "{r}");
    let planned = &r["result"]["planned_action"];
    assert_eq!(planned["action"], "TYPE_TEXT", "{r}");
    assert_eq!(planned["target_name"], "Note", "{r}");
    // The page was never touched: no input event, nothing typed, nothing saved.
    let events = rig.events(&s.target_id).await;
    assert!(
        events
            .iter()
            .all(|e| e["type"] != "input" && e["type"] != "click"),
        "{events:?}"
    );
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('note').value")
            .await,
        ""
    );
    // The run chains on: the same subtask for real completes on the observation it left.
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": r["observation_id"], "subtask": note()}),
        )
        .await;
    assert_eq!(r["result"]["status"], "SUBTASK_COMPLETE", "{r}");
    assert_eq!(
        rig.eval(&s.target_id, "window.__submitted").await,
        json!([{"note": "Buy stamps"}])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_threshold_out_of_range_is_refused_naming_it_and_the_observation_still_holds() {
    let (rig, mut c, s, obs) = opened("late-save.html?after=0").await;
    for (field, value) in [
        ("min_confidence", json!(1.5)),
        ("min_margin", json!(-0.1)),
        ("late_reaction", json!(40_000)),
    ] {
        let key = if field == "late_reaction" {
            "late_reaction_ms"
        } else {
            field
        };
        let mut params = json!({"session": s.auth, "observation_id": obs, "subtask": note()});
        params[key] = value;
        let r = c.call("run_subtask", params).await;
        assert_eq!(r["error"]["code"], "invalid_params", "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message}");
    }
    let events = rig.events(&s.target_id).await;
    assert!(
        events
            .iter()
            .all(|e| e["type"] != "input" && e["type"] != "click"),
        "{events:?}"
    );
    // Nothing was used up: the same observation runs the subtask.
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs, "subtask": note(),
                   "min_confidence": 0.9}),
        )
        .await;
    assert_eq!(r["result"]["status"], "SUBTASK_COMPLETE", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loose_match_below_min_confidence_ends_needs_agent_and_nothing_is_pressed() {
    let (rig, mut c, s, obs) = opened("form.html").await;
    // "Sumbit" grounds on Submit only loosely: the reflex scores it below 0.9.
    let subtask = json!({"goal": "Press the \"Sumbit\" button",
                         "verification": ["The page shows \"Thank you\""]});
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs, "subtask": subtask,
                   "min_confidence": 0.95}),
        )
        .await;
    assert_eq!(r["result"]["status"], "NEEDS_AGENT", "{r}");
    assert_eq!(r["result"]["termination"], "low_confidence", "{r}");
    let events = rig.events(&s.target_id).await;
    assert!(events.iter().all(|e| e["type"] != "click"), "{events:?}");
    assert_eq!(
        rig.eval(&s.target_id, "window.__submitted").await,
        json!([])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_literal_the_subtask_does_not_give_ends_needs_input_and_nothing_is_typed() {
    let (rig, mut c, s, obs) = opened("late-save.html?after=0").await;
    let subtask = json!({"goal": "Type \"Buy stamps\" into the Note field and save it",
                         "verification": ["The page shows \"Saved\""]});
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs, "subtask": subtask}),
        )
        .await;
    assert_eq!(r["result"]["status"], "NEEDS_INPUT", "{r}");
    let events = rig.events(&s.target_id).await;
    assert!(
        events
            .iter()
            .all(|e| e["type"] != "input" && e["type"] != "click"),
        "{events:?}"
    );
    assert_eq!(
        rig.eval(&s.target_id, "window.__submitted").await,
        json!([])
    );
}
