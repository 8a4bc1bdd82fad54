//! The decision boundary: `Decision::from_json` on mutated policy answers.

use crate::json::re;
use crate::json::{any_json, edge_number, edge_string, field, object, text, Json};
use crate::props;
use arc_core::{ActionKind, ActionParam, Decision};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

fn pick(options: Vec<&'static str>) -> BoxedStrategy<Json> {
    prop_oneof![
        8 => prop::sample::select(options).prop_map(Json::str),
        1 => edge_string(),
    ]
    .boxed()
}

fn unit() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => (0.0f64..=1.0).prop_map(|f| Json::Raw(format!("{f:?}"))),
        1 => edge_number(),
    ]
    .boxed()
}

fn number() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => (-2000.0f64..2000.0).prop_map(|f| Json::Raw(format!("{f:?}"))),
        1 => edge_number(),
    ]
    .boxed()
}

fn id() -> BoxedStrategy<Json> {
    pick(vec!["e1", "e2", "e10", "", "e1 ", "é"])
}

/// Values for each parameter of core's table (a new row fails to compile here).
fn param(p: ActionParam) -> BoxedStrategy<Json> {
    match p {
        ActionParam::TargetId | ActionParam::SecondaryTargetId => id(),
        ActionParam::InputKey => pick(vec!["email", "q", "", "password"]),
        ActionParam::Key => pick(vec![
            "Enter",
            "tab",
            "ESCAPE",
            "F5",
            "F25",
            "a",
            " ",
            "ArrowDown",
            "ctrl",
        ]),
        ActionParam::Hotkey => pick(vec!["MOD+S", "CTRL+SHIFT+Z", "MOD+", "A", "SHIFT"]),
        ActionParam::ScrollDirection => pick(vec!["UP", "DOWN", "LEFT", "RIGHT", "up"]),
        ActionParam::DragDx | ActionParam::DragDy => number(),
        ActionParam::ClickModifier => pick(vec!["MOD", "SHIFT", "shift", "ALT", "CTRL+", ""]),
    }
}

pub fn payload() -> BoxedStrategy<String> {
    let kinds: Vec<&'static str> = ActionKind::ALL.iter().map(|k| k.as_str()).collect();
    let terminals = vec![
        "SUBTASK_COMPLETE",
        "BLOCKED",
        "NEEDS_AGENT",
        "NEEDS_INPUT",
        "DRY_RUN",
        "done",
    ];
    let mut act = vec![field("kind", pick(kinds))];
    act.extend(ActionParam::ALL.iter().map(|&p| field(p.name(), param(p))));
    act.extend([
        field("confidence", unit()),
        field("margin", unit()),
        field("latency_ms", number()),
        field("reason", re("\\PC{0,40}").prop_map(Json::Str).boxed()),
        field("raw", any_json()),
    ]);
    let act = object(act);
    let terminal = object(vec![
        field("terminal", pick(terminals)),
        field("confidence", unit()),
        field("reason", edge_string()),
        field("raw", any_json()),
    ]);
    text(prop_oneof![3 => act, 1 => terminal].boxed())
}

/// Never panics; an error has a stable code and names a field; an accepted decision
/// re-serializes and re-parses equal.
pub fn check(text: &str) -> Result<bool, String> {
    match props::no_panic(|| Decision::from_json(text))? {
        Err(e) => props::contract_error(&e).map(|_| false),
        Ok(d) => {
            let again = serde_json::to_string(&d).map_err(|e| format!("serializing: {e}"))?;
            match Decision::from_json(&again) {
                Ok(back) if back == d => Ok(true),
                Ok(back) => Err(format!("re-parsed differently: {back:?} vs {d:?}")),
                Err(e) => Err(format!("its own serialization {again:?} is rejected: {e}")),
            }
        }
    }
}
