//! The two ways a criterion was once met without the work done: a draft typed into the
//! box that adds to a list read as "the list contains it", and an item's text on the page
//! read as the item's state. Each is judged on one snapshot, before any action.

use crate::pages;

use arc_core::{Element, Role, TerminalKind};
use pages::*;
use serde_json::json;

/// Whether the reflex calls the subtask done on this page without acting.
fn done_on(criterion: &str, els: Vec<Element>) -> (bool, arc_core::Decision) {
    let task = subtask(json!({"goal": "Make sure the list is right", "verification": [criterion]}));
    let d = decide(&task, els);
    (terminal(&d) == Some(TerminalKind::SubtaskComplete), d)
}

/// [`done_on`], saying why when it is not done.
fn complete(criterion: &str, els: Vec<Element>) -> bool {
    let (done, d) = done_on(criterion, els);
    if !done {
        eprintln!("{criterion:?}: {:?} {:?}", d.choice, d.reason);
    }
    done
}

/// A to-do app that adds on Enter (no button): a heading, the box (whose DOM id says
/// "new-todo"), and the list with the items it holds.
fn todo_app(draft: &str, items: &[&str]) -> Vec<Element> {
    let mut input = placeholder(
        field("e3", "What needs to be done?"),
        "What needs to be done?",
    );
    input.value = Some(draft.into());
    input.facts.dom_id = Some("new-todo".into());
    let mut els = vec![
        doc("Todos"),
        text("e2", Role::Heading, "todos"),
        input,
        text("e4", Role::List, ""),
    ];
    for (k, item) in items.iter().enumerate() {
        let li = format!("li{k}");
        els.push(under(text(&li, Role::ListItem, item), "e4"));
        els.push(under(text(&format!("t{k}"), Role::StaticText, item), &li));
    }
    els
}

#[test]
fn a_draft_in_the_box_that_adds_to_a_list_is_not_in_the_list() {
    let criteria = [
        "The todo list contains \"Buy milk\"",
        "The to-do list shows Buy milk",
        "\"Buy milk\" appears in the list",
        "Buy milk is shown in the todo list",
        "The list includes Buy milk",
        "'Buy milk' is in the list",
    ];
    for c in criteria {
        assert!(
            !complete(c, todo_app("Buy milk", &["Walk the dog"])),
            "{c:?} held on a draft"
        );
        assert!(
            complete(c, todo_app("", &["Walk the dog", "Buy milk"])),
            "{c:?} did not hold on the committed item"
        );
    }
}

#[test]
fn a_field_named_as_a_field_still_holds_what_was_typed() {
    let els = || {
        vec![
            doc("Profile"),
            value(field("e2", "Display name"), "Ada Lovelace"),
        ]
    };
    assert!(complete(
        "The Display name field contains Ada Lovelace",
        els()
    ));
    assert!(complete("The display name contains Ada Lovelace", els()));
}

/// A task list whose checkboxes are named only by the label beside them (no `for`).
fn tasks(done: &[bool]) -> Vec<Element> {
    let names = ["Buy milk", "Walk the dog", "Pay rent"];
    let mut els = vec![doc("Tasks"), text("e2", Role::List, "")];
    for (k, (name, &on)) in names.iter().zip(done).enumerate() {
        let li = format!("li{k}");
        let y = 100.0 + 30.0 * k as f64;
        els.push(under(
            at(text(&li, Role::ListItem, name), 10.0, y, 300.0, 24.0),
            "e2",
        ));
        let mut cb = at(
            checkbox(&format!("c{k}"), "", on),
            12.0,
            y + 4.0,
            16.0,
            16.0,
        );
        cb.parent_id = Some(li.as_str().into());
        els.push(cb);
        els.push(under(
            at(
                text(&format!("l{k}"), Role::StaticText, name),
                34.0,
                y + 2.0,
                120.0,
                20.0,
            ),
            &li,
        ));
    }
    els
}

#[test]
fn an_items_text_on_the_page_is_not_its_state() {
    let criteria = [
        "\"Walk the dog\" is marked done",
        "Walk the dog is marked as completed",
        "The task 'Walk the dog' appears as completed",
        "Walk the dog is shown as done",
        "\"Walk the dog\" is complete",
    ];
    for c in criteria {
        assert!(
            !complete(c, tasks(&[true, false, false])),
            "{c:?} held while its box is unchecked"
        );
        assert!(
            complete(c, tasks(&[false, true, false])),
            "{c:?} did not hold once its box is checked"
        );
    }
    assert!(complete(
        "\"Pay rent\" is not marked done",
        tasks(&[false, true, false])
    ));
}

#[test]
fn a_phrase_followed_by_words_it_does_not_read_is_not_half_read() {
    let els = || {
        vec![
            doc("Orders"),
            text("e2", Role::Heading, "Order 1042"),
            text("e3", Role::StaticText, "Shipped"),
        ]
    };
    // Read by half, each would hold on "Order 1042" alone.
    assert!(!complete("Order 1042 appears with a delivery date", els()));
    assert!(!complete(
        "\"Order 1042\" is displayed next to \"Delivered\"",
        els()
    ));
    assert!(complete("Order 1042 appears on the page", els()));
}

#[tokio::test]
async fn a_click_on_something_named_so_is_not_an_outcome() {
    // The run clicks "Complete registration"; the page answers with an error, and nothing
    // says the registration is complete.
    let task = subtask(json!({"goal": "Click \"Complete registration\"",
        "verification": ["The registration is complete"]}));
    let els = vec![doc("Register"), button("e2", "Complete registration")];
    let page = Page::new(
        els,
        on_click("e2", |p| {
            p.show(text("e3", Role::Alert, "Please fix the errors below"))
        }),
    );
    let (result, page, _) = run(page, &task).await;
    assert_eq!(page.log.first().map(String::as_str), Some("CLICK e2"));
    assert_ne!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
}

/// Whether the reflex calls the subtask done on this page, given stated checks.
fn complete_checks(checks: serde_json::Value, els: Vec<Element>) -> bool {
    let task = subtask(json!({"goal": "Make sure the list is right", "verification": checks}));
    let d = decide(&task, els);
    let done = terminal(&d) == Some(TerminalKind::SubtaskComplete);
    if !done {
        eprintln!("{checks}: {:?}", d.reason);
    }
    done
}

#[test]
fn stated_checks_hold_on_the_same_evidence_as_sentences() {
    let in_list =
        json!([{"check": "text_present", "text": "Buy milk", "within": {"role": "list"}}]);
    let one = json!([{"check": "count", "name": "Buy milk", "equals": 1}]);
    let gone = json!([{"check": "none_remain", "name": "Walk the dog"}]);
    let typed =
        json!([{"check": "field_value", "field": "What needs to be done?", "equals": "buy  MILK"}]);
    // A draft: in the box, not in the list, counted nowhere.
    let draft = || todo_app("Buy milk", &["Walk the dog"]);
    assert!(!complete_checks(in_list.clone(), draft()));
    assert!(!complete_checks(one.clone(), draft()));
    assert!(!complete_checks(gone.clone(), draft()));
    assert!(
        complete_checks(typed, draft()),
        "the field holds it, case and spacing folded"
    );
    // Committed.
    let added = || todo_app("", &["Buy milk"]);
    assert!(complete_checks(in_list, added()));
    assert!(complete_checks(one, added()));
    assert!(complete_checks(gone, added()));
    // State, from the box its caption names.
    let done = json!([{"check": "element_state", "element": "Walk the dog", "state": "checked"}]);
    let open = json!([{"check": "element_state", "element": "Pay rent", "state": "checked", "value": false}]);
    assert!(!complete_checks(done.clone(), tasks(&[true, false, false])));
    assert!(complete_checks(done, tasks(&[false, true, false])));
    assert!(complete_checks(open, tasks(&[false, true, false])));
    let absent =
        json!([{"check": "text_absent", "text": "Error"}, {"check": "title", "equals": "Page"}]);
    assert!(complete_checks(absent, tasks(&[false, false, false])));
}

#[test]
fn something_is_gone_only_when_no_form_of_its_words_remains() {
    let notes = |names: &[&str]| {
        let mut els = vec![doc("Notes"), text("e2", Role::List, "")];
        for (k, n) in names.iter().enumerate() {
            els.push(under(text(&format!("n{k}"), Role::ListItem, n), "e2"));
        }
        els
    };
    let gone = [
        "The meeting note is gone",
        "'Meeting note' no longer appears in the list",
    ];
    for c in gone {
        assert!(
            !complete(c, notes(&["Meeting notes", "Shopping list"])),
            "{c:?}"
        );
        assert!(complete(c, notes(&["Shopping list"])), "{c:?}");
    }
    let none = json!([{"check": "none_remain", "name": "meeting note"}]);
    assert!(!complete_checks(none.clone(), notes(&["Meeting notes"])));
    assert!(complete_checks(none, notes(&["Shopping list"])));
}

#[tokio::test]
async fn every_verdict_carries_its_evidence() {
    let task = subtask(
        json!({"goal": "Make sure the list is right", "verification": [
            "The todo list contains \"Buy milk\"",
            {"check": "text_absent", "text": "Pay rent"},
            "Walk the dog is marked done, and the heading says todos"
        ]}),
    );
    let (result, _, _) = run(Page::new(todo_app("", &["Buy milk"]), |_, _| {}), &task).await;
    let v = &result.verification;
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(v[0].criterion, "The todo list contains \"Buy milk\"");
    assert!(v[0].holds, "{v:?}");
    assert_eq!(v[0].evidence.elements.len(), 1, "{v:?}");
    assert!(v[0].evidence.text.contains("Buy milk"), "{v:?}");
    assert!(v[1].holds && v[1].evidence.elements.is_empty(), "{v:?}");
    assert_eq!(v[1].criterion, "the page does not show \"Pay rent\"");
    // Two clauses: one does not hold (no such task), so the criterion does not.
    assert!(!v[2].holds, "{v:?}");
    assert!(v[2].check.contains(" and "), "{v:?}");
    assert_ne!(result.status, TerminalKind::SubtaskComplete);
    // On the wire beside the reference's keys.
    let wire = serde_json::to_value(&result).unwrap();
    assert_eq!(wire["verification"][0]["holds"], true);
}

#[test]
fn a_kind_alone_or_a_collapsed_question_is_no_evidence() {
    // "The shopping list note no longer exists" while "Shopping list" shows: still there.
    let notes = |names: &[&str]| {
        let mut els = vec![doc("Notes"), text("e2", Role::List, "")];
        for (k, n) in names.iter().enumerate() {
            els.push(under(text(&format!("n{k}"), Role::ListItem, n), "e2"));
        }
        els
    };
    let c = "The shopping list note no longer exists";
    assert!(!complete(c, notes(&["Shopping list", "Meeting notes"])));
    // "No longer" says it went: on a page that never showed it, before the run acted,
    // nothing did (the run's own going is `reflex_gone`'s and the corpus's).
    assert!(!complete(c, notes(&["Meeting notes"])));
    // "The note is gone" names no note: never held.
    assert!(!complete("The note is gone", notes(&["Meeting notes"])));
    // A collapsed question names the answer it hides.
    let mut q = under(button("e2", "What is your returns policy?"), "h1");
    q.expanded = Some(false);
    let heading = text("h1", Role::Heading, "What is your returns policy?");
    assert!(!complete(
        "The returns policy is on screen",
        vec![doc("FAQ"), heading.clone(), q.clone()]
    ));
    q.expanded = Some(true);
    let answer = text("e3", Role::Paragraph, "Our returns policy: 30 days, free.");
    assert!(complete(
        "The returns policy is on screen",
        vec![doc("FAQ"), heading, q, answer]
    ));
}

/// A settings page whose Save answers with a toast (`toast`), if any.
fn settings(toast: Option<&'static str>) -> Page {
    let els = vec![
        doc("Settings"),
        checkbox("e2", "Email me a weekly digest", false),
        button("e3", "Save"),
    ];
    Page::new(els, move |p, a| {
        native(p, a);
        if a.kind() == arc_core::ActionKind::Click && a.target().is_some_and(|t| t.as_str() == "e3")
        {
            if let Some(t) = toast {
                p.show(text("e9", Role::Status, t));
            }
        }
    })
}

#[tokio::test]
async fn an_outcome_said_in_a_few_words_holds_on_a_message_that_appeared() {
    let task = |c: &str| subtask(json!({"goal": "Click Save", "verification": [c]}));
    for c in [
        "The preferences are saved",
        "Preferences saved",
        "Settings have been saved",
    ] {
        let toast = Some("Your preferences and settings have been saved.");
        let (r, _, _) = run(settings(toast), &task(c)).await;
        assert_eq!(
            r.status,
            TerminalKind::SubtaskComplete,
            "{c}: {:?}",
            r.reason
        );
        assert!(
            r.verification[0].evidence.text.contains("e9"),
            "{:?}",
            r.verification
        );
        let (r, _, _) = run(
            settings(Some("Your preferences could not be saved")),
            &task(c),
        )
        .await;
        assert_ne!(
            r.status,
            TerminalKind::SubtaskComplete,
            "{c}: {:?}",
            r.reason
        );
        let (r, _, _) = run(settings(None), &task(c)).await;
        assert_ne!(
            r.status,
            TerminalKind::SubtaskComplete,
            "{c}: {:?}",
            r.reason
        );
    }
    // A participle whose stem a noun shares ("recorded", "posted") is still the verb.
    for (toast, done) in [
        ("Your settings were recorded.", true),
        ("Your settings could not be recorded.", false),
    ] {
        let (r, _, _) = run(settings(Some(toast)), &task("Settings recorded")).await;
        assert_eq!(
            r.status == TerminalKind::SubtaskComplete,
            done,
            "{toast}: {:?}",
            r.reason
        );
    }
    // Said before the run acted, it is no outcome of the run.
    let els = vec![
        doc("Settings"),
        text("e5", Role::Status, "Preferences saved"),
    ];
    assert!(!complete("Preferences saved", els));
}

/// A made-up word no rule knows (consonant–vowel, five letters).
fn pseudo_word() -> impl proptest::strategy::Strategy<Value = String> {
    "[bcdfgklmnprstvz][aeiou][bcdfgklmnprstvz][aeiou][bcdfgklmnprstvz]"
}

const SENTENCES: &[&str] = &[
    "The page shows {p}",
    "{p} appears",
    "\"{p}\" is displayed",
    "The list contains {p}",
    "{p} is shown in the list",
    "{p} is marked done",
    "{p} saved",
    "The {p} has been added",
    "{p} is visible on the page",
    "The table lists \"{p}\"",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Text typed into an editable field never meets a criterion that does not name the
    /// field, however the criterion is phrased.
    #[test]
    fn no_criterion_holds_on_a_draft(
        words in proptest::collection::vec(pseudo_word(), 1..3),
        k in 0..SENTENCES.len(),
    ) {
        let phrase = words.join(" ");
        let criterion = SENTENCES[k].replace("{p}", &phrase);
        let els = vec![
            doc("Form"),
            // The field's own name is no pseudo-word ("Notes" is one: "nozes is visible"
            // would name the field itself, one letter off, not its draft).
            value(field("e2", "Remarks box"), &phrase),
            text("e3", Role::List, ""),
            under(text("e4", Role::ListItem, "Other thing"), "e3"),
            button("e5", "Submit"),
        ];
        proptest::prop_assert!(!done_on(&criterion, els).0, "{criterion:?} held on a draft");
    }

    /// A statement the page makes only negated or failed is never met.
    #[test]
    fn no_criterion_holds_on_a_negation(
        words in proptest::collection::vec(pseudo_word(), 1..3),
        k in 0..SENTENCES.len(),
        how in 0..4usize,
    ) {
        let phrase = words.join(" ");
        let criterion = SENTENCES[k].replace("{p}", &phrase);
        let said = [
            format!("Not {phrase}"),
            format!("{phrase} failed"),
            format!("Could not {phrase}"),
            format!("No {phrase}"),
        ][how]
            .clone();
        let els = vec![
            doc("Status"),
            text("e2", Role::Status, &said),
            text("e3", Role::List, ""),
            under(text("e4", Role::ListItem, &said), "e3"),
        ];
        proptest::prop_assert!(!done_on(&criterion, els).0, "{criterion:?} held on {said:?}");
    }
}

#[tokio::test]
async fn a_control_that_appears_is_no_outcome() {
    // After "Next", the page offers "Sign in": it does not say the user is signed in.
    let task = subtask(json!({"goal": "Click Next", "verification": ["Signed in"]}));
    let els = vec![doc("Sign in"), button("e2", "Next")];
    let page = Page::new(els, on_click("e2", |p| p.show(button("e3", "Sign in"))));
    let (r, _, _) = run(page, &task).await;
    assert_ne!(
        r.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        r.verification
    );
    let page = Page::new(
        vec![doc("Sign in"), button("e2", "Next")],
        on_click("e2", |p| {
            p.show(text("e3", Role::Status, "Signed in as Ada"))
        }),
    );
    let (r, _, _) = run(page, &task).await;
    assert_eq!(r.status, TerminalKind::SubtaskComplete, "{:?}", r.reason);
}

/// A submit that says what was sent: the goal's "say we used the website" found no box
/// to tick, the form went anyway, and "Feedback with … Website as the only channel used
/// … has been submitted" must not be read as "the run submitted". Real Chromium; the
/// page's record shows what was sent.
#[tokio::test(flavor = "multi_thread")]
async fn a_submit_said_with_what_it_sent_is_not_held_by_the_press_alone() {
    const SURVEY: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Survey</title></head><body>
<form id="f"><fieldset><legend>Score</legend>
<label><input type="radio" name="s" value="2"> 2</label><label><input type="radio" name="s" value="3"> 3</label></fieldset>
<fieldset><legend>What did you use?</legend><label><input type="checkbox" id="web"> Website</label></fieldset>
<button type="submit">Submit</button></form><h2 id="thanks"></h2><p id="record" hidden>none</p>
<script>
document.getElementById('f').onsubmit = (e) => { e.preventDefault();
  const s = document.querySelector('[name=s]:checked');
  document.getElementById('record').textContent = 'score=' + (s ? s.value : 'none') + '; web=' + document.getElementById('web').checked;
  document.getElementById('thanks').textContent = 'Thank you!'; };
</script></body></html>"##;
    let ran = crate::reflex_browser::run_html(
        SURVEY,
        json!({
            "goal": "Give a score of 3, and submit",
            "inputs": {"score": 3},
            "verification": ["Feedback with score 3 and Website as the channel used has been submitted"],
            "max_actions": 5
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "score=3; web=false",
        "{:?}",
        ran.actions()
    );
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
}
