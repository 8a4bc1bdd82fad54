//! The one redactor for everything that leaves the process: results, step events, log
//! lines, trajectories, model requests and reports all pass their text through it.
//!
//! It is built once per run from the subtask's secret inputs and learns the password
//! values it is shown. Every occurrence of a secret is covered — overlapping and adjacent
//! ones too, so nothing of a longer secret that contains a shorter one survives — and each
//! maximal covered run becomes one `[secret]`. Besides the literal it finds the secret
//! percent-encoded (`%20` or `+` for a space, either hex case) and HTML-entity-encoded,
//! each character in whichever form (`matcher.rs`).

mod apply;
mod boxes;
mod matcher;

use std::borrow::Cow;
use std::sync::{Arc, PoisonError, RwLock};

/// What a secret is replaced with wherever it would leave the process.
pub const SECRET_PLACEHOLDER: &str = "[secret]";

/// Password values shorter than this are not learned: a two-letter value would blank
/// those letters all over the output, and a field that short is no real secret.
const MIN_LEARNED_CHARS: usize = 4;

/// Clones share one set of secrets, so what one path learns (a password typed) the others
/// (the log sink) redact too.
#[derive(Clone, Default)]
pub struct Redactor {
    secrets: Arc<RwLock<Secrets>>,
}

/// Counts only: a redactor printed with `{:?}` must not print what it hides.
impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Redactor({} secrets)", self.read().literals.len())
    }
}

#[derive(Default)]
struct Secrets {
    literals: Vec<String>,
}

impl Redactor {
    pub fn new<S: AsRef<str>>(secrets: impl IntoIterator<Item = S>) -> Self {
        let r = Redactor::default();
        for s in secrets {
            r.add(s.as_ref());
        }
        r
    }

    /// The subtask's secret inputs (their text, whatever their JSON type).
    pub fn for_subtask(subtask: &crate::Subtask) -> Self {
        Redactor::new(subtask.secret_literals())
    }

    /// Adds a secret (an empty one is ignored).
    pub fn add(&self, secret: &str) {
        if secret.is_empty() {
            return;
        }
        let mut s = self.secrets.write().unwrap_or_else(PoisonError::into_inner);
        if s.literals.iter().any(|l| l == secret) {
            return;
        }
        s.literals.push(secret.to_owned());
    }

    /// Adds a password field's value: at least [`MIN_LEARNED_CHARS`] chars and not only
    /// the mask a browser shows (`••••`).
    pub fn learn_password(&self, value: &str) {
        let masked = value.chars().all(|c| matches!(c, '•' | '●' | '*' | '·'));
        if value.chars().count() >= MIN_LEARNED_CHARS && !masked {
            self.add(value);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.read().literals.is_empty()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Secrets> {
        self.secrets.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `text` holds a secret in any form the redactor finds.
    pub fn holds_secret(&self, text: &str) -> bool {
        let secrets = self.read();
        !secrets.literals.is_empty() && !text.is_empty() && !covered(text, &secrets).is_empty()
    }

    /// `text` with every covered run replaced by `[secret]`; borrowed when nothing is.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let secrets = self.read();
        if secrets.literals.is_empty() || text.is_empty() {
            return Cow::Borrowed(text);
        }
        let runs = covered(text, &secrets);
        if runs.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in runs {
            out.push_str(&text[at..start]);
            out.push_str(SECRET_PLACEHOLDER);
            at = end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Redacts `text` in place.
    pub fn redact_string(&self, text: &mut String) {
        if let Cow::Owned(r) = self.redact(text) {
            *text = r;
        }
    }
}

/// The merged, sorted `[start, end)` runs of `text` that some secret occurrence covers.
/// An occurrence lying wholly inside a `[secret]` already there is not one (so redacting
/// twice changes nothing).
fn covered(text: &str, secrets: &Secrets) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for literal in &secrets.literals {
        matcher::each_occurrence(text, literal, |a, b| spans.push((a, b)));
    }
    if spans.is_empty() {
        return spans;
    }
    let placeholders: Vec<usize> = text
        .match_indices(SECRET_PLACEHOLDER)
        .map(|(i, _)| i)
        .collect();
    spans.retain(|&(a, b)| {
        !placeholders
            .iter()
            .any(|&p| p <= a && b <= p + SECRET_PLACEHOLDER.len())
    });
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (a, b) in spans {
        match merged.last_mut() {
            // Overlapping or adjacent: one run, one placeholder.
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_containing_another_goes_whole() {
        let r = Redactor::new(["Qz7", "Qz7Xk9Wp"]);
        assert_eq!(
            r.redact("pw Qz7Xk9Wp and Qz7."),
            "pw [secret] and [secret]."
        );
        // Adjacent and overlapping occurrences make one run.
        let r = Redactor::new(["abcab"]);
        assert_eq!(r.redact("xabcabcaby"), "x[secret]y");
    }

    #[test]
    fn encoded_forms_are_found() {
        let r = Redactor::new(["p w/&d"]);
        for text in [
            "/?q=p+w%2F%26d",
            "/?q=p%20w%2f%26d",
            "/?q=p%20w/&d",
            "<b>p w/&amp;d</b>",
            "p&#32;w&#x2F;&#38;d",
        ] {
            assert_eq!(
                r.redact(text).matches(SECRET_PLACEHOLDER).count(),
                1,
                "{text}"
            );
            assert!(!r.redact(text).contains('w'), "{text}: {}", r.redact(text));
        }
    }

    #[test]
    fn redacting_twice_changes_nothing_and_clean_text_is_borrowed() {
        let r = Redactor::new(["e", "sec"]);
        let once = r.redact("a secret e").into_owned();
        assert_eq!(r.redact(&once), once);
        assert!(matches!(r.redact("xyz"), Cow::Borrowed(_)));
        assert!(matches!(Redactor::default().redact("e"), Cow::Borrowed(_)));
    }

    #[test]
    fn learned_passwords_skip_masks_and_short_values_and_reach_clones() {
        let r = Redactor::default();
        let sink = r.clone();
        r.learn_password("••••••");
        r.learn_password("abc");
        assert!(sink.is_empty());
        r.learn_password("hunter22");
        assert_eq!(sink.redact("is hunter22"), "is [secret]");
        assert_eq!(format!("{sink:?}"), "Redactor(1 secrets)");
    }
}
