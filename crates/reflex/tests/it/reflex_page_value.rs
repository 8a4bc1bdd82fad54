//! "Enter the value of K into Y" with no literal in the subtask: the value is the page's
//! own, carried over through the clipboard (SELECT_TEXT, MOD+C, MOD+V) and never typed.
//! Real headless Chromium; the outcome is the page's own record.

use crate::reflex_browser::{assert_complete, run};
use serde_json::json;

/// Enters the value the page captions `key` into the field and confirms; returns the
/// page's record.
async fn confirmed(key: &str) -> String {
    confirmed_as(
        key,
        json!(format!("the text field contains the value of {key:?}")),
    )
    .await
}

/// As [`confirmed`], the field's criterion given as `held`.
async fn confirmed_as(key: &str, held: serde_json::Value) -> String {
    let ran = run(
        "record-card.html",
        json!({
            "goal": format!("Enter the value of {key} into the text field and press Confirm"),
            "verification": [held, "\"Confirm\" has been clicked"]
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

/// The same criterion stated as a check: the field's value against the caption's.
#[tokio::test(flavor = "multi_thread")]
async fn a_stated_check_holds_the_field_to_the_value_shown_for_a_caption() {
    let held = json!({"check": "field_value", "field": "the text field", "shown_for": "Country of origin"});
    assert_eq!(
        confirmed_as("Country of origin", held).await,
        "pasted | sent \"New Zealand\""
    );
}

const EACH_LABEL: &str =
    "Enter the value that corresponds with each label into the form and submit when done.";

fn each_label() -> serde_json::Value {
    json!({
        "goal": EACH_LABEL,
        "verification": [
            {"check": "values_by_label"},
            "the form has been submitted"
        ]
    })
}

/// Every labelled field gets the value the summary shows for its own caption, in the
/// form's order (not the table's); a field's label is not the next field's value.
#[tokio::test(flavor = "multi_thread")]
async fn each_labelled_field_gets_the_value_shown_for_its_label() {
    let ran = run("account-transfer.html", each_label()).await;
    assert_complete(&ran);
    let record = ran
        .eval("document.getElementById('record').textContent")
        .await;
    assert_eq!(
        record.as_str(),
        Some("submitted Account owner:Ilse Brandt | Region:Nordics"),
        "actions: {:?}",
        ran.actions()
    );
    assert!(
        ran.actions().iter().all(|a| !a.starts_with("TYPE_TEXT")),
        "never typed: {:?}",
        ran.actions()
    );
}

/// A label the page shows no value for: handed back naming it, the form not submitted.
#[tokio::test(flavor = "multi_thread")]
async fn a_label_with_no_value_on_the_page_is_handed_back_unsubmitted() {
    let ran = run("account-transfer.html?missing=1", each_label()).await;
    assert_eq!(ran.result.status, arc_core::TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("referral code"), "{reason}");
    let record = ran
        .eval("document.getElementById('record').textContent")
        .await;
    assert_eq!(record.as_str(), Some(""), "actions: {:?}", ran.actions());
}
