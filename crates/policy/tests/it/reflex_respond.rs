//! Answering and passing on a message on a mail page of our own, in real headless
//! Chromium: the run opens the item the goal names, presses the control its verb names,
//! fills what the subtask supplies and sends. The outcome is the page's own record.

use crate::reflex_browser::{assert_complete, run};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn replies_to_the_named_sender_with_the_text() {
    let ran = run(
        "mail-reply.html",
        json!({
            "goal": "Find the email by Tomas and reply to them with the text \"Friday works.\"",
            "inputs": {"text": "Friday works."},
            "allowed_risks": ["send"],
            "verification": ["the form has been submitted"]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        "reply of \"Lunch on Friday?\" to \"Tomas Berg\": \"Friday works.\"",
        "actions: {:?}",
        ran.actions()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn forwards_the_named_message_to_the_recipient() {
    let ran = run(
        "mail-reply.html",
        json!({
            "goal": "Find the email by Hana and forward that email to Ravi",
            "inputs": {"to": "Ravi"},
            "allowed_risks": ["send"],
            "verification": ["the form has been submitted"]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        "forward of \"Trip photos\" to \"Ravi\": \"Uploaded the album from the coast.\"",
        "actions: {:?}",
        ran.actions()
    );
}
