//! One episode's measurements and the page's reward as a shared [`TaskResult`]: reward
//! is the page's raw reward, success raw > 0 with the episode done — never the runtime's
//! claim.

use super::episode::Reward;
use super::error::MiniwobError;
use super::options::Slot;
use super::result::Episode;
use crate::result::TaskResult;
use crate::runner::score::{Head, Measured};
use crate::task::{Category, Expectation, TaskId};
use std::time::Duration;

impl Episode {
    /// An episode about which nothing is known yet but its slot.
    pub(super) fn new(slot: &Slot) -> Episode {
        Episode {
            task: slot.task.clone(),
            seed: slot.seed,
            utterance: String::new(),
            input_keys: Vec::new(),
            verification: Vec::new(),
            done: false,
            decayed_reward: 0.0,
            reward_reason: None,
        }
    }
}

/// `click-test.s3`, category `miniwob/click-test`.
fn head(slot: &Slot) -> Head {
    let id = format!("{}.s{}", slot.task, slot.seed);
    Head {
        // A task name is [a-z0-9-] and a seed digits: always a valid id.
        id: TaskId::try_from(id).expect("task name and seed form a valid id"),
        category: Category::Other(format!("miniwob/{}", slot.task)),
        position: slot.position,
        expected: Expectation::default(),
        reference_steps: None,
    }
}

/// `run_ms`: the clock around the runtime's run (an abandoned run included); `wall`:
/// the whole episode, page load and reward read included.
pub(super) fn judge(
    slot: &Slot,
    mut episode: Episode,
    mut measured: Measured,
    reward: Result<Reward, MiniwobError>,
    run_ms: u64,
    wall: Duration,
) -> TaskResult {
    let reward = match reward {
        Ok(r) => Some(r),
        Err(e) => {
            measured.note_error(format!("reading the reward: {e}"));
            None
        }
    };
    let success = reward.as_ref().is_some_and(Reward::success);
    let raw = reward.as_ref().map_or(0.0, |r| r.raw);
    if let Some(r) = reward {
        episode.done = r.done;
        episode.decayed_reward = r.reward;
        episode.reward_reason = r.reason;
    }
    let mut result = measured.into_result(head(slot), success, raw, wall);
    result.run_ms = run_ms;
    result.episode = Some(episode);
    result
}

/// An episode that never ran (the page or the planner failed first).
pub(super) fn not_run(slot: &Slot, episode: Episode, why: String, wall: Duration) -> TaskResult {
    let mut result = Measured::error(why).into_result(head(slot), false, 0.0, wall);
    result.episode = Some(episode);
    result
}
