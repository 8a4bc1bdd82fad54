//! One JSON POST with bounded patience: a per-attempt timeout, a bounded number of
//! attempts on 429 / 5xx / connection failures with exponential backoff, and
//! `Retry-After` honoured up to a cap. Every way out is a value, never a hang.
//!
//! Bound on one call: `max_attempts × timeout` plus the backoffs in between (each at
//! most `retry_after_cap`, or the doubled backoff).

use super::config::{ApiKey, ModelConfig};
use super::stats::ModelStats;
use arc_core::PolicyError;
use reqwest::header::{HeaderMap, ACCEPT, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER};
use reqwest::StatusCode;
use serde::Serialize;
use std::time::Duration;

pub(crate) struct Transport {
    client: reqwest::Client,
    url: String,
    api_key: Option<ApiKey>,
    timeout: Duration,
    max_attempts: u32,
    backoff: Duration,
    retry_after_cap: Duration,
    stats: ModelStats,
}

/// What one attempt ended in.
enum Attempt {
    Body(String),
    /// Worth another attempt; `after` is the server's `Retry-After`.
    Retry {
        why: String,
        after: Option<Duration>,
        status: Option<StatusCode>,
    },
    Fatal(String, Option<StatusCode>),
}

/// A request that failed, with the HTTP status the endpoint last answered (if it did).
pub(crate) struct Failed {
    pub error: PolicyError,
    pub status: Option<StatusCode>,
}

impl From<Failed> for PolicyError {
    fn from(f: Failed) -> Self {
        f.error
    }
}

/// Longest slice of an error body quoted in a reason.
const SNIPPET_CHARS: usize = 300;

impl Transport {
    pub fn new(config: &ModelConfig, url: String, stats: ModelStats) -> Result<Self, PolicyError> {
        config.validate()?;
        let mut builder = reqwest::Client::builder()
            .connect_timeout(config.timeout)
            .user_agent(concat!("arc-cua/", env!("CARGO_PKG_VERSION")));
        // A local model server must not be sent through a proxy meant for the internet.
        if is_loopback(&url) {
            builder = builder.no_proxy();
        }
        let client = builder
            .build()
            .map_err(|e| PolicyError::new(format!("cannot build the HTTP client: {e}")))?;
        Ok(Transport {
            client,
            url,
            api_key: config.api_key.clone(),
            timeout: config.timeout,
            max_attempts: config.max_attempts,
            backoff: config.backoff,
            retry_after_cap: config.retry_after_cap,
            stats,
        })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// POSTs `body` and returns the 2xx response text.
    pub async fn post(&self, body: &impl Serialize) -> Result<String, PolicyError> {
        Ok(self.post_status(body).await?)
    }

    /// `post`, saying which HTTP status a failure ended on.
    pub async fn post_status(&self, body: &impl Serialize) -> Result<String, Failed> {
        let fail = |error: PolicyError, status| Failed { error, status };
        let bytes = serde_json::to_vec(body).map_err(|e| {
            fail(
                PolicyError::new(format!("cannot encode the request: {e}")),
                None,
            )
        })?;
        let mut backoff = self.backoff;
        let mut attempt = 0;
        loop {
            attempt += 1;
            self.stats.request();
            let (why, after, status) = match self.attempt(bytes.clone()).await {
                Attempt::Body(text) => return Ok(text),
                Attempt::Fatal(why, status) => return Err(fail(PolicyError::new(why), status)),
                Attempt::Retry { why, after, status } => (why, after, status),
            };
            if attempt >= self.max_attempts {
                return Err(fail(
                    PolicyError::new(format!(
                        "model endpoint {} failed after {attempt} attempt(s); last: {why}",
                        self.url
                    )),
                    status,
                ));
            }
            let wait = match after {
                Some(d) if d > self.retry_after_cap => {
                    return Err(fail(
                        PolicyError::new(format!(
                            "model endpoint {} asked to retry after {} s ({why}), longer than the {} ms cap",
                            self.url,
                            d.as_secs_f64(),
                            self.retry_after_cap.as_millis()
                        )),
                        status,
                    ))
                }
                Some(d) => d,
                None => backoff,
            };
            tracing::debug!(attempt, wait_ms = wait.as_millis() as u64, %why, "model request retried");
            self.stats.retry();
            tokio::time::sleep(wait).await;
            backoff = backoff
                .saturating_mul(2)
                .min(self.retry_after_cap.max(self.backoff));
        }
    }

    async fn attempt(&self, bytes: Vec<u8>) -> Attempt {
        let mut request = self
            .client
            .post(&self.url)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json")
            .body(bytes);
        if let Some(key) = &self.api_key {
            request = request.header(AUTHORIZATION, format!("Bearer {}", key.expose()));
        }
        // One bound over connect, headers and body: a server that accepts and then
        // never answers cannot hold the step.
        let exchange = async {
            let response = request.send().await?;
            let status = response.status();
            let after = retry_after(response.headers());
            let text = response.text().await?;
            Ok::<_, reqwest::Error>((status, after, text))
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Err(_) => Attempt::Fatal(
                format!(
                    "no answer from {} within {} ms",
                    self.url,
                    self.timeout.as_millis()
                ),
                None,
            ),
            Ok(Err(e)) if e.is_connect() || e.is_request() || e.is_body() => Attempt::Retry {
                why: format!("connection failed: {e}"),
                after: None,
                status: None,
            },
            Ok(Err(e)) => Attempt::Fatal(format!("request to {} failed: {e}", self.url), None),
            Ok(Ok((status, _, text))) if status.is_success() => Attempt::Body(text),
            Ok(Ok((status, after, text))) => {
                let why = format!("HTTP {status}: {}", snippet(&text));
                if retryable(status) {
                    Attempt::Retry {
                        why,
                        after,
                        status: Some(status),
                    }
                } else {
                    Attempt::Fatal(
                        format!("model endpoint {} answered {why}", self.url),
                        Some(status),
                    )
                }
            }
        }
    }
}

/// Rate limits and server trouble pass; 501 (not implemented) will not.
fn retryable(status: StatusCode) -> bool {
    status == StatusCode::TOO_MANY_REQUESTS
        || (status.is_server_error() && status != StatusCode::NOT_IMPLEMENTED)
}

/// `Retry-After` in seconds (integer or decimal). An HTTP-date is ignored: the backoff
/// applies instead.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let raw = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    let secs: f64 = raw.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

fn snippet(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(SNIPPET_CHARS) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None if flat.is_empty() => "(empty body)".into(),
        None => flat,
    }
}

fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    host == "localhost" || host == "::1" || host.starts_with("127.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_retry_after_parsing() {
        assert!(is_loopback("http://127.0.0.1:8080/v1"));
        assert!(is_loopback("http://localhost/v1"));
        assert!(is_loopback("http://[::1]:9/v1"));
        assert!(!is_loopback("https://api.openai.com/v1"));
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), None);
        assert!(retryable(StatusCode::BAD_GATEWAY));
        assert!(!retryable(StatusCode::BAD_REQUEST));
    }
}
