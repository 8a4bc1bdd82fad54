//! The task file format (JSON): what to start, the subtask a planner would hand over
//! (verbatim, the runtime's own contract), what the harness checks afterwards and which
//! final status counts as correct.
//!
//! ```json
//! {
//!   "id": "form-fill",
//!   "category": "form",
//!   "start": {"page": "form.html"},
//!   "subtask": {"goal": "Fill in the contact form …", "inputs": {…}, "verification": […]},
//!   "assertions": [{"type": "visible_text", "text": "Thank you, Ada Lovelace"}],
//!   "max_actions": 8,
//!   "reference_steps": 4
//! }
//! ```

use crate::assert::Assertion;
use crate::error::EvalError;
use arc_core::{Subtask, TerminalKind};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    pub id: TaskId,
    pub category: Category,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub start: Start,
    /// Exactly what a planner hands the runtime.
    pub subtask: Subtask,
    /// Checked in the page after the run; all must pass.
    pub assertions: Vec<Assertion>,
    /// The final statuses that count as correct (default: SUBTASK_COMPLETE). A negative
    /// task expects the runtime to hand back instead of faking success.
    #[serde(default)]
    pub expect: Expectation,
    /// Step bound: overrides `subtask.max_actions` when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_actions: Option<u32>,
    /// Actions a person needs, for step efficiency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_steps: Option<u32>,
}

/// `[a-z0-9._-]+`: used in file names and report anchors.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TaskId(String);

impl TaskId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for TaskId {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let ok = !s.is_empty()
            && s.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.')
            });
        if ok {
            Ok(TaskId(s))
        } else {
            Err(format!("task id {s:?} must be non-empty [a-z0-9._-]"))
        }
    }
}

impl From<TaskId> for String {
    fn from(id: TaskId) -> String {
        id.0
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The fixture suite's synthetic categories; benchmark mappers bring their own names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Form,
    Navigation,
    Dropdown,
    Scroll,
    Validation,
    Inert,
    MissingLocator,
    NoopRecovery,
    SlowResponse,
    MultiStep,
    HiddenElement,
    FailingAssertion,
    #[serde(untagged)]
    Other(String),
}

impl Category {
    pub fn as_str(&self) -> &str {
        match self {
            Category::Form => "form",
            Category::Navigation => "navigation",
            Category::Dropdown => "dropdown",
            Category::Scroll => "scroll",
            Category::Validation => "validation",
            Category::Inert => "inert",
            Category::MissingLocator => "missing_locator",
            Category::NoopRecovery => "noop_recovery",
            Category::SlowResponse => "slow_response",
            Category::MultiStep => "multi_step",
            Category::HiddenElement => "hidden_element",
            Category::FailingAssertion => "failing_assertion",
            Category::Other(s) => s,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a task starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Start {
    /// A page of the served site, relative to its root (`form.html`).
    Page(String),
    /// An http(s) URL, opened as is.
    Url(String),
    /// A built-in simulated app (no browser).
    Sim(SimApp),
    /// A page of a running real app (`eval apps`): this path opened first, or (none) the
    /// page the previous task left.
    Live(Option<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimApp {
    /// `arc_sim::SignupApp`.
    Signup,
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Page(p) => write!(f, "page {p}"),
            Start::Url(u) => write!(f, "{u}"),
            Start::Sim(SimApp::Signup) => f.write_str("simulated sign-up app"),
            Start::Live(Some(path)) => write!(f, "the live app at {path}"),
            Start::Live(None) => f.write_str("the live app where the previous task left it"),
        }
    }
}

/// The statuses that count as correct: `"NEEDS_AGENT"` or `["BLOCKED", "NEEDS_AGENT"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ExpectationWire", into = "Vec<TerminalKind>")]
pub struct Expectation(Vec<TerminalKind>);

impl Expectation {
    pub fn new(statuses: impl IntoIterator<Item = TerminalKind>) -> Expectation {
        let mut v: Vec<TerminalKind> = Vec::new();
        for s in statuses {
            if !v.contains(&s) {
                v.push(s);
            }
        }
        Expectation(v)
    }

    pub fn statuses(&self) -> &[TerminalKind] {
        &self.0
    }

    pub fn accepts(&self, status: TerminalKind) -> bool {
        self.0.contains(&status)
    }

    /// A task that must end in SUBTASK_COMPLETE.
    pub fn is_positive(&self) -> bool {
        self.0 == [TerminalKind::SubtaskComplete]
    }
}

impl Default for Expectation {
    fn default() -> Self {
        Expectation(vec![TerminalKind::SubtaskComplete])
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|s| s.as_str()).collect();
        f.write_str(&names.join(" or "))
    }
}

/// A status or a list of statuses; parsed by hand so a typo names the field and the
/// allowed values (an untagged enum only says "did not match any variant").
#[derive(Deserialize)]
#[serde(transparent)]
struct ExpectationWire(serde_json::Value);

impl TryFrom<ExpectationWire> for Expectation {
    type Error = String;
    fn try_from(w: ExpectationWire) -> Result<Self, String> {
        let items = match w.0 {
            serde_json::Value::Array(items) => items,
            one => vec![one],
        };
        let statuses = items
            .into_iter()
            .map(|v| {
                serde_json::from_value::<TerminalKind>(v.clone()).map_err(|_| {
                    format!(
                        "`expect`: {v} is not a status (SUBTASK_COMPLETE, BLOCKED, NEEDS_AGENT, NEEDS_INPUT, DRY_RUN)"
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let e = Expectation::new(statuses);
        if e.0.is_empty() {
            return Err("`expect` needs at least one status".into());
        }
        Ok(e)
    }
}

impl From<Expectation> for Vec<TerminalKind> {
    fn from(e: Expectation) -> Self {
        e.0
    }
}

impl Task {
    /// Parses and validates one task; `origin` (a file name) prefixes every error.
    pub fn from_json(text: &str, origin: &str) -> Result<Task, EvalError> {
        let task: Task =
            serde_json::from_str(text).map_err(|e| EvalError::task(origin, e.to_string()))?;
        task.validate()
            .map_err(|message| EvalError::task(origin, message))?;
        Ok(task)
    }

    pub fn from_file(path: &Path) -> Result<Task, EvalError> {
        let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
            path: path.to_owned(),
            source,
        })?;
        Task::from_json(&text, &path.display().to_string())
    }

    /// The subtask as it is run: the task's step bound applied.
    pub fn effective_subtask(&self) -> Subtask {
        let mut s = self.subtask.clone();
        if let Some(n) = self.max_actions {
            s.max_actions = n;
        }
        s
    }

    /// The rules types alone do not enforce.
    pub fn validate(&self) -> Result<(), String> {
        self.subtask
            .validate()
            .map_err(|e| format!("subtask: {e}"))?;
        if self.assertions.is_empty() {
            // A task with nothing to check would pass on the runtime's word alone.
            return Err("needs at least one assertion".into());
        }
        if self.max_actions == Some(0) {
            return Err("`max_actions` must be at least 1".into());
        }
        if self.reference_steps == Some(0) {
            return Err("`reference_steps` must be at least 1".into());
        }
        match &self.start {
            Start::Page(p)
                if p.is_empty() || p.starts_with('/') || p.split('/').any(|s| s == "..") =>
            {
                Err(format!(
                    "start page {p:?} must be a relative path inside the site"
                ))
            }
            Start::Url(u) if !(u.starts_with("http://") || u.starts_with("https://")) => {
                Err(format!("start url {u:?} must be http(s)"))
            }
            Start::Live(Some(p)) if !p.starts_with('/') => {
                Err(format!("start path {p:?} must begin with /"))
            }
            _ => Ok(()),
        }
    }
}
