//! A policy's answer for one step: an action or a terminal status, never both.

use crate::action::{Action, ActionParam};
use crate::effect::Expect;
use crate::error::ContractError;
use crate::provenance::{Provenance, Tier};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TerminalKind {
    /// The verification criteria appear satisfied from the observable state.
    SubtaskComplete,
    /// No progress is possible with the available operations.
    Blocked,
    /// Higher-level reasoning, perception or budget is needed.
    NeedsAgent,
    /// A literal the subtask did not supply is needed.
    NeedsInput,
    /// The run only planned; nothing was executed.
    DryRun,
}

impl TerminalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TerminalKind::SubtaskComplete => "SUBTASK_COMPLETE",
            TerminalKind::Blocked => "BLOCKED",
            TerminalKind::NeedsAgent => "NEEDS_AGENT",
            TerminalKind::NeedsInput => "NEEDS_INPUT",
            TerminalKind::DryRun => "DRY_RUN",
        }
    }
}

impl fmt::Display for TerminalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    Act(Action),
    Terminal(TerminalKind),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DecisionWire", into = "DecisionWire")]
pub struct Decision {
    pub choice: Choice,
    /// The policy's belief in its choice, 0..=1.
    pub confidence: Option<f64>,
    /// The gap to the runner-up choice, 0..=1.
    pub margin: Option<f64>,
    pub latency_ms: Option<u64>,
    /// Why the policy chose this (surfaced as the result's `reason` on terminals).
    pub reason: Option<String>,
    /// Who made it (a policy stamps its own decisions; absent on foreign payloads).
    pub provenance: Option<Provenance>,
    /// The policy's own free-form payload (debugging, policy-private bookkeeping). Opaque
    /// to everything else: provenance is never read from here.
    pub raw: Option<serde_json::Value>,
    /// What the policy expects its click to do (settling ends once it holds). Not on the
    /// wire: a parsed decision has none and settles on what its action implies.
    pub expect: Option<Expect>,
    /// On a terminal decision, each criterion as the policy judged it on the last
    /// snapshot, with its evidence (the result's `verification`). Not on the wire.
    pub verdicts: Vec<crate::verdict::Verdict>,
    /// On NEEDS_INPUT, the field the planner is asked a value for (`target_id` on the
    /// wire).
    pub asks_for: Option<crate::ElementId>,
    /// On NEEDS_AGENT: the policy did every step it read in the goal and hands back only
    /// because its criteria are not shown to hold; a judge may look at them. Not on the
    /// wire.
    pub work_done: bool,
    /// On NEEDS_AGENT: the page asks, in this element, for what only a person can give
    /// (a password no input covers, a one-time code, a CAPTCHA). Not on the wire.
    pub hands_off: Option<(crate::ElementId, HumanNeed)>,
}

/// What a page asks for that the planner did not give and no model may make up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HumanNeed {
    /// A password field no input covers.
    Password,
    /// A one-time code (a second factor, a code sent by mail or text).
    OneTimeCode,
    /// A CAPTCHA or another "are you human" challenge.
    Captcha,
}

impl HumanNeed {
    pub fn as_str(self) -> &'static str {
        match self {
            HumanNeed::Password => "password",
            HumanNeed::OneTimeCode => "one_time_code",
            HumanNeed::Captcha => "captcha",
        }
    }
}

impl Decision {
    pub fn act(action: Action) -> Self {
        Decision::from_choice(Choice::Act(action))
    }

    pub fn terminal(kind: TerminalKind) -> Self {
        Decision::from_choice(Choice::Terminal(kind))
    }

    pub fn from_choice(choice: Choice) -> Self {
        Decision {
            choice,
            confidence: None,
            margin: None,
            latency_ms: None,
            reason: None,
            provenance: None,
            raw: None,
            expect: None,
            verdicts: Vec::new(),
            asks_for: None,
            work_done: false,
            hands_off: None,
        }
    }

    /// Says what the click is expected to do (see [`Expect`]).
    pub fn expecting(mut self, expect: Option<Expect>) -> Self {
        self.expect = expect;
        self
    }

    /// Stamps who made the decision.
    pub fn by(mut self, tier: Tier, policy: &'static str) -> Self {
        self.provenance = Some(Provenance::new(tier, policy));
        self
    }

    /// The deciding tier, when the decision says.
    pub fn tier(&self) -> Option<Tier> {
        self.provenance.as_ref().map(|p| p.tier)
    }

    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    pub fn with_confidence(mut self, confidence: f64, margin: f64) -> Self {
        self.confidence = Some(confidence);
        self.margin = Some(margin);
        self
    }

    /// Parses one decision in the wire shape; every error is a `ContractError` with a
    /// stable code and the field at fault (`kind`, `target_id`, `confidence`, …).
    pub fn from_json(text: &str) -> Result<Decision, ContractError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let decision = serde_path_to_error::deserialize(&mut *de).map_err(|err| {
            let path = err.path().to_string();
            let inner = err.into_inner();
            let message = inner.to_string();
            let message = match message.rfind(" at line ") {
                Some(i) => message[..i].to_owned(),
                None => message,
            };
            if inner.is_eof() || inner.is_syntax() {
                return ContractError::invalid("payload", format!("not valid JSON: {message}"));
            }
            if let Some(rest) = message.strip_prefix("unknown field `") {
                let name = rest.split('`').next().unwrap_or_default();
                return ContractError::new(
                    crate::error::ErrorCode::UnknownField,
                    name,
                    format!("unknown field `{name}`"),
                );
            }
            // Whole-decision rules (kind xor terminal, a kind's required fields) fail at
            // the root: the field is the one the rule names.
            let field = if path == "." {
                field_named_in(&message).unwrap_or("payload").to_owned()
            } else {
                path
            };
            ContractError::invalid(field, message)
        })?;
        de.end().map_err(|_| {
            ContractError::invalid("payload", "trailing characters after the decision")
        })?;
        Ok(decision)
    }

    pub fn action(&self) -> Option<&Action> {
        match &self.choice {
            Choice::Act(a) => Some(a),
            Choice::Terminal(_) => None,
        }
    }
}

/// The decision's own fields a whole-decision rule may name, beside the table's.
const OWN_FIELDS: [&str; 5] = ["confidence", "margin", "latency_ms", "terminal", "kind"];

/// The field a whole-decision rule's message names: the longest that occurs in it, so
/// `input_key` wins over `key` (the first of equals: `drag_dx` before `drag_dy`).
fn field_named_in(message: &str) -> Option<&'static str> {
    OWN_FIELDS
        .into_iter()
        .chain(ActionParam::ALL.iter().map(|p| p.name()))
        .filter(|f| message.contains(f))
        .min_by_key(|f| std::cmp::Reverse(f.len()))
}

crate::action_wire! {
    /// The reference's flat wire shape.
    #[derive(Clone, Debug, Default, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct DecisionWire {
        head {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            terminal: Option<TerminalKind>,
        }
        ids
        tail {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            confidence: Option<f64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            margin: Option<f64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            latency_ms: Option<u64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            reason: Option<String>,
            /// Ours, beside the reference's fields; optional, so reference payloads parse.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            provenance: Option<Provenance>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            raw: Option<serde_json::Value>,
        }
    }
}

impl TryFrom<DecisionWire> for Decision {
    type Error = String;
    fn try_from(w: DecisionWire) -> Result<Self, String> {
        for (name, v) in [("confidence", w.confidence), ("margin", w.margin)] {
            if let Some(v) = v {
                if !(0.0..=1.0).contains(&v) {
                    return Err(format!("{name} must be within 0..=1, got {v}"));
                }
            }
        }
        let asks_for = match w.terminal {
            Some(TerminalKind::NeedsInput) => w.target_id.clone(),
            _ => None,
        };
        let choice = match (w.kind, w.terminal) {
            (Some(_), Some(_)) => {
                return Err("a decision has either kind or terminal, not both".into())
            }
            (None, None) => return Err("a decision needs kind or terminal".into()),
            (None, Some(t)) => Choice::Terminal(t),
            (Some(kind), None) => Choice::Act(Action::from_fields(w.action_fields(kind))?),
        };
        Ok(Decision {
            choice,
            confidence: w.confidence,
            margin: w.margin,
            latency_ms: w.latency_ms,
            reason: w.reason,
            provenance: w.provenance,
            raw: w.raw,
            expect: None,
            verdicts: Vec::new(),
            asks_for,
            work_done: false,
            hands_off: None,
        })
    }
}

impl From<Decision> for DecisionWire {
    fn from(d: Decision) -> Self {
        let mut w = DecisionWire {
            confidence: d.confidence,
            margin: d.margin,
            latency_ms: d.latency_ms,
            reason: d.reason,
            provenance: d.provenance,
            raw: d.raw,
            ..Default::default()
        };
        match d.choice {
            Choice::Terminal(t) => {
                w.terminal = Some(t);
                w.target_id = d.asks_for;
            }
            Choice::Act(a) => w.set_action_fields(a.to_fields()),
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::ElementId;
    use crate::error::ErrorCode;

    #[test]
    fn from_json_names_the_field_of_every_error() {
        let field = |t: &str| Decision::from_json(t).unwrap_err().field;
        assert_eq!(field(r#"{"kind":"CLICK"}"#), "target_id");
        assert_eq!(
            field(r#"{"kind":"TYPE_TEXT","target_id":"e1"}"#),
            "input_key"
        );
        assert_eq!(
            field(r#"{"terminal":"BLOCKED","confidence":2}"#),
            "confidence"
        );
        assert_eq!(field(r#"{"kind":"NOPE"}"#), "kind");
        assert_eq!(field(r#"{}"#), "terminal");
        assert_eq!(field(r#"{"terminal":"BLOCKED"} x"#), "payload");
        assert_eq!(field(r#"{"terminal":"#), "payload");
        let unknown = Decision::from_json(r#"{"terminal":"BLOCKED","why":1}"#).unwrap_err();
        assert_eq!(
            (unknown.code, unknown.field.as_str()),
            (ErrorCode::UnknownField, "why")
        );
    }

    #[test]
    fn from_json_reads_what_serialization_writes() {
        let d = Decision::act(Action::click(ElementId::from("e7")))
            .with_confidence(0.25, 0.1)
            .with_reason("why");
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(Decision::from_json(&text), Ok(d));
    }
}
