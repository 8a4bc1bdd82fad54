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
