//! Answering and passing on a message on a mail page of our own, in real headless
//! Chromium: the run opens the item the goal names, presses the control its verb names,
//! fills what the subtask supplies and sends. The outcome is the page's own record.

use crate::reflex_browser::{assert_complete, run};
use serde_json::{json, Value};

/// Runs `goal` with `inputs` (sending allowed) and returns what the page recorded as sent.
async fn sent(goal: &str, inputs: Value) -> String {
    let ran = run(
        "mail-reply.html",
        json!({
            "goal": goal,
            "inputs": inputs,
            "allowed_risks": ["send"],
            "verification": ["the form has been submitted"]
        }),
    )
    .await;
    assert_complete(&ran);
    let record = ran
        .eval("document.getElementById('record').textContent")
        .await;
    assert!(record.is_string(), "actions: {:?}", ran.actions());
    record.as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn replies_to_the_named_sender_with_the_text() {
    assert_eq!(
        sent(
            "Find the email by Tomas and reply to them with the text \"Friday works.\"",
            json!({"text": "Friday works."})
        )
        .await,
        "reply of \"Lunch on Friday?\" to \"Tomas Berg\": \"Friday works.\""
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn forwards_the_named_message_to_the_recipient() {
    assert_eq!(
        sent(
            "Find the email by Hana and forward that email to Ravi",
            json!({"to": "Ravi"})
        )
        .await,
        "forward of \"Trip photos\" to \"Ravi\": \"Uploaded the album from the coast.\""
    );
}
