//! A literal that names no field but something to look up goes into the page's one search
//! field (`order-lookup.html`: a header search, a second, unrelated text field). Judged by
//! the page's own record of the search it received and the order it opened.

use crate::reflex_browser::run;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_reference_to_look_up_is_typed_into_the_one_search_field_and_sent() {
    let ran = run(
        "order-lookup.html",
        json!({
            "goal": "Look up order A-1042 and open it",
            "inputs": {"order": "A-1042"},
            "verification": [{"check": "text_present", "text": "2 lamps"}],
            "max_actions": 6
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "searched: a-1042; opened: A-1042",
        "{:?} actions: {:?}",
        ran.result.reason,
        ran.actions()
    );
    crate::reflex_browser::assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_literal_for_a_field_not_on_the_page_is_not_searched_for() {
    let ran = run(
        "order-lookup.html",
        json!({
            "goal": "Add the note to order A-1042",
            "inputs": {"note": "Leave at the door"},
            "verification": ["The note Leave at the door is shown"],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(ran.record().await, "searched: none; opened: none");
    let typed = ran.eval("document.getElementById('q').value").await;
    assert_eq!(typed.as_str(), Some(""), "{:?}", ran.actions());
    assert_ne!(ran.result.status, arc_core::TerminalKind::SubtaskComplete);
}
