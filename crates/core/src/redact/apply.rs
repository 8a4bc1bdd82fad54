//! The redactor applied to the typed things that leave the process: records, results,
//! decisions, snapshots (the planner's compact one and a model's full one), JSON values.

use super::{Redactor, SECRET_PLACEHOLDER};
use crate::decision::Decision;
use crate::element::Element;
use crate::executable::ExecutableAction;
use crate::facts::PageFacts;
use crate::record::{ActionRecord, ExecutionResult};
use crate::role::Role;
use crate::scalar::Scalar;
use crate::snapshot::{CompactSnapshot, Snapshot};
use crate::subtask::Subtask;
use serde_json::Value;
use std::sync::Arc;

impl Redactor {
    /// Learns the value of every password field in `snapshot`, as its elements show it
    /// and as the backend read it (see `learn_password`).
    pub fn learn(&self, snapshot: &Snapshot) {
        for e in snapshot
            .elements
            .iter()
            .filter(|e| e.role == Role::PasswordField)
        {
            if let Some(Scalar::Text(v)) = &e.value {
                self.learn_password(v);
            }
        }
        for v in snapshot.password_values() {
            self.learn_password(v);
        }
    }

    /// A text scalar redacted; other scalars as they are.
    pub fn scalar(&self, value: &mut Scalar) {
        if let Scalar::Text(t) = value {
            self.redact_string(t);
        }
    }

    /// What an input may be shown as outside: `[secret]` for a secret input (whatever
    /// its JSON type), otherwise the literal with any secret inside it redacted.
    pub fn input(&self, subtask: &Subtask, key: &str, value: &Scalar) -> Scalar {
        if subtask.is_secret(key) {
            return Scalar::Text(SECRET_PLACEHOLDER.into());
        }
        let mut v = value.clone();
        self.scalar(&mut v);
        v
    }

    /// An executed action as it may be reported. A literal typed into a password field
    /// is a secret from now on, whatever the subtask said about its input.
    pub fn action(
        &self,
        exec: &ExecutableAction,
        subtask: &Subtask,
        into_password: bool,
    ) -> ExecutableAction {
        let mut copy = exec.clone();
        let secret_key = exec
            .action
            .input_key()
            .is_some_and(|k| subtask.is_secret(k));
        if let Some(v) = copy.value.as_mut() {
            if secret_key || into_password {
                if into_password {
                    self.learn_password(&v.as_text());
                }
                *v = Scalar::Text(SECRET_PLACEHOLDER.into());
            } else {
                self.scalar(v);
            }
        }
        copy
    }

    pub fn decision(&self, decision: &mut Decision) {
        if let Some(r) = decision.reason.as_mut() {
            self.redact_string(r);
        }
        if let Some(raw) = decision.raw.as_mut() {
            self.json(raw);
        }
    }

    /// Everything in a record a page or a policy could have put a secret into.
    pub fn record(&self, record: &mut ActionRecord) {
        self.decision(&mut record.decision);
        if let Some(v) = record.action.value.as_mut() {
            self.scalar(v);
        }
        if let Some(n) = record.target_name.as_mut() {
            self.redact_string(n);
        }
        // A backend's revision may be its state spelled out (a state machine's JSON).
        self.redact_string(&mut record.before_revision);
        self.redact_string(&mut record.after_revision);
        if let Some(landed) = record.landed_elsewhere.as_mut() {
            let p = &mut landed.element;
            for s in [&mut p.element, &mut p.name, &mut p.text] {
                self.redact_string(s);
            }
        }
    }

    /// Reason, observations, history and the final snapshot.
    pub fn result(&self, result: &mut ExecutionResult) {
        if let Some(r) = result.reason.as_mut() {
            self.redact_string(r);
        }
        result
            .observations
            .iter_mut()
            .for_each(|o| self.redact_string(o));
        result.history.iter_mut().for_each(|r| self.record(r));
        self.compact_in_place(&mut result.final_snapshot);
        if let Some(field) = result.needs_input.as_mut() {
            self.redact_string(&mut field.name);
            match field.value.as_mut() {
                Some(v) if field.role == Role::PasswordField => {
                    *v = Scalar::Text(SECRET_PLACEHOLDER.into())
                }
                Some(v) => self.scalar(v),
                None => {}
            }
        }
        if let Some(planned) = result.planned_action.as_mut() {
            planned
                .target_name
                .iter_mut()
                .for_each(|n| self.redact_string(n));
        }
        // Here only: a revision the planner echoes back (the host's) must stay as read.
        self.redact_string(&mut result.final_snapshot.revision);
        for v in &mut result.verification {
            for s in [&mut v.criterion, &mut v.check, &mut v.evidence.text] {
                self.redact_string(s);
            }
        }
    }

    /// The planner-facing summary of `snapshot`, redacted.
    pub fn compact(&self, snapshot: &Snapshot) -> CompactSnapshot {
        let mut c = snapshot.compact();
        self.compact_in_place(&mut c);
        c
    }

    /// Window, application, every name and text value; a password field's value is
    /// `[secret]` whatever it holds.
    pub fn compact_in_place(&self, c: &mut CompactSnapshot) {
        self.redact_string(&mut c.application);
        self.redact_string(&mut c.window);
        for e in &mut c.elements {
            self.redact_string(&mut e.name);
            match e.value.as_mut() {
                Some(v) if e.role == Role::PasswordField => {
                    *v = Scalar::Text(SECRET_PLACEHOLDER.into())
                }
                Some(v) => self.scalar(v),
                None => {}
            }
        }
    }

    /// A full snapshot as a model may see it (names, values, metadata, context, window);
    /// shared unchanged when nothing in it needs redacting.
    pub fn snapshot(&self, snapshot: &Arc<Snapshot>) -> Arc<Snapshot> {
        if self.is_empty() && !snapshot.elements.iter().any(password_with_value) {
            return Arc::clone(snapshot);
        }
        let mut changed = false;
        let elements: Vec<Element> = snapshot
            .elements
            .iter()
            .map(|e| {
                let mut copy = e.clone();
                self.element(&mut copy);
                changed |= copy != *e;
                copy
            })
            .collect();
        let application = self.redact(&snapshot.application).into_owned();
        let window = self.redact(&snapshot.window).into_owned();
        let mut facts = snapshot.facts.clone();
        self.page_facts(&mut facts);
        changed |= application != snapshot.application
            || window != snapshot.window
            || facts != snapshot.facts;
        if !changed {
            return Arc::clone(snapshot);
        }
        let mut copy =
            Snapshot::with_revision(application, window, snapshot.revision.clone(), elements);
        copy.facts = facts;
        copy.viewport = snapshot.viewport;
        copy.captured_at_ms = snapshot.captured_at_ms;
        Arc::new(copy)
    }

    /// The page's URL, title and extras (a secret may ride in a URL after a GET form).
    fn page_facts(&self, facts: &mut PageFacts) {
        for text in [&mut facts.url, &mut facts.title].into_iter().flatten() {
            self.redact_string(text);
        }
        facts.extra.values_mut().for_each(|v| self.json(v));
    }

    fn element(&self, e: &mut Element) {
        self.redact_string(&mut e.name);
        match e.value.as_mut() {
            Some(v) if e.role == Role::PasswordField => {
                *v = Scalar::Text(SECRET_PLACEHOLDER.into())
            }
            Some(v) => self.scalar(v),
            None => {}
        }
        let f = &mut e.facts;
        for text in [
            &mut f.dom_id,
            &mut f.test_id,
            &mut f.automation_id,
            &mut f.form_name,
        ]
        .into_iter()
        .chain([&mut f.placeholder])
        .flatten()
        {
            self.redact_string(text);
        }
        f.extra.values_mut().for_each(|v| self.json(v));
    }

    /// Every string and object key in `value`, in place.
    pub fn json(&self, value: &mut Value) {
        match value {
            Value::String(s) => self.redact_string(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.json(v)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (k, mut v) in entries {
                    self.json(&mut v);
                    map.insert(self.redact(&k).into_owned(), v);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

fn password_with_value(e: &Element) -> bool {
    e.role == Role::PasswordField && e.value.is_some()
}
