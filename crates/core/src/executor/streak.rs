//! When a run of actions that changed nothing is a loop.

use crate::record::ActionRecord;

/// Unchanged actions in a row past which the run stops even when each was new: presses on
/// distinct targets (a like on each of many posts, which the page need not show) are not
/// a loop, but they are bounded.
const MAX_UNCHANGED_DISTINCT: usize = 32;

/// The run's trailing records that changed nothing.
pub(super) fn unchanged_streak(history: &[ActionRecord]) -> &[ActionRecord] {
    let from = history
        .iter()
        .rposition(|r| r.state_changed)
        .map_or(0, |k| k + 1);
    &history[from..]
}

/// Whether a streak of actions that changed nothing is a loop: at least `limit` of them,
/// the last repeating one already in the streak (the same press again, or back and forth),
/// or more than [`MAX_UNCHANGED_DISTINCT`] of them at all.
pub(super) fn no_progress(streak: &[ActionRecord], limit: u32) -> bool {
    let Some((last, before)) = streak.split_last() else {
        return false;
    };
    let last = &last.action;
    streak.len() >= limit as usize
        && (before.iter().any(|r| r.action == *last) || streak.len() > MAX_UNCHANGED_DISTINCT)
}
