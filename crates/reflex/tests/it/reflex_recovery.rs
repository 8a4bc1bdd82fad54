//! The reflex's local recoveries: a click the page ignored is tried once more; a target
//! missing while the page shows a progress bar is waited for. Both bounded.

use crate::pages;

use arc_core::{ActionKind as K, Element, Role, TerminalKind};
use pages::*;
use serde_json::json;

fn save_page() -> Vec<Element> {
    vec![
        doc("Settings"),
        button("e2", "Save"),
        text("e3", Role::Status, ""),
    ]
}

/// A browser focuses the button it clicks; the page shows "Saved" from the n-th click.
fn saved_on_click(n: usize) -> impl Fn(&mut Page, &arc_core::ExecutableAction) + Send + Sync {
    move |p, a| {
        if a.kind() != K::Click {
            return;
        }
        p.get("e2").unwrap().focused = true;
        let clicks = p.log.iter().filter(|l| *l == "CLICK e2").count();
        if clicks >= n {
            p.show(text("e3", Role::Status, "Saved"));
        }
    }
}

fn save_task() -> arc_core::Subtask {
    subtask(json!({"goal": "Save the settings", "verification": ["The page shows \"Saved\""]}))
}

#[tokio::test]
async fn a_click_the_page_ignored_is_tried_once_more() {
    let (result, page, _) = run(Page::new(save_page(), saved_on_click(2)), &save_task()).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e2", "CLICK e2"]);
}

#[tokio::test]
async fn a_click_is_retried_at_most_once() {
    let (result, page, _) = run(Page::new(save_page(), saved_on_click(3)), &save_task()).await;
    assert_ne!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(page.log, ["CLICK e2", "CLICK e2"]);
}

#[tokio::test]
async fn a_click_the_page_answered_is_never_repeated() {
    // The page reacted ("Processing"), just not as the criterion says: no second click.
    let react = on_click("e2", |p| p.show(text("e3", Role::Status, "Processing")));
    let (result, page, _) = run(Page::new(save_page(), react), &save_task()).await;
    assert_eq!(
        result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        result.reason
    );
    assert_eq!(page.log, ["CLICK e2"]);
}

fn report_page(progress: bool) -> Page {
    let els = vec![doc("Reports"), button("e2", "Load report")];
    let mut page = Page::new(els, move |p, a| {
        if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == "e2") && progress {
            p.show(text("e3", Role::ProgressBar, "Loading report"));
        }
        if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == "e4") {
            p.remove(&["e3"]);
            p.show(text("e5", Role::Status, "Download started"));
        }
    });
    // The Download button shows up a WAIT or two after the click (a page that shows no
    // change for three actions in a row is BLOCKED by the executor, progress bar or not).
    page.late = Some((LATE, button("e4", "Download")));
    page
}

const LATE: u32 = 6;

fn report_task() -> arc_core::Subtask {
    subtask(
        json!({"goal": "Click \"Load report\", then click \"Download\"",
        "verification": ["The page shows \"Download started\""]}),
    )
}

#[tokio::test]
async fn a_missing_target_is_waited_for_while_a_progress_bar_shows() {
    let (result, page, _) = run(report_page(true), &report_task()).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e2", "CLICK e4"]);
}

#[tokio::test]
async fn without_a_progress_bar_a_missing_target_is_handed_back() {
    let (result, page, _) = run(report_page(false), &report_task()).await;
    assert_eq!(
        result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        result.reason
    );
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("Download"),
        "{:?}",
        result.reason
    );
    assert_eq!(page.log, ["CLICK e2"]);
}
