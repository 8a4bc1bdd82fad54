//! A flow in stages ends with its own commit: once the run has pressed "Next" through a
//! wizard on its own (the goal never said to), a stage offering a button led by a commit verb ("Create workspace", "Place
//! order") is the flow's last step, still to be pressed. Until it is, what the stage
//! echoes back (a review of what was typed) is no record, so nothing completes on it;
//! unless the goal says not to commit, the run presses it.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::step::{Act, StepKind};
use super::text::normalize_name;
use super::vocab::{is_progression_word, verb_at, Verb};
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// The stage's one unpressed commit, when the run advanced through stages on its own: a
/// goal that says where to stop ("… and click Next") is done there, and the next
/// stage's commit is another subtask's. `said`: the whole goal, normalized.
pub fn pending_commit(f: &Facts, h: &[ActionRecord], said: &str) -> Option<usize> {
    let advanced = h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && r.target_name.as_deref().is_some_and(|n| {
                normalize_name(n)
                    .split(' ')
                    .next()
                    .is_some_and(|w| is_progression_word(w) && !said.split(' ').any(|g| g == w))
            })
    });
    if !advanced {
        return None;
    }
    f.only(|i| {
        let e = &f.els[i];
        let words: Vec<&str> = f.name(i).split(' ').collect();
        e.role == Role::Button
            && e.enabled
            && clickable(f, i)
            && !is_progression_word(words[0])
            && matches!(verb_at(&words, 0), Some((Verb::Submit, _)))
            && arc_core::Risk::classify(&e.name).is_none()
            && !history::clicked_id(h, e.id.as_str(), None)
    })
    .one()
}

/// The press of that commit.
pub fn commit(f: &Facts, i: usize) -> Act {
    Act {
        action: Action::click(f.els[i].id.clone()),
        kind: StepKind::Commit,
        confidence: 0.6,
        margin: 0.6,
        why: format!(
            "the flow's last stage commits → {}",
            super::inputs::describe(f, i)
        ),
        order: i,
    }
}
