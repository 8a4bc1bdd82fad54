//! The model policy over any OpenAI-compatible chat endpoint: one
//! `POST {base}/chat/completions` per step with a strict `json_schema` response format
//! built from the legal action space.
//!
//! An answer that is not JSON, does not match the schema, or names an id the chosen
//! operation does not offer is rejected with a reason and asked once more (the rejected
//! answer and the reason go back as the next two messages); a second bad answer is a
//! `PolicyError`. Transport failures are never re-asked: the retries already happened.

use super::answer::{interpret, to_decision, Invalid};
use super::config::{ModelConfig, ModelFlags, Provider};
use super::http::Transport;
use super::prompt::{reask, RULES};
use super::recovery;
use super::schema::{DecisionSchema, CONFIDENCE, REASON};
use super::stats::{Dialect, ModelStats, Usage};
use super::step::Step;
use arc_core::{Claim, DecideContext, Decision, Policy, PolicyError, Question, RecoveryPlan, Tier};
use async_trait::async_trait;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The schema's name in `response_format`.
const SCHEMA_NAME: &str = "arc_cua_decision";
/// Longest rejected answer echoed back in a re-ask, in characters.
const ECHO_CHARS: usize = 2_000;
/// Longest model `reason` kept on a decision, in characters.
const REASON_CHARS: usize = 300;

pub struct OpenAiPolicy {
    pub(super) config: ModelConfig,
    pub(super) transport: Transport,
    pub(super) stats: ModelStats,
}

impl OpenAiPolicy {
    pub fn new(config: ModelConfig) -> Result<Self, PolicyError> {
        let stats = ModelStats::default();
        let url = format!("{}/chat/completions", config.base());
        let transport = Transport::new(&config, url, stats.clone())?;
        Ok(OpenAiPolicy {
            config,
            transport,
            stats,
        })
    }

    /// Flags over `ARC_CUA_MODEL_BASE_URL` / `ARC_CUA_MODEL` / `ARC_CUA_MODEL_API_KEY`
    /// (or `OPENAI_API_KEY`).
    pub fn from_env(flags: &ModelFlags) -> Result<Self, PolicyError> {
        Self::new(ModelConfig::from_env(Provider::OpenAi, flags)?)
    }

    /// A shared handle on this policy's counters.
    pub fn stats(&self) -> ModelStats {
        self.stats.clone()
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    pub fn endpoint(&self) -> &str {
        self.transport.url()
    }

    async fn ask(&self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let step = Step::prepare(ctx, &self.config, true, true);
        let schema = DecisionSchema::build(&step.space, &step.criteria);
        let mut messages = vec![
            Message::new(ChatRole::System, RULES.to_owned()),
            Message::new(ChatRole::User, step.user_message()),
        ];
        let mut reasked = false;
        loop {
            let text = self.send(&messages, SCHEMA_NAME, &schema, None).await?;
            match self.read(&text, &step) {
                Ok(decision) => return Ok(decision),
                Err((_, Invalid(why))) if reasked => {
                    return Err(PolicyError::new(format!(
                        "model answer rejected twice; last: {why}"
                    )));
                }
                Err((said, Invalid(why))) => {
                    tracing::debug!(%why, "model answer rejected; asking once more");
                    self.stats.reask();
                    reasked = true;
                    // What the model said goes back with the reason; a response that
                    // was not the model's (a broken body) is simply asked again.
                    if let Some(said) = said {
                        messages.push(Message::new(ChatRole::Assistant, said));
                        messages.push(Message::new(ChatRole::User, reask(&why)));
                    }
                }
            }
        }
    }

    /// Reads one response; on rejection returns what the model said (if it was the
    /// model) and why it was rejected.
    fn read(&self, text: &str, step: &Step<'_>) -> Result<Decision, (Option<String>, Invalid)> {
        let echo = |s: &str| s.chars().take(ECHO_CHARS).collect::<String>();
        let response: ChatResponse = serde_json::from_str(text).map_err(|e| {
            let why = format!("the response is not a chat completion ({e})");
            (None, Invalid(why))
        })?;
        self.stats.usage(response.usage);
        let Some(choice) = response.choices.into_iter().next() else {
            return Err((None, Invalid("the response has no choices".into())));
        };
        if let Some(refusal) = choice.message.refusal.filter(|r| !r.is_empty()) {
            let why = format!("the model refused: {}", echo(&refusal));
            return Err((Some(echo(&refusal)), Invalid(why)));
        }
        let content = choice.message.content.unwrap_or_default();
        let cut_short = choice.finish_reason.as_deref() == Some("length");
        parse_answer(&content, step, cut_short).map_err(|e| (Some(echo(&content)), e))
    }
}

impl OpenAiPolicy {
    /// The escalation request: one plan, not re-asked (a bad plan goes back to the
    /// planner with the reason; the escalation budget is small on purpose).
    async fn ask_plan(&self, ctx: DecideContext<'_>) -> Result<RecoveryPlan, PolicyError> {
        let step = Step::prepare(ctx, &self.config, true, true);
        let schema = recovery::schema();
        let messages = [
            Message::new(ChatRole::System, recovery::rules()),
            Message::new(ChatRole::User, recovery::message(&ctx, &step)),
        ];
        let text = self
            .send(&messages, recovery::PLAN_SCHEMA_NAME, &schema, None)
            .await?;
        let response: ChatResponse = serde_json::from_str(&text).map_err(|e| {
            PolicyError::new(format!(
                "the recovery answer is not a chat completion ({e})"
            ))
        })?;
        self.stats.usage(response.usage);
        let message = response
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| PolicyError::new("the recovery answer has no choices"))?
            .message;
        if let Some(refusal) = message.refusal.filter(|r| !r.is_empty()) {
            let refusal: String = refusal.chars().take(ECHO_CHARS).collect();
            return Err(PolicyError::new(format!(
                "the model refused to plan: {refusal}"
            )));
        }
        recovery::parse(&message.content.unwrap_or_default())
            .map_err(|e| PolicyError::new(e.to_string()))
    }
}

#[async_trait]
impl Policy for OpenAiPolicy {
    fn name(&self) -> &'static str {
        "model"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let stats = self.stats.clone();
        let decision = stats.timed(self.ask(ctx)).await?;
        Ok(decision.by(Tier::Model, self.name()))
    }

    async fn plan_recovery(
        &mut self,
        ctx: DecideContext<'_>,
    ) -> Option<Result<RecoveryPlan, PolicyError>> {
        let plan = self.ask_plan(ctx).await;
        if plan.is_err() {
            self.stats.failure();
        }
        Some(plan)
    }

    async fn judge(
        &mut self,
        ctx: DecideContext<'_>,
        questions: &[Question],
    ) -> Option<Result<Vec<Claim>, PolicyError>> {
        let mut claims = Vec::with_capacity(questions.len());
        // The redacted snapshot and its view, once for every question.
        let step = Step::prepare(ctx, &self.config, true, true);
        for q in questions {
            match self.ask_judge(&step, q).await {
                Ok(claim) => claims.push(claim),
                Err(e) => {
                    self.stats.failure();
                    return Some(Err(e));
                }
            }
        }
        Some(Ok(claims))
    }
}

/// One answer field: the heads and `reason` are strings, `confidence` a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Field {
    Text(String),
    Number(f64),
    Other(IgnoredAny),
}

fn parse_answer(content: &str, step: &Step<'_>, cut_short: bool) -> Result<Decision, Invalid> {
    let fields: BTreeMap<String, Field> =
        serde_json::from_str(strip_fences(content)).map_err(|e| {
            let hint = if cut_short {
                " (cut off at the token limit)"
            } else {
                ""
            };
            Invalid(format!("the answer is not a JSON object{hint} ({e})"))
        })?;
    let outcome = interpret(&step.space, |head, _| match fields.get(&head.name()) {
        Some(Field::Text(s)) => Ok(s.clone()),
        Some(_) => Err(Invalid(format!("{head} must be a string"))),
        None => Err(Invalid(format!("{head} is missing"))),
    })?;
    let confidence = match fields.get(CONFIDENCE) {
        Some(Field::Number(c)) if (0.0..=1.0).contains(c) => Some(*c),
        Some(Field::Number(c)) => {
            return Err(Invalid(format!("confidence {c} is outside 0..=1")));
        }
        Some(_) => return Err(Invalid("confidence must be a number".into())),
        None => None,
    };
    let mut decision = to_decision(outcome, &step.criteria);
    decision.confidence = confidence;
    if let Some(Field::Text(reason)) = fields.get(REASON) {
        let reason: String = reason.trim().chars().take(REASON_CHARS).collect();
        if !reason.is_empty() {
            decision.reason = Some(match decision.reason.take() {
                Some(ours) => format!("{ours}; the model said: {reason}"),
                None => reason,
            });
        }
    }
    Ok(decision)
}

/// Local servers without schema enforcement sometimes wrap JSON in a Markdown fence.
pub(crate) fn strip_fences(content: &str) -> &str {
    let t = content.trim();
    match t.strip_prefix("```") {
        Some(rest) => {
            let body = rest.trim_start_matches("json").trim_start_matches("JSON");
            body.strip_suffix("```").unwrap_or(body).trim()
        }
        None => t,
    }
}

#[derive(Serialize)]
pub(super) struct ChatRequest<'a, S: Serialize = DecisionSchema> {
    pub(super) model: &'a str,
    pub(super) messages: &'a [Message],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) max_tokens: Option<u32>,
    pub(super) response_format: ResponseFormat<'a, S>,
}

#[derive(Serialize)]
pub(super) struct Message {
    role: ChatRole,
    content: String,
}

impl Message {
    pub(super) fn new(role: ChatRole, content: String) -> Self {
        Message { role, content }
    }
}

#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum ChatRole {
    System,
    User,
    Assistant,
}

/// The structured-output request, in the endpoint's dialect ([`Dialect`]).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum ResponseFormat<'a, S: Serialize> {
    JsonSchema {
        json_schema: JsonSchemaFormat<'a, S>,
    },
    JsonObject {
        schema: &'a S,
    },
}

impl<'a, S: Serialize> ResponseFormat<'a, S> {
    fn new(dialect: Dialect, name: &'static str, schema: &'a S) -> Self {
        match dialect {
            Dialect::JsonSchema => ResponseFormat::JsonSchema {
                json_schema: JsonSchemaFormat {
                    name,
                    strict: true,
                    schema,
                },
            },
            Dialect::JsonObject => ResponseFormat::JsonObject { schema },
        }
    }
}

/// Statuses with which an endpoint refuses a request's form (not its key, route or load).
fn refuses_form(status: Option<reqwest::StatusCode>) -> bool {
    status.is_some_and(|s| matches!(s.as_u16(), 400 | 422 | 500 | 501))
}

impl OpenAiPolicy {
    /// One schema-constrained chat request. `json_schema` first; an endpoint that refuses
    /// its form is asked once in `json_object` + schema, and on success the policy keeps
    /// that dialect (its stats say so).
    pub(super) async fn send<S: Serialize>(
        &self,
        messages: &[Message],
        name: &'static str,
        schema: &S,
        max_tokens: Option<u32>,
    ) -> Result<String, PolicyError> {
        let body = |dialect| ChatRequest {
            model: &self.config.model,
            messages,
            temperature: self.config.temperature,
            max_tokens,
            response_format: ResponseFormat::new(dialect, name, schema),
        };
        let dialect = self.stats.dialect();
        let failed = match self.transport.post_status(&body(dialect)).await {
            Ok(text) => return Ok(text),
            Err(f) if dialect == Dialect::JsonSchema && refuses_form(f.status) => f,
            Err(f) => return Err(f.error),
        };
        match self.transport.post_status(&body(Dialect::JsonObject)).await {
            Ok(text) => {
                tracing::info!(
                    endpoint = self.transport.url(),
                    "the endpoint refused json_schema ({}); sending json_object with the schema",
                    failed.error
                );
                self.stats.use_json_object();
                Ok(text)
            }
            Err(_) => Err(failed.error),
        }
    }
}

#[derive(Serialize)]
pub(super) struct JsonSchemaFormat<'a, S: Serialize> {
    pub(super) name: &'static str,
    pub(super) strict: bool,
    pub(super) schema: &'a S,
}

/// The part of a chat completion we read; servers add much more, which is ignored.
#[derive(Deserialize)]
pub(super) struct ChatResponse {
    pub(super) choices: Vec<ChatChoice>,
    #[serde(default)]
    pub(super) usage: Option<Usage>,
}

#[derive(Deserialize)]
pub(super) struct ChatChoice {
    pub(super) message: ChatMessage,
    #[serde(default)]
    pub(super) finish_reason: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ChatMessage {
    #[serde(default)]
    pub(super) content: Option<String>,
    #[serde(default)]
    pub(super) refusal: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::strip_fences;

    #[test]
    fn fences_are_stripped() {
        assert_eq!(strip_fences("```json\n{\"a\":1}\n```"), "{\"a\":1}");
        assert_eq!(strip_fences(" {\"a\":1} "), "{\"a\":1}");
    }
}
