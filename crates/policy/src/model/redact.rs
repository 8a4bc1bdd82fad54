//! Keeping secret literals out of requests. Every text that goes to a model passes
//! through [`Redactor`]: the subtask's own strings, the history, and the snapshot (a
//! typed secret comes back as the field's value, and may echo in a heading or toast).

use arc_core::executable::SECRET_PLACEHOLDER;
use arc_core::{Element, Scalar, Snapshot, Subtask};
use std::borrow::Cow;
use std::sync::Arc;

pub(crate) struct Redactor {
    /// Non-empty secret literals, longest first so a secret containing another is
    /// replaced whole.
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new(subtask: &Subtask) -> Self {
        let mut secrets: Vec<String> = subtask
            .secret_literals()
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.into_owned())
            .collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { secrets }
    }

    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }

    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), SECRET_PLACEHOLDER));
            }
        }
        out
    }

    /// What the model is told an input holds: the literal, or `[secret]`.
    pub fn input_text(&self, subtask: &Subtask, key: &str, value: &Scalar) -> String {
        if subtask.is_secret(key) {
            SECRET_PLACEHOLDER.to_owned()
        } else {
            self.scrub(&value.as_text()).into_owned()
        }
    }

    /// The snapshot with every secret literal scrubbed from names, values, application
    /// and window. Shared unchanged when there is nothing to scrub.
    pub fn snapshot(&self, snapshot: &Arc<Snapshot>) -> Arc<Snapshot> {
        let dirty = |e: &Element| {
            self.scrub(&e.name) != e.name.as_str()
                || matches!(&e.value, Some(Scalar::Text(v)) if self.scrub(v) != v.as_str())
        };
        let header_dirty = self.scrub(&snapshot.application) != snapshot.application.as_str()
            || self.scrub(&snapshot.window) != snapshot.window.as_str();
        if self.secrets.is_empty() || (!header_dirty && !snapshot.elements.iter().any(dirty)) {
            return Arc::clone(snapshot);
        }
        let elements: Vec<Element> = snapshot
            .elements
            .iter()
            .map(|e| {
                let mut e = e.clone();
                e.name = self.scrub(&e.name).into_owned();
                if let Some(Scalar::Text(v)) = &e.value {
                    e.value = Some(Scalar::Text(self.scrub(v).into_owned()));
                }
                e
            })
            .collect();
        let mut copy = Snapshot::with_revision(
            self.scrub(&snapshot.application),
            self.scrub(&snapshot.window),
            snapshot.revision.clone(),
            elements,
        );
        copy.facts = snapshot.facts.clone();
        copy.viewport = snapshot.viewport;
        copy.captured_at_ms = snapshot.captured_at_ms;
        Arc::new(copy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::Role;

    #[test]
    fn scrubs_longest_secret_first_and_shares_clean_snapshots() {
        let mut task = Subtask::new("g", "c")
            .with_input("pw", "abc")
            .with_input("pin", "abcdef");
        task.secret_inputs = ["pw".to_owned(), "pin".to_owned()].into();
        let r = Redactor::new(&task);
        assert_eq!(r.scrub("x abcdef y abc"), "x [secret] y [secret]");
        let clean = Arc::new(Snapshot::new(
            "a",
            "w",
            vec![Element::new("e", Role::Button, "ok")],
        ));
        assert!(Arc::ptr_eq(&r.snapshot(&clean), &clean));
        let mut field = Element::new("f", Role::TextField, "Code");
        field.value = Some("abcdef".into());
        let dirty = Arc::new(Snapshot::new("a", "w", vec![field]));
        let scrubbed = r.snapshot(&dirty);
        assert_eq!(scrubbed.elements[0].value, Some("[secret]".into()));
        assert_eq!(scrubbed.revision, dirty.revision);
    }
}
