//! The subtask boundary: `Subtask::from_json` on mutated planner payloads.

use crate::json::re;
use crate::json::{edge_number, field, object, text, Json};
use crate::props;
use arc_core::Subtask;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

const KEYS: &[&str] = &["email", "password", "name", "q", "count", "é"];

fn key() -> BoxedStrategy<String> {
    prop_oneof![
        4 => prop::sample::select(KEYS).prop_map(str::to_owned),
        1 => re("[a-z_]\\PC{0,11}"),
    ]
    .boxed()
}

/// Valid text: something that is not only whitespace. Mutations come from `field`.
fn words() -> BoxedStrategy<Json> {
    re("[A-Za-z0-9é\"<>]\\PC{0,59}").prop_map(Json::Str).boxed()
}

fn list(item: BoxedStrategy<Json>, len: std::ops::Range<usize>) -> BoxedStrategy<Json> {
    prop::collection::vec(item, len).prop_map(Json::Arr).boxed()
}

fn scalar() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => re("\\PC{0,30}").prop_map(Json::Str),
        1 => any::<i64>().prop_map(|n| Json::Raw(n.to_string())),
        1 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| Json::Raw(format!("{f:?}"))),
        1 => any::<bool>().prop_map(|b| Json::Raw(b.to_string())),
    ]
    .boxed()
}

pub fn payload() -> BoxedStrategy<String> {
    let inputs = prop::collection::vec((key(), scalar()), 0..5)
        .prop_map(Json::Obj)
        .boxed();
    let risks = prop::sample::subsequence(vec!["delete", "send", "purchase", "close"], 0..4)
        .prop_map(|v| Json::Arr(v.into_iter().map(Json::str).collect()))
        .boxed();
    let chord = prop::sample::select(vec![
        "MOD+S",
        "CTRL+SHIFT+Z",
        "ALT+F4",
        "shift+tab",
        "MOD+ENTER",
    ])
    .prop_map(Json::str)
    .boxed();
    let metadata = prop::collection::vec((re("\\PC{0,8}"), crate::json::any_json()), 0..4)
        .prop_map(Json::Obj)
        .boxed();
    let max_actions = prop_oneof![
        4 => (1u32..200).prop_map(|n| Json::Raw(n.to_string())),
        1 => edge_number(),
    ]
    .boxed();
    text(object(vec![
        field("goal", words()),
        field("verification", list(words(), 1..4)),
        field("inputs", inputs),
        field("constraints", list(words(), 0..3)),
        field("max_actions", max_actions),
        field("metadata", metadata),
        field("allowed_risks", risks),
        field(
            "secret_inputs",
            prop_oneof![4 => Just(Json::Arr(vec![])), 1 => list(key().prop_map(Json::Str).boxed(), 1..3)].boxed(),
        ),
        field("shortcuts", list(chord, 0..3)),
    ]))
}

/// Never panics; an error has a stable code and names a field; an accepted subtask
/// re-serializes and re-parses equal.
pub fn check(text: &str) -> Result<bool, String> {
    match props::no_panic(|| Subtask::from_json(text))? {
        Err(e) => props::contract_error(&e).map(|_| false),
        Ok(s) => {
            let again = serde_json::to_string(&s).map_err(|e| format!("serializing: {e}"))?;
            match Subtask::from_json(&again) {
                Ok(back) if back == s => Ok(true),
                Ok(back) => Err(format!("re-parsed differently: {back:?} vs {s:?}")),
                Err(e) => Err(format!("its own serialization {again:?} is rejected: {e}")),
            }
        }
    }
}
