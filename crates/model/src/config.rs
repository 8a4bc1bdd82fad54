//! Where the model lives and how patiently to talk to it.
//!
//! One struct for both wire formats. Values come from flags first, then the environment
//! (`ARC_CUA_MODEL_BASE_URL`, `ARC_CUA_MODEL`, `ARC_CUA_MODEL_API_KEY` or `OPENAI_API_KEY`
//! for OpenAI-compatible endpoints; `TYPESAFE_BASE_URL`, `TYPESAFE_MODEL`,
//! `TYPESAFE_API_KEY` for JEV, as the reference reads them).

use serde::{Deserialize, Deserializer};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A credential. Its `Debug` never prints it, so a logged config cannot leak it.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key itself, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

/// A configuration that cannot work, naming the setting.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("model configuration: {0}")]
pub struct ConfigError(pub String);

impl From<ConfigError> for arc_core::PolicyError {
    fn from(e: ConfigError) -> Self {
        arc_core::PolicyError::new(e)
    }
}

/// Which endpoint family a configuration is for: it picks the environment variables and
/// the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// Any OpenAI-compatible chat endpoint.
    OpenAi,
    /// The reference's TypeSafe JEV endpoint.
    TypeSafe,
}

impl Provider {
    fn base_url_var(self) -> &'static str {
        match self {
            Provider::OpenAi => "ARC_CUA_MODEL_BASE_URL",
            Provider::TypeSafe => "TYPESAFE_BASE_URL",
        }
    }

    fn model_var(self) -> &'static str {
        match self {
            Provider::OpenAi => "ARC_CUA_MODEL",
            Provider::TypeSafe => "TYPESAFE_MODEL",
        }
    }

    /// Key variables, first found wins.
    fn key_vars(self) -> &'static [&'static str] {
        match self {
            Provider::OpenAi => &["ARC_CUA_MODEL_API_KEY", "OPENAI_API_KEY"],
            Provider::TypeSafe => &["TYPESAFE_API_KEY"],
        }
    }

    fn default_base_url(self) -> &'static str {
        match self {
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::TypeSafe => "https://api.typesafe.ai/v1/systemone",
        }
    }

    /// An OpenAI-compatible server has no model everyone means; JEV has one.
    fn default_model(self) -> Option<&'static str> {
        match self {
            Provider::OpenAi => None,
            Provider::TypeSafe => Some("jev-latest"),
        }
    }

    /// Local OpenAI-compatible servers often need no key; TypeSafe always does.
    fn key_required(self) -> bool {
        matches!(self, Provider::TypeSafe)
    }

    /// The reference's 12 s for JEV; local models on a CPU need longer.
    fn default_timeout(self) -> Duration {
        match self {
            Provider::OpenAi => Duration::from_secs(30),
            Provider::TypeSafe => Duration::from_secs(12),
        }
    }
}

/// Command-line values; any one set overrides its environment variable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelFlags {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    /// `https://api.openai.com/v1`, `http://127.0.0.1:8000/v1`, …; the OpenAI policy
    /// appends `/chat/completions`, the JEV policy posts to it as is.
    pub base_url: String,
    pub model: String,
    #[serde(default)]
    pub api_key: Option<ApiKey>,
    /// Bound on one HTTP request, connect to last byte. A request that times out is not
    /// retried: a server that slow will not be faster the second time.
    #[serde(
        rename = "timeout_ms",
        default = "default_timeout",
        deserialize_with = "millis"
    )]
    pub timeout: Duration,
    /// Tries per request on 429, 5xx and connection failures (1 = no retry).
    #[serde(default = "default_attempts")]
    pub max_attempts: u32,
    /// First backoff; doubled after each retry.
    #[serde(
        rename = "backoff_ms",
        default = "default_backoff",
        deserialize_with = "millis"
    )]
    pub backoff: Duration,
    /// The longest `Retry-After` honoured; a server asking for longer ends the call.
    #[serde(
        rename = "retry_after_cap_ms",
        default = "default_retry_after_cap",
        deserialize_with = "millis"
    )]
    pub retry_after_cap: Duration,
    /// Token budget of the compact view in each request.
    #[serde(default = "default_view_budget")]
    pub view_budget_tokens: usize,
    /// Recent actions shown to the model (the reference shows 8).
    #[serde(default = "default_history")]
    pub history_limit: usize,
    /// Most ids one target head lists (the reference's 240); the rest are counted.
    #[serde(default = "default_candidates")]
    pub max_candidates: usize,
    /// Sampling temperature sent to OpenAI-compatible servers; `None` omits it (some
    /// reasoning models accept only their default).
    #[serde(default = "default_temperature")]
    pub temperature: Option<f64>,
}

fn default_timeout() -> Duration {
    Provider::OpenAi.default_timeout()
}
fn default_attempts() -> u32 {
    3
}
fn default_backoff() -> Duration {
    Duration::from_millis(250)
}
fn default_retry_after_cap() -> Duration {
    Duration::from_secs(5)
}
fn default_view_budget() -> usize {
    1_200
}
fn default_history() -> usize {
    8
}
fn default_candidates() -> usize {
    240
}
fn default_temperature() -> Option<f64> {
    Some(0.0)
}

fn millis<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    u64::deserialize(d).map(Duration::from_millis)
}

impl ModelConfig {
    /// A configuration with every default, for `base_url` and `model`.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        ModelConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: default_timeout(),
            max_attempts: default_attempts(),
            backoff: default_backoff(),
            retry_after_cap: default_retry_after_cap(),
            view_budget_tokens: default_view_budget(),
            history_limit: default_history(),
            max_candidates: default_candidates(),
            temperature: default_temperature(),
        }
    }

    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(ApiKey::new(key));
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Flags over the process environment over the provider's defaults.
    pub fn from_env(provider: Provider, flags: &ModelFlags) -> Result<Self, ConfigError> {
        Self::resolve(provider, flags, |name| std::env::var(name).ok())
    }

    /// Flags over `env` over the provider's defaults. Empty values count as unset.
    pub fn resolve(
        provider: Provider,
        flags: &ModelFlags,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let set = |flag: &Option<String>| flag.clone().filter(|v| !v.trim().is_empty());
        let base_url = set(&flags.base_url)
            .or_else(|| env(provider.base_url_var()))
            .unwrap_or_else(|| provider.default_base_url().to_owned());
        let model = set(&flags.model)
            .or_else(|| env(provider.model_var()))
            .or_else(|| provider.default_model().map(str::to_owned))
            .ok_or_else(|| {
                ConfigError(format!(
                    "no model named: pass --model or set {}",
                    provider.model_var()
                ))
            })?;
        let api_key = set(&flags.api_key)
            .or_else(|| provider.key_vars().iter().find_map(|v| env(v)))
            .map(ApiKey);
        if api_key.is_none() && provider.key_required() {
            return Err(ConfigError(format!(
                "no API key: pass --api-key or set {}",
                provider.key_vars().join(" or ")
            )));
        }
        let mut config = ModelConfig::new(base_url, model);
        config.api_key = api_key;
        config.timeout = provider.default_timeout();
        config.validate()?;
        Ok(config)
    }

    /// Checks what types alone do not: an http(s) URL, a model, bounded waits.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let url = self.base_url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(ConfigError(format!(
                "base_url {url:?} must start with http:// or https://"
            )));
        }
        if self.model.trim().is_empty() {
            return Err(ConfigError("model must not be empty".into()));
        }
        if self.timeout.is_zero() {
            return Err(ConfigError("timeout_ms must be above 0".into()));
        }
        if !(1..=10).contains(&self.max_attempts) {
            return Err(ConfigError(format!(
                "max_attempts {} must be within 1..=10",
                self.max_attempts
            )));
        }
        if self.max_candidates == 0 {
            return Err(ConfigError("max_candidates must be above 0".into()));
        }
        Ok(())
    }

    /// The base URL without a trailing slash.
    pub(crate) fn base(&self) -> &str {
        self.base_url.trim().trim_end_matches('/')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn flags_win_over_env_and_openai_key_is_a_fallback() {
        let flags = ModelFlags {
            model: Some("flag-model".into()),
            ..Default::default()
        };
        let c = ModelConfig::resolve(
            Provider::OpenAi,
            &flags,
            env(&[("ARC_CUA_MODEL", "env-model"), ("OPENAI_API_KEY", "sk-x")]),
        )
        .unwrap();
        assert_eq!(c.model, "flag-model");
        assert_eq!(c.base_url, "https://api.openai.com/v1");
        assert_eq!(c.api_key.as_ref().map(ApiKey::expose), Some("sk-x"));
        assert!(!format!("{c:?}").contains("sk-x"));
    }

    #[test]
    fn missing_model_and_missing_jev_key_are_named() {
        let e = ModelConfig::resolve(Provider::OpenAi, &ModelFlags::default(), env(&[]));
        assert!(e.unwrap_err().0.contains("ARC_CUA_MODEL"));
        let e = ModelConfig::resolve(Provider::TypeSafe, &ModelFlags::default(), env(&[]));
        assert!(e.unwrap_err().0.contains("TYPESAFE_API_KEY"));
        let c = ModelConfig::resolve(
            Provider::TypeSafe,
            &ModelFlags::default(),
            env(&[("TYPESAFE_API_KEY", "k")]),
        )
        .unwrap();
        assert_eq!(c.model, "jev-latest");
        assert_eq!(c.timeout, Duration::from_secs(12));
    }

    #[test]
    fn deserialization_denies_unknown_fields() {
        let ok: ModelConfig =
            serde_json::from_str(r#"{"base_url":"http://x","model":"m","timeout_ms":500}"#)
                .unwrap();
        assert_eq!(ok.timeout, Duration::from_millis(500));
        let bad =
            serde_json::from_str::<ModelConfig>(r#"{"base_url":"http://x","model":"m","x":1}"#);
        assert!(bad.unwrap_err().to_string().contains("unknown field"));
    }
}
