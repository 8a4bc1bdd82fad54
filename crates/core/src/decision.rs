//! A policy's answer for one step: an action or a terminal status, never both.

use crate::action::{Action, ActionFields, ActionKind, ScrollDirection};
use crate::element::ElementId;
use crate::key::{Chord, Key};
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
        }
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

    pub fn action(&self) -> Option<&Action> {
        match &self.choice {
            Choice::Act(a) => Some(a),
            Choice::Terminal(_) => None,
        }
    }
}

/// The reference's flat wire shape.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<ActionKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    terminal: Option<TerminalKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_id: Option<ElementId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secondary_target_id: Option<ElementId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<Key>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hotkey: Option<Chord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scroll_direction: Option<ScrollDirection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drag_dx: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drag_dy: Option<f64>,
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
        let choice = match (w.kind, w.terminal) {
            (Some(_), Some(_)) => {
                return Err("a decision has either kind or terminal, not both".into())
            }
            (None, None) => return Err("a decision needs kind or terminal".into()),
            (None, Some(t)) => Choice::Terminal(t),
            (Some(kind), None) => Choice::Act(Action::from_fields(ActionFields {
                kind,
                target_id: w.target_id,
                secondary_target_id: w.secondary_target_id,
                input_key: w.input_key,
                key: w.key,
                hotkey: w.hotkey,
                scroll_direction: w.scroll_direction,
                drag_dx: w.drag_dx,
                drag_dy: w.drag_dy,
            })?),
        };
        Ok(Decision {
            choice,
            confidence: w.confidence,
            margin: w.margin,
            latency_ms: w.latency_ms,
            reason: w.reason,
            provenance: w.provenance,
            raw: w.raw,
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
            Choice::Terminal(t) => w.terminal = Some(t),
            Choice::Act(a) => {
                let f = a.to_fields();
                w.kind = Some(f.kind);
                w.target_id = f.target_id;
                w.secondary_target_id = f.secondary_target_id;
                w.input_key = f.input_key;
                w.key = f.key;
                w.hotkey = f.hotkey;
                w.scroll_direction = f.scroll_direction;
                w.drag_dx = f.drag_dx;
                w.drag_dy = f.drag_dy;
            }
        }
        w
    }
}
