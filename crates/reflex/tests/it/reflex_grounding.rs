//! The reflex policy's grounding: labels for unnamed fields, ties, typos, missing targets.

use crate::pages;

use arc_core::{Action, ActionKind as K, Role, TerminalKind};
use pages::*;
use serde_json::json;

#[test]
fn an_unnamed_field_takes_the_text_sibling_before_it() {
    let task = subtask(
        json!({"goal": "Enter the email address", "inputs": {"email": "a@b.c"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Form"),
        text("e2", Role::Group, ""),
        under(text("e3", Role::StaticText, "Email address:"), "e2"),
        under(field("e4", ""), "e2"),
        under(text("e5", Role::StaticText, "Phone:"), "e2"),
        under(field("e6", ""), "e2"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e4".into(), "email".into()))
    );
}

#[test]
fn an_unnamed_field_takes_the_text_just_before_it_in_document_order() {
    let task = subtask(
        json!({"goal": "Enter the phone number", "inputs": {"phone": "555"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Form"),
        text("e2", Role::Paragraph, "Phone number"),
        text("e3", Role::Group, ""),
        under(field("e4", ""), "e3"),
        text("e5", Role::Paragraph, "Fax"),
        text("e6", Role::Group, ""),
        under(field("e7", ""), "e6"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e4".into(), "phone".into()))
    );
}

#[test]
fn an_unnamed_field_takes_the_text_left_of_it_on_its_row() {
    let task = subtask(
        json!({"goal": "Fill in the city", "inputs": {"city": "Paris"},
        "verification": ["The page shows Done"]}),
    );
    // Document order puts a control between the label and the field; the layout does not.
    let els = vec![
        doc("Form"),
        at(
            text("e2", Role::StaticText, "City"),
            10.0,
            100.0,
            40.0,
            20.0,
        ),
        at(
            text("e3", Role::StaticText, "Country"),
            10.0,
            140.0,
            60.0,
            20.0,
        ),
        at(button("e4", "Help"), 400.0, 300.0, 50.0, 20.0),
        at(field("e5", ""), 80.0, 138.0, 150.0, 24.0),
        at(field("e6", ""), 60.0, 98.0, 150.0, 24.0),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e6".into(), "city".into()))
    );
}

#[test]
fn a_placeholder_or_dom_name_grounds_a_field() {
    let task = subtask(
        json!({"goal": "Search for the product", "inputs": {"search": "lamp"},
        "verification": ["The page shows Results"]}),
    );
    let els = vec![
        doc("Shop"),
        placeholder(field("e2", ""), "Search products"),
        form_name(field("e3", ""), "newsletter_email"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e2".into(), "search".into()))
    );
    let task = subtask(
        json!({"goal": "Enter the postcode", "inputs": {"postCode": "75001"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Shop"),
        form_name(field("e2", ""), "post_code"),
        field("e3", "Notes"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e2".into(), "postCode".into()))
    );
}

#[test]
fn two_fields_matching_an_input_equally_need_an_agent() {
    let task = subtask(json!({"goal": "Enter the name", "inputs": {"name": "Ada"},
        "verification": ["The page shows Done"]}));
    let els = vec![
        doc("Form"),
        text("e2", Role::Heading, "Billing"),
        text("e3", Role::Group, "Billing"),
        under(field("e4", "Name"), "e3"),
        text("e5", Role::Heading, "Shipping"),
        text("e6", Role::Group, "Shipping"),
        under(field("e7", "Name"), "e6"),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(
        d.reason.as_deref(),
        Some("two fields match input \"name\" equally: e4 \"Name\", e7 \"Name\"")
    );
}

#[test]
fn a_quoted_target_that_does_not_exist_needs_an_agent() {
    let task = subtask(json!({"goal": "Click the \"Checkout\" button",
        "verification": ["The page shows \"Order placed\""]}));
    let els = vec![
        doc("Empty shop"),
        text("e2", Role::Heading, "Shop"),
        text("e3", Role::Paragraph, "Nothing to buy here"),
        el("e4", Role::Link, "Home", &[K::Click]),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(d.reason.as_deref(), Some("no element matches \"Checkout\""));
}

#[test]
fn two_equal_buttons_are_a_tie_not_a_guess() {
    let task = subtask(json!({"goal": "Click the \"Delete\" button",
        "verification": ["The page shows Deleted"]}));
    let els = vec![
        doc("List"),
        button("e2", "Delete"),
        button("e3", "Delete"),
        button("e4", "Edit"),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(
        d.reason.as_deref(),
        Some("two elements match \"Delete\" equally: e2 \"Delete\", e3 \"Delete\"")
    );
}

#[test]
fn role_words_break_a_tie_between_a_link_and_a_tab() {
    let task = subtask(
        json!({"goal": "Open the Details tab", "verification": ["The Details tab is selected"]}),
    );
    let mut tab = el("e3", Role::Tab, "Details", &[K::Click]);
    tab.selected = Some(false);
    let els = vec![
        doc("Product"),
        el("e2", Role::Link, "Details", &[K::Click]),
        tab,
    ];
    let d = decide(&task, els);
    assert_eq!(d.action(), Some(&Action::click("e3")));
}

#[test]
fn a_typo_in_a_quoted_target_still_grounds() {
    let task = subtask(
        json!({"goal": "Press the \"Sumbit\" button", "verification": ["The page shows Sent"]}),
    );
    let els = vec![doc("Form"), button("e2", "Submit"), button("e3", "Cancel")];
    let d = decide(&task, els);
    assert_eq!(d.action(), Some(&Action::click("e2")));
    assert!(d.confidence.unwrap() < 0.9);
}

#[test]
fn text_the_subtask_does_not_supply_is_asked_for() {
    let task = subtask(
        json!({"goal": "Type \"hello\" into the search box", "verification": ["The page shows Results"]}),
    );
    let d = decide(&task, vec![doc("Shop"), field("e2", "Search")]);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsInput), "{d:?}");
}
