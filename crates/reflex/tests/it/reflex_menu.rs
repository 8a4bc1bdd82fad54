//! Menu paths: parents are hovered open, the leaf is clicked, and completion rests on the
//! run's own records (the chosen item vanishes with its menu).

use crate::pages;

use arc_core::{ActionKind as K, ExecutableAction, Role, TerminalKind};
use pages::*;
use serde_json::json;

fn item(id: &str, name: &str) -> arc_core::Element {
    el(id, Role::MenuItem, name, &[K::Click, K::Hover])
}

/// A three-level menu: hovering "Jinny" shows "Lynett", hovering "Lynett" shows "Otis".
/// Clicking any item chooses it (as jQuery UI menus do, parents included) and closes the
/// menu; `chosen` holds what was chosen.
fn menu_page() -> Page {
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        match (a.kind(), id.as_str()) {
            (K::Hover, "jinny") => p.show(item("lynett", "Lynett")),
            (K::Hover, "lynett") => p.show(item("otis", "Otis")),
            (K::Click, _) => {
                p.url = format!("https://app.invalid/chosen/{id}");
                p.remove(&["jinny", "ada", "lynett", "otis"]);
            }
            _ => {}
        }
    };
    Page::new(
        vec![doc("Menu"), item("jinny", "Jinny"), item("ada", "Ada")],
        hook,
    )
}

#[tokio::test]
async fn a_hover_the_page_reacted_to_gets_two_waits_for_a_timed_submenu() {
    // Hovering highlights "Jinny" at once; its submenu appears only on the second
    // observation after that (a timer), before any click.
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.kind() == K::Hover && a.target().is_some_and(|t| t.as_str() == "jinny") {
            p.get("jinny").unwrap().selected = Some(true);
            let seen = p.observed.load(std::sync::atomic::Ordering::Relaxed);
            p.late = Some((seen + 3, item("lynett", "Lynett")));
        }
    };
    let page = Page::new(vec![doc("Menu"), item("jinny", "Jinny")], hook);
    let task = menu_task("Select Jinny>Lynett", "\"Jinny>Lynett\" is selected");
    let (r, page, decisions) = run(page, &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert_eq!(
        page.log,
        ["HOVER jinny", "CLICK lynett"],
        "the parent is never clicked"
    );
    let kinds: Vec<K> = decisions
        .iter()
        .filter_map(|d| d.action().map(|a| a.kind()))
        .collect();
    assert_eq!(kinds, [K::Hover, K::Wait, K::Wait, K::Click]);
}

fn menu_task(goal: &str, criterion: &str) -> arc_core::Subtask {
    subtask(json!({"goal": goal, "verification": [criterion]}))
}

#[tokio::test]
async fn a_three_level_path_is_hovered_open_and_its_leaf_clicked() {
    let task = menu_task(
        "Select Jinny>Lynett>Otis",
        "\"Jinny>Lynett>Otis\" is selected",
    );
    let (r, page, decisions) = run(menu_page(), &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert_eq!(page.log, ["HOVER jinny", "HOVER lynett", "CLICK otis"]);
    let kinds: Vec<K> = decisions
        .iter()
        .filter_map(|d| d.action().map(|a| a.kind()))
        .collect();
    assert_eq!(
        kinds,
        [K::Hover, K::Hover, K::Click],
        "no WAIT when hover opens at once"
    );
    assert_eq!(page.url, "https://app.invalid/chosen/otis");
}

#[tokio::test]
async fn spaced_separators_and_the_angle_quote_work_too() {
    let task = menu_task("open Jinny › Lynett", "\"Jinny › Lynett\" is selected");
    let (r, page, _) = run(menu_page(), &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert_eq!(page.log, ["HOVER jinny", "CLICK lynett"]);
}

#[tokio::test]
async fn a_missing_first_item_needs_the_agent_and_nothing_is_done() {
    let task = menu_task("Select Zed>Lynett", "\"Zed>Lynett\" is selected");
    let (r, page, _) = run(menu_page(), &task).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent, "{r:#?}");
    assert_eq!(r.actions_taken, 0);
    assert!(page.log.is_empty(), "{:?}", page.log);
    let reason = r.reason.unwrap();
    assert!(reason.contains("\"zed\""), "{reason}");
}

#[tokio::test]
async fn a_parent_hover_does_not_open_is_clicked_once_after_waiting() {
    // This menu opens its submenu on click only.
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        if a.kind() == K::Click && id == "jinny" {
            p.show(item("lynett", "Lynett"));
        }
    };
    let page = Page::new(vec![doc("Menu"), item("jinny", "Jinny")], hook);
    let task = menu_task("Select Jinny>Lynett", "\"Jinny>Lynett\" is selected");
    let (r, page, decisions) = run(page, &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    // The executor runs the WAIT itself; the page sees the rest.
    assert_eq!(page.log, ["HOVER jinny", "CLICK jinny", "CLICK lynett"]);
    let kinds: Vec<K> = decisions
        .iter()
        .filter_map(|d| d.action().map(|a| a.kind()))
        .collect();
    // The page did not react to the hover at all: one WAIT, then the click.
    assert_eq!(kinds, [K::Hover, K::Wait, K::Click, K::Click]);
}

#[tokio::test]
async fn a_leaf_clicked_outside_the_path_is_not_the_path() {
    // Only "Lynett" is on the page (no parent was ever opened): clicking it is not
    // choosing "Jinny>Lynett", so the criterion is not met by it.
    let page = Page::new(vec![doc("Menu"), item("lynett", "Lynett")], |_, _| {});
    let task = menu_task("Select Jinny>Lynett", "\"Jinny>Lynett\" is selected");
    let (r, _, _) = run(page, &task).await;
    assert_ne!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
}

#[tokio::test]
async fn a_single_item_shows_no_selected_state_so_the_runs_click_on_it_completes() {
    // "Select Ada": no path, and a menu item states no selected state, whether it vanishes
    // once chosen (`menu_page`) or stays, so the criterion rests on the run's own click.
    let task = menu_task("Select Ada", "\"Ada\" is selected");
    let (r, page, _) = run(menu_page(), &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert_eq!(page.log, ["CLICK ada"]);
    let stays = Page::new(
        vec![doc("Menu"), item("jinny", "Jinny"), item("ada", "Ada")],
        |p: &mut Page, a: &ExecutableAction| {
            if a.kind() == K::Click {
                p.url = "https://app.invalid/chosen".into();
            }
        },
    );
    let (r, page, _) = run(stays, &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert_eq!(page.log, ["CLICK ada"]);
}

#[tokio::test]
async fn an_item_that_shows_its_selected_state_is_read_not_taken_from_the_click() {
    // The item shows a selected state that stays false after the click: not done.
    let hook = |_: &mut Page, _: &ExecutableAction| {};
    let mut ada = item("ada", "Ada");
    ada.selected = Some(false);
    let page = Page::new(vec![doc("Menu"), ada], hook);
    let task = menu_task("Select Ada", "\"Ada\" is selected");
    let (r, page, _) = run(page, &task).await;
    assert_ne!(r.status, TerminalKind::SubtaskComplete, "{r:#?}");
    assert!(page.log.iter().any(|l| l == "CLICK ada"), "{:?}", page.log);
}
