//! The next step, re-derived from scratch on every snapshot (so a "Next" that reveals a
//! new stage simply re-grounds): fill the inputs top to bottom, set the states the goal
//! names, make its clicks in goal order, commit last; then check the criteria. What has
//! no element yet may appear after a "Next"/"Continue"; what stays ungroundable, or
//! would be repeated without effect, ends the run with a reason instead of a guess.

use super::dropdown;
use super::explore;
use super::facts::{Facts, Only};
use super::goal::Intent;
use super::ground::clickable;
use super::history;
use super::inputs::{self, describe, Input};
use super::intents::{self, lone_submit_word_button, submit_button};
use super::menu;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{contains_phrase, normalize, Query};
use super::verify::{acknowledged, holds, Criterion};
use super::vocab::{is_progression_word, Verb};
use arc_core::{Action, ActionRecord, Role, Snapshot};

/// WAITs allowed for a criterion to come true after the last action.
pub const MAX_WAITS: usize = 2;

/// `commit_forbidden`: the goal or a constraint says not to commit ("don't save"), so no
/// submit the goal did not name is made for it. No commit is made while the goal names a
/// choice no input carries (`goal_option`).
pub fn next(
    f: &Facts,
    h: &[ActionRecord],
    goal: &[Intent],
    criteria: &[Criterion],
    inputs: &[Input],
    before_click: Option<&Snapshot>,
    commit_forbidden: bool,
) -> Outcome {
    let goal = super::wrapped::widen(f, goal);
    let goal = &goal[..];
    let out = step(f, h, goal, criteria, inputs, before_click, commit_forbidden);
    if let Outcome::Complete(_) = &out {
        if let Some(why) = super::echo::unanswered(f, h, criteria, inputs, before_click) {
            return if history::trailing_waits(h) < MAX_WAITS {
                Outcome::Wait(why)
            } else {
                Outcome::Unverified(format!("verification not met: {why}"))
            };
        }
    }
    if let Outcome::Act(a) = &out {
        if a.kind == StepKind::Commit {
            if let Some(why) = super::goal_option::unmade(f, said(goal), inputs) {
                return Outcome::NeedsAgent(why);
            }
        }
    }
    out
}

/// The whole goal, normalized (every intent carries it).
fn said(goal: &[Intent]) -> &str {
    goal.first().map(|i| &*i.said).unwrap_or_default()
}

fn step(
    f: &Facts,
    h: &[ActionRecord],
    goal: &[Intent],
    criteria: &[Criterion],
    inputs: &[Input],
    before_click: Option<&Snapshot>,
    commit_forbidden: bool,
) -> Outcome {
    // A form that clears itself after a successful submit must not be filled again:
    // once the run acted after its last edit, the criteria speak first.
    // Not before a commit the goal asks for is made: a preview shows what a post would.
    // A wizard's last-stage commit still to press, read once for this snapshot (`wizard`).
    let last_stage = super::wizard::pending_commit(f, h, said(goal));
    let commit_left = || {
        goal.iter()
            .any(|i| i.verb == Verb::Submit && intents::status(f, h, inputs, i) != Status::Done)
            || (!commit_forbidden && last_stage.is_some())
    };
    if acted_since_edit(h) && criteria.iter().all(|c| holds(f, h, c).is_ok()) && !commit_left() {
        return complete(criteria);
    }
    if final_click_made(f, h, goal, inputs) && !commit_left() {
        if let Some(before) = before_click {
            let at_click = Facts::new(before);
            let held = |c: &Criterion| {
                holds(f, h, c).is_ok()
                    || (c.check.holds_at_click() && holds(&at_click, h, c).is_ok())
            };
            if criteria.iter().all(held) {
                return complete(criteria);
            }
        }
    }
    // The goal's press opened a dialog asking whether it was meant: it was.
    if let Some(a) = super::confirm_press::pending(f, h, goal, before_click) {
        return guard(f, h, a);
    }
    // A scroll inside an element that the goal puts first: the form may wait for it.
    match super::scroll_inside::first(f, h, goal) {
        Some(Status::Pending(a)) => return guard(f, h, a),
        Some(Status::Stop(o)) => return o,
        _ => {}
    }
    // "Create a new note …": its "New note" first, so that what is typed makes a new
    // record instead of overwriting the open one.
    let form_absent = || {
        inputs
            .iter()
            .any(|i| matches!(inputs::status(f, h, i), Status::Absent(_)))
    };
    if let Some(a) = super::opener::pending(f, h, said(goal), form_absent) {
        return guard(f, h, a);
    }
    let mut absent: Vec<String> = Vec::new();
    let mut absent_input = false;
    // A goal's target is missing. It, like an input's field, may be behind a disclosure or
    // in the detail of a list entry the goal names (`stuck`).
    let mut absent_target = false;
    // The first intent, in goal order, whose state cannot be set: no click after it runs.
    let mut absent_state: Option<usize> = None;

    let mut pending: Vec<Act> = Vec::new();
    for input in inputs {
        match inputs::status(f, h, input) {
            Status::Done => {}
            // Placed, then submitted: a form that cleared itself is not filled and sent
            // a second time (that would send the record twice); the criteria judge.
            Status::Pending(_) if inputs::sent_after_placing(h, input) => {}
            Status::Pending(a) => pending.push(a),
            Status::Absent(why) => {
                let navigated = input.is_url() && goal.iter().any(|i| i.verb == Verb::Open);
                if !navigated && !inputs::done_before(h, input) {
                    absent.push(why);
                    absent_input = true;
                }
            }
            Status::Stop(o) => return o,
        }
    }
    // A field that asks for a value again takes it again ("Confirm password").
    pending.extend(super::confirm::steps(f, h, inputs));
    // A field completed from its suggestions holds more than the typed prefix.
    pending.retain(|a| !super::autocomplete::completes(f, h, criteria, a));
    // Its suggestion is picked at once: the list may cover the next field.
    match super::autocomplete::pick(f, h, criteria) {
        Some(Outcome::Act(a)) => return guard(f, h, a),
        Some(o) => return o,
        None => {}
    }
    if let Some(a) = first_input_step(pending, h) {
        return guard(f, h, a);
    }
    let goal_commits = goal.iter().any(|i| i.verb == Verb::Submit);
    if let Some(a) = super::search_box::send(f, h, goal_commits) {
        return guard(f, h, a);
    }

    let is_state = |i: &Intent| {
        matches!(
            i.verb,
            Verb::Fill | Verb::Select | Verb::Check | Verb::Uncheck | Verb::Expand(_)
        )
    };
    // A menu path is walked by its own rules (hover parents, click the leaf).
    let status = |it: &Intent| match &it.path {
        Some(path) => menu::status(f, h, path),
        // An implied click is a step only where a control bears its very word, and one
        // press of such a control does it (the row it acted on may be gone, and the
        // control its words now fit best another row's: `wrapped::pressed`).
        None if it.implied.is_some()
            && (!bears_word(f, &it.core)
                || history::clicked(h, &[Query::new(&it.core)], 1.0, None)
                || super::wrapped::pressed(h, goal, it)) =>
        {
            Status::Done
        }
        // Two things joined by "and" that no element names as one ("walking the dog and
        // returning the books"): each on its own first, for the whole may ground to one
        // side only and leave the other undone.
        None if it.object.contains(" and ") && !named_whole(f, it) => {
            match each_part(f, h, inputs, it) {
                Some(s) => s,
                None => intents::status(f, h, inputs, it),
            }
        }
        None => match intents::status(f, h, inputs, it) {
            s @ (Status::Done | Status::Pending(_)) => s,
            whole => each_part(f, h, inputs, it).unwrap_or(whole),
        },
    };
    for (k, it) in goal.iter().enumerate().filter(|(_, i)| is_state(i)) {
        if super::group::searches(goal, k) {
            continue;
        }
        match status(it) {
            Status::Done => {}
            Status::Pending(a) => return guard(f, h, a),
            Status::Absent(why) => {
                absent.push(why);
                absent_target = true;
                absent_state.get_or_insert(k);
            }
            Status::Stop(o) => return o,
        }
    }
    // The item a criterion names is on another page of the list: turn to it first.
    if let Some(o) = super::item::turn_page(f, h, criteria) {
        return o;
    }
    // Clicks in goal order, commits after them. A click the goal puts after an edit
    // waits for that edit ("type the query and press Enter").
    let clicks = goal
        .iter()
        .enumerate()
        .filter(|(_, i)| !is_state(i) && i.verb != Verb::Submit);
    let commits = goal
        .iter()
        .enumerate()
        .filter(|(_, i)| i.verb == Verb::Submit);
    let has_commit = commits.clone().next().is_some();
    for (k, it) in clicks.chain(commits) {
        // The creating clause was the "New …" press when a later clause commits ("create
        // a new note titled 'X' … and save it"): its title is no control to press.
        let later_commit = goal[k + 1..].iter().any(|i| i.verb == Verb::Submit);
        if it.verb == Verb::Submit && later_commit && super::opener::opened(h, &it.object) {
            continue;
        }
        let after_edit = goal[..k].iter().any(is_state);
        match status(it) {
            Status::Done => {}
            // Never submit a form with an input still unplaced, nor press on past a step
            // the goal puts before the press that could not be done ("select X and hit
            // Submit" with no X on the page).
            Status::Pending(a)
                if !absent.is_empty()
                    && (a.kind == StepKind::Commit
                        || (absent_input && after_edit)
                        || absent_state.is_some_and(|s| s < k)) =>
            {
                let missing = absent_target || absent_input;
                return stuck(f, h, goal, criteria, &absent, missing, last_stage);
            }
            Status::Pending(a) => {
                let target = a.action.target().and_then(|t| f.index_of(t.as_str()));
                let open = target.and_then(|i| super::entry::unopened(f, h, it, i));
                return guard(f, h, open.unwrap_or(a));
            }
            Status::Absent(why) => {
                absent.push(why);
                return stuck(f, h, goal, criteria, &absent, true, last_stage);
            }
            Status::Stop(o) => return o,
        }
    }
    if !absent.is_empty() {
        let missing = absent_target || absent_input;
        return stuck(f, h, goal, criteria, &absent, missing, last_stage);
    }
    if let Some(i) = last_stage.filter(|_| !commit_forbidden) {
        return guard(f, h, super::wizard::commit(f, i));
    }
    // Enter commits a box with no button only for a goal that asks for nothing but values
    // placed: where it asks for more ("Move the card to Done"), what was typed is no item
    // to create.
    let only_values = goal.iter().all(|i| is_state(i) && i.implied.is_none());
    finish(
        f,
        h,
        criteria,
        inputs,
        !has_commit && !commit_forbidden,
        only_values,
        before_click,
    )
}

/// Whether some element's name holds the intent's object as written ("I accept the
/// terms and conditions" for "the terms and conditions").
fn named_whole(f: &Facts, it: &Intent) -> bool {
    let whole = it
        .quoted
        .as_deref()
        .map_or_else(|| it.core.clone(), normalize);
    whole.is_empty() || (0..f.len()).any(|i| contains_phrase(f.name(i), &whole))
}

/// An object that grounds as a whole to nothing, or to two things equally, may name two
/// things joined by "and": each side then must ground on its own, and they are done one
/// by one. None (the whole's answer stands) when any side does not ground.
fn each_part(f: &Facts, h: &[ActionRecord], inputs: &[Input], it: &Intent) -> Option<Status> {
    let parts = super::goal::parts(it)?;
    let mut next = None;
    for p in &parts {
        match intents::status(f, h, inputs, p) {
            Status::Done => {}
            Status::Pending(a) => {
                next.get_or_insert(a);
            }
            Status::Absent(_) | Status::Stop(_) => return None,
        }
    }
    Some(next.map_or(Status::Done, Status::Pending))
}

/// Whether a control the run could press is named exactly `word`.
fn bears_word(f: &Facts, word: &str) -> bool {
    !word.is_empty() && (0..f.len()).any(|i| clickable(f, i) && f.name(i) == word)
}

/// The goal ends with a click ("… and click submit"), earlier steps came before it, and
/// the run's last action (waits aside) was that click, made as the goal's step. What the
/// earlier steps set up is then judged as it stood when the click was made: a submit
/// that collapses, clears or covers what it sent does not undo it, and acting again
/// (re-expanding, re-filling) would be a second, unasked-for round.
fn final_click_made(f: &Facts, h: &[ActionRecord], goal: &[Intent], inputs: &[Input]) -> bool {
    let Some(last_intent) = goal.last() else {
        return false;
    };
    let ends_with_click = matches!(last_intent.verb, Verb::Click | Verb::Submit);
    let earlier_steps = goal.len() >= 2 || !inputs.is_empty();
    let last = h
        .iter()
        .rev()
        .find(|r| r.action.kind() != arc_core::ActionKind::Wait);
    let clicked_last = last.is_some_and(|r| {
        r.action.kind() == arc_core::ActionKind::Click
            && r.on_target()
            && matches!(history::tag(r), Some("click" | "commit"))
    });
    ends_with_click
        && earlier_steps
        && clicked_last
        && last_intent.path.is_none()
        && intents::status(f, h, inputs, last_intent) == Status::Done
}

/// Top to bottom, except that a choice in a just-opened combobox comes first.
fn first_input_step(mut pending: Vec<Act>, h: &[ActionRecord]) -> Option<Act> {
    pending.sort_by_key(|a| a.order);
    let opened = h.last().and_then(history::tag) == Some(StepKind::Expand.as_str());
    if opened {
        if let Some(i) = pending.iter().position(|a| a.kind == StepKind::Choose) {
            return Some(pending.swap_remove(i));
        }
    }
    pending.into_iter().next()
}

fn acted_since_edit(h: &[ActionRecord]) -> bool {
    history::last_edit(h).is_some_and(|i| {
        h[i + 1..]
            .iter()
            .any(|r| r.action.kind() != arc_core::ActionKind::Wait)
    })
}

/// An action is not repeated when it changed nothing, nor a third time at all; a
/// disabled target is waited for briefly, never clicked.
fn guard(f: &Facts, h: &[ActionRecord], a: Act) -> Outcome {
    if matches!(a.kind, StepKind::Scroll | StepKind::Wait) {
        return Outcome::Act(a);
    }
    // A selection or a copy shows nothing on the page, and select-all runs once for the
    // copy and once for the paste: `clipboard` stages them by the run's records.
    if a.kind == StepKind::Clipboard && a.action.kind() == arc_core::ActionKind::Hotkey {
        return Outcome::Act(a);
    }
    // A slider's keys repeat by design; `slider` bounds them and reads each one's effect.
    if a.kind == StepKind::Slide && a.action.kind() == arc_core::ActionKind::PressKey {
        return Outcome::Act(a);
    }
    // A calendar's next/previous control is pressed once per month; `month` bounds it.
    if a.kind == StepKind::Turn {
        return Outcome::Act(a);
    }
    // A list the run opened and a pick left open would cover what comes next.
    if let Some(close) = dropdown::close_first(f, h, &a) {
        return Outcome::Act(close);
    }
    let target = a.action.target().and_then(|t| f.index_of(t.as_str()));
    if let Some(i) = target.filter(|&i| !f.els[i].enabled) {
        return if history::trailing_waits(h) < MAX_WAITS {
            Outcome::Wait(format!("waiting for {} to be enabled", describe(f, i)))
        } else {
            Outcome::NeedsAgent(format!("{} stays disabled ({})", describe(f, i), a.why))
        };
    }
    let (n, unchanged) = history::tries(h, &a.action);
    if unchanged || n >= 2 {
        let target = target
            .map(|i| format!(" on {}", describe(f, i)))
            .unwrap_or_default();
        let effect = if unchanged {
            "changed nothing"
        } else {
            "did not take effect"
        };
        return Outcome::NeedsAgent(format!(
            "{}{target} already ran {n} time(s) and {effect}; not repeating it ({})",
            a.action.kind(),
            a.why
        ));
    }
    Outcome::Act(a)
}

/// Something the goal needs is not on this snapshot: advance a multi-stage flow when
/// the run is in one (it has filled something: a "Next" elsewhere on a page the run has
/// not touched is more likely a pager); when a goal's target or an input's field is
/// missing, open the list entry the goal names (`entry`), else the next tab or collapsed
/// item not yet opened (`explore`); else report what could not be grounded.
fn stuck(
    f: &Facts,
    h: &[ActionRecord],
    goal: &[Intent],
    criteria: &[Criterion],
    absent: &[String],
    target_missing: bool,
    last_stage: Option<usize>,
) -> Outcome {
    // Not on a wizard's review while its last stage's commit is unpressed (`wizard`).
    if last_stage.is_none() && criteria.iter().all(|c| holds(f, h, c).is_ok()) {
        return complete(criteria);
    }
    if h.iter().any(history::edits_form) {
        match progression(f, h) {
            Only::One(i) => {
                return guard(
                    f,
                    h,
                    Act {
                        action: Action::click(f.els[i].id.clone()),
                        kind: StepKind::Progress,
                        confidence: 0.6,
                        margin: 0.6,
                        why: format!("advance to the next stage ({})", absent.join("; ")),
                        order: i,
                    },
                );
            }
            Only::Two(a, b) => {
                return Outcome::NeedsAgent(format!(
                    "{}; two buttons could advance: {}, {}",
                    absent.join("; "),
                    describe(f, a),
                    describe(f, b)
                ))
            }
            Only::None => {}
        }
    }
    if let Some(bar) = busy(f) {
        if history::trailing_waits(h) < MAX_BUSY_WAITS && !h.is_empty() {
            return Outcome::Wait(format!(
                "{} while {} shows the page is loading",
                absent.join("; "),
                describe(f, bar)
            ));
        }
    }
    if target_missing {
        // "Find the email by X and reply …": the item's own controls show once it is open.
        if let Some(a) = super::entry::open_named(f, h, goal) {
            return guard(f, h, a);
        }
        // "Expand the sections below, to find …": the search stays in that group.
        // "For the user @ann, click \"Mute\"": the search opens Ann's row's menu.
        let within = super::group::search_scope(f, goal).or_else(|| {
            let d = (0..f.len()).find(|&i| explore::is_disclosure(f, i))?;
            goal.iter()
                .find_map(|it| super::item::named_openers(f, it, d))
        });
        match explore::next(f, h, absent, within.as_deref(), said(goal)) {
            Some(Outcome::Act(a)) => return guard(f, h, a),
            Some(o) => return o,
            None => {}
        }
    }
    Outcome::NeedsAgent(absent.join("; "))
}

/// WAITs allowed while the page shows it is loading (a progress bar after our action).
const MAX_BUSY_WAITS: usize = 8;

/// A visible progress indicator: what is missing may be on its way.
fn busy(f: &Facts) -> Option<usize> {
    (0..f.len()).find(|&i| f.els[i].visible && f.els[i].role == Role::ProgressBar)
}

/// The one "Next"/"Continue" button not already clicked since the last edit.
fn progression(f: &Facts, h: &[ActionRecord]) -> Only {
    let since = history::last_edit(h);
    f.only(|i| {
        let e = &f.els[i];
        let first = f.name(i).split(' ').next().unwrap_or_default();
        matches!(e.role, Role::Button | Role::Link)
            && e.enabled
            && clickable(f, i)
            && is_progression_word(first)
            && !history::clicked_id(h, e.id.as_str(), since)
    })
}

fn complete(criteria: &[Criterion]) -> Outcome {
    let list: Vec<String> = criteria.iter().map(|c| format!("{:?}", c.text)).collect();
    Outcome::Complete(format!("verified: {}", list.join(", ")))
}

/// Every step is done: complete when the criteria hold; else submit a filled form the
/// goal did not say to submit, wait briefly for a slow page, or hand back.
fn finish(
    f: &Facts,
    h: &[ActionRecord],
    criteria: &[Criterion],
    inputs: &[Input],
    no_commit_intent: bool,
    only_values: bool,
    before_click: Option<&Snapshot>,
) -> Outcome {
    let unmet = criteria
        .iter()
        .find_map(|c| holds(f, h, c).err().map(|why| (c, why)));
    let Some((criterion, why)) = unmet else {
        return complete(criteria);
    };
    // A record's box the run set ("Grant … staff status") is a form edit as much as a
    // typed value: the form's one submit stores it.
    if no_commit_intent && (!inputs.is_empty() || history::last_edit(h).is_some()) {
        if let Some(act) = implicit_submit(f, h, only_values && !inputs.is_empty()) {
            return guard(f, h, act);
        }
    }
    if !h.is_empty() && history::trailing_waits(h) < MAX_WAITS {
        return Outcome::Wait(format!("waiting for {:?} ({why})", criterion.text));
    }
    let ignored = before_click.is_some_and(|b| same_content(b, f.snapshot));
    if let Some(act) = retry_last_click(f, h, criterion).filter(|_| ignored) {
        return guard(f, h, act);
    }
    // Settled, every step done: what the reader could not hold as written may be an
    // outcome the page acknowledged in its own words (`verify::acknowledged`).
    if busy(f).is_none() {
        if let Some(before) = before_click {
            let held =
                |c: &Criterion| holds(f, h, c).is_ok() || acknowledged(f, h, c, before).is_ok();
            if criteria.iter().all(held) {
                return complete(criteria);
            }
        }
    }
    let mut reason = format!("verification not met: {:?} ({why})", criterion.text);
    for i in 0..f.len() {
        let e = &f.els[i];
        if e.visible && e.role == Role::Alert && !e.name.trim().is_empty() {
            reason.push_str(&format!("; the page shows alert {:?}", e.name.trim()));
        }
    }
    Outcome::Unverified(reason)
}

/// The criteria stayed unmet after waiting and the page showed no reaction to the last
/// click beyond focus (`same_content`): the click was swallowed (a page that ignores the
/// first click, a handler not yet attached). Click it once more — never after the page
/// reacted (a second "Submit" on a payment that answered is a second payment), never a
/// control whose name marks a risk, and `guard` refuses a third try.
fn retry_last_click(f: &Facts, h: &[ActionRecord], unmet: &Criterion) -> Option<Act> {
    if !unmet.check.reads_the_page() {
        return None;
    }
    let last = h
        .iter()
        .rev()
        .find(|r| r.action.kind() != arc_core::ActionKind::Wait)?;
    if last.action.kind() != arc_core::ActionKind::Click
        || history::tries(h, &last.action.action).0 >= 2
    {
        return None;
    }
    let id = last.action.target()?;
    let i = f.index_of(id.as_str())?;
    let e = &f.els[i];
    if !e.enabled || !clickable(f, i) || arc_core::Risk::classify(&e.name).is_some() {
        return None;
    }
    Some(Act {
        action: Action::click(e.id.clone()),
        kind: StepKind::Retry,
        confidence: 0.6,
        margin: 0.6,
        why: format!(
            "{:?} still unmet after the click: clicking {} once more",
            unmet.text,
            describe(f, i)
        ),
        order: i,
    })
}

/// The same elements with the same names, values and states: focus aside, nothing moved.
fn same_content(a: &Snapshot, b: &Snapshot) -> bool {
    a.elements.len() == b.elements.len()
        && a.url() == b.url()
        && a.elements.iter().zip(b.elements.iter()).all(|(x, y)| {
            x.id == y.id
                && x.role == y.role
                && x.name == y.name
                && x.value == y.value
                && x.visible == y.visible
                && x.enabled == y.enabled
                && x.selected == y.selected
                && x.expanded == y.expanded
        })
}

/// A filled form whose goal names no commit: its one submit button, once per edit.
fn implicit_submit(f: &Facts, h: &[ActionRecord], by_enter: bool) -> Option<Act> {
    let since = history::last_edit(h)?;
    // Answering a popup is not the form's submit.
    let clicked_since = h.iter().skip(since + 1).any(|r| {
        r.action.kind() == arc_core::ActionKind::Click
            && history::tag(r) != Some(StepKind::Dismiss.as_str())
    });
    if clicked_since {
        return None;
    }
    let Some(idx) = submit_button(f)
        .or_else(|| lone_submit_word_button(f))
        .or_else(|| intents::default_button(f, h))
        .or_else(|| intents::trailing_button(f, h))
    else {
        // No control commits: Enter in the field just typed into.
        return match intents::by_enter(f, h).filter(|_| by_enter) {
            Some(Status::Pending(a)) => Some(a),
            _ => None,
        };
    };
    Some(Act {
        action: Action::click(f.els[idx].id.clone()),
        kind: StepKind::Commit,
        confidence: 0.6,
        margin: 0.6,
        why: format!("submit the filled form → {}", describe(f, idx)),
        order: idx,
    })
}
