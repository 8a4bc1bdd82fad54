//! The deterministic sliding-window stuck monitor (seed §4.4): 7 patterns over the last
//! 5 steps, a score, and the failure signature an escalation carries.
//!
//! Every pattern must involve the newest step: a window that still holds two old
//! failures after a clean step is not stuck *now*, and counting it would turn the
//! controller's "2 consecutive stuck ticks" into "1 real tick plus an echo".

use super::signal::{StateHash, StepFailure, StepSignal};
use crate::action::ActionKind;
use xxhash_rust::xxh3::xxh3_64;

/// Steps the monitor looks back over.
pub const STUCK_WINDOW: usize = 5;

/// A score at or above this is a stuck tick.
pub const STUCK_THRESHOLD: f64 = 0.5;

wire_enum! {
    /// The 7 stuck patterns, in the seed's order.
    pub enum StuckPattern {
        /// The same (kind, target) ran at least twice in the window, changing nothing.
        RepeatedNoChangeAction => "REPEATED_NO_CHANGE_ACTION",
        /// The same target failed (stale, not found, exception) at least twice.
        SameTargetFailing => "SAME_TARGET_FAILING",
        /// States alternate A-B-A-B over the last four steps.
        CyclicOscillation => "CYCLIC_OSCILLATION",
        /// At least two readiness timeouts (settle cap) in the window.
        RepeatedReadinessTimeouts => "REPEATED_READINESS_TIMEOUTS",
        /// At least two action exceptions in the window.
        RepeatedActionExceptions => "REPEATED_ACTION_EXCEPTIONS",
        /// The action "succeeded" (non-neutral kind, no error) but nothing changed.
        SuccessZeroDelta => "SUCCESS_ZERO_DELTA",
        /// The last three steps all left the state (and URL) unchanged.
        ThreeConsecutiveUnchanged => "THREE_CONSECUTIVE_UNCHANGED",
    }
}

impl StuckPattern {
    /// Evidence weight; the score combines weights as a noisy-OR. A lone zero-delta
    /// click (0.3) is common and harmless; three unchanged steps in a row (1.0) is not.
    pub fn weight(self) -> f64 {
        match self {
            StuckPattern::RepeatedNoChangeAction => 0.6,
            StuckPattern::SameTargetFailing => 0.8,
            StuckPattern::CyclicOscillation => 0.8,
            StuckPattern::RepeatedReadinessTimeouts => 0.7,
            StuckPattern::RepeatedActionExceptions => 0.7,
            StuckPattern::SuccessZeroDelta => 0.3,
            StuckPattern::ThreeConsecutiveUnchanged => 1.0,
        }
    }

    pub fn signature(self) -> FailureSignature {
        match self {
            StuckPattern::CyclicOscillation => FailureSignature::CyclicLoop,
            StuckPattern::SameTargetFailing => FailureSignature::LocatorNotFound,
            StuckPattern::RepeatedReadinessTimeouts => FailureSignature::ReadinessTimeout,
            StuckPattern::RepeatedActionExceptions => FailureSignature::ActionException,
            StuckPattern::RepeatedNoChangeAction
            | StuckPattern::SuccessZeroDelta
            | StuckPattern::ThreeConsecutiveUnchanged => FailureSignature::StateNotChanged,
        }
    }

    /// Most specific first: the signature names the most telling pattern found.
    const SPECIFICITY: [StuckPattern; 7] = [
        StuckPattern::CyclicOscillation,
        StuckPattern::SameTargetFailing,
        StuckPattern::RepeatedActionExceptions,
        StuckPattern::RepeatedReadinessTimeouts,
        StuckPattern::RepeatedNoChangeAction,
        StuckPattern::ThreeConsecutiveUnchanged,
        StuckPattern::SuccessZeroDelta,
    ];
}

wire_enum! {
    /// Why a run is failing, as handed to the next tier or back to the planner.
    pub enum FailureSignature {
        CyclicLoop => "CYCLIC_LOOP",
        LocatorNotFound => "LOCATOR_NOT_FOUND",
        StateNotChanged => "STATE_NOT_CHANGED",
        ReadinessTimeout => "READINESS_TIMEOUT",
        ActionException => "ACTION_EXCEPTION",
        BackendCrashed => "BACKEND_CRASHED",
        EscalationRequired => "ESCALATION_REQUIRED",
    }
}

impl FailureSignature {
    pub fn of_failure(failure: StepFailure) -> FailureSignature {
        match failure {
            StepFailure::Stale | StepFailure::LocatorNotFound => FailureSignature::LocatorNotFound,
            StepFailure::ReadinessTimeout => FailureSignature::ReadinessTimeout,
            StepFailure::ActionException => FailureSignature::ActionException,
            StepFailure::BackendLost => FailureSignature::BackendCrashed,
            StepFailure::EscalationRequested => FailureSignature::EscalationRequired,
        }
    }

    /// Failures a local settling step can plausibly fix (an async render or a slow
    /// page), so the controller tries that before spending an escalation.
    pub fn locally_recoverable(self) -> bool {
        matches!(
            self,
            FailureSignature::ReadinessTimeout | FailureSignature::StateNotChanged
        )
    }
}

/// The monitor's verdict on the window ending at the newest step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StuckReport {
    pub stuck: bool,
    /// Patterns found, in [`StuckPattern::ALL`] order.
    pub patterns: Vec<StuckPattern>,
    /// Noisy-OR of the patterns' weights, 0..=1.
    pub score: f64,
    /// The most specific pattern's signature, when any pattern was found.
    pub signature: Option<FailureSignature>,
}

impl StuckReport {
    pub fn clear() -> Self {
        StuckReport {
            stuck: false,
            patterns: Vec::new(),
            score: 0.0,
            signature: None,
        }
    }

    pub fn has(&self, pattern: StuckPattern) -> bool {
        self.patterns.contains(&pattern)
    }
}

/// A step reduced to copyable facts (no strings in the window).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Entry {
    kind: Option<ActionKind>,
    target: Option<u64>,
    after: StateHash,
    unchanged: bool,
    failure: Option<StepFailure>,
}

impl Entry {
    fn of(s: &StepSignal) -> Entry {
        Entry {
            kind: s.kind,
            target: s.target.as_ref().map(|t| xxh3_64(t.as_str().as_bytes())),
            after: s.after,
            unchanged: !s.state_changed && !s.url_changed,
            failure: s.failure,
        }
    }

    fn executed(&self) -> bool {
        self.failure.is_none_or(StepFailure::executed)
    }

    fn locator_failure(&self) -> bool {
        self.failure.is_some_and(StepFailure::is_locator_failure)
    }
}

#[derive(Clone, Debug, Default)]
pub struct StuckMonitor {
    window: [Entry; STUCK_WINDOW],
    len: usize,
}

impl StuckMonitor {
    pub fn new() -> Self {
        StuckMonitor::default()
    }

    /// Forgets the window (after a recovery changed the situation).
    pub fn reset(&mut self) {
        self.len = 0;
    }

    /// Adds the newest step and evaluates the window.
    pub fn observe(&mut self, step: &StepSignal) -> StuckReport {
        let entry = Entry::of(step);
        if self.len == STUCK_WINDOW {
            self.window.rotate_left(1);
            self.window[STUCK_WINDOW - 1] = entry;
        } else {
            self.window[self.len] = entry;
            self.len += 1;
        }
        evaluate(&self.window[..self.len])
    }
}

fn evaluate(w: &[Entry]) -> StuckReport {
    let Some(last) = w.last() else {
        return StuckReport::clear();
    };
    let count = |f: &dyn Fn(&Entry) -> bool| w.iter().filter(|e| f(e)).count();
    let mut patterns = Vec::new();

    if last.kind.is_some()
        && last.executed()
        && last.unchanged
        && count(&|e| e.executed() && e.unchanged && e.kind == last.kind && e.target == last.target)
            >= 2
    {
        patterns.push(StuckPattern::RepeatedNoChangeAction);
    }
    if last.locator_failure()
        && last.target.is_some()
        && count(&|e| e.locator_failure() && e.target == last.target) >= 2
    {
        patterns.push(StuckPattern::SameTargetFailing);
    }
    if let [.., a, b, c, d] = w {
        if d.after == b.after && c.after == a.after && d.after != c.after {
            patterns.push(StuckPattern::CyclicOscillation);
        }
    }
    for (failure, pattern) in [
        (
            StepFailure::ReadinessTimeout,
            StuckPattern::RepeatedReadinessTimeouts,
        ),
        (
            StepFailure::ActionException,
            StuckPattern::RepeatedActionExceptions,
        ),
    ] {
        if last.failure == Some(failure) && count(&|e| e.failure == Some(failure)) >= 2 {
            patterns.push(pattern);
        }
    }
    let neutral = matches!(last.kind, Some(ActionKind::Wait | ActionKind::Scroll));
    if last.failure.is_none() && last.kind.is_some() && !neutral && last.unchanged {
        patterns.push(StuckPattern::SuccessZeroDelta);
    }
    if w.len() >= 3 && w[w.len() - 3..].iter().all(|e| e.unchanged) {
        patterns.push(StuckPattern::ThreeConsecutiveUnchanged);
    }

    let score = 1.0 - patterns.iter().map(|p| 1.0 - p.weight()).product::<f64>();
    let signature = StuckPattern::SPECIFICITY
        .into_iter()
        .find(|p| patterns.contains(p))
        .map(StuckPattern::signature);
    StuckReport {
        stuck: score >= STUCK_THRESHOLD,
        patterns,
        score,
        signature,
    }
}
