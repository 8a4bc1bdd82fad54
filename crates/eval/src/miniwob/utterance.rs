//! What the task tells a person: `core.getUtterance()`, a string or, for a few tasks, an
//! object `{utterance, fields}`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Utterance {
    /// The instruction as shown (whitespace collapsed by the page).
    pub text: String,
    /// Named fields, when the page states them next to the text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, String>,
}

impl Utterance {
    pub fn text(text: impl Into<String>) -> Utterance {
        Utterance {
            text: text.into(),
            fields: BTreeMap::new(),
        }
    }

    /// Reads `core.getUtterance()`'s value; `None` when it is neither shape.
    pub fn from_value(v: &serde_json::Value) -> Option<Utterance> {
        match v {
            serde_json::Value::String(s) => Some(Utterance::text(s.clone())),
            serde_json::Value::Object(o) => {
                let text = o.get("utterance")?.as_str()?.to_owned();
                let fields = o
                    .get("fields")
                    .and_then(|f| f.as_object())
                    .map(|f| {
                        f.iter()
                            .filter_map(|(k, v)| Some((k.clone(), scalar_text(v)?)))
                            .collect()
                    })
                    .unwrap_or_default();
                Some(Utterance { text, fields })
            }
            _ => None,
        }
    }
}

fn scalar_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes_are_read() {
        assert_eq!(
            Utterance::from_value(&json!("Click the button.")),
            Some(Utterance::text("Click the button."))
        );
        let u = Utterance::from_value(&json!({
            "utterance": "Forward the email from Ann to Bo.",
            "fields": {"by": "Ann", "to": "Bo", "n": 3}
        }))
        .unwrap();
        assert_eq!(u.fields.get("to").map(String::as_str), Some("Bo"));
        assert_eq!(u.fields.get("n").map(String::as_str), Some("3"));
        assert_eq!(Utterance::from_value(&json!(42)), None);
    }
}
