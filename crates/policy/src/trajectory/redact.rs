//! Redaction before persistence (seed §5.7.1): the run's secrets become `[secret]`
//! (through the one [`Redactor`] of arc-core, encoded forms included), and, as an extra
//! layer for files that outlive the run, anything shaped like a credential becomes
//! `[redacted]`, in every string (and object key) of a record. The writer applies it to
//! each record before a byte reaches the file.

use arc_core::{Redactor, Subtask};
use regex::Regex;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::OnceLock;

/// What a credential-shaped value is replaced with.
pub const REDACTED: &str = "[redacted]";

/// The credential shapes recognized, each one regular expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CredentialKind {
    /// `-----BEGIN … PRIVATE KEY-----` blocks.
    PrivateKey,
    /// `Authorization: …` / `Proxy-Authorization: …` header values.
    AuthorizationHeader,
    /// `Bearer <token>`.
    BearerToken,
    /// `password=…`, `pwd: …`, `api_key=…`, `token: …` and the like.
    SecretPair,
    /// `scheme://user:password@host`.
    UrlCredentials,
    /// OpenAI / Anthropic style `sk-…` keys.
    SkKey,
    /// AWS access key ids (`AKIA…`, `ASIA…`).
    AwsAccessKey,
    /// GitHub tokens (`ghp_…`, `gho_…`, `ghs_…`, `github_pat_…`).
    GithubToken,
    /// Slack tokens (`xoxb-…`).
    SlackToken,
    /// Google API keys (`AIza…`).
    GoogleApiKey,
    /// JSON Web Tokens (`eyJ….eyJ….…`).
    Jwt,
}

/// (kind, pattern, replacement). Order matters: headers before bare bearer tokens, so
/// `Authorization: Bearer x` is redacted whole.
const PATTERNS: &[(CredentialKind, &str, &str)] = &[
    (
        CredentialKind::PrivateKey,
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
        REDACTED,
    ),
    (
        CredentialKind::AuthorizationHeader,
        r#"(?i)\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\r\n"']+"#,
        "${1}[redacted]",
    ),
    (
        CredentialKind::BearerToken,
        r"(?i)\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*",
        "${1}[redacted]",
    ),
    (
        CredentialKind::SecretPair,
        r#"(?i)\b((?:password|passwd|passphrase|pwd|pass|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|session[_-]?token|token)["']?\s*[:=]\s*["']?)[^\s"'&,;]+"#,
        "${1}[redacted]",
    ),
    (
        CredentialKind::UrlCredentials,
        r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s:@]+:[^/\s@]+@",
        "${1}[redacted]@",
    ),
    (CredentialKind::SkKey, r"\bsk-[A-Za-z0-9_\-]{16,}", REDACTED),
    (
        CredentialKind::AwsAccessKey,
        r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        REDACTED,
    ),
    (
        CredentialKind::GithubToken,
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        REDACTED,
    ),
    (
        CredentialKind::SlackToken,
        r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
        REDACTED,
    ),
    (
        CredentialKind::GoogleApiKey,
        r"\bAIza[0-9A-Za-z_\-]{35}",
        REDACTED,
    ),
    (
        CredentialKind::Jwt,
        r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*",
        REDACTED,
    ),
];

fn compiled() -> &'static [(CredentialKind, Regex, &'static str)] {
    static RES: OnceLock<Vec<(CredentialKind, Regex, &'static str)>> = OnceLock::new();
    RES.get_or_init(|| {
        PATTERNS
            .iter()
            .map(|(k, p, r)| (*k, Regex::new(p).expect("credential pattern compiles"), *r))
            .collect()
    })
}

/// The run's [`Redactor`] plus the credential shapes.
#[derive(Clone, Debug, Default)]
pub struct CredentialFilter {
    secrets: Redactor,
}

impl CredentialFilter {
    /// Redacts what `secrets` knows (a clone: it keeps learning with the run).
    pub fn new(secrets: Redactor) -> Self {
        CredentialFilter { secrets }
    }

    /// Redacts the subtask's secret inputs (and credential shapes, always).
    pub fn for_subtask(subtask: &Subtask) -> Self {
        CredentialFilter::new(Redactor::for_subtask(subtask))
    }

    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = self.secrets.redact(text);
        for (_, re, replacement) in compiled() {
            if let Cow::Owned(s) = re.replace_all(&out, *replacement) {
                out = Cow::Owned(s);
            }
        }
        out
    }

    /// The credential shapes present in `text` (for tests and audits).
    pub fn detect(text: &str) -> Vec<CredentialKind> {
        compiled()
            .iter()
            .filter(|(_, re, _)| re.is_match(text))
            .map(|(k, ..)| *k)
            .collect()
    }

    /// Redacts every string and object key in `value`, in place.
    pub fn redact_value(&self, value: &mut Value) {
        match value {
            Value::String(s) => {
                if let Cow::Owned(r) = self.redact(s) {
                    *s = r;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_value(v)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (k, mut v) in entries {
                    self.redact_value(&mut v);
                    map.insert(self.redact(&k).into_owned(), v);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}
