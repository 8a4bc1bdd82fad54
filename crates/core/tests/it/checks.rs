//! Stated checks at the subtask's boundary: beside sentences in `verification`, each read
//! with errors that name the criterion's index and field, and written back as given.

use arc_core::{Check, Criterion, Role, Scope, StateName, Subtask};
use serde_json::json;

fn parse(verification: serde_json::Value) -> Result<Subtask, arc_core::ContractError> {
    Subtask::from_value(json!({"goal": "Save the profile", "verification": verification}))
}

#[test]
fn sentences_and_checks_mix_and_round_trip() {
    let s = parse(json!([
        "The page shows Saved",
        {"check": "text_present", "text": "Saved", "within": {"role": "status"}},
        {"check": "field_value", "field": "Display name", "equals": "Ada"},
        {"check": "element_state", "element": "Dark mode", "role": "switch", "state": "checked"},
        {"check": "element_state", "element": "Save", "state": "enabled", "value": false},
        {"check": "url", "contains": "/profile"},
        {"check": "count", "name": "Buy milk", "role": "listitem", "equals": 1},
        {"check": "none_remain", "name": "Draft"}
    ]))
    .unwrap();
    assert_eq!(
        s.verification[0],
        Criterion::Text("The page shows Saved".into())
    );
    assert_eq!(
        s.verification[1],
        Criterion::Check(Check::TextPresent {
            text: "Saved".into(),
            within: Some(Scope {
                name: None,
                role: Some(Role::Status)
            })
        })
    );
    assert!(matches!(
        &s.verification[3],
        Criterion::Check(Check::ElementState {
            state: StateName::Checked,
            value: true,
            role: Some(Role::Switch),
            ..
        })
    ));
    let back = Subtask::from_json(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    // Written as given: the default `value` is left out, a string stays a string.
    let wire = serde_json::to_value(&s).unwrap();
    assert_eq!(wire["verification"][0], "The page shows Saved");
    assert_eq!(
        wire["verification"][3],
        json!({"check": "element_state", "element": "Dark mode", "role": "switch", "state": "checked"})
    );
}

#[test]
fn a_check_in_words_says_what_it_checks() {
    let c = Check::FieldValue {
        field: "Email".into(),
        equals: Some("ada@example.com".into()),
        contains: None,
        shown_for: None,
    };
    assert_eq!(c.to_string(), "the \"Email\" field is \"ada@example.com\"");
    let c = Check::NoneRemain {
        name: "Draft".into(),
        role: Some(Role::Row),
    };
    assert_eq!(c.to_string(), "no row named \"Draft\" remains");
}

#[test]
fn a_bad_check_is_refused_naming_its_index_and_field() {
    let err = |v: serde_json::Value| {
        let e = parse(v).unwrap_err();
        (e.field, e.message)
    };
    let (field, msg) = err(json!(["ok", {"check": "text_present"}]));
    assert!(field.starts_with("verification[1]"), "{field}: {msg}");
    assert!(msg.contains("text"), "{msg}");
    let (field, msg) = err(json!([{"check": "looks_right"}]));
    assert!(field.starts_with("verification[0]"), "{field}: {msg}");
    assert!(
        msg.contains("looks_right") && msg.contains("text_present"),
        "{msg}"
    );
    let (field, msg) = err(json!([{"check": "text_present", "text": "x", "colour": "red"}]));
    assert!(
        field.contains("colour") || msg.contains("colour"),
        "{field}: {msg}"
    );
    assert_eq!(
        err(json!([{"check": "field_value", "field": "Email"}])),
        (
            "verification[0].equals".to_owned(),
            "give exactly one of `equals` and `contains`".to_owned()
        )
    );
    let (field, msg) = err(
        json!([{"check": "element_state", "element": "X", "role": "blob", "state": "checked"}]),
    );
    assert_eq!(field, "verification[0].role");
    assert!(msg.contains("\"blob\""), "{msg}");
    let (field, _) = err(json!([{"check": "count", "role": "row", "at_least": 3, "at_most": 1}]));
    assert_eq!(field, "verification[0].at_least");
    let (field, _) = err(json!([{"check": "text_present", "text": "  "}]));
    assert_eq!(field, "verification[0].text");
    let (field, msg) = err(json!([7]));
    assert!(field.starts_with("verification[0]"), "{field}: {msg}");
    assert!(msg.contains("string or a check object"), "{msg}");
    let (field, msg) = err(json!("The page shows Saved"));
    assert_eq!(field, "verification");
    assert!(msg.contains("not a bare string"), "{msg}");
    // A click names what was clicked; an item scope is one count.
    let (field, _) = err(json!([{"check": "clicked", "within": {"text": "Ann"}}]));
    assert_eq!(field, "verification[0].element");
    let (field, msg) = err(
        json!([{"check": "clicked", "element": "Like", "within": {"text": "Ann", "count": 2, "every": true}}]),
    );
    assert_eq!(field, "verification[0].within", "{msg}");
    let (field, _) = err(json!([{"check": "clicked", "nth": 0}]));
    assert_eq!(field, "verification[0].nth");
    let (field, _) =
        err(json!([{"check": "field_value", "field": "Code", "equals": "x", "shown_for": "Code"}]));
    assert_eq!(field, "verification[0].shown_for");
}

#[test]
fn a_click_and_values_by_label_are_stated_and_said_in_words() {
    let s = parse(json!([
        {"check": "clicked", "element": "Like", "role": "button", "within": {"text": "@ann", "every": true}},
        {"check": "clicked", "element": "search result", "nth": 5},
        {"check": "values_by_label"},
        {"check": "field_value", "field": "the textbox", "shown_for": "Tracking code"}
    ]))
    .unwrap();
    let words: Vec<String> = s
        .verification
        .iter()
        .map(|c| c.text().into_owned())
        .collect();
    assert_eq!(
        words,
        [
            "the run clicked the button \"Like\" in each item showing \"@ann\"",
            "the run clicked entry 5 of the list (\"search result\")",
            "each field holds the value the page shows for its label",
            "the \"the textbox\" field holds what the page shows for \"Tracking code\""
        ]
    );
    let back = Subtask::from_json(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}
