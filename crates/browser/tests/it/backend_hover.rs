//! HOVER: the pointer rests on the target's live box and nothing is pressed; a covered
//! target is stale and nothing is dispatched. Checked through the page's own record
//! (`window.__events`, `hovermenu.html`), never through the runtime's claim.

use crate::common;

use arc_core::{Action, ActionKind, BackendError, Subtask};
use common::{find, settled_true, Fixture};
use serde_json::Value;

fn task() -> Subtask {
    Subtask::new("Open the File menu", "Save As is visible")
}

fn of_type<'a>(events: &'a [Value], kinds: &[&str]) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| kinds.iter().any(|k| e["type"] == *k))
        .collect()
}

const PRESSES: [&str; 6] = [
    "mousedown",
    "mouseup",
    "click",
    "pointerdown",
    "pointerup",
    "contextmenu",
];

#[tokio::test(flavor = "multi_thread")]
async fn hover_opens_a_mouseenter_submenu_without_pressing() {
    let mut f = Fixture::open("hovermenu.html").await;
    let s = f.observe().await;
    let file = find(&s, "menuitem", "File");
    let el = s.element(file.as_str()).unwrap();
    assert!(
        el.actions.contains(ActionKind::Hover) && el.actions.contains(ActionKind::Click),
        "{:?}",
        el.actions
    );
    assert!(
        !s.elements.iter().any(|e| e.name == "Save As"),
        "the submenu starts closed"
    );
    f.eval("window.__events.length = 0").await;
    f.act(&s, Action::Hover { target: file }, &task())
        .await
        .unwrap();
    assert_eq!(
        settled_true(&f, "!document.getElementById('file-sub').hidden").await,
        true
    );
    let events = f.events().await;
    for kind in ["mouseover", "mouseenter"] {
        assert!(
            events
                .iter()
                .any(|e| e["type"] == kind && e["target"] == "file" && e["isTrusted"] == true),
            "no trusted {kind} on File: {events:#?}"
        );
    }
    assert!(
        of_type(&events, &PRESSES).is_empty(),
        "a hover presses nothing: {events:#?}"
    );
    // The opened item is observed and offers both.
    let s = f.observe().await;
    let save = find(&s, "menuitem", "Save As");
    let el = s.element(save.as_str()).unwrap();
    assert!(el.actions.contains(ActionKind::Hover), "{:?}", el.actions);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_covered_target_is_stale_and_nothing_is_dispatched() {
    let mut f = Fixture::open("hovermenu.html").await;
    let s = f.observe().await;
    let edit = find(&s, "menuitem", "Edit");
    f.eval("window.__events.length = 0").await;
    let err = f
        .act(&s, Action::Hover { target: edit }, &task())
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::Stale { .. }), "{err}");
    assert!(err.to_string().contains("covered"), "{err}");
    let events = f.events().await;
    let pointer = of_type(&events, &["mousemove", "mouseover", "mouseenter"]);
    assert!(pointer.is_empty(), "the pointer never moved: {events:#?}");
    assert!(of_type(&events, &PRESSES).is_empty(), "{events:#?}");
}
