//! The one scripted policy: hands out a fixed list of decisions, in order (a test's
//! script, `--policy script`, or a recorded trajectory being replayed).

use crate::{DecideContext, Decision, Policy, PolicyError, Tier};
use async_trait::async_trait;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct ScriptedPolicy {
    script: VecDeque<Decision>,
    consumed: u32,
    name: &'static str,
}

impl ScriptedPolicy {
    pub fn new(decisions: impl IntoIterator<Item = Decision>) -> Self {
        ScriptedPolicy {
            script: decisions.into_iter().collect(),
            consumed: 0,
            name: "scripted",
        }
    }

    /// The same script under another policy name (a replayed recording is `"replay"`).
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// Parses a JSON array of decisions in the reference wire format.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let decisions: Vec<Decision> =
            serde_json::from_str(text).map_err(|e| format!("script: {e}"))?;
        Ok(ScriptedPolicy::new(decisions))
    }

    /// Decisions handed out so far.
    pub fn consumed(&self) -> u32 {
        self.consumed
    }

    pub fn remaining(&self) -> usize {
        self.script.len()
    }
}

#[async_trait]
impl Policy for ScriptedPolicy {
    fn name(&self) -> &'static str {
        self.name
    }

    async fn decide(&mut self, _ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let next = self.script.pop_front().ok_or_else(|| {
            PolicyError::new(format!(
                "script exhausted after {} decisions",
                self.consumed
            ))
        })?;
        self.consumed += 1;
        // A scripted decision that says who made it (a recording) keeps its maker.
        Ok(match next.provenance {
            Some(_) => next,
            None => next.by(Tier::Script, self.name()),
        })
    }
}
