//! "Enter the value of K into Y" with no literal in the subtask: the value is the page's
//! own, carried over through the clipboard (SELECT_TEXT, MOD+C, MOD+V) and never typed.
//! Real headless Chromium; the outcome is the page's own record.

use crate::reflex_browser::{assert_complete, run};
use serde_json::json;

/// Enters the value the page captions `key` into the field and confirms; returns the
/// page's record.
async fn confirmed(key: &str) -> String {
    let ran = run(
        "record-card.html",
        json!({
            "goal": format!("Enter the value of {key} into the text field and press Confirm"),
            "verification": [
                format!("the text field contains the value of {key:?}"),
                "\"Confirm\" has been clicked"
            ]
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
async fn the_value_a_caption_names_is_pasted_into_the_field() {
    assert_eq!(
        confirmed("Tracking code").await,
        "pasted | sent \"NW-88-310-QX\""
    );
}

/// A caption of several words, and a value of several.
#[tokio::test(flavor = "multi_thread")]
async fn a_caption_of_several_words_names_its_value() {
    assert_eq!(
        confirmed("Country of origin").await,
        "pasted | sent \"New Zealand\""
    );
}
