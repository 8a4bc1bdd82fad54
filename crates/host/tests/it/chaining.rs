//! Three subtasks in a row on one page through the host: each runs on the page the last
//! one left (no reload), checked by the page's own record.
//! Drives real headless Chromium (`Rig`: a launched browser and the fixture site).

use crate::common::Rig;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_subtasks_chain_on_one_page_without_a_reload() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("multistep.html", json!({"allow_input": true}))
        .await;
    // A mark only this page instance carries: a reload would lose it.
    rig.eval(&s.target_id, "window.__mark = 'kept'; 1").await;
    let mut obs = c.observe(&s).await["observation_id"].clone();
    let subtasks = [
        json!({"goal": "Enter the name and click Next",
               "inputs": {"name": "Ada Lovelace"},
               "verification": ["The page shows \"Step 2 of 3\""]}),
        json!({"goal": "Choose the shipping method and click Next",
               "inputs": {"shipping": "Express"},
               "verification": ["The page shows \"Step 3 of 3\""]}),
        json!({"goal": "Confirm the order",
               "verification": ["The page shows \"Order confirmed\""]}),
    ];
    for (i, subtask) in subtasks.iter().enumerate() {
        c.events.clear();
        let r = c
            .ok(
                "run_subtask",
                json!({"session": s.auth, "observation_id": obs, "subtask": subtask}),
            )
            .await;
        assert_eq!(
            r["result"]["status"], "SUBTASK_COMPLETE",
            "subtask {i}: {r}"
        );
        assert!(!c.events.is_empty(), "step events stream before the result");
        assert!(c.events.last().unwrap()["event"]["event"] == "finished");
        obs = r["observation_id"].clone();
        let progress = rig
            .eval(
                &s.target_id,
                "document.getElementById('progress').textContent",
            )
            .await;
        let expected = ["Step 2 of 3", "Step 3 of 3", "Done"][i];
        assert_eq!(progress, expected, "after subtask {i}");
    }
    assert_eq!(
        rig.eval(&s.target_id, "window.__submitted").await,
        json!([{"name": "Ada Lovelace", "shipping": "Express"}])
    );
    assert_eq!(
        rig.eval(&s.target_id, "window.__mark").await,
        "kept",
        "no reload between subtasks"
    );
}

/// A sign-in that asks for a second factor ends `needs_human` naming the code field, and
/// the session stays on that page: the person's code (relayed by the planner as the next
/// subtask's input) finishes the sign-in there, the password never sent twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_off_to_a_person_keeps_the_page_for_the_next_subtask() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("second-factor.html", json!({"allow_input": true}))
        .await;
    let obs = c.observe(&s).await["observation_id"].clone();
    let first = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs, "subtask": {
                "goal": "Sign in as ada@example.com",
                "inputs": {"email": "ada@example.com", "password": "orchid-42"},
                "secret_inputs": ["password"],
                "verification": ["The page says Signed in as ada@example.com"]}}),
        )
        .await;
    let result = &first["result"];
    assert_eq!(result["status"], "NEEDS_AGENT", "{first}");
    assert_eq!(result["termination"], "needs_human", "{first}");
    assert_eq!(result["needs_human"]["need"], "one_time_code");
    assert_eq!(result["needs_human"]["name"], "Verification code");
    assert_eq!(rig.eval(&s.target_id, "window.__codes").await, json!([]));

    let next = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": first["observation_id"], "subtask": {
                "goal": "Enter the verification code",
                "inputs": {"verification_code": "246810"},
                "verification": ["The page says Signed in as ada@example.com"]}}),
        )
        .await;
    assert_eq!(next["result"]["status"], "SUBTASK_COMPLETE", "{next}");
    assert_eq!(
        rig.eval(&s.target_id, "window.__codes").await,
        json!(["246810"])
    );
    assert_eq!(
        rig.eval(&s.target_id, "window.__attempts.length").await,
        1,
        "the password was sent once"
    );
}
