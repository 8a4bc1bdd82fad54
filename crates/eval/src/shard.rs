//! Splitting a suite across machines (`--shard K/N`: task i runs on shard K when
//! i % N == K − 1; for MiniWoB++, episode i of the task-major task × seed order) and
//! joining the shards' results back into one.

use crate::error::EvalError;
use crate::result::SuiteResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, 1-based; `"2/3"` on the wire and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: need 1 ≤ K ≤ N"));
        }
        Ok(Shard { index, count })
    }

    pub fn index(self) -> u32 {
        self.index
    }

    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the task at `position` (0-based, in suite order) belongs to this shard.
    pub fn holds(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard {s:?}: expected K/N, e.g. 1/4"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|_| format!("shard {s:?}: {x:?} is not a number"))
        };
        Shard::new(num(k)?, num(n)?)
    }
}

impl TryFrom<String> for Shard {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Joins shard results of one mode and one suite into the result of a whole run. Refuses
/// mixed kinds (a MiniWoB++ run and a task suite), modes or suites, a task reported
/// twice, and a suite with tasks missing (a success rate over part of a suite would read
/// as the whole). Errors name the parts as "part 1", "part 2", …; see [`merge_named`].
pub fn merge(parts: Vec<SuiteResult>) -> Result<SuiteResult, EvalError> {
    let named = parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| (format!("part {}", i + 1), p))
        .collect();
    merge_named(named)
}

/// [`merge`], with each part's origin (its file) named in the errors.
pub fn merge_named(parts: Vec<(String, SuiteResult)>) -> Result<SuiteResult, EvalError> {
    let Some((first_origin, first)) = parts.first() else {
        return Err(EvalError::Merge("nothing to merge".into()));
    };
    let (kind, mode, size) = (first.kind.clone(), first.mode, first.suite_size);
    let first_origin = first_origin.clone();
    let mut tasks = Vec::with_capacity(size);
    let mut wall_ms = 0;
    let mut seen = BTreeSet::new();
    let mut shards: Vec<(Shard, String)> = Vec::new();
    for (origin, part) in parts {
        let differs = |what: String| {
            EvalError::Merge(format!(
                "{origin} and {first_origin} are not parts of one run: {what}"
            ))
        };
        if part.kind != kind {
            return Err(differs(format!(
                "{origin} holds {}, {first_origin} {}",
                part.kind.describe(),
                kind.describe()
            )));
        }
        if part.mode != mode {
            return Err(differs(format!("modes {} and {mode}", part.mode)));
        }
        if part.suite_size != size {
            return Err(differs(format!("{} and {size} tasks", part.suite_size)));
        }
        if let Some(shard) = part.shard {
            shards.push((shard, origin.clone()));
        }
        wall_ms += part.wall_ms;
        for t in part.tasks {
            if t.position >= size || !seen.insert(t.position) {
                return Err(EvalError::Merge(format!(
                    "{origin}: task {} (position {}) is reported twice or lies outside the suite",
                    t.id, t.position
                )));
            }
            tasks.push(t);
        }
    }
    if tasks.len() != size {
        let missing: Vec<usize> = (0..size).filter(|p| !seen.contains(p)).collect();
        return Err(EvalError::Merge(missing_message(&missing, size, &shards)));
    }
    tasks.sort_by_key(|t| t.position);
    Ok(SuiteResult {
        kind,
        mode,
        suite_size: size,
        shard: None,
        tasks,
        wall_ms,
    })
}

/// Names the absent shards when the parts are shards of one split, else the positions.
fn missing_message(missing: &[usize], size: usize, shards: &[(Shard, String)]) -> String {
    let given: Vec<String> = shards.iter().map(|(s, o)| format!("{o} ({s})")).collect();
    let absent: Vec<String> = match shards.first() {
        Some((s, _)) if shards.iter().all(|(t, _)| t.count() == s.count()) => (1..=s.count())
            .filter(|k| !shards.iter().any(|(t, _)| t.index() == *k))
            .map(|k| format!("{k}/{}", s.count()))
            .collect(),
        _ => Vec::new(),
    };
    let shown: Vec<String> = missing.iter().take(20).map(|p| p.to_string()).collect();
    let mut msg = format!(
        "{} of {size} tasks are missing (positions {}{})",
        missing.len(),
        shown.join(", "),
        if missing.len() > shown.len() {
            ", …"
        } else {
            ""
        }
    );
    if absent.is_empty() {
        msg.push_str(": is a shard absent?");
    } else {
        msg.push_str(&format!(": shard {} absent", absent.join(", ")));
    }
    if !given.is_empty() {
        msg.push_str(&format!(" (given {})", given.join(", ")));
    }
    msg
}
