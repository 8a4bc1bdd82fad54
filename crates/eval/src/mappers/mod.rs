//! Benchmark task-file mappers: WebArena config files and OSWorld task files read into our
//! [`Task`] format. Nothing here runs anything: live runs need WebArena's servers and
//! OSWorld's VMs.
//!
//! Every upstream check ends up in exactly one place: a [`MappedCheck`] (our assertions
//! check the same thing) or an [`Unsupported`] record (kept verbatim, with the reason).
//! A mapped check is never an approximation: where a pattern cannot mirror the upstream
//! evaluator, the check is flagged instead. A task is only built when nothing blocks a run
//! here ([`Blocker`]) and at least one check maps; [`Mapped::coverage`] says whether it
//! checks all of what upstream checks or only part.
//!
//! ```no_run
//! use arc_eval::mappers::{webarena, SiteMap};
//!
//! let mut sites = SiteMap::new();
//! sites.insert("SHOPPING", "http://localhost:7770").unwrap();
//! let mapped = webarena::map_file("test.raw.json".as_ref(), &sites).unwrap();
//! for m in &mapped {
//!     println!("{} {:?}: {} unsupported", m.id, m.coverage(), m.unsupported.len());
//! }
//! ```

mod error;
mod flag;
pub mod osworld;
mod sites;
mod source;
pub mod webarena;

pub use error::MapError;
pub use flag::{Blocker, Note, Reason, Unsupported};
pub use sites::SiteMap;

use crate::assert::Assertion;
use crate::task::{Category, Task, TaskId};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// Which benchmark a task came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Benchmark {
    #[serde(rename = "webarena")]
    WebArena,
    #[serde(rename = "osworld")]
    OsWorld,
}

impl Benchmark {
    pub fn as_str(self) -> &'static str {
        match self {
            Benchmark::WebArena => "webarena",
            Benchmark::OsWorld => "osworld",
        }
    }
}

impl fmt::Display for Benchmark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One upstream check and the assertions that check the same thing here.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MappedCheck {
    /// The upstream check: `url_match`, `program_html[0]`.
    pub kind: String,
    /// All must pass (upstream multiplies its scores).
    pub assertions: Vec<Assertion>,
}

/// How much of what upstream checks our task checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Coverage {
    /// Every upstream check mapped.
    Full,
    /// Some mapped, some are flagged: a pass here is not a pass upstream.
    Partial,
    /// Nothing mapped.
    None,
}

/// One upstream task, mapped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mapped {
    pub benchmark: Benchmark,
    /// The upstream id, verbatim (`17`, a UUID).
    pub upstream_id: String,
    /// Where it was read: `sample.json[2]`, `tasks.jsonl:3`.
    pub origin: String,
    pub id: TaskId,
    pub category: Category,
    /// The upstream intent or instruction.
    pub goal: String,
    pub checks: Vec<MappedCheck>,
    pub unsupported: Vec<Unsupported>,
    /// Why no task was built (empty when `task` is present).
    pub blockers: Vec<Blocker>,
    /// What differs from the upstream setup without blocking a run.
    pub notes: Vec<Note>,
    /// Our task, when nothing blocks a run here.
    pub task: Option<Task>,
}

impl Mapped {
    /// Upstream checks seen: every one is either mapped or flagged.
    pub fn upstream_checks(&self) -> usize {
        self.checks.len() + self.unsupported.len()
    }

    pub fn coverage(&self) -> Coverage {
        match (self.checks.is_empty(), self.unsupported.is_empty()) {
            (true, _) => Coverage::None,
            (false, true) => Coverage::Full,
            (false, false) => Coverage::Partial,
        }
    }
}

/// `[a-z0-9._-]+` from anything: lowercased, every other character a `-`.
pub fn sanitize_id(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Ids become file names, so two upstream tasks may not map onto one.
fn check_unique(mapped: &[Mapped]) -> Result<(), MapError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for m in mapped {
        if let Some(first) = seen.insert(m.id.as_str(), &m.origin) {
            return Err(MapError::DuplicateId {
                id: m.id.to_string(),
                first: first.to_owned(),
                second: m.origin.clone(),
            });
        }
    }
    Ok(())
}

/// The task id, or an error naming the upstream id it came from.
fn task_id(prefix: &str, upstream: &str, origin: &str) -> Result<TaskId, MapError> {
    TaskId::try_from(sanitize_id(&format!("{prefix}-{upstream}"))).map_err(|message| {
        MapError::Invalid {
            origin: origin.to_owned(),
            message,
        }
    })
}

/// The task's description: where it came from, which upstream checks it leaves out, and
/// how its setup differs from upstream's.
fn describe(
    benchmark: &str,
    upstream_id: &str,
    checks: &[MappedCheck],
    flagged: &[Unsupported],
    notes: &[Note],
) -> String {
    let kinds = |v: Vec<&str>| v.join(", ");
    let mut d = format!(
        "{benchmark} task {upstream_id}, mapped by arc-eval. Checked: {}.",
        kinds(checks.iter().map(|c| c.kind.as_str()).collect())
    );
    if !flagged.is_empty() {
        d.push_str(&format!(
            " NOT checked here (a pass is not an upstream pass): {}.",
            kinds(flagged.iter().map(|u| u.kind.as_str()).collect())
        ));
    }
    for n in notes {
        d.push_str(&format!(" Note: {n}."));
    }
    d
}
