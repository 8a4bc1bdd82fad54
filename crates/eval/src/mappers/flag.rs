//! What a mapper keeps and flags instead of mapping: upstream checks it cannot express,
//! what blocks a run here, and setup differences that do not.

use super::Benchmark;
use serde::Serialize;
use std::fmt;

/// An upstream check this harness cannot evaluate, kept verbatim.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unsupported {
    pub benchmark: Benchmark,
    /// The upstream check: `string_match.exact_match`, `program_html[1]`, `compare_table`.
    pub kind: String,
    pub reason: Reason,
    /// The upstream JSON of the check, verbatim.
    pub detail: serde_json::Value,
}

/// Why an upstream check cannot be evaluated here.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// It checks the agent's free-text answer; the runtime ends with a status, not an answer.
    Answer,
    /// It opens another page after the run; our assertions read the page the run ended on.
    OtherPage { url: String },
    /// The locator is a JavaScript expression or helper, not a selector and a property.
    Script { locator: String },
    /// It reads the whole HTML source (attributes and hidden text included).
    PageSource,
    /// It runs JavaScript on the page before reading it (`prep_actions`).
    PrepActions,
    /// A reference that starts or ends with a quote: upstream strips quotes off the text
    /// before comparing, which a pattern cannot mirror.
    QuotedReference { text: String },
    /// A URL rule other than WebArena's "GOLD in PRED".
    UrlRule { rule: String },
    /// An evaluation type this mapper does not know.
    UnknownType,
    /// Upstream data in a shape this mapper does not read.
    Shape { field: String, expected: String },
    /// It reads the desktop VM (files, apps, settings) through these OSWorld getters.
    Desktop { getters: Vec<String> },
    /// OSWorld's `infeasible`: the agent must declare the task impossible.
    Infeasible,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Answer => f.write_str(
                "checks the agent's answer; the runtime returns a status, not an answer",
            ),
            Reason::OtherPage { url } => write!(
                f,
                "opens {url} after the run; our assertions read the page the run ended on"
            ),
            Reason::Script { locator } => {
                write!(
                    f,
                    "JavaScript locator {locator:?}, not a selector and a property"
                )
            }
            Reason::PageSource => f.write_str("reads the whole HTML source"),
            Reason::PrepActions => f.write_str("runs JavaScript on the page before reading it"),
            Reason::QuotedReference { text } => write!(
                f,
                "reference {text:?} starts or ends with a quote, which upstream strips first"
            ),
            Reason::UrlRule { rule } => write!(f, "URL rule {rule:?} (only \"GOLD in PRED\" maps)"),
            Reason::UnknownType => f.write_str("unknown evaluation type"),
            Reason::Shape { field, expected } => write!(f, "`{field}` is not {expected}"),
            Reason::Desktop { getters } if getters.is_empty() => {
                f.write_str("reads the desktop VM")
            }
            Reason::Desktop { getters } => {
                write!(f, "reads the desktop VM ({})", getters.join(", "))
            }
            Reason::Infeasible => f.write_str("expects the agent to declare the task infeasible"),
        }
    }
}

/// Why no task was built.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "blocker", rename_all = "snake_case")]
pub enum Blocker {
    /// No upstream check maps: a run would be scored on nothing.
    NothingChecked,
    /// It starts with several tabs open; our tasks start on one page.
    SeveralStartPages { urls: Vec<String> },
    /// The start URL is not http(s).
    StartNotHttp { url: String },
    /// It starts from a VM snapshot prepared by setup steps (their types listed).
    DesktopSetup {
        snapshot: String,
        steps: Vec<String>,
    },
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocker::NothingChecked => f.write_str("no upstream check maps"),
            Blocker::SeveralStartPages { urls } => {
                write!(
                    f,
                    "starts with {} tabs open; our tasks start on one page",
                    urls.len()
                )
            }
            Blocker::StartNotHttp { url } => write!(f, "start URL {url:?} is not http(s)"),
            Blocker::DesktopSetup { snapshot, steps } => write!(
                f,
                "starts from the VM snapshot {snapshot:?} set up by [{}]",
                steps.join(", ")
            ),
        }
    }
}

/// A difference from the upstream setup that does not block a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// Upstream starts logged in from this cookie file; our task starts logged out.
    StartsLoggedOut { storage_state: String },
    /// Upstream sets this geolocation (JSON text); our runs do not.
    Geolocation { value: String },
    /// `program_html` targets listed while `program_html` is not an eval type: upstream
    /// ignores them, and so do we.
    IgnoredProgramHtml { count: usize },
    /// OSWorld `conj: "or"`: upstream passes when any one check passes.
    AnyCheckPasses,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::StartsLoggedOut { storage_state } => write!(
                f,
                "upstream starts logged in ({storage_state}); this task starts logged out"
            ),
            Note::Geolocation { value } => write!(f, "upstream sets geolocation {value}"),
            Note::IgnoredProgramHtml { count } => write!(
                f,
                "{count} program_html target(s) ignored: program_html is not an eval type"
            ),
            Note::AnyCheckPasses => f.write_str("conj \"or\": any one check passing passes"),
        }
    }
}
