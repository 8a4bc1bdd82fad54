//! The model policy speaking the reference's TypeSafe JEV wire format.
//!
//! What the format is modelled on: the reference package's `TypeSafeJevPolicy` (its
//! README and reference sketch the dynamic heads; its source gives the shapes). Where
//! this port follows it, and where it departs:
//!
//! - **Endpoint**: `POST {base_url}` as is (default `https://api.typesafe.ai/v1/systemone`),
//!   `Authorization: Bearer $TYPESAFE_API_KEY`, model `$TYPESAFE_MODEL` or `jev-latest`,
//!   12 s timeout. Retries: ours (429 / 5xx / connect, bounded, `Retry-After`), where the
//!   reference retried 429/503/529 twice with 0.5 s·2ⁿ.
//! - **Request**: `{model, state: {subtask, desktop: {application, window, context,
//!   elements}, recent_actions, candidate_truncation}, questions}`. Each question is
//!   `{type: "choice", criteria: {choice id → what it stands for}, instructions:
//!   {subtask, operation?, rules}}`: operation → one-line descriptions, targets → the
//!   compact element, inputs → `{key, value}`, keys / chords / directions → themselves.
//!   Head names are the reference's (`operation`, `click_target`, `type_text_input`,
//!   `drag_to_destination`, `press_key_value`, `hotkey_value`, `scroll_direction`).
//! - **Departures**, all for the contract's sake: secret inputs are `[secret]` (the
//!   reference sent every literal); `metadata` is not sent (the runtime never reads it);
//!   `recent_actions` carry input keys, not literals; shortcuts are a list of chords (our
//!   subtask has no descriptions); SELECT_OPTION and NAVIGATE heads exist (browser kinds);
//!   HOVER is never offered (the reference's vocabulary has no HOVER, so its endpoint
//!   would meet an operation and a `hover_target` question it was never trained on);
//!   and one `criterion_<i>` question per verification criterion (SATISFIED /
//!   NOT_SATISFIED / UNKNOWN) is added, so SUBTASK_COMPLETE is checked, not trusted.
//! - **Response**: `{answers: {question → {choice, confidence, probabilities}}, usage?}`.
//!   `usage` (OpenAI's shape) is an assumption; it is read when present.
//! - **Validation** ([`validate_choice`](super::validate_choice)), as the reference: every
//!   consumed question answered; the choice allowed; probabilities over exactly the
//!   allowed choices, finite, within [0, 1], summing to 1 ± 0.02; the choice their argmax;
//!   confidence within [0, 1]. Only the consumed questions are checked (the reference's
//!   behaviour: speculative answers nobody reads cannot sink a decision).
//! - **Decision**: confidence and margin are the minimum over the consumed answers (the
//!   reference used the operation's confidence alone; a doubtful target matters as much).
//! - **Re-ask**: the format has no conversation, so an invalid answer is asked again
//!   with the identical request, once.

use super::answer::{interpret, to_decision, Invalid};
use super::config::{ModelConfig, ModelFlags, Provider};
use super::heads::{Head, Verdict};
use super::http::Transport;
use super::jev_wire::{
    validate_choice, ChoiceAnswer, Criterion, Desktop, Instructions, JevRequest, JevResponse,
    JevState, MaybeChoice, Question, SubtaskView,
};
use super::ordered::Ordered;
use super::prompt::RULES;
use super::stats::ModelStats;
use super::step::Step;
use arc_core::{CompactElement, DecideContext, Decision, Policy, PolicyError, Tier};
use async_trait::async_trait;
use std::collections::HashMap;

const TARGET_RULES: &str = "Choose the best observed element for this operation, only among \
the offered ids. Respect current values and states, the constraints and the recent actions.";
const INPUT_RULES: &str =
    "Choose which planner-supplied input this operation uses. Never invent a value.";
const KEY_RULES: &str = "Choose the single key to press if PRESS_KEY is chosen.";
const HOTKEY_RULES: &str = "Choose an offered shortcut if HOTKEY is chosen. MOD means Cmd on \
macOS and Ctrl elsewhere. Never invent a chord.";
const SCROLL_RULES: &str = "Choose the direction if SCROLL is chosen.";
const CRITERION_RULES: &str = "Judge this verification criterion against the current state \
only. SATISFIED only if the state shows it holds now.";

pub struct JevPolicy {
    config: ModelConfig,
    wire: Wire,
    stats: ModelStats,
}

/// A caller's own way to the model (the reference's `ChoiceTransport`): the request's
/// `state` and `questions` in, the response text (`{answers, usage?}`) out.
pub trait JevAsk: Send + Sync {
    fn ask(
        &self,
        state: serde_json::Value,
        questions: serde_json::Value,
    ) -> Result<String, PolicyError>;
}

/// Where a request goes: the endpoint over HTTP, or the caller's `JevAsk`.
enum Wire {
    Http(Transport),
    Caller(Box<dyn JevAsk>),
}

impl JevPolicy {
    pub fn new(config: ModelConfig) -> Result<Self, PolicyError> {
        let stats = ModelStats::default();
        let transport = Transport::new(&config, config.base().to_owned(), stats.clone())?;
        Ok(JevPolicy {
            config,
            wire: Wire::Http(transport),
            stats,
        })
    }

    /// The same questions and answer rules, asked through `asker` instead of HTTP
    /// (`config` still sets the model name and the limits on what is offered).
    pub fn with_asker(config: ModelConfig, asker: Box<dyn JevAsk>) -> Self {
        JevPolicy {
            config,
            wire: Wire::Caller(asker),
            stats: ModelStats::default(),
        }
    }

    /// Flags over `TYPESAFE_BASE_URL` / `TYPESAFE_MODEL` / `TYPESAFE_API_KEY`.
    pub fn from_env(flags: &ModelFlags) -> Result<Self, PolicyError> {
        Self::new(ModelConfig::from_env(Provider::TypeSafe, flags)?)
    }

    pub fn stats(&self) -> ModelStats {
        self.stats.clone()
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    async fn ask(&self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        // No HOVER: the reference format has no such kind (see `SpaceLimits::hover`).
        let step = Step::prepare(ctx, &self.config, false, false);
        let compact = step.snapshot.compact();
        let subtask = subtask_view(&step);
        let body = JevRequest {
            model: &self.config.model,
            state: JevState {
                subtask: &subtask,
                desktop: Desktop {
                    application: &step.snapshot.application,
                    window: &step.snapshot.window,
                    context: step.snapshot.facts.clone(),
                    elements: &compact.elements,
                },
                recent_actions: &step.recent,
                candidate_truncation: step
                    .space
                    .truncated()
                    .iter()
                    .map(|(h, n)| (h.name(), *n))
                    .collect(),
            },
            questions: questions(&step, &compact.elements, &subtask),
        };
        let mut reasked = false;
        loop {
            let text = match &self.wire {
                Wire::Http(transport) => transport.post(&body).await?,
                Wire::Caller(asker) => {
                    let json = |v: serde_json::Result<serde_json::Value>| {
                        v.map_err(|e| PolicyError::new(format!("JEV request: {e}")))
                    };
                    asker.ask(
                        json(serde_json::to_value(&body.state))?,
                        json(serde_json::to_value(&body.questions))?,
                    )?
                }
            };
            match self.read(&text, &step) {
                Ok(decision) => return Ok(decision),
                Err(Invalid(why)) if reasked => {
                    return Err(PolicyError::new(format!(
                        "JEV answer rejected twice; last: {why}"
                    )));
                }
                Err(Invalid(why)) => {
                    tracing::debug!(%why, "JEV answer rejected; asking once more");
                    self.stats.reask();
                    reasked = true;
                }
            }
        }
    }

    fn read(&self, text: &str, step: &Step<'_>) -> Result<Decision, Invalid> {
        let response: JevResponse = serde_json::from_str(text)
            .map_err(|e| Invalid(format!("the response is not a JEV answer set ({e})")))?;
        self.stats.usage(response.usage);
        let mut used: Vec<&ChoiceAnswer> = Vec::new();
        let outcome = interpret(&step.space, |head, allowed| {
            match response.answers.get(&head.name()) {
                None => Err(Invalid(format!("question {head} is unanswered"))),
                Some(MaybeChoice::Malformed(_)) => Err(Invalid(format!(
                    "{head}: not a {{choice, confidence, probabilities}} answer"
                ))),
                Some(MaybeChoice::Choice(answer)) => {
                    validate_choice(answer, allowed)
                        .map_err(|e| Invalid(format!("{head}: {e}")))?;
                    used.push(answer);
                    Ok(answer.choice.clone())
                }
            }
        })?;
        let mut decision = to_decision(outcome, &step.criteria);
        decision.confidence = Some(used.iter().map(|a| a.confidence).fold(1.0, f64::min));
        decision.margin = Some(used.iter().map(|a| a.margin()).fold(1.0, f64::min));
        Ok(decision)
    }
}

#[async_trait]
impl Policy for JevPolicy {
    fn name(&self) -> &'static str {
        "jev"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let stats = self.stats.clone();
        let decision = stats.timed(self.ask(ctx)).await?;
        Ok(decision.by(Tier::Model, self.name()))
    }
}

fn subtask_view<'a>(step: &'a Step<'_>) -> SubtaskView<'a> {
    let subtask = step.subtask;
    SubtaskView {
        goal: &step.goal,
        verification: &step.criteria,
        inputs: subtask
            .inputs
            .iter()
            .map(|(k, v)| (k.as_str(), step.redactor.input(subtask, k, v)))
            .collect(),
        constraints: &step.constraints,
        shortcuts: subtask.shortcuts.iter().map(|c| c.to_string()).collect(),
    }
}

fn questions<'a>(
    step: &'a Step<'_>,
    elements: &'a [CompactElement],
    subtask: &'a SubtaskView<'a>,
) -> Ordered<String, Question<'a>> {
    let by_id: HashMap<&str, &CompactElement> =
        elements.iter().map(|e| (e.id.as_str(), e)).collect();
    let (criteria, mut heads): (Vec<Head>, Vec<Head>) = step
        .space
        .heads()
        .into_iter()
        .partition(|h| matches!(h, Head::Criterion(_)));
    heads.extend(criteria);
    let mut out = Vec::new();
    for head in heads {
        let choices = step.space.choices(head);
        if choices.is_empty() {
            continue;
        }
        let criterion = |c: &String| -> Criterion<'a> {
            match head {
                Head::Operation => super::heads::Operation::parse(c)
                    .map(|op| Criterion::Text(op.describe()))
                    .unwrap_or_else(|| Criterion::Label(c.clone())),
                Head::Target(_) | Head::Destination => by_id
                    .get(c.as_str())
                    .map(|e| Criterion::Element(e))
                    .unwrap_or_else(|| Criterion::Label(c.clone())),
                Head::Input(_) => match subtask.inputs.get_key_value(c.as_str()) {
                    Some((key, value)) => Criterion::Input {
                        key,
                        value: value.clone(),
                    },
                    None => Criterion::Label(c.clone()),
                },
                Head::Criterion(_) => Verdict::parse(c)
                    .map(|v| Criterion::Text(v.describe()))
                    .unwrap_or_else(|| Criterion::Label(c.clone())),
                Head::Key | Head::Hotkey | Head::Scroll => Criterion::Label(c.clone()),
            }
        };
        let (operation, rules) = match head {
            Head::Operation => (None, RULES),
            Head::Target(k) => (Some(k.as_str()), TARGET_RULES),
            Head::Destination => (Some("DRAG_TO destination"), TARGET_RULES),
            Head::Input(k) => (Some(k.as_str()), INPUT_RULES),
            Head::Key => (None, KEY_RULES),
            Head::Hotkey => (None, HOTKEY_RULES),
            Head::Scroll => (None, SCROLL_RULES),
            Head::Criterion(_) => (None, CRITERION_RULES),
        };
        let text = match head {
            Head::Criterion(i) => step.criteria.get(i).map(String::as_str),
            _ => None,
        };
        out.push((
            head.name(),
            Question {
                kind: "choice",
                criteria: Ordered(choices.iter().map(|c| (c.clone(), criterion(c))).collect()),
                instructions: Instructions {
                    subtask,
                    operation,
                    criterion: text,
                    rules,
                },
            },
        ));
    }
    Ordered(out)
}
