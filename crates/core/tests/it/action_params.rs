//! The one table of action parameters: every wire struct that carries them accepts
//! exactly the reference's keys, writes them byte for byte as before, and refuses an
//! unknown key by name. The expected keys are spelled here, from the reference, not read
//! from the table: the table is what is under test.

use arc_core::action::{ActionFields, ActionParam};
use arc_core::{
    Action, Decision, ElementId, ErrorCode, ExecutableAction, Guard, Key, Scalar, ScrollDirection,
    Tier,
};

/// The reference's flat action parameters, in its order.
const REFERENCE_PARAMS: [&str; 9] = [
    "target_id",
    "secondary_target_id",
    "input_key",
    "key",
    "hotkey",
    "scroll_direction",
    "drag_dx",
    "drag_dy",
    "click_modifier",
];

/// The keys serde says a `deny_unknown_fields` struct accepts, read from its own error
/// ("unknown field `…`, expected one of `a`, `b`").
fn accepted_keys<T: serde::de::DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
    let err = serde_json::from_str::<T>(r#"{"__probe": 1}"#).unwrap_err();
    let message = err.to_string();
    let list = message
        .split("expected one of ")
        .nth(1)
        .unwrap_or_else(|| panic!("not an unknown-field error: {message}"));
    list.split(" at line")
        .next()
        .unwrap()
        .split(", ")
        .map(|k| k.trim_matches('`').to_owned())
        .collect()
}

fn with(head: &[&str], tail: &[&str]) -> Vec<String> {
    head.iter()
        .chain(REFERENCE_PARAMS.iter())
        .chain(tail)
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn the_table_is_the_reference_parameter_list() {
    let names: Vec<&str> = ActionParam::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names, REFERENCE_PARAMS);
}

#[test]
fn decision_accepts_exactly_the_table_plus_its_own_fields() {
    assert_eq!(
        accepted_keys::<Decision>(),
        with(
            &["kind", "terminal"],
            &[
                "confidence",
                "margin",
                "latency_ms",
                "reason",
                "provenance",
                "raw"
            ]
        )
    );
}

#[test]
fn executable_action_accepts_exactly_the_table_plus_what_materialize_resolved() {
    let mut want = vec!["kind".to_owned()];
    for p in REFERENCE_PARAMS {
        want.push(p.to_owned());
        match p {
            "target_id" => want.push("target_guard".into()),
            "secondary_target_id" => want.push("secondary_target_guard".into()),
            "input_key" => want.push("value".into()),
            _ => {}
        }
    }
    assert_eq!(accepted_keys::<ExecutableAction>(), want);
}

#[test]
fn an_unknown_key_is_refused_with_its_name() {
    let err =
        Decision::from_json(r#"{"kind":"CLICK","target_id":"e1","target":"e2"}"#).unwrap_err();
    assert_eq!(
        (err.code, err.field.as_str()),
        (ErrorCode::UnknownField, "target")
    );
    let err = serde_json::from_str::<ExecutableAction>(
        r#"{"kind":"CLICK","target_id":"e1","drag_dz":1}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("unknown field `drag_dz`"), "{err}");
}

#[test]
fn a_missing_parameter_error_names_the_table_field() {
    for (text, field) in [
        (
            r#"{"kind":"DRAG_TO","target_id":"e1"}"#,
            "secondary_target_id",
        ),
        (r#"{"kind":"SCROLL"}"#, "scroll_direction"),
        (
            r#"{"kind":"DRAG_BY","target_id":"e1","drag_dy":1}"#,
            "drag_dx",
        ),
        (r#"{"kind":"HOTKEY"}"#, "hotkey"),
        (r#"{"kind":"PRESS_KEY"}"#, "key"),
    ] {
        assert_eq!(
            Decision::from_json(text).unwrap_err().field,
            field,
            "{text}"
        );
    }
}

/// Written byte for byte as before the table existed (key order included).
#[test]
fn the_wire_text_is_unchanged() {
    let drag = Decision::act(Action::DragTo {
        target: ElementId::from("e1"),
        destination: ElementId::from("e2"),
    })
    .with_confidence(0.5, 0.25)
    .with_reason("why")
    .by(Tier::Reflex, "reflex");
    assert_eq!(
        serde_json::to_string(&drag).unwrap(),
        r#"{"kind":"DRAG_TO","target_id":"e1","secondary_target_id":"e2","confidence":0.5,"margin":0.25,"reason":"why","provenance":{"tier":"reflex","policy":"reflex"}}"#
    );
    let by = Decision::act(Action::DragBy {
        target: ElementId::from("e1"),
        dx: 3.0,
        dy: -4.5,
    });
    assert_eq!(
        serde_json::to_string(&by).unwrap(),
        r#"{"kind":"DRAG_BY","target_id":"e1","drag_dx":3.0,"drag_dy":-4.5}"#
    );
    let typed = ExecutableAction {
        action: Action::type_text(ElementId::from("e3"), "email"),
        target_guard: Some(Guard("g3".into())),
        secondary_target_guard: None,
        value: Some(Scalar::Text("ada@example.com".into())),
    };
    assert_eq!(
        serde_json::to_string(&typed).unwrap(),
        r#"{"kind":"TYPE_TEXT","target_id":"e3","target_guard":"g3","input_key":"email","value":"ada@example.com"}"#
    );
    let dragged = ExecutableAction {
        action: Action::DragTo {
            target: ElementId::from("e1"),
            destination: ElementId::from("e2"),
        },
        target_guard: Some(Guard("g1".into())),
        secondary_target_guard: Some(Guard("g2".into())),
        value: None,
    };
    assert_eq!(
        serde_json::to_string(&dragged).unwrap(),
        r#"{"kind":"DRAG_TO","target_id":"e1","target_guard":"g1","secondary_target_id":"e2","secondary_target_guard":"g2"}"#
    );
    let scroll = ExecutableAction {
        action: Action::Scroll {
            direction: ScrollDirection::Down,
            target: None,
        },
        target_guard: None,
        secondary_target_guard: None,
        value: None,
    };
    assert_eq!(
        serde_json::to_string(&scroll).unwrap(),
        r#"{"kind":"SCROLL","scroll_direction":"DOWN"}"#
    );
    for e in [typed, dragged, scroll] {
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<ExecutableAction>(&text).unwrap(), e);
    }
}

#[test]
fn a_parameter_is_set_from_its_wire_text_through_the_table() {
    let mut f = ActionFields::new(arc_core::ActionKind::PressKey);
    f.set_text(ActionParam::Key, "Enter").unwrap();
    assert_eq!(f.key, Some(Key::Enter));
    let mut f = ActionFields::new(arc_core::ActionKind::Scroll);
    f.set_text(ActionParam::ScrollDirection, "UP").unwrap();
    assert_eq!(f.scroll_direction, Some(ScrollDirection::Up));
    let err = f.set_text(ActionParam::ScrollDirection, "up").unwrap_err();
    assert!(err.contains("scroll_direction"), "{err}");
    let err = f.set_text(ActionParam::DragDx, "left").unwrap_err();
    assert!(err.contains("drag_dx"), "{err}");
}
