//! Splitting a suite across machines (`--shard K/N`: task i runs on shard K when
//! i % N == K − 1) and joining the shards' results back into one.

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
/// mixed modes or suites, a task reported twice, and a suite with tasks missing (a
/// success rate over part of a suite would read as the whole).
pub fn merge(parts: Vec<SuiteResult>) -> Result<SuiteResult, EvalError> {
    let Some(first) = parts.first() else {
        return Err(EvalError::Merge("nothing to merge".into()));
    };
    let (mode, size) = (first.mode, first.suite_size);
    let mut tasks = Vec::with_capacity(size);
    let mut wall_ms = 0;
    let mut seen = BTreeSet::new();
    for part in parts {
        if part.mode != mode {
            return Err(EvalError::Merge(format!(
                "modes differ: {mode} and {}",
                part.mode
            )));
        }
        if part.suite_size != size {
            return Err(EvalError::Merge(format!(
                "suites differ: {size} and {} tasks",
                part.suite_size
            )));
        }
        wall_ms += part.wall_ms;
        for t in part.tasks {
            if t.position >= size || !seen.insert(t.position) {
                return Err(EvalError::Merge(format!(
                    "task {} (position {}) is reported twice or lies outside the suite",
                    t.id, t.position
                )));
            }
            tasks.push(t);
        }
    }
    if tasks.len() != size {
        let missing: Vec<String> = (0..size)
            .filter(|p| !seen.contains(p))
            .map(|p| p.to_string())
            .collect();
        return Err(EvalError::Merge(format!(
            "{} of {size} tasks are missing (positions {}): is a shard absent?",
            missing.len(),
            missing.join(", ")
        )));
    }
    tasks.sort_by_key(|t| t.position);
    Ok(SuiteResult {
        mode,
        suite_size: size,
        shard: None,
        tasks,
        wall_ms,
    })
}
