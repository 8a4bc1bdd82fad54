//! Date fields: an unlabelled `<input type="date">` grounds by its input type, and a field
//! holding the literal's date in another written form (the ISO value a date input keeps)
//! holds the literal — for the step and for a "field contains" criterion.

#[path = "common/reflex_pages.rs"]
mod pages;

use arc_core::{Action, ActionKind as K, Choice, Role, TerminalKind};
use pages::*;
use serde_json::json;

fn date_field(v: Option<&str>) -> arc_core::Element {
    let f = meta(
        el("e3", Role::TextField, "", &[K::Click, K::SetValue]),
        "input_type",
        "date",
    );
    match v {
        Some(v) => value(f, v),
        None => f,
    }
}

fn task() -> arc_core::Subtask {
    subtask(
        json!({"goal": "Enter 10/20/2017 as the date", "inputs": {"date": "10/20/2017"},
        "verification": ["the date field contains \"10/20/2017\""]}),
    )
}

#[test]
fn an_unlabelled_date_input_is_set_for_the_date_key() {
    let els = vec![doc("Form"), date_field(None), button("e4", "Submit")];
    let d = decide(&task(), els);
    match d.choice {
        Choice::Act(Action::SetValue { target, input_key }) => {
            assert_eq!((target.as_str(), input_key.as_str()), ("e3", "date"))
        }
        other => panic!("{other:?} ({:?})", d.reason),
    }
}

#[test]
fn a_date_input_holding_the_iso_form_holds_the_written_date() {
    let els = vec![doc("Form"), date_field(Some("2017-10-20"))];
    let d = decide(&task(), els);
    assert_eq!(terminal(&d), Some(TerminalKind::SubtaskComplete), "{d:?}");
    // Another date is not the literal.
    let els = vec![doc("Form"), date_field(Some("2017-10-21"))];
    let d = decide(&task(), els);
    assert!(
        matches!(d.choice, Choice::Act(Action::SetValue { .. })),
        "{d:?}"
    );
}
