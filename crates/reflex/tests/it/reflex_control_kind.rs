//! A control named by its kind in quotes ("click on a \"textarea\" widget") on a page of
//! our own where no control bears that word, in real headless Chromium: the page records
//! the kind of each control that took a press.

use crate::reflex_browser::{assert_complete, run, Ran};
use arc_core::TerminalKind;
use serde_json::json;

async fn click(goal: &str, criterion: &str) -> (Ran, String) {
    let ran = run(
        "control-gallery.html",
        json!({"goal": goal, "verification": [criterion]}),
    )
    .await;
    let record = ran
        .eval("document.getElementById('record').textContent")
        .await;
    let record = record.as_str().unwrap_or_default().to_owned();
    (ran, record)
}

/// "textarea" is the field of several lines, not the one-line text field before it.
#[tokio::test(flavor = "multi_thread")]
async fn a_quoted_kind_names_a_control_of_that_kind_and_shape() {
    let (ran, record) = click(
        "Click on a \"textarea\" widget.",
        "the \"textarea\" widget has been clicked",
    )
    .await;
    assert_complete(&ran);
    assert_eq!(record, "textarea", "actions: {:?}", ran.actions());
}

/// "a" asks for any one: the first checkbox, once.
#[tokio::test(flavor = "multi_thread")]
async fn a_kind_with_an_indefinite_article_takes_the_first_of_several() {
    let (ran, record) = click(
        "Click on a \"checkbox\" widget.",
        "the \"checkbox\" widget has been clicked",
    )
    .await;
    assert_complete(&ran);
    assert_eq!(record, "checkbox 1", "actions: {:?}", ran.actions());
}

/// "the" asks for the only one: two radios are a tie, handed back with nothing pressed.
#[tokio::test(flavor = "multi_thread")]
async fn a_kind_with_a_definite_article_and_two_candidates_is_a_tie() {
    let (ran, record) = click(
        "Click on the \"radio\" widget.",
        "the \"radio\" widget has been clicked",
    )
    .await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.result.reason
    );
    let reason = ran.result.reason.as_deref().unwrap_or_default();
    assert!(reason.contains("equally"), "{reason}");
    assert_eq!(record, "");
}

/// A quote a control bears is that control's name, even when it is also a role word.
#[tokio::test(flavor = "multi_thread")]
async fn a_quote_a_control_bears_is_its_name_not_a_kind() {
    let (ran, record) = click(
        "Click on the \"Menu\" button.",
        "the \"Menu\" button has been clicked",
    )
    .await;
    assert_complete(&ran);
    assert_eq!(record, "menu button", "actions: {:?}", ran.actions());
}
