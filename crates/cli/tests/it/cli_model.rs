//! `arc-cua run --policy model` in headless Chromium against a real HTTP server on
//! loopback standing in for the model endpoint: it reads the compact view in each
//! request and answers with the ids it shows, as a model would.

use crate::server;

use assert_cmd::Command;
use serde_json::Value;
use server::{answer, chat, ModelServer, Recorded, Reply};

fn respond(n: usize, request: &Recorded) -> Reply {
    let step = |op: &str, heads: &[(&str, &str)]| chat(&answer(op, heads));
    let id = |line: &str| request.screen_id(line).unwrap_or_else(|| "missing".into());
    match n {
        0 => step(
            "TYPE_TEXT",
            &[
                ("type_text_target", &id("text_field \"First name\"")),
                ("type_text_input", "first"),
            ],
        ),
        1 => step(
            "TYPE_TEXT",
            &[
                ("type_text_target", &id("text_field \"Last name\"")),
                ("type_text_input", "last"),
            ],
        ),
        2 => step("CLICK", &[("click_target", &id("button \"Submit\""))]),
        _ => step("SUBTASK_COMPLETE", &[("criterion_0", "SATISFIED")]),
    }
}

#[test]
fn the_model_policy_drives_a_page_through_an_openai_compatible_endpoint() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ModelServer::with(respond));
    let page = format!(
        "{}/../../fixtures/site/form.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let payload = r#"{"goal": "Fill in the contact form with the names and submit it",
        "inputs": {"first": "Ada", "last": "Lovelace"},
        "verification": ["The page says Thank you, Ada Lovelace"]}"#;
    let out = Command::cargo_bin("arc-cua")
        .unwrap()
        .args([
            "run",
            "--quiet",
            "--backend",
            "browser",
            "--url",
            &page,
            "--policy",
            "model",
        ])
        .args([
            "--model-base-url",
            &server.base_url(),
            "--model",
            "test-model",
            "--model-api-key",
            "sk-test-key-000",
        ])
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["status"], "SUBTASK_COMPLETE");
    assert_eq!(result["actions_taken"], 3);
    // The page's own status line, read back in the final observation.
    let shown = result["final_snapshot"]["elements"].as_array().unwrap();
    assert!(
        shown.iter().any(|e| e["name"]
            .as_str()
            .is_some_and(|n| n.contains("Thank you, Ada Lovelace"))),
        "{shown:#?}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 4, "one request per decision");
    assert!(requests
        .iter()
        .all(|r| r.path.ends_with("/chat/completions")));
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer sk-test-key-000")
    );
}
