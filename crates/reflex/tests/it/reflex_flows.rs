//! The reflex policy through the real executor: forms, sign-up, multi-step flows, scrolling.

use crate::pages;

use arc_core::{Action, ActionKind as K, ExecutableAction, Role, ScrollDirection, TerminalKind};
use pages::*;
use serde_json::json;
use std::sync::atomic::Ordering;

#[tokio::test]
async fn fills_a_form_top_to_bottom_then_submits() {
    let task = subtask(json!({
        "goal": "Fill in the message, the last name and the first name, then submit the form",
        "inputs": {"message": "Hi", "last_name": "Lovelace", "first_name": "Ada"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let (result, page, decisions) =
        run(Page::new(contact_form(), on_click("e9", thank_you)), &task).await;
    assert_complete(&result);
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "TYPE_TEXT e6", "TYPE_TEXT e8", "CLICK e9"]
    );
    assert_eq!(page.value_of("e8"), "Hi");
    // Every decision carries its confidence and margin.
    assert_eq!(decisions.len(), 5);
    for d in &decisions {
        let (c, m) = (d.confidence.unwrap(), d.margin.unwrap());
        assert!(
            (0.0..=1.0).contains(&c) && (0.0..=1.0).contains(&m),
            "{d:?}"
        );
    }
    assert_eq!(decisions[0].confidence, Some(1.0), "an exact label");
}

#[tokio::test]
async fn submits_a_filled_form_the_goal_did_not_say_to_submit() {
    let task = subtask(json!({
        "goal": "Fill in the contact form",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let (result, page, decisions) =
        run(Page::new(contact_form(), on_click("e9", thank_you)), &task).await;
    assert_complete(&result);
    assert_eq!(page.log.last().map(String::as_str), Some("CLICK e9"));
    let submit = &decisions[3];
    assert!(
        submit.confidence.unwrap() < 0.7,
        "an inferred submit is less certain: {submit:?}"
    );
}

#[tokio::test]
async fn signs_up_typing_selecting_checking_then_submitting() {
    let (result, page, _) = run(
        Page::new(signup("", "Free", false), on_click("e11", welcome)),
        &signup_task(),
    )
    .await;
    assert_complete(&result);
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "SELECT_OPTION e6", "CLICK e10", "CLICK e11"]
    );
}

#[tokio::test]
async fn steps_already_satisfied_are_skipped() {
    let page = Page::new(
        signup("ada@example.com", "Pro", true),
        on_click("e11", welcome),
    );
    let (result, page, _) = run(page, &signup_task()).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e11"]);
}

#[tokio::test]
async fn waits_for_a_confirmation_that_comes_late() {
    // A slow server: the confirmation shows a few observations after the click.
    let page = Page::new(
        signup("", "Free", false),
        |p: &mut Page, a: &ExecutableAction| {
            if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == "e11") {
                let now = p.observed.load(Ordering::Relaxed);
                let msg = "Welcome, ada@example.com! Your Pro account is ready.";
                p.late = Some((now + 3, text("e13", Role::Status, msg)));
            }
        },
    );
    let (result, page, _) = run(page, &signup_task()).await;
    assert_complete(&result);
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "SELECT_OPTION e6", "CLICK e10", "CLICK e11"]
    );
    let waits = result
        .history
        .iter()
        .filter(|r| r.action.kind() == K::Wait)
        .count();
    assert!((1..=2).contains(&waits), "{:?}", result.history);
}

#[tokio::test]
async fn a_multistep_flow_advances_through_next() {
    let task = subtask(json!({
        "goal": "Enter the name, choose the shipping method and confirm the order",
        "inputs": {"name": "Ada", "shipping": "Express"},
        "verification": ["The page shows \"Order confirmed\""]
    }));
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        let express = p
            .els
            .iter()
            .any(|e| e.id.as_str() == "e13" && e.selected == Some(true));
        match id.as_str() {
            "e8" if !p.value_of("e7").is_empty() => p.els = stage(2),
            "e14" if express => p.els = stage(3),
            "e22" => p.els = stage(4),
            _ => {}
        }
    };
    let (result, page, _) = run(Page::new(stage(1), hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(
        page.log,
        [
            "TYPE_TEXT e7",
            "CLICK e8",
            "CLICK e13",
            "CLICK e14",
            "CLICK e22"
        ]
    );
}

#[tokio::test]
async fn a_custom_combobox_is_opened_then_its_option_chosen() {
    let task = subtask(
        json!({"goal": "Choose the color", "inputs": {"color": "Blue"},
        "verification": ["The page shows \"Selected color: Blue\""]}),
    );
    let mut combo = el("e15", Role::ComboBox, "Color", &[K::Click]);
    combo.value = Some("Choose a color".into());
    combo.expanded = Some(false);
    let els = vec![
        doc("Dropdowns"),
        combo,
        text("e17", Role::Status, "Selected color: none"),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        if id == "e15" {
            p.get("e15").unwrap().expanded = Some(true);
            p.show(text("e18", Role::ListBox, "Color"));
            for (oid, name) in [("e19", "Red"), ("e20", "Green"), ("e21", "Blue")] {
                let mut o = under(el(oid, Role::Option, name, &[K::Click]), "e18");
                o.selected = Some(false);
                p.show(o);
            }
        } else if let Some(name) = p
            .els
            .iter()
            .find(|e| e.id.as_str() == id && e.role == Role::Option)
            .map(|e| e.name.clone())
        {
            p.remove(&["e18", "e19", "e20", "e21"]);
            let c = p.get("e15").unwrap();
            c.value = Some(name.as_str().into());
            c.expanded = Some(false);
            p.show(text(
                "e17",
                Role::Status,
                &format!("Selected color: {name}"),
            ));
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.log, ["CLICK e15", "CLICK e21"]);
}

/// A step the goal puts before a press cannot be done (no "Bananas" to check): the press
/// after it ("click Submit", a click, not a commit verb) is not made either.
#[tokio::test]
async fn a_press_after_a_step_that_cannot_be_done_is_not_made() {
    let task = subtask(json!({"goal": "Check \"Bananas\" and click \"Submit\"",
        "verification": ["\"Bananas\" is checked", "\"Submit\" has been clicked"]}));
    let els = vec![
        doc("Order"),
        checkbox("e2", "Apples", false),
        button("e3", "Submit"),
    ];
    let (result, page, _) = run(Page::new(els, |_, _| {}), &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert!(page.log.is_empty(), "nothing pressed: {:?}", page.log);
    let reason = result.reason.unwrap();
    assert!(reason.contains("Bananas"), "{reason}");
}

#[tokio::test]
async fn an_action_that_changed_nothing_is_not_repeated() {
    let task = subtask(json!({"goal": "Check \"Remember me\" and click \"Log in\"",
        "verification": ["The page shows Welcome"]}));
    let els = vec![
        doc("Login"),
        checkbox("e2", "Remember me", false),
        button("e3", "Log in"),
    ];
    // A broken checkbox: the click lands but nothing changes.
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.target().is_some_and(|t| t.as_str() == "e2") {
            p.get("e2").unwrap().selected = Some(false);
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert_eq!(page.log, ["CLICK e2"], "the click is not repeated");
    let reason = result.reason.unwrap();
    assert!(reason.contains("changed nothing"), "{reason}");
}

#[tokio::test]
async fn scrolls_until_the_target_is_on_screen() {
    let task = subtask(
        json!({"goal": "Scroll to the footer", "verification": ["The footer heading is visible"]}),
    );
    let els = vec![
        at(doc("Product"), 0.0, 0.0, 1280.0, 700.0),
        at(
            text("e2", Role::Heading, "Product"),
            32.0,
            32.0,
            1200.0,
            40.0,
        ),
        at(
            text("e14", Role::Heading, "Footer"),
            48.0,
            2300.0,
            1200.0,
            33.0,
        ),
        at(
            text("e15", Role::Paragraph, "You reached the footer."),
            48.0,
            2380.0,
            1200.0,
            22.0,
        ),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.action
            == (Action::Scroll {
                direction: ScrollDirection::Down,
                target: None,
            })
        {
            for e in p.els.iter_mut().skip(1) {
                if let Some(b) = e.bounds.as_mut() {
                    b.y -= 600.0;
                }
            }
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    // 2300 → 1700 → 1100 → 500: on screen after three.
    assert_eq!(page.log, ["SCROLL", "SCROLL", "SCROLL"]);
}

#[tokio::test]
async fn presses_a_key_and_navigates_to_an_input_url() {
    let task = subtask(json!({"goal": "Type the search terms and press Enter",
        "inputs": {"search": "lamps"}, "verification": ["The page shows \"Results for lamps\""]}));
    let els = vec![
        doc("Shop"),
        el("e2", Role::TextField, "Search", &[K::Click, K::TypeText]),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.kind() == K::PressKey {
            let q = p.value_of("e2");
            p.show(text("e3", Role::Heading, &format!("Results for {q}")));
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.log, ["TYPE_TEXT e2", "PRESS_KEY"]);

    let task = subtask(
        json!({"goal": "Go to the docs page", "inputs": {"docs_url": "https://app.invalid/docs"},
        "verification": ["The URL contains /docs"]}),
    );
    let (result, page, _) = run(Page::new(vec![doc("Home")], |_, _| {}), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.url, "https://app.invalid/docs");
}
