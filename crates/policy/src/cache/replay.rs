//! Replays a cache entry step by step against live snapshots.

use super::selector::Match;
use super::store::{CacheKey, CachedStep};
use arc_core::{Action, Decision, Snapshot};
use std::collections::VecDeque;

#[derive(Debug)]
pub struct Replay {
    pub key: CacheKey,
    steps: VecDeque<CachedStep>,
}

/// One replayed step.
// Returned once per step and matched at once: boxing the decision would only allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum ReplayStep {
    /// The next decision, with how its target was found.
    Decision(Decision),
    /// The recorded step no longer matches the page: fall through to the next tier.
    Miss(String),
    /// Every recorded step has been replayed.
    Done,
}

impl Replay {
    pub fn new(key: CacheKey, steps: Vec<CachedStep>) -> Self {
        Replay {
            key,
            steps: steps.into(),
        }
    }

    pub fn next(&mut self, snapshot: &Snapshot) -> ReplayStep {
        let Some(step) = self.steps.pop_front() else {
            return ReplayStep::Done;
        };
        if let Some(t) = step.terminal {
            return ReplayStep::Decision(
                Decision::terminal(t).with_reason("replayed from the selector cache"),
            );
        }
        let Some(kind) = step.kind else {
            return ReplayStep::Miss("a cached step has neither kind nor terminal".into());
        };
        let mut notes = Vec::new();
        let mut find = |sel: &Option<super::selector::Selector>, want| match sel {
            None => Ok(None),
            Some(s) => match s.resolve(snapshot, want) {
                Some((id, how, score)) => {
                    if how == Match::Healed {
                        notes.push(format!(
                            "healed {} {:?} to {id} (similarity {score:.2})",
                            s.role, s.name
                        ));
                    }
                    Ok(Some(id))
                }
                None => Err(format!(
                    "cached {} {:?} is no longer on the page",
                    s.role, s.name
                )),
            },
        };
        let target = match find(&step.target, Some(kind)) {
            Ok(t) => t,
            Err(why) => return ReplayStep::Miss(why),
        };
        let destination = match find(&step.destination, None) {
            Ok(t) => t,
            Err(why) => return ReplayStep::Miss(why),
        };
        match Action::from_fields(step.action_fields(kind, target, destination)) {
            Ok(action) => {
                let mut d = Decision::act(action).with_confidence(1.0, 1.0);
                d.reason = Some(if notes.is_empty() {
                    "selector cache".into()
                } else {
                    format!("selector cache: {}", notes.join("; "))
                });
                ReplayStep::Decision(d)
            }
            Err(e) => ReplayStep::Miss(format!("cached step is malformed: {e}")),
        }
    }
}
