//! Records the decisions of a run as cacheable steps, describing each target by the
//! snapshot it was chosen on (ids are per-session; selectors are not).

use super::selector::Selector;
use super::store::CachedStep;
use arc_core::{Choice, Decision, Snapshot};

#[derive(Debug, Default)]
pub struct Recorder {
    steps: Vec<CachedStep>,
    /// A decision whose target could not be described makes the run uncacheable.
    poisoned: bool,
}

impl Recorder {
    pub fn record(&mut self, decision: &Decision, snapshot: &Snapshot) {
        let step = match &decision.choice {
            Choice::Terminal(kind) => CachedStep {
                terminal: Some(*kind),
                ..CachedStep::default()
            },
            Choice::Act(action) => {
                let fields = action.to_fields();
                let describe = |id: &Option<arc_core::ElementId>| {
                    id.as_ref().map(|id| {
                        snapshot
                            .element(id.as_str())
                            .map(|e| Selector::of(e, snapshot))
                    })
                };
                let (target, destination) = (
                    describe(&fields.target_id),
                    describe(&fields.secondary_target_id),
                );
                if matches!(target, Some(None)) || matches!(destination, Some(None)) {
                    self.poisoned = true;
                }
                let mut step = CachedStep {
                    target: target.flatten(),
                    destination: destination.flatten(),
                    ..CachedStep::default()
                };
                step.set_action_fields(fields);
                step
            }
        };
        self.steps.push(step);
    }

    /// Drops the last recorded decision (it went stale and was never executed).
    pub fn retract(&mut self) {
        self.steps.pop();
    }

    /// The steps, if the run is worth caching.
    pub fn finish(self) -> Option<Vec<CachedStep>> {
        (!self.poisoned && !self.steps.is_empty()).then_some(self.steps)
    }
}
