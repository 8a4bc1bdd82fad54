//! The feature builder (seed §5.7.4): exactly 16 deterministic, JSON-serializable
//! features of a trajectory window (the last ≤ 5 steps, oldest first, ending at the
//! step being described). "Newest" below is that last step.
//!
//! | # | name | meaning |
//! |---|------|---------|
//! | 1 | `window_size` | steps in the window |
//! | 2 | `action_repeat_count` | earlier steps with the newest step's (action, target) |
//! | 3 | `locator_repeat_count` | earlier steps on the newest step's target, any action |
//! | 4 | `locator_failure_count` | steps whose target failed (stale, not found, exception) |
//! | 5 | `readiness_timeout_count` | steps that never settled |
//! | 6 | `action_exception_count` | steps whose action raised |
//! | 7 | `consecutive_no_state_change` | trailing steps that changed nothing |
//! | 8 | `hamming_distance_sequence` | each step's structural distance |
//! | 9 | `state_hash_cycle_detected` | H(s_t) == H(s_{t-2}) != H(s_{t-1}) |
//! | 10 | `url_changed` | any step in the window changed the URL |
//! | 11 | `error_detected` | the newest step errored |
//! | 12 | `expected_state_change_verified` | the newest step's declared effect was seen |
//! | 13 | `visible_text_delta` | the newest step's visible-text delta |
//! | 14 | `action_type_sequence` | each step's action kind (`""` if none) |
//! | 15 | `target_role_sequence` | each step's target role (`""` if none) |
//! | 16 | `target_name_sequence` | each step's target name (`""` if none) |

use super::record::TrajectoryRecord;
use arc_core::StepFailure;
use serde::{Deserialize, Serialize};

/// The feature names, in order. Stable: models are trained against them.
pub const FEATURE_NAMES: [&str; 16] = [
    "window_size",
    "action_repeat_count",
    "locator_repeat_count",
    "locator_failure_count",
    "readiness_timeout_count",
    "action_exception_count",
    "consecutive_no_state_change",
    "hamming_distance_sequence",
    "state_hash_cycle_detected",
    "url_changed",
    "error_detected",
    "expected_state_change_verified",
    "visible_text_delta",
    "action_type_sequence",
    "target_role_sequence",
    "target_name_sequence",
];

/// One feature's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FeatureValue {
    Bool(bool),
    Int(i64),
    Ints(Vec<i64>),
    Texts(Vec<String>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Features {
    pub window_size: u32,
    pub action_repeat_count: u32,
    pub locator_repeat_count: u32,
    pub locator_failure_count: u32,
    pub readiness_timeout_count: u32,
    pub action_exception_count: u32,
    pub consecutive_no_state_change: u32,
    pub hamming_distance_sequence: Vec<u32>,
    pub state_hash_cycle_detected: bool,
    pub url_changed: bool,
    pub error_detected: bool,
    pub expected_state_change_verified: bool,
    pub visible_text_delta: i32,
    pub action_type_sequence: Vec<String>,
    pub target_role_sequence: Vec<String>,
    pub target_name_sequence: Vec<String>,
}

impl Features {
    /// Builds the features of `window` (oldest first; must not be empty).
    pub fn of_window(window: &[&TrajectoryRecord]) -> Features {
        let newest = window.last().expect("a window holds at least one step");
        let earlier = &window[..window.len() - 1];
        let count =
            |f: &dyn Fn(&TrajectoryRecord) -> bool| window.iter().filter(|r| f(r)).count() as u32;
        let same_target = |r: &TrajectoryRecord| {
            newest.target_locator.is_some() && r.target_locator == newest.target_locator
        };
        let failed = |f: StepFailure| move |r: &TrajectoryRecord| r.error_type == Some(f);
        let text = |o: &Option<String>| o.clone().unwrap_or_default();
        Features {
            window_size: window.len() as u32,
            action_repeat_count: earlier
                .iter()
                .filter(|r| same_target(r) && r.action_type == newest.action_type)
                .count() as u32,
            locator_repeat_count: earlier.iter().filter(|r| same_target(r)).count() as u32,
            locator_failure_count: count(&|r| {
                r.error_type.is_some_and(StepFailure::is_locator_failure)
            }),
            readiness_timeout_count: count(&failed(StepFailure::ReadinessTimeout)),
            action_exception_count: count(&failed(StepFailure::ActionException)),
            consecutive_no_state_change: window
                .iter()
                .rev()
                .take_while(|r| !r.state_changed && !r.url_changed)
                .count() as u32,
            hamming_distance_sequence: window.iter().map(|r| r.hamming_distance).collect(),
            state_hash_cycle_detected: matches!(window, [.., a, b, c]
                if c.state_hash_after == a.state_hash_after
                    && c.state_hash_after != b.state_hash_after),
            url_changed: window.iter().any(|r| r.url_changed),
            error_detected: newest.error_detected,
            expected_state_change_verified: newest.expected_state_change_verified(),
            visible_text_delta: newest.visible_text_delta,
            action_type_sequence: window
                .iter()
                .map(|r| {
                    r.action_type
                        .map(|k| k.as_str().to_owned())
                        .unwrap_or_default()
                })
                .collect(),
            target_role_sequence: window.iter().map(|r| text(&r.target_role)).collect(),
            target_name_sequence: window.iter().map(|r| text(&r.target_name)).collect(),
        }
    }

    /// The 16 (name, value) pairs, in [`FEATURE_NAMES`] order.
    pub fn values(&self) -> [(&'static str, FeatureValue); 16] {
        use FeatureValue::*;
        let n = |v: u32| Int(i64::from(v));
        let values = [
            n(self.window_size),
            n(self.action_repeat_count),
            n(self.locator_repeat_count),
            n(self.locator_failure_count),
            n(self.readiness_timeout_count),
            n(self.action_exception_count),
            n(self.consecutive_no_state_change),
            Ints(
                self.hamming_distance_sequence
                    .iter()
                    .map(|d| i64::from(*d))
                    .collect(),
            ),
            Bool(self.state_hash_cycle_detected),
            Bool(self.url_changed),
            Bool(self.error_detected),
            Bool(self.expected_state_change_verified),
            Int(i64::from(self.visible_text_delta)),
            Texts(self.action_type_sequence.clone()),
            Texts(self.target_role_sequence.clone()),
            Texts(self.target_name_sequence.clone()),
        ];
        let mut i = 0;
        values.map(|v| {
            let pair = (FEATURE_NAMES[i], v);
            i += 1;
            pair
        })
    }
}

/// The features of every step of every run in `records`, in order.
pub fn features_per_step(records: &[TrajectoryRecord]) -> Vec<Features> {
    super::label::runs(records)
        .iter()
        .flat_map(|run| {
            (0..run.len()).map(move |t| {
                Features::of_window(&run[t.saturating_sub(super::label::LABEL_WINDOW - 1)..=t])
            })
        })
        .collect()
}
