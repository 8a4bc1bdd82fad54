//! The TypeSafe JEV wire format (see `jev.rs` for what it is modelled on) and the
//! reference's validation of one choice answer.

use super::ordered::Ordered;
use super::prompt::RecentAction;
use super::stats::Usage;
use arc_core::{CompactElement, PageFacts, Scalar};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How far the probabilities may sum from 1 (the reference's tolerance).
pub const SUM_TOLERANCE: f64 = 0.02;
/// Slack when checking that the choice is the most probable one (the reference's).
const ARGMAX_SLACK: f64 = 1e-6;

#[derive(Serialize)]
pub(crate) struct JevRequest<'a> {
    pub model: &'a str,
    pub state: JevState<'a>,
    pub questions: Ordered<String, Question<'a>>,
}

#[derive(Serialize)]
pub(crate) struct JevState<'a> {
    pub subtask: &'a SubtaskView<'a>,
    pub desktop: Desktop<'a>,
    pub recent_actions: &'a [RecentAction],
    /// Ids left off a head, per head name.
    pub candidate_truncation: BTreeMap<String, usize>,
}

/// The subtask as the model may see it: inputs by key, secret ones as `[secret]`;
/// `metadata` is never sent (the runtime never reads it, and it may name the task).
#[derive(Serialize)]
pub(crate) struct SubtaskView<'a> {
    pub goal: &'a str,
    pub verification: &'a [String],
    pub inputs: BTreeMap<&'a str, Scalar>,
    pub constraints: &'a [String],
    pub shortcuts: Vec<String>,
}

#[derive(Serialize)]
pub(crate) struct Desktop<'a> {
    pub application: &'a str,
    pub window: &'a str,
    /// The snapshot's page facts (the reference's `context`), secrets scrubbed.
    pub context: PageFacts,
    pub elements: &'a [CompactElement],
}

#[derive(Serialize)]
pub(crate) struct Question<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Choice id → what it stands for.
    pub criteria: Ordered<String, Criterion<'a>>,
    pub instructions: Instructions<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum Criterion<'a> {
    Text(&'static str),
    Label(String),
    Element(&'a CompactElement),
    Input { key: &'a str, value: Scalar },
}

#[derive(Serialize)]
pub(crate) struct Instructions<'a> {
    pub subtask: &'a SubtaskView<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criterion: Option<&'a str>,
    pub rules: &'static str,
}

#[derive(Deserialize)]
pub(crate) struct JevResponse {
    pub answers: BTreeMap<String, MaybeChoice>,
    #[serde(default)]
    pub usage: Option<Usage>,
}

/// A malformed answer to a question nobody reads must not sink the others.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum MaybeChoice {
    Choice(ChoiceAnswer),
    Malformed(IgnoredAny),
}

/// One answered `choice` question.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChoiceAnswer {
    pub choice: String,
    pub confidence: f64,
    /// A probability for every allowed choice.
    pub probabilities: BTreeMap<String, f64>,
}

impl ChoiceAnswer {
    /// The gap between the chosen probability and the best other one.
    pub fn margin(&self) -> f64 {
        let chosen = self.probabilities.get(&self.choice).copied().unwrap_or(0.0);
        let runner_up = self
            .probabilities
            .iter()
            .filter(|(k, _)| **k != self.choice)
            .map(|(_, p)| *p)
            .fold(0.0, f64::max);
        (chosen - runner_up).clamp(0.0, 1.0)
    }
}

/// The reference's rules for one answer: the choice is allowed; the probabilities cover
/// exactly the allowed choices; every number is finite and within [0, 1]; they sum to 1
/// within [`SUM_TOLERANCE`]; the choice is the most probable.
pub fn validate_choice(answer: &ChoiceAnswer, allowed: &[String]) -> Result<(), String> {
    if !allowed.contains(&answer.choice) {
        return Err(format!(
            "choice {:?} is not among the {} allowed",
            answer.choice,
            allowed.len()
        ));
    }
    let unit = |what: String, v: f64| -> Result<(), String> {
        if v.is_finite() && (0.0..=1.0).contains(&v) {
            Ok(())
        } else {
            Err(format!("{what} is {v}, not a number within [0, 1]"))
        }
    };
    unit("confidence".into(), answer.confidence)?;
    if let Some(missing) = allowed
        .iter()
        .find(|c| !answer.probabilities.contains_key(*c))
    {
        return Err(format!("probabilities lack the allowed choice {missing:?}"));
    }
    if let Some(extra) = answer.probabilities.keys().find(|k| !allowed.contains(*k)) {
        return Err(format!(
            "probabilities name {extra:?}, which is not allowed"
        ));
    }
    for (k, p) in &answer.probabilities {
        unit(format!("probability of {k:?}"), *p)?;
    }
    let sum: f64 = answer.probabilities.values().sum();
    if (sum - 1.0).abs() >= SUM_TOLERANCE {
        return Err(format!(
            "probabilities sum to {sum:.4}, not 1 (tolerance {SUM_TOLERANCE})"
        ));
    }
    let chosen = answer.probabilities.get(&answer.choice).copied();
    let best = answer
        .probabilities
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1));
    let (Some(chosen), Some((best, &top))) = (chosen, best) else {
        return Err("probabilities are empty".into());
    };
    if chosen < top - ARGMAX_SLACK {
        return Err(format!(
            "choice {:?} (p={chosen}) is not the most probable ({best:?}, p={top})",
            answer.choice
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(choice: &str, probs: &[(&str, f64)]) -> ChoiceAnswer {
        ChoiceAnswer {
            choice: choice.into(),
            confidence: 0.8,
            probabilities: probs.iter().map(|(k, p)| (k.to_string(), *p)).collect(),
        }
    }

    #[test]
    fn margin_is_the_gap_to_the_runner_up() {
        let a = answer("a", &[("a", 0.7), ("b", 0.2), ("c", 0.1)]);
        assert!((a.margin() - 0.5).abs() < 1e-9);
    }
}
