//! Fields whose value the accessibility tree does not show as a script reads it: a native
//! date input (SET_VALUE from written dates, one field) and a spinbutton `<input>` whose
//! aria-valuenow lags typing. Checked through the page's own DOM and `window.__events`, and
//! observed by both the full read and the viewport scan. And the typed facts a snapshot
//! reports about fields and the page, checked against what the page itself says.

use crate::common;

use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{Action, ActionKind, InputType, Role, Snapshot, Subtask};
use common::Fixture;

fn field<'a>(s: &'a Snapshot, dom_id: &str) -> &'a arc_core::Element {
    s.elements
        .iter()
        .find(|e| e.facts.dom_id.as_deref() == Some(dom_id))
        .unwrap_or_else(|| panic!("no element #{dom_id}"))
}

async fn both_scopes(page: &str) -> Vec<(Scope, Fixture)> {
    let mut out = Vec::new();
    for scope in [Scope::Full, Scope::Viewport] {
        let options = BrowserOptions {
            scope,
            ..Default::default()
        };
        out.push((scope, Fixture::open_with(page, options).await));
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_date_input_is_one_field_set_from_a_written_date_in_iso_form() {
    for (scope, mut f) in both_scopes("dates.html").await {
        let s = f.observe().await;
        let date = field(&s, "when");
        assert_eq!(date.role, Role::TextField, "{scope:?}");
        assert_eq!(date.facts.input_type, Some(InputType::Date));
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
    for (scope, mut f) in both_scopes("dates.html").await {
        let s = f.observe().await;
        let spin = field(&s, "count");
        assert_eq!(spin.role, Role::SpinButton, "{scope:?}");
        let t = Subtask::new("g", "v").with_input("n", "5");
        let typed = Action::type_text(spin.id.clone(), "n");
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

/// What the page itself says about each of its form controls.
#[derive(Debug, serde::Deserialize)]
struct DomControl {
    id: String,
    label: String,
    /// The `type` attribute as written, and what the browser made of it (`el.type`: an
    /// unknown type reads as the default).
    type_attr: Option<String>,
    type_prop: String,
    name: Option<String>,
    placeholder: Option<String>,
    test_id: Option<String>,
}

const DOM_CONTROLS: &str = r#"[...document.querySelectorAll('input, textarea, button')].map(el => ({
    id: el.id,
    label: (el.labels && el.labels.length ? el.labels[0] : el).textContent.trim(),
    type_attr: el.getAttribute('type'),
    type_prop: el.type,
    name: el.getAttribute('name'),
    placeholder: el.getAttribute('placeholder'),
    test_id: ['data-testid', 'data-test-id', 'data-test', 'data-qa']
        .map(a => el.getAttribute(a)).find(v => v !== null) ?? null,
}))"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_snapshots_typed_facts_are_what_the_page_says_and_keep_their_wire_keys() {
    for (scope, mut f) in both_scopes("facts.html").await {
        let s = f.observe().await;
        let href = f.eval("location.href").await;
        let title = f.eval("document.title").await;
        assert_eq!(s.url(), href.as_str(), "{scope:?}");
        assert_eq!(s.facts.title.as_deref(), title.as_str(), "{scope:?}");
        assert_eq!(s.title(), title.as_str().unwrap(), "{scope:?}");

        let controls: Vec<DomControl> =
            serde_json::from_value(f.eval(DOM_CONTROLS).await).expect("the page's controls");
        assert_eq!(controls.len(), 8, "{controls:#?}");
        for c in &controls {
            let e = field(&s, &c.id);
            let facts = &e.facts;
            assert_eq!(e.name, c.label, "{scope:?} #{}", c.id);
            assert_eq!(facts.form_name, c.name, "{scope:?} #{}", c.id);
            assert_eq!(facts.placeholder, c.placeholder, "{scope:?} #{}", c.id);
            assert_eq!(facts.test_id, c.test_id, "{scope:?} #{}", c.id);
            let typed = facts.input_type.as_ref();
            assert_eq!(
                typed.map(|t| t.as_str().to_owned()),
                c.type_attr.as_ref().map(|t| t.to_lowercase()),
                "{scope:?} #{}",
                c.id
            );
            // Known to us exactly when the browser knows it.
            if let (Some(t), Some(attr)) = (typed, &c.type_attr) {
                let browser_knows = c.type_prop == attr.to_lowercase();
                assert_eq!(
                    !matches!(t, InputType::Other(_)),
                    browser_knows,
                    "{scope:?} #{}: {t:?} vs el.type {:?}",
                    c.id,
                    c.type_prop
                );
            }
        }
        // The fixture covers each kind of fact, so none of the checks above is vacuous.
        let typed = |id: &str| field(&s, id).facts.input_type.clone();
        assert_eq!(typed("mail"), Some(InputType::Email), "{scope:?}");
        assert_eq!(typed("send"), Some(InputType::Submit), "{scope:?}");
        assert_eq!(
            typed("code"),
            Some(InputType::Other("x-custom".into())),
            "{scope:?}"
        );
        assert_eq!(typed("notes"), None, "{scope:?}");

        // On the wire the facts are where the reference keeps them, under the keys they
        // always had.
        let wire = serde_json::to_value(&s).unwrap();
        assert_eq!(wire["context"]["url"], href, "{scope:?}");
        assert_eq!(wire["context"]["title"], title, "{scope:?}");
        let expected_scope = match scope {
            Scope::Full => "full",
            _ => "viewport",
        };
        assert_eq!(wire["context"]["scope"], expected_scope);
        let mail = wire["elements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["metadata"]["dom_id"] == "mail")
            .expect("#mail on the wire");
        let m = &mail["metadata"];
        assert_eq!(
            (
                &m["name_attr"],
                &m["placeholder"],
                &m["test_id"],
                &m["input_type"],
                &m["tag"]
            ),
            (
                &"contact_email".into(),
                &"you@example.com".into(),
                &"email-field".into(),
                &"email".into(),
                &"input".into()
            ),
            "{scope:?}"
        );
        let back: Snapshot = serde_json::from_value(wire).unwrap();
        assert_eq!(back, s, "{scope:?}");
    }
}
