//! The cascade with a model that says yes to everything — every judgment "holds" citing
//! every element it may, every step SUBTASK_COMPLETE with every criterion SATISFIED — on
//! the pages where the runtime once said done for work it had not done, and on the
//! outcome pages, in headless Chromium. The page's own record judges: a yes-man model in the loop must never
//! turn a hand-back into a false completion. The harness counts what the model cost.

use crate::model_server::{answer, chat, ModelServer, Recorded, Reply};
use arc_eval::result::Agreement;
use arc_eval::{run_suite, suite, Mode, RunOptions};
use arc_policy::ModelConfig;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

fn yes_to_everything(request: &Recorded) -> Reply {
    let body = request.json();
    let format = &body["response_format"];
    let schema = &format["json_schema"]["schema"];
    if format["json_schema"]["name"] == "arc_cua_judgment" {
        let ids = schema["properties"]["cites"]["items"]["enum"].clone();
        let cites: Vec<Value> = ids.as_array().cloned().unwrap_or_default();
        return chat(
            &json!({"holds": true, "cites": cites.into_iter().take(5).collect::<Vec<_>>()}),
        );
    }
    let heads: Vec<(String, &str)> = (0..8)
        .map(|i| (format!("criterion_{i}"), "SATISFIED"))
        .collect();
    let heads: Vec<(&str, &str)> = heads.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    chat(&answer("SUBTASK_COMPLETE", &heads))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_says_yes_to_everything_never_makes_a_false_completion() {
    let server = ModelServer::with(|_, r| yes_to_everything(r)).await;
    let mut config = ModelConfig::new(server.base_url(), "yes-man");
    config.timeout = Duration::from_secs(5);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut tasks = suite::load_dir(&fixtures.join("truth")).unwrap();
    tasks.extend(suite::load_dir(&fixtures.join("outcomes")).unwrap());
    let opts = RunOptions {
        task_timeout: Duration::from_secs(20),
        model: Some(config),
        ..RunOptions::new(Mode::CascadeModel)
    };
    let run = run_suite(&tasks, &opts).await.unwrap();
    let shown: String = run
        .tasks
        .iter()
        .map(|t| {
            format!(
                "{} {:?} {:?} {:?}\n",
                t.id,
                t.status,
                t.agreement(),
                t.reason
            )
        })
        .collect();
    for t in &run.tasks {
        assert_ne!(
            t.agreement(),
            Agreement::FalseCompletion,
            "{}\n{shown}",
            t.id
        );
        assert_ne!(t.agreement(), Agreement::NotJudged, "{}\n{shown}", t.id);
    }
    // The model was in the loop, and what it cost is on the results.
    assert!(server.count() > 0, "{shown}");
    let calls: u32 = run.tasks.iter().map(|t| t.model_calls).sum();
    let prompt: u64 = run.tasks.iter().map(|t| t.tokens.input).sum();
    assert!(
        calls > 0 && prompt > 0,
        "calls {calls}, prompt tokens {prompt}\n{shown}"
    );
}
