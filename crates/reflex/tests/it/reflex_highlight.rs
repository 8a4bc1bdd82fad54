//! Highlighting a passage with the mouse (SELECT_TEXT) on a page of our own, in real
//! headless Chromium: the outcome is the page's own record of its selection when its
//! "Quote selection" button is pressed.

use crate::reflex_browser::{assert_complete, run};
use serde_json::json;

async fn quoted(goal: &str, criterion: &str) -> (String, Vec<String>) {
    let ran = run(
        "highlight.html",
        json!({
            "goal": goal,
            "verification": [criterion, "\"Quote selection\" has been clicked"]
        }),
    )
    .await;
    assert_complete(&ran);
    let record = ran
        .eval("document.getElementById('record').textContent")
        .await;
    (
        record.as_str().unwrap_or_default().to_owned(),
        ran.actions(),
    )
}

/// "the 2nd paragraph" is the second `<p>`, selected whole (its first character to its
/// last), and the selection survives the press on the button.
#[tokio::test(flavor = "multi_thread")]
async fn highlights_the_paragraph_named_by_its_position() {
    let (record, actions) = quoted(
        "Highlight the text in the 2nd paragraph and click Quote selection",
        "the text in the 2nd paragraph is highlighted",
    )
    .await;
    assert_eq!(
        record,
        "quoted \"Across the water a pair of grebes rebuilt their floating nest. Each storm took half of it away.\"",
        "actions: {actions:?}"
    );
    assert_eq!(
        actions[0].split(' ').next(),
        Some("SELECT_TEXT"),
        "{actions:?}"
    );
}

/// A passage named by its words, set in a plain block (no paragraph role).
#[tokio::test(flavor = "multi_thread")]
async fn highlights_a_block_of_prose_named_by_its_words() {
    let (record, actions) = quoted(
        "Highlight the text about patience, then click Quote selection",
        "the text about patience is highlighted",
    )
    .await;
    assert_eq!(
        record, "quoted \"Bring a notebook, a pencil and patience. Nothing else is needed.\"",
        "actions: {actions:?}"
    );
}
