//! `run_subtask` on a host with a model (`arc-cua mcp --model …`, `Host::set_model`): the
//! cascade, not the reflex alone, in headless Chromium. A loopback server stands in for the model and says
//! "holds" to every judgment; the page's own record says what was done.

use crate::common::mcp::Mcp;
use crate::common::Rig;
use crate::model_server::{chat, ModelServer};
use arc_policy::ModelConfig;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_subtask_through_mcp_asks_the_hosts_model_and_holds_it_to_the_evidence() {
    let model = ModelServer::with(|_, _| chat(&json!({"holds": true, "cites": []}))).await;
    let rig = Rig::start().await;
    rig.host
        .set_model(Some(
            ModelConfig::new(model.base_url(), "test-model").with_timeout(Duration::from_secs(5)),
        ))
        .expect("a usable model configuration");
    let mut mcp = Mcp::start(&rig, "form.html").await;
    let (snapshot, target) = mcp.snapshot_and_target().await;
    // A criterion too long for the reader: the judge is asked once the work is done.
    let ran = mcp
        .tool(
            "run_subtask",
            json!({"snapshot": snapshot, "subtask": {
                "goal": "Fill in the contact form with the first name, last name and message, then submit it",
                "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
                "verification": ["Everything about the whole contact request went fine in the end"],
                "max_actions": 8
            }}),
        )
        .await;
    let submitted = rig
        .eval(&target, "JSON.stringify(window.__submitted)")
        .await;
    assert_eq!(
        submitted,
        json!(r#"[{"first":"Ada","last":"Lovelace","message":"Hi"}]"#)
    );
    let judged = model
        .requests()
        .iter()
        .filter(|r| r.json()["response_format"]["json_schema"]["name"] == "arc_cua_judgment")
        .count();
    assert!(judged >= 1, "the host's model was asked to judge");
    let text = ran["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("NEEDS_AGENT"), "{text}");
    assert!(text.contains("the model said it holds; refused"), "{text}");
}
