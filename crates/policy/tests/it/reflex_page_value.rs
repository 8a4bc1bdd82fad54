//! "Enter the value of K into Y" with no literal in the subtask: the value is the page's
//! own, carried over through the clipboard (SELECT_TEXT, MOD+C, MOD+V) and never typed.
//! Real headless Chromium; the outcome is the page's own record.

use crate::reflex_browser::{assert_complete, run};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_value_a_caption_names_is_pasted_into_the_field() {
    let ran = run(
        "record-card.html",
        json!({
            "goal": "Enter the value of Tracking code into the text field and press Confirm",
            "verification": [
                "the text field contains the value of \"Tracking code\"",
                "\"Confirm\" has been clicked"
            ]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        "pasted | sent \"NW-88-310-QX\"",
        "actions: {:?}",
        ran.actions()
    );
}

/// A caption of several words, and a value of several.
#[tokio::test(flavor = "multi_thread")]
async fn a_caption_of_several_words_names_its_value() {
    let ran = run(
        "record-card.html",
        json!({
            "goal": "Enter the value of Country of origin into the text field and press Confirm",
            "verification": [
                "the text field contains the value of \"Country of origin\"",
                "\"Confirm\" has been clicked"
            ]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        "pasted | sent \"New Zealand\""
    );
}
