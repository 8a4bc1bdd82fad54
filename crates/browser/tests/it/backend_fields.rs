//! Fields whose value the accessibility tree does not show as a script reads it: a native
//! date input (SET_VALUE from written dates, one field) and a spinbutton `<input>` whose
//! aria-valuenow lags typing. Checked through the page's own DOM and `window.__events`, and
//! observed by both the full read and the viewport scan.

use crate::common;

use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{Action, ActionKind, Role, Snapshot, Subtask};
use common::Fixture;

fn field<'a>(s: &'a Snapshot, dom_id: &str) -> &'a arc_core::Element {
    s.elements
        .iter()
        .find(|e| e.metadata.get("dom_id").and_then(|v| v.as_str()) == Some(dom_id))
        .unwrap_or_else(|| panic!("no element #{dom_id}"))
}

async fn both_scopes() -> Vec<(Scope, Fixture)> {
    let mut out = Vec::new();
    for scope in [Scope::Full, Scope::Viewport] {
        let options = BrowserOptions {
            scope,
            ..Default::default()
        };
        out.push((scope, Fixture::open_with("dates.html", options).await));
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_date_input_is_one_field_set_from_a_written_date_in_iso_form() {
    for (scope, mut f) in both_scopes().await {
        let s = f.observe().await;
        let date = field(&s, "when");
        assert_eq!(date.role, Role::TextField, "{scope:?}");
        assert_eq!(date.metadata["input_type"], "date");
        assert!(date.actions.contains(ActionKind::SetValue), "{scope:?}");
        assert!(!date.actions.contains(ActionKind::TypeText), "{scope:?}");
        // Its parts (Month, Day, Year, the picker button) are not separate elements.
        assert!(
            !s.elements
                .iter()
                .any(|e| e.parent_id.as_ref() == Some(&date.id)),
            "{scope:?}"
        );
        let id = date.id.clone();
        let t = Subtask::new("g", "v").with_input("date", "10/20/2017");
        let set = Action::SetValue {
            target: id.clone(),
            input_key: "date".into(),
        };
        f.act(&s, set, &t).await.unwrap();
        assert_eq!(
            f.eval("document.getElementById('when').value").await,
            "2017-10-20"
        );
        let events = f.events().await;
        assert!(
            events.iter().any(|e| e["type"] == "change"
                && e["target"] == "when"
                && e["value"] == "2017-10-20"),
            "{events:#?}"
        );
        let s = f.observe().await;
        assert_eq!(
            field(&s, "when").value,
            Some("2017-10-20".into()),
            "{scope:?}"
        );
        // The ISO form is accepted as is.
        let t = Subtask::new("g", "v").with_input("date", "2016-02-29");
        let set = Action::SetValue {
            target: field(&s, "when").id.clone(),
            input_key: "date".into(),
        };
        f.act(&s, set, &t).await.unwrap();
        assert_eq!(
            f.eval("document.getElementById('when').value").await,
            "2016-02-29"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_date_is_refused_naming_the_value_and_the_forms_and_changes_nothing() {
    let mut f = Fixture::open("dates.html").await;
    let s = f.observe().await;
    for bad in ["20/10/2017", "02/30/2017", "next tuesday"] {
        let t = Subtask::new("g", "v").with_input("date", bad);
        let set = Action::SetValue {
            target: field(&s, "when").id.clone(),
            input_key: "date".into(),
        };
        let text = f.act(&s, set, &t).await.unwrap_err().to_string();
        assert!(
            text.contains(&format!("{bad:?}"))
                && text.contains("MM/DD/YYYY")
                && text.contains("YYYY-MM-DD"),
            "{text}"
        );
    }
    assert_eq!(f.eval("document.getElementById('when').value").await, "");
    let events = f.events().await;
    assert!(
        !events
            .iter()
            .any(|e| e["target"] == "when" && (e["type"] == "input" || e["type"] == "change")),
        "{events:#?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_spinbutton_input_is_observed_with_its_typed_value_not_its_aria_valuenow() {
    for (scope, mut f) in both_scopes().await {
        let s = f.observe().await;
        let spin = field(&s, "count");
        assert_eq!(spin.role, Role::SpinButton, "{scope:?}");
        let t = Subtask::new("g", "v").with_input("n", "5");
        let typed = Action::TypeText {
            target: spin.id.clone(),
            input_key: "n".into(),
        };
        f.act(&s, typed, &t).await.unwrap();
        // The page's own record: the input holds 5, aria-valuenow still says 0.
        assert_eq!(f.eval("document.getElementById('count').value").await, "5");
        assert_eq!(
            f.eval("document.getElementById('count').getAttribute('aria-valuenow')")
                .await,
            "0"
        );
        let s = f.observe().await;
        assert_eq!(field(&s, "count").value, Some("5".into()), "{scope:?}");
    }
}
