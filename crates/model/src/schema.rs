//! The JSON schema of one answer, built from the action space: one string-enum property
//! per head, plus `confidence` and `reason`. It is OpenAI "strict" compatible: every
//! property required, no additional properties, no unsupported keywords.
//!
//! Properties are serialized in answer order (verdicts, operation, operation heads),
//! because a model fills a strict schema front to back: judging the criteria before
//! picking the operation is the point of putting them first.

use super::heads::{Head, Operation};
use super::ordered::Ordered;
use super::space::ActionSpace;

/// The self-reported belief property.
pub(crate) const CONFIDENCE: &str = "confidence";
/// The one-sentence justification property.
pub(crate) const REASON: &str = "reason";

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DecisionSchema {
    #[serde(rename = "type")]
    kind: &'static str,
    properties: Ordered<String, Property>,
    required: Vec<String>,
    #[serde(rename = "additionalProperties")]
    additional_properties: bool,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct Property {
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    choices: Option<Vec<String>>,
}

impl DecisionSchema {
    /// `criteria` are the (already redacted) verification criteria, in order.
    pub fn build(space: &ActionSpace, criteria: &[String]) -> Self {
        let mut properties = Vec::new();
        for head in space.heads() {
            let choices = space.choices(head);
            if choices.is_empty() {
                continue;
            }
            properties.push((
                head.name(),
                Property {
                    kind: "string",
                    description: describe(head, criteria),
                    choices: Some(choices),
                },
            ));
        }
        properties.push((
            CONFIDENCE.into(),
            Property {
                kind: "number",
                description: "Your probability, from 0 to 1, that the chosen operation and its heads are right.".into(),
                choices: None,
            },
        ));
        properties.push((
            REASON.into(),
            Property {
                kind: "string",
                description: "One short sentence: why this operation, or what is missing.".into(),
                choices: None,
            },
        ));
        DecisionSchema {
            kind: "object",
            required: properties.iter().map(|(k, _)| k.clone()).collect(),
            properties: Ordered(properties),
            additional_properties: false,
        }
    }

    /// The property names, in order.
    pub fn property_names(&self) -> impl Iterator<Item = &str> {
        self.properties.0.iter().map(|(k, _)| k.as_str())
    }
}

fn describe(head: Head, criteria: &[String]) -> String {
    let only = |op: Operation| format!("(used only if operation is {op})");
    match head {
        Head::Operation => "The one operation to perform next.".into(),
        Head::Target(kind) => format!("Element id to {kind} {}.", only(Operation::Act(kind))),
        Head::Destination => format!(
            "Drop target element id {}.",
            only(Operation::Act(arc_core::ActionKind::DragTo))
        ),
        Head::Input(kind) => format!(
            "Input key whose literal {kind} uses {}.",
            only(Operation::Act(kind))
        ),
        Head::Key => format!(
            "Key to press {}.",
            only(Operation::Act(arc_core::ActionKind::PressKey))
        ),
        Head::Hotkey => format!(
            "Shortcut to press {}.",
            only(Operation::Act(arc_core::ActionKind::Hotkey))
        ),
        Head::Scroll => format!(
            "Direction to scroll {}.",
            only(Operation::Act(arc_core::ActionKind::Scroll))
        ),
        Head::Criterion(i) => format!(
            "Verdict on verification criterion {i}: {}",
            criteria.get(i).map(String::as_str).unwrap_or("")
        ),
    }
}
