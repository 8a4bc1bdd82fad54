//! Regressions from `arc-fuzz` (docs/FUZZING.md): a boundary error names a field and
//! never echoes a huge input back.

use arc_core::{ContractError, Decision, ErrorCode, Subtask};

const LIMIT: usize = 1_024;

fn short(e: &ContractError) {
    assert!(!e.field.trim().is_empty(), "{e:?}");
    assert!(
        e.field.len() + e.message.len() <= LIMIT,
        "{} bytes",
        e.field.len() + e.message.len()
    );
}

#[test]
fn a_huge_value_is_not_echoed_by_the_subtask_boundary() {
    let huge = "¡".repeat(100_000);
    for payload in [
        format!(r#"{{"goal":"a","verification":{huge:?}}}"#),
        format!(r#"{{"goal":"a","verification":["b"],"max_actions":{huge:?}}}"#),
        format!(r#"{{"goal":"a","verification":["b"],{huge:?}:1}}"#),
        format!(r#"{{"goal":"a","verification":["b"],"allowed_risks":[{huge:?}]}}"#),
    ] {
        let e = Subtask::from_json(&payload).unwrap_err();
        short(&e);
    }
}

#[test]
fn a_huge_value_is_not_echoed_by_the_decision_boundary() {
    let huge = "\\u0000".repeat(50_000);
    let e = Decision::from_json(&format!(r#"{{"kind":"PRESS_KEY","key":"{huge}"}}"#)).unwrap_err();
    assert_eq!(e.field, "key");
    short(&e);
}

#[test]
fn an_empty_unknown_key_still_names_where_it_is() {
    let e = Decision::from_json(r#"{"terminal":"BLOCKED","":null}"#).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::UnknownField, "payload")
    );
    let e = Subtask::from_json(r#"{"goal":"a","verification":["b"],"":1}"#).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::UnknownField, "payload")
    );
}
