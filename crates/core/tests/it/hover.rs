//! HOVER: the wire shape (CLICK's, `target_id` only), materialize's checks (CLICK's, with
//! CLICK's error codes) and the risk check (a hover presses nothing, so it has no risk).

use arc_core::{
    risk, Action, ActionKind, ActionSet, BackendError, Decision, Element, ErrorCode,
    ExecutableAction, Role, Snapshot, Subtask,
};

fn item(id: &str, name: &str, actions: ActionSet) -> Element {
    let mut e = Element::new(id, Role::MenuItem, name);
    e.actions = actions;
    e
}

fn menu() -> Snapshot {
    let both = ActionSet::from([ActionKind::Click, ActionKind::Hover]);
    let mut hidden = item("hidden", "Hidden", both);
    hidden.visible = false;
    let mut off = item("off", "Off", both);
    off.enabled = false;
    Snapshot::new(
        "app",
        "w",
        vec![
            item("file", "File", both),
            item("delete", "Delete account", both),
            item("click_only", "Save", ActionSet::from([ActionKind::Click])),
            hidden,
            off,
        ],
    )
}

fn hover(id: &str) -> Action {
    Action::Hover { target: id.into() }
}

#[test]
fn the_wire_kind_is_hover_with_a_target_id() {
    assert_eq!(ActionKind::Hover.as_str(), "HOVER");
    assert!(ActionKind::Hover.needs_target());
    assert!(!ActionKind::Hover.needs_input());
    assert!(ActionKind::ALL.contains(&ActionKind::Hover));
    let wire = r#"{"kind":"HOVER","target_id":"file"}"#;
    let d: Decision = serde_json::from_str(wire).unwrap();
    assert_eq!(d, Decision::act(hover("file")));
    assert_eq!(serde_json::to_string(&d).unwrap(), wire);
    let set: ActionSet = serde_json::from_str(r#"["CLICK","HOVER"]"#).unwrap();
    assert!(set.contains(ActionKind::Hover) && set.contains(ActionKind::Click));
    assert_eq!(serde_json::to_string(&set).unwrap(), r#"["CLICK","HOVER"]"#);
}

#[test]
fn a_hover_without_a_target_or_with_unknown_fields_is_rejected() {
    let err = serde_json::from_str::<Decision>(r#"{"kind":"HOVER"}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("HOVER requires target_id"), "{err}");
    let err = serde_json::from_str::<Decision>(r#"{"kind":"HOVER","target_id":"a","x":3}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `x`"), "{err}");
    let err = serde_json::from_str::<ExecutableAction>(
        r#"{"kind":"HOVER","target_id":"a","dwell_ms":300}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown field `dwell_ms`"), "{err}");
}

#[test]
fn materialize_attaches_the_guard_and_round_trips() {
    let snap = menu();
    let task = Subtask::new("open File", "File is open");
    let exec = ExecutableAction::materialize(&hover("file"), &snap, &task).unwrap();
    assert_eq!(exec.kind(), ActionKind::Hover);
    assert_eq!(exec.target().map(|t| t.as_str()), Some("file"));
    assert_eq!(
        exec.target_guard,
        Some(snap.element("file").unwrap().effective_guard())
    );
    assert!(exec.value.is_none() && exec.secondary_target_guard.is_none());
    let text = serde_json::to_string(&exec).unwrap();
    assert!(text.starts_with(r#"{"kind":"HOVER","target_id":"file","target_guard":"#));
    let back: ExecutableAction = serde_json::from_str(&text).unwrap();
    assert_eq!(back, exec);
}

#[test]
fn materialize_refuses_what_click_refuses_with_the_same_codes() {
    let snap = menu();
    let task = Subtask::new("g", "v");
    for (id, field, says) in [
        ("e404", "target_id", "Unknown target id e404"),
        ("hidden", "target_id", "hidden is not visible"),
        ("off", "target_id", "off is not enabled"),
        ("click_only", "kind", "HOVER is not legal for click_only"),
    ] {
        let err = ExecutableAction::materialize(&hover(id), &snap, &task).unwrap_err();
        assert_eq!(err.field, field, "{id}: {err:?}");
        assert!(err.message.contains(says), "{id}: {}", err.message);
        // The code is CLICK's for the same refusal.
        let click = ExecutableAction::materialize(&Action::click(id), &snap, &task);
        let code = ErrorCode::InvalidDecision;
        assert_eq!(BackendError::Invalid(err).code(), code);
        if id != "click_only" {
            assert_eq!(BackendError::Invalid(click.unwrap_err()).code(), code);
        }
    }
}

#[test]
fn a_hover_carries_no_risk() {
    let snap = menu();
    let task = Subtask::new("g", "v");
    let exec = ExecutableAction::materialize(&hover("delete"), &snap, &task).unwrap();
    assert!(risk::check(&exec, &snap, &task, &Default::default()).is_ok());
    let click = ExecutableAction::materialize(&Action::click("delete"), &snap, &task).unwrap();
    assert!(risk::check(&click, &snap, &task, &Default::default()).is_err());
}
