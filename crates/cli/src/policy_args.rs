//! Choosing the policy: one flag set shared by the commands that run subtasks.

use crate::exit::{Exit, Failure};
use crate::input::read_text;
use arc_core::{DecideContext, Decision, ExecutionResult, Policy, PolicyError};
use arc_policy::cache::SelectorCache;
use arc_policy::{
    stack, Cascade, JevPolicy, ModelConfig, ModelFlags, OpenAiPolicy, Provider, ReflexPolicy,
};
use arc_sim::LabelledScript;
use async_trait::async_trait;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyKind {
    /// Replay --script.
    Script,
    /// Local and deterministic: grounds the goal, inputs and criteria; no network.
    Reflex,
    /// An OpenAI-compatible chat endpoint for every step.
    Model,
    /// The reference TypeSafe JEV wire format for every step.
    Jev,
    /// Reflex, then the selector cache (--cache), then the model if one is configured;
    /// monitors escalate a stuck run to the model, or back to you with its signature.
    Cascade,
}

#[derive(Args, Clone, Debug, Default)]
pub struct PolicyArgs {
    /// Which policy decides (default: script when --script is given, else cascade).
    #[arg(long, value_enum)]
    pub policy: Option<PolicyKind>,
    /// Steps to replay: a JSON array of decisions whose targets are ids (`"target_id"`)
    /// or labels (`"target": {"role": "button", "name": "Sign up"}`).
    #[arg(long)]
    pub script: Option<PathBuf>,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Selector cache file for the cascade (created if missing; survives restarts).
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
}

/// The chosen policy; a cascade is kept concrete so its cache outcome can be reported.
pub enum Chosen {
    Boxed(Box<dyn Policy>),
    Cascade(Box<Cascade>),
}

#[async_trait]
impl Policy for Chosen {
    fn name(&self) -> &'static str {
        match self {
            Chosen::Boxed(p) => p.name(),
            Chosen::Cascade(c) => c.name(),
        }
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        match self {
            Chosen::Boxed(p) => p.decide(ctx).await,
            Chosen::Cascade(c) => c.decide(ctx).await,
        }
    }
    fn finish(&mut self, result: &ExecutionResult) {
        match self {
            Chosen::Boxed(p) => p.finish(result),
            Chosen::Cascade(c) => c.finish(result),
        }
    }
}

/// The model endpoint: the cascade's model tier (its decisions, its judgments of what
/// the reflex cannot read, its recovery plans), or every step with `--policy model|jev`.
#[derive(Args, Clone, Debug, Default)]
pub struct ModelArgs {
    /// Model endpoint base URL, OpenAI-compatible (env ARC_CUA_MODEL_BASE_URL; JEV:
    /// TYPESAFE_BASE_URL). A local one: scripts/model-serve.sh.
    #[arg(long, value_name = "URL")]
    pub model_base_url: Option<String>,
    /// Model name (env ARC_CUA_MODEL; JEV: TYPESAFE_MODEL). Naming one puts the model in
    /// the cascade.
    #[arg(long)]
    pub model: Option<String>,
    /// API key (env ARC_CUA_MODEL_API_KEY or OPENAI_API_KEY; JEV: TYPESAFE_API_KEY).
    #[arg(long, value_name = "KEY", hide_env_values = true)]
    pub model_api_key: Option<String>,
    /// Seconds one model request may take (default 30; a small local model on a loaded
    /// CPU needs minutes for a long prompt).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub model_timeout_s: Option<f64>,
}

fn parse_seconds(raw: &str) -> Result<f64, String> {
    match raw.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("{raw:?} is not a number of seconds in (0, 3600]")),
    }
}

impl ModelArgs {
    fn flags(&self) -> ModelFlags {
        ModelFlags {
            base_url: self.model_base_url.clone(),
            model: self.model.clone(),
            api_key: self.model_api_key.clone(),
        }
    }

    /// The OpenAI-compatible endpoint, when a model is named (flag or environment).
    pub fn config(&self) -> Result<Option<ModelConfig>, PolicyError> {
        if self.model.is_none() && std::env::var_os("ARC_CUA_MODEL").is_none() {
            return Ok(None);
        }
        let config = ModelConfig::from_env(Provider::OpenAi, &self.flags())?;
        Ok(Some(match self.model_timeout_s {
            Some(s) => config.with_timeout(std::time::Duration::from_secs_f64(s)),
            None => config,
        }))
    }
}

impl PolicyArgs {
    fn flags(&self) -> ModelFlags {
        self.model.flags()
    }

    pub fn build(&self) -> Result<Chosen, Failure> {
        let bad = |e: PolicyError| (Exit::BadInput, e.to_string());
        let kind = self.policy.unwrap_or(if self.script.is_some() {
            PolicyKind::Script
        } else {
            PolicyKind::Cascade
        });
        Ok(match kind {
            PolicyKind::Script => {
                let path = self.script.as_ref().ok_or((
                    Exit::BadInput,
                    "--policy script needs --script FILE".to_owned(),
                ))?;
                let text = read_text(Some(path), "script")?;
                Chosen::Boxed(Box::new(
                    LabelledScript::from_json(&text).map_err(|e| (Exit::BadInput, e))?,
                ))
            }
            PolicyKind::Reflex => Chosen::Boxed(Box::new(ReflexPolicy::default())),
            PolicyKind::Model => Chosen::Boxed(Box::new(
                OpenAiPolicy::from_env(&self.flags()).map_err(bad)?,
            )),
            PolicyKind::Jev => {
                Chosen::Boxed(Box::new(JevPolicy::from_env(&self.flags()).map_err(bad)?))
            }
            PolicyKind::Cascade => {
                let cache = match &self.cache {
                    Some(path) => Some(
                        SelectorCache::open(path)
                            .map_err(|e| (Exit::Environment, e.to_string()))?,
                    ),
                    None => None,
                };
                let model = self.model.config().map_err(bad)?;
                Chosen::Cascade(Box::new(stack::cascade(model.into(), cache).map_err(bad)?))
            }
        })
    }
}
