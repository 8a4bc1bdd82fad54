//! Date fields: an unlabelled `<input type="date">` grounds by its input type, and a field
//! holding the literal's date in another written form (the ISO value a date input keeps)
//! holds the literal — for the step and for a "field contains" criterion.

use crate::pages;

use arc_core::{Action, ActionKind as K, Choice, InputType, Role, TerminalKind};
use pages::*;
use serde_json::json;

fn date_field(v: Option<&str>) -> arc_core::Element {
    let f = input_type(
        el("e3", Role::TextField, "", &[K::Click, K::SetValue]),
        InputType::Date,
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

/// A read-only field a calendar fills: "Date:" beside it; a click opens December 2016.
fn picker_page() -> Page {
    let els = vec![
        doc("Form"),
        text("e2", Role::StaticText, "Date:"),
        el("e3", Role::TextField, "", &[K::Click]),
        button("e4", "Submit"),
    ];
    Page::new(els, |p, a| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        if a.kind() != K::Click {
            return;
        }
        if id == "e3" {
            p.show(text("e10", Role::Group, "December 2016"));
            for d in 1..=31 {
                let day = under(
                    el(&format!("d{d}"), Role::Link, &d.to_string(), &[K::Click]),
                    "e10",
                );
                p.show(day);
            }
        } else if let Some(d) = id.strip_prefix('d') {
            // Chromium names such a read-only input by its value once it holds one.
            let v = format!("12/{d:0>2}/2016");
            let field = p.get("e3").unwrap();
            field.value = Some(v.as_str().into());
            field.name = v;
            p.els
                .retain(|e| !e.id.as_str().starts_with('d') && e.id.as_str() != "e10");
        }
    })
}

#[tokio::test]
async fn a_read_only_date_field_is_filled_from_its_calendar() {
    let task = subtask(
        json!({"goal": "Select 12/24/2016 as the date and hit submit.",
        "inputs": {"date": "12/24/2016"},
        "verification": ["the date field contains \"12/24/2016\"", "\"submit\" has been clicked"]}),
    );
    let (result, page, _) = run(picker_page(), &task).await;
    assert_complete(&result);
    assert_eq!(page.log, ["CLICK e3", "CLICK d24", "CLICK e4"]);
    assert_eq!(page.value_of("e3"), "12/24/2016");
}

#[tokio::test]
async fn a_calendar_showing_another_month_is_not_clicked() {
    let task = subtask(
        json!({"goal": "Select 01/24/2017 as the date and hit submit.",
        "inputs": {"date": "01/24/2017"},
        "verification": ["the date field contains \"01/24/2017\""]}),
    );
    let (result, page, _) = run(picker_page(), &task).await;
    assert_ne!(result.status, TerminalKind::SubtaskComplete);
    assert!(
        !page.log.iter().any(|l| l.starts_with("CLICK d")),
        "{:?}",
        page.log
    );
}
