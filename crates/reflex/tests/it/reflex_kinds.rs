//! The reflex on controls named by their kind, position or glyph, and on criteria only the
//! run's own records can show (a click, a submit).

use crate::pages;

use arc_core::{ActionKind as K, Element, Role, TerminalKind};
use pages::*;
use serde_json::json;

fn radio(id: &str) -> Element {
    let mut e = under(el(id, Role::Radio, "", &[K::Click]), "e2");
    e.selected = Some(false);
    e
}

fn ordinal_form() -> Vec<Element> {
    vec![
        doc("Form"),
        text("e2", Role::Group, ""),
        radio("e3"),
        radio("e4"),
        radio("e5"),
        field("e6", ""),
        field("e7", ""),
        field("e8", ""),
        button("e9", "Submit"),
    ]
}

#[tokio::test]
async fn unnamed_controls_are_picked_by_kind_and_position_then_the_form_submitted() {
    let task = subtask(json!({
        "goal": "Check the 3rd radio button and enter the number \"-7\" into the 2nd textbox.",
        "inputs": {"2nd_textbox": "-7"},
        "verification": ["the 2nd textbox contains \"-7\"", "the 3rd radio button is checked",
                         "the form has been submitted"]
    }));
    let (result, page, _) = run(Page::new(ordinal_form(), |_, _| {}), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["TYPE_TEXT e7", "CLICK e5", "CLICK e9"]);
    assert_eq!(page.value_of("e7"), "-7");
    assert_eq!(page.value_of("e6"), "");
}

#[tokio::test]
async fn an_input_keyed_by_the_same_ordinal_does_not_cover_another_control() {
    // "2nd_textbox" must not count as having checked "the 2nd radio button".
    let task = subtask(json!({
        "goal": "Check the 2nd radio button and enter the number \"35\" into the 2nd textbox.",
        "inputs": {"2nd_textbox": "35"},
        "verification": ["the 2nd textbox contains \"35\"", "the 2nd radio button is checked",
                         "the form has been submitted"]
    }));
    let (result, page, _) = run(Page::new(ordinal_form(), |_, _| {}), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["TYPE_TEXT e7", "CLICK e4", "CLICK e9"]);
}

#[tokio::test]
async fn a_kind_that_names_two_unnamed_controls_is_a_tie_not_a_guess() {
    let task = subtask(json!({
        "goal": "Enter \"x\" into the text field.",
        "inputs": {"text_field": "x"},
        "verification": ["the text field contains \"x\""]
    }));
    let (result, page, _) = run(Page::new(ordinal_form(), |_, _| {}), &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("several match"),
        "{:?}",
        result.reason
    );
    assert!(page.log.is_empty(), "{:?}", page.log);
}

#[tokio::test]
async fn an_ordinal_past_the_last_control_grounds_nothing() {
    let task = subtask(json!({
        "goal": "Enter \"x\" into the 5th textbox.",
        "inputs": {"5th_textbox": "x"},
        "verification": ["the 5th textbox contains \"x\""]
    }));
    let (result, page, _) = run(Page::new(ordinal_form(), |_, _| {}), &task).await;
    assert_ne!(result.status, TerminalKind::SubtaskComplete);
    assert!(page.log.is_empty(), "{:?}", page.log);
}

#[tokio::test]
async fn focus_clicks_a_field_until_it_holds_the_focus() {
    let task = subtask(json!({
        "goal": "Focus into the textbox.",
        "verification": ["the textbox is focused"]
    }));
    let els = vec![doc("Form"), field("e2", ""), button("e3", "Help")];
    let (result, page, _) = run(
        Page::new(els, on_click("e2", |p| p.get("e2").unwrap().focused = true)),
        &task,
    )
    .await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e2"]);
}

fn dialog() -> Vec<Element> {
    vec![
        doc("Page"),
        text("e2", Role::Dialog, ""),
        under(button("e3", "Close"), "e2"),
        under(text("e4", Role::Paragraph, "Hello"), "e2"),
        button("e5", "Cancel"),
    ]
}

#[tokio::test]
async fn a_quoted_x_names_the_close_control_and_a_gone_dialog_is_closed() {
    let task = subtask(json!({
        "goal": "Close the dialog box by clicking the \"x\".",
        "verification": ["the dialog box is closed", "\"x\" has been clicked"],
        "allowed_risks": ["close"]
    }));
    let close = on_click("e3", |p| p.remove(&["e2", "e3", "e4"]));
    let (result, page, _) = run(Page::new(dialog(), close), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e3"]);
}

#[tokio::test]
async fn a_dialog_still_open_is_not_closed() {
    let task = subtask(json!({
        "goal": "Close the dialog box by clicking the \"x\".",
        "verification": ["the dialog box is closed"],
        "allowed_risks": ["close"]
    }));
    // The close control does nothing: the run may click it, never claim the dialog closed.
    let (result, page, _) = run(Page::new(dialog(), |_, _| {}), &task).await;
    assert_ne!(result.status, TerminalKind::SubtaskComplete);
    assert_eq!(page.log.first().map(String::as_str), Some("CLICK e3"));
}

#[tokio::test]
async fn a_click_the_page_does_not_show_is_backed_by_the_runs_own_record() {
    let els = vec![
        doc("Page"),
        el("e2", Role::Link, "In", &[K::Click]),
        el("e3", Role::Link, "Out", &[K::Click]),
    ];
    let task = subtask(json!({
        "goal": "Click on the link \"In\".",
        "verification": ["the \"In\" link has been clicked"]
    }));
    let (result, page, _) = run(Page::new(els.clone(), |_, _| {}), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e2"]);
    // A click on another link is no evidence.
    let task = subtask(json!({
        "goal": "Click on the link \"In\".",
        "verification": ["the \"Out\" link has been clicked"]
    }));
    let (result, _, _) = run(Page::new(els, |_, _| {}), &task).await;
    assert_ne!(result.status, TerminalKind::SubtaskComplete);
}

#[tokio::test]
async fn a_tie_between_a_container_and_the_button_inside_goes_to_the_button() {
    let mut header = el("e3", Role::Tab, "Submit", &[K::Click]);
    header.expanded = Some(false);
    let els = vec![
        doc("Page"),
        text("e2", Role::TabList, ""),
        under(header, "e2"),
        under(button("e4", "Submit"), "e3"),
    ];
    let task = subtask(json!({
        "goal": "Click submit.",
        "verification": ["\"submit\" has been clicked"]
    }));
    let (result, page, _) = run(Page::new(els, |_, _| {}), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e4"]);
}

#[test]
fn a_caption_right_under_a_field_names_it() {
    // Fields with their captions below: the text above a field is the previous caption.
    let task = subtask(json!({
        "goal": "Enter the director",
        "inputs": {"director": "Hale"},
        "verification": ["the director field contains \"Hale\""]
    }));
    let els = vec![
        doc("Form"),
        text("e2", Role::Group, ""),
        under(at(field("e3", ""), 10.0, 65.0, 137.0, 19.0), "e2"),
        under(
            at(
                text("e4", Role::StaticText, "Genre"),
                10.0,
                84.0,
                29.0,
                11.0,
            ),
            "e2",
        ),
        under(at(field("e5", ""), 10.0, 103.0, 137.0, 19.0), "e2"),
        under(
            at(
                text("e6", Role::StaticText, "Director"),
                10.0,
                122.0,
                38.0,
                11.0,
            ),
            "e2",
        ),
    ];
    let d = decide(&task, els);
    assert_eq!(
        d.action()
            .and_then(|a| a.target())
            .map(|t| t.as_str().to_owned()),
        Some("e5".to_owned()),
        "{d:?}"
    );
}
