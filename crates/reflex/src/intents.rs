//! One step per goal intent that the inputs do not already cover: ground its object and
//! say whether it holds (a checkbox checked, a tab selected, a click made) or which
//! action makes it hold.

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{
    checkable, clickable, ground, ground_role, prefer_inner, Grounding, QUOTED_THRESHOLD, THRESHOLD,
};
use super::history;
use super::inputs::{describe, Input};
use super::ordinal::Nth;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{contains_phrase, identifier_words, is_stopword, normalize, Query};
use super::vocab::{is_close_glyph, is_submit_word, pictured_as, Verb};
use arc_core::{Action, ActionKind, ActionRecord, InputType, Key, Role, ScrollDirection};

/// How many SCROLLs "scroll to the bottom" may take.
const MAX_SCROLLS: usize = 20;

/// The quote that names the intent's target: none for "reply … saying \"Q\"", whose
/// quote is what is written, not the control's name.
fn target_quote(it: &Intent) -> Option<&String> {
    it.quoted.as_ref().filter(|_| it.verb != Verb::Respond)
}

/// The phrases an intent's target may be named by, and how close a match must be.
pub fn queries(it: &Intent) -> (Vec<Query>, f64) {
    if let Some(q) = target_quote(it) {
        let mut qs = vec![Query::new(q).with_context(super::item::goal_words(it))];
        if is_close_glyph(q) {
            // A close control shows "×" and is named "Close".
            qs.push(Query::new("close"));
        }
        return (qs, QUOTED_THRESHOLD);
    }
    let whole = format!("{} {}", it.verb_words, it.object).trim().to_owned();
    let texts = if matches!(it.verb, Verb::Submit | Verb::Respond) {
        // "Register with the email": the verb names the button, maybe with its object
        // ("place the order"); the object alone ("the order") names too much.
        vec![it.verb_words.clone(), whole]
    } else {
        vec![it.core.clone(), it.object.clone(), whole]
    };
    let mut out: Vec<Query> = Vec::new();
    for t in texts {
        let q = Query::from_norm(t);
        if !q.is_empty() && !out.contains(&q) {
            out.push(q);
        }
    }
    (out, THRESHOLD)
}

/// Whether the inputs already carry this intent ("choose the plan" with input `plan`).
pub fn covered(it: &Intent, inputs: &[Input]) -> bool {
    match it.verb {
        Verb::Fill => !inputs.is_empty(),
        // An input that names an item ("task": "Buy milk") says which item, not that its
        // state is set (`reference`).
        Verb::Select | Verb::Check | Verb::Uncheck => inputs
            .iter()
            .any(|i| mentions(it, i) && !super::reference::names_item(i.key)),
        _ => false,
    }
}

fn mentions(it: &Intent, input: &Input) -> bool {
    let key = identifier_words(input.key);
    let words: Vec<&str> = it.object.split(' ').collect();
    // An ordinal names a position, not a thing: "2nd_textbox" does not mention "the 2nd
    // radio button".
    let by_key = key
        .split(' ')
        .any(|k| !is_stopword(k) && Nth::parse(k).is_none() && words.contains(&k));
    let lit = normalize(&input.literal.as_text());
    let by_literal = !lit.is_empty()
        && (contains_phrase(&it.object, &lit)
            || it.quoted.as_deref().is_some_and(|q| normalize(q) == lit));
    by_key || by_literal
}

pub fn status(f: &Facts, h: &[ActionRecord], inputs: &[Input], it: &Intent) -> Status {
    if covered(it, inputs) {
        return Status::Done;
    }
    // "check all the boxes in the list": each member in turn (`group`).
    if let Some((g, kind)) = super::group::of(it) {
        return super::group::status(f, h, it, &g, kind);
    }
    // "Enter the value that corresponds with each label": every labelled field's own.
    if it.verb == Verb::Fill && super::clipboard::by_each_label(&it.object) {
        return super::clipboard::transfer_each(f, h);
    }
    // "Enter the value of K into Y": the literal is the page's own, not the subtask's.
    if let Some((key, dst)) = super::clipboard::value_transfer(&it.object) {
        if it.verb == Verb::Fill {
            return super::clipboard::transfer(f, h, &key, &dst);
        }
    }
    match it.verb {
        Verb::Fill => Status::Stop(Outcome::NeedsInput(format!(
            "the goal asks to fill {} but the subtask supplies no input for it",
            what(it)
        ))),
        Verb::Select | Verb::Check => marked(f, h, inputs, it, toggle(f, h, it, true)),
        Verb::Uncheck => marked(f, h, inputs, it, toggle(f, h, it, false)),
        Verb::Expand(want) => expand(f, h, it, want),
        Verb::Click | Verb::Open | Verb::Respond => click(f, h, inputs, it),
        Verb::Submit => commit(f, h, it),
        Verb::Scroll => scroll(f, h, it),
        Verb::Focus => focus(f, h, it),
        Verb::Close => close(f, h, inputs, it),
        Verb::Verify => Status::Done,
        Verb::Copy | Verb::Paste => super::clipboard::status(f, h, it),
        Verb::Highlight => super::highlight::status(f, h, &it.object, it.quoted.as_deref()),
    }
}

/// The intent's target for reasons: its quote, else its object.
pub fn what(it: &Intent) -> String {
    match target_quote(it) {
        Some(q) => format!("{q:?}"),
        None if matches!(it.verb, Verb::Submit | Verb::Respond) || it.core.is_empty() => {
            format!("{:?}", format!("{} {}", it.verb_words, it.core).trim())
        }
        None => format!("{:?}", it.core),
    }
}

fn pending(f: &Facts, i: usize, kind: StepKind, score: f64, margin: f64, it: &Intent) -> Status {
    Status::Pending(Act {
        action: Action::click(f.els[i].id.clone()),
        kind,
        confidence: score,
        margin,
        why: format!("{} → {}", what(it), describe(f, i)),
        order: i,
    })
}

/// Grounds the intent's target among `eligible`: by position when it names only roles
/// and an ordinal, else by words; a tie between nested elements goes to the inner one.
fn locate(f: &Facts, it: &Intent, eligible: impl Fn(usize) -> bool) -> Grounding {
    let role_only = it.core.is_empty() && it.quoted.is_none() && !it.roles.is_empty();
    if it.nth.is_some() || (role_only && it.verb != Verb::Submit) {
        return ground_role(f, &it.roles, it.nth, eligible);
    }
    let (qs, threshold) = queries(it);
    prefer_inner(f, ground(f, &qs, &it.roles, threshold, eligible))
}

/// Whether the run pressed an element matching `qs` better than every one of
/// `candidates`, and that element is no longer on the page.
fn pressed_and_gone(f: &Facts, h: &[ActionRecord], qs: &[Query], candidates: &[usize]) -> bool {
    let best = candidates
        .iter()
        .flat_map(|&i| qs.iter().map(move |q| q.score(f.name(i))))
        .fold(0.0, f64::max);
    history::clicked_gone(h, qs, best, |id| f.index_of(id).is_some())
}

fn tie(f: &Facts, it: &Intent, a: usize, b: usize) -> Status {
    Status::Stop(Outcome::NeedsAgent(format!(
        "two elements match {} equally: {}, {}",
        what(it),
        describe(f, a),
        describe(f, b)
    )))
}

fn missing(it: &Intent) -> Status {
    Status::Absent(format!("no element matches {}", what(it)))
}

/// Check, uncheck or select a stateful element (checkbox, radio, tab, option). One that
/// states no selected state (a menu item) is selected by the run's click on it, which
/// only the run's record shows.
fn toggle(f: &Facts, h: &[ActionRecord], it: &Intent, want: bool) -> Status {
    let (qs, threshold) = queries(it);
    match locate(f, it, |i| clickable(f, i) && checkable(&f.els[i].role)) {
        Grounding::Found { idx, score, margin } => {
            let e = &f.els[idx];
            let chosen =
                e.selected.is_none() && want && history::clicked_id(h, e.id.as_str(), None);
            if e.selected.unwrap_or(false) == want || chosen {
                Status::Done
            } else {
                pending(f, idx, StepKind::Toggle, score, margin, it)
            }
        }
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        // "Mark it done" names its item by the state's control (`marked`), not a box.
        Grounding::Missing { .. } if it.state.is_none() && said_whole(f, it).is_some() => {
            let idx = said_whole(f, it).unwrap_or_default();
            if f.els[idx].selected.unwrap_or(false) == want {
                Status::Done
            } else {
                pending(f, idx, StepKind::Toggle, 1.0, 1.0, it)
            }
        }
        Grounding::Missing { .. } => {
            // An option of a native select is chosen by SELECT_OPTION, which types only
            // a planner's literal.
            let native = ground(f, &qs, &[], threshold, |i| f.in_native_select(i));
            if let Grounding::Found { idx, .. } = native {
                if f.els[idx].selected != Some(true) {
                    return Status::Stop(Outcome::NeedsInput(format!(
                        "choosing {} ({}) in a list needs it as an input literal",
                        what(it),
                        describe(f, idx)
                    )));
                }
                return Status::Done;
            }
            missing(it)
        }
    }
}

/// The one box whose whole name the goal's clause says among words that name more (the
/// record it belongs to: "Grant Maria Garcia (mgarcia) staff status" → "Staff status"),
/// none of its words missing in any form.
fn said_whole(f: &Facts, it: &Intent) -> Option<usize> {
    use super::stem::same_stem;
    let said: Vec<&str> = it.said.split(' ').filter(|w| !is_stopword(w)).collect();
    let named: Vec<usize> = (0..f.len())
        .filter(|&i| {
            let words: Vec<&str> = f.name(i).split(' ').filter(|w| !is_stopword(w)).collect();
            f.els[i].visible
                && clickable(f, i)
                && checkable(&f.els[i].role)
                && !words.is_empty()
                && words.iter().all(|w| said.iter().any(|s| same_stem(s, w)))
        })
        .collect();
    match named[..] {
        [i] => Some(i),
        _ => None,
    }
}

/// "Mark X as done" where X has no box: the control bearing X's name and the state's
/// words ("Done: Do the laundry") does the marking.
fn marked(f: &Facts, h: &[ActionRecord], inputs: &[Input], it: &Intent, boxed: Status) -> Status {
    match (&it.state, boxed) {
        (Some(state), Status::Absent(_)) => {
            let mut press = it.clone();
            press.verb = Verb::Click;
            press.core = format!("{} {state}", it.core).trim().to_owned();
            press.object = format!("{} {state}", it.object).trim().to_owned();
            click(f, h, inputs, &press)
        }
        (_, boxed) => boxed,
    }
}

fn expand(f: &Facts, h: &[ActionRecord], it: &Intent, want: bool) -> Status {
    let (qs, threshold) = queries(it);
    match locate(f, it, |i| clickable(f, i) && f.els[i].expanded.is_some()) {
        Grounding::Found { idx, score, margin } => {
            if f.els[idx].expanded == Some(want) {
                Status::Done
            } else {
                pending(f, idx, StepKind::Click, score, margin, it)
            }
        }
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        Grounding::Missing { .. } if history::clicked(h, &qs, threshold, None) => Status::Done,
        Grounding::Missing { .. } => missing(it),
    }
}

fn click(f: &Facts, h: &[ActionRecord], inputs: &[Input], it: &Intent) -> Status {
    if let Some(key) = it.key {
        let action = Action::PressKey { key };
        return if history::tries(h, &action).0 > 0 {
            Status::Done
        } else {
            Status::Pending(Act {
                action,
                kind: StepKind::Press,
                confidence: 0.9,
                margin: 0.9,
                why: format!("press {key}"),
                order: 0,
            })
        };
    }
    if it.verb == Verb::Open {
        if let Some(input) = inputs.iter().find(|i| i.is_url() && mentions(it, i)) {
            return navigate(f, h, input);
        }
    }
    // "Click the 5th search result": by position in a list shown a page at a time.
    if it.quoted.is_none() {
        if let Some((n, _)) = super::paged::parse(&it.object) {
            return super::paged::status(f, h, n, &it.object);
        }
    }
    let (qs, threshold) = queries(it);
    // "Click the \"Like\" button on all posts by @ann": once in each item (`spread`).
    if let Some(sp) = target_quote(it).and(super::spread::parse(&it.object)) {
        let named =
            |i: usize| clickable(f, i) && qs.iter().any(|q| q.score(f.name(i)) >= threshold);
        return super::spread::status(f, h, named, &sp, &what(it));
    }
    // Pressed once, the view it opens may hold more controls named by its verb ("Send
    // reply", "Close forward"): those are the send's and the cancel's, not this step's.
    if it.verb == Verb::Respond && history::clicked(h, &qs, threshold, None) {
        return Status::Done;
    }
    // "Reply": a message's actions are often one pointer region with a label per action;
    // the label is pressed (inside its control).
    let eligible = |i: usize| {
        clickable(f, i)
            || (it.verb == Verb::Respond
                && f.els[i].visible
                && f.snapshot.text_in_control(&f.els[i]))
    };
    let found = match resolve(f, it, &eligible) {
        // "Click \"delete\"" where the control is drawn as a trash can: its picture's word.
        Grounding::Missing { .. } => {
            pictured(f, it, &eligible).unwrap_or(Grounding::Missing { best: 0.0 })
        }
        g => g,
    };
    match found {
        Grounding::Found { idx, score, margin } if !pressed_and_gone(f, h, &qs, &[idx]) => {
            let e = &f.els[idx];
            // A tab or option shows it was opened; anything else, by our click on it.
            let done = if matches!(e.role, Role::Tab | Role::Option | Role::TreeItem) {
                e.selected == Some(true)
            } else {
                history::clicked_id(h, e.id.as_str(), None)
            };
            if done {
                Status::Done
            } else {
                pending(f, idx, StepKind::Click, score, margin, it)
            }
        }
        // The target the run pressed is gone and lesser matches remain: done, and the
        // runner-up is never pressed in its place (the next row's "Delete").
        Grounding::Found { .. } => Status::Done,
        Grounding::Tie { a, b, .. } if pressed_and_gone(f, h, &qs, &[a, b]) => Status::Done,
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        // Gone after we clicked it (a link that navigated): done.
        Grounding::Missing { .. } if history::clicked(h, &qs, threshold, None) => Status::Done,
        // "press login" where the form's button says "OK": a commit by another name.
        Grounding::Missing { .. } if names_commit(it) => commit(f, h, it),
        // "Click on a \"textarea\" widget": the quote names a kind of control (`kind`).
        Grounding::Missing { .. } if of_kind(f, it).is_some() => match of_kind(f, it) {
            Some(Grounding::Found { idx, score, margin }) => {
                if history::clicked_id(h, f.els[idx].id.as_str(), None) {
                    Status::Done
                } else {
                    pending(f, idx, StepKind::Click, score, margin, it)
                }
            }
            Some(Grounding::Tie { a, b, .. }) => tie(f, it, a, b),
            _ => missing(it),
        },
        // "Click Teodoro": the text sits in a row the scan did not name by it (`item`).
        Grounding::Missing { .. } if super::item::by_own_text(f, it).is_some() => {
            match super::item::by_own_text(f, it) {
                Some(Grounding::Found { idx, score, margin }) => {
                    if history::clicked_id(h, f.els[idx].id.as_str(), None) {
                        Status::Done
                    } else {
                        pending(f, idx, StepKind::Click, score, margin, it)
                    }
                }
                _ => missing(it),
            }
        }
        // "Click on their address": named by the caption beside it (`item`).
        Grounding::Missing { .. } => match super::item::by_label(f, it, |i| clickable(f, i)) {
            Some(Grounding::Found { idx, score, margin }) => {
                if history::clicked_id(h, f.els[idx].id.as_str(), None) {
                    Status::Done
                } else {
                    pending(f, idx, StepKind::Click, score, margin, it)
                }
            }
            Some(Grounding::Tie { a, b, .. }) => tie(f, it, a, b),
            _ => missing(it),
        },
    }
}

/// Grounds a click's target; alike controls, one per item, are told apart by the goal's
/// other words naming the item.
fn resolve(f: &Facts, it: &Intent, eligible: &impl Fn(usize) -> bool) -> Grounding {
    match locate(f, it, eligible) {
        tied @ Grounding::Tie { .. } => {
            super::item::pick(f, it, |i| clickable(f, i)).unwrap_or(tied)
        }
        // Another row's menu is open: the named row's own choice is not on the page yet.
        Grounding::Found { idx, score, .. } if super::item::in_other_item(f, it, idx) => {
            Grounding::Missing { best: score }
        }
        g => g,
    }
}

/// A quoted function word no control bears, grounded by the pictures that stand for it
/// (`vocab::pictured_as`): the first picture word that names something.
fn pictured(f: &Facts, it: &Intent, eligible: &impl Fn(usize) -> bool) -> Option<Grounding> {
    let word = normalize(target_quote(it)?);
    pictured_as(&word).iter().find_map(|p| {
        let alt = Intent {
            quoted: Some((*p).to_owned()),
            ..it.clone()
        };
        match resolve(f, &alt, eligible) {
            Grounding::Missing { .. } => None,
            g => Some(g),
        }
    })
}

/// The control of the kind the intent's quote names, when nothing bears the quote.
fn of_kind(f: &Facts, it: &Intent) -> Option<Grounding> {
    super::kind::ground(f, target_quote(it)?, &it.object)
}

/// A click whose object is a submit word and nothing else ("press login", "hit submit").
fn names_commit(it: &Intent) -> bool {
    it.quoted.is_none() && it.nth.is_none() && !it.core.contains(' ') && is_submit_word(&it.core)
}

/// Focus an element, a field included: click it unless it has the focus.
fn focus(f: &Facts, h: &[ActionRecord], it: &Intent) -> Status {
    let eligible = |i: usize| {
        let e = &f.els[i];
        e.visible
            && e.enabled
            && (f.offers(i, ActionKind::Click) || e.actions.contains(ActionKind::TypeText))
    };
    match locate(f, it, eligible) {
        Grounding::Found { idx, score, margin } => {
            let e = &f.els[idx];
            if e.focused || history::pressed_down_on(h, e.id.as_str()) {
                Status::Done
            } else {
                pending(f, idx, StepKind::Click, score, margin, it)
            }
        }
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        Grounding::Missing { .. } => missing(it),
    }
}

/// Close something: the control the goal quotes ("by clicking the ×"), else the one
/// close button on the page; done once clicked.
fn close(f: &Facts, h: &[ActionRecord], inputs: &[Input], it: &Intent) -> Status {
    if it.quoted.is_some() {
        return click(f, h, inputs, it);
    }
    let qs = [Query::new("close")];
    match ground(f, &qs, &[Role::Button], THRESHOLD, |i| clickable(f, i)) {
        Grounding::Found { idx, .. } if history::clicked_id(h, f.els[idx].id.as_str(), None) => {
            Status::Done
        }
        Grounding::Found { idx, score, margin } => {
            pending(f, idx, StepKind::Click, score, margin, it)
        }
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        Grounding::Missing { .. } if history::clicked(h, &qs, THRESHOLD, None) => Status::Done,
        Grounding::Missing { .. } => missing(it),
    }
}

fn navigate(f: &Facts, h: &[ActionRecord], input: &Input) -> Status {
    let want = input.literal.as_text();
    let here = f.url().unwrap_or_default();
    if here.trim_end_matches('/') == want.trim_end_matches('/') || history::used_input(h, input.key)
    {
        return Status::Done;
    }
    Status::Pending(Act {
        action: Action::Navigate {
            input_key: input.key.to_owned(),
        },
        kind: StepKind::Navigate,
        confidence: 0.9,
        margin: 0.9,
        why: format!("navigate to input {:?}", input.key),
        order: 0,
    })
}

/// A submit-like step: done once clicked after the last edit of the form.
fn commit(f: &Facts, h: &[ActionRecord], it: &Intent) -> Status {
    let (qs, threshold) = queries(it);
    let since = history::last_edit(h);
    let roles: &[Role] = if it.roles.is_empty() {
        &[Role::Button]
    } else {
        &it.roles
    };
    // A control of a risk the commit's own verb does not name ("Remove Team standup" for
    // "add the team standup") is not this commit: the gate would refuse it anyway.
    let eligible = |i: usize| {
        clickable(f, i)
            && !names_another_kind(f.name(i), &it.said)
            && arc_core::Risk::classify(&f.els[i].name).is_none_or(|(risk, _)| {
                risk.words()
                    .iter()
                    .any(|w| contains_phrase(&it.verb_words, w))
            })
    };
    let found = match prefer_inner(f, ground(f, &qs, roles, threshold, eligible)) {
        // "Delete Ada": her row's button went with her; the others' are left.
        Grounding::Tie { a, b, .. } if pressed_and_gone(f, h, &qs, &[a, b]) => return Status::Done,
        // "Delete the Roadmap deck": one "Delete" per row, the object names the row. Only
        // among alike controls: "Add Blue mug to cart" and "Add Tea towel to cart" name
        // their own items, neither the one the goal names.
        Grounding::Tie { a, b, .. } if f.name(a) != f.name(b) => return tie(f, it, a, b),
        Grounding::Tie { a, b, .. } => match super::item::pick(f, &object_as_item(it), eligible) {
            Some(Grounding::Found { idx, score, margin }) => Some((idx, score, margin)),
            // Its row went with the control pressed in it: the others' rows are left.
            _ if history::clicked_gone(h, &qs, threshold - f64::EPSILON, |id| {
                f.index_of(id).is_some()
            }) =>
            {
                return Status::Done
            }
            _ => return tie(f, it, a, b),
        },
        Grounding::Found { idx, score, margin } => Some((idx, score, margin)),
        // A form's own button commits what the run filled in, or what the goal says to
        // submit; with nothing filled, "delete the account sdubois" is no press of a list
        // page's "Go": the record it names is to be found (`entry`).
        Grounding::Missing { .. } if since.is_none() && !submits(it) => None,
        // The form the run filled was committed by its own button, and the page moved on:
        // a list page's "Go" after the "Save" is no second commit.
        Grounding::Missing { .. } if since.is_some_and(|k| history::committed_after(h, k)) => {
            return Status::Done
        }
        Grounding::Missing { .. } => submit_button(f)
            .or_else(|| lone_submit_word_button(f))
            .or_else(|| default_button(f, h))
            .or_else(|| trailing_button(f, h))
            .map(|i| (i, 0.65, 0.65)),
    };
    if history::clicked(h, &qs, threshold, since)
        || found.is_some_and(|(i, ..)| history::clicked_id(h, f.els[i].id.as_str(), since))
    {
        return Status::Done;
    }
    match found {
        Some((idx, score, margin)) => pending(f, idx, StepKind::Commit, score, margin, it),
        None => by_enter(f, h).unwrap_or_else(|| missing(it)),
    }
}

/// Whether a control's name, past its first word, says a kind of record the goal never
/// says: "Add User" is no commit of "add a comment to the typo issue", though both add.
fn names_another_kind(name: &str, said: &str) -> bool {
    name.split(' ').skip(1).any(|w| {
        super::stem::is_kind_noun(w) && !said.split(' ').any(|s| super::stem::same_stem(s, w))
    })
}

/// Whether the intent's verb is a plain submit word ("submit", "save", "send").
fn submits(it: &Intent) -> bool {
    it.verb_words
        .split(' ')
        .next()
        .is_some_and(super::vocab::is_submit_word)
}

/// A commit whose verb names the control ("delete"), its object read as the words that
/// name the control's item instead of part of the control's name.
fn object_as_item(it: &Intent) -> Intent {
    Intent {
        object: String::new(),
        core: String::new(),
        ..it.clone()
    }
}

/// No control commits: the field the run just typed into, still focused, commits on
/// Enter (a list that adds what is typed when Enter is pressed has no button at all).
/// Done once an Enter was pressed after that edit.
pub fn by_enter(f: &Facts, h: &[ActionRecord]) -> Option<Status> {
    let k = history::last_edit(h)?;
    if history::committed_after(h, k) {
        return Some(Status::Done);
    }
    let last_acted = h
        .iter()
        .rposition(|r| r.action.kind() != ActionKind::Wait)
        .is_some_and(|j| j == k);
    let field = h[k].action.target()?;
    let i = (0..f.len()).find(|&i| &f.els[i].id == field)?;
    let typed = h[k].action.kind() == ActionKind::TypeText;
    (last_acted && typed && f.els[i].focused && h[k].on_target()).then(|| {
        Status::Pending(enter_in(
            i,
            0.7,
            format!("commit {} with Enter: no control commits", describe(f, i)),
        ))
    })
}

/// A commit by Enter in field `i`, which holds the focus (the run just typed into it).
pub fn enter_in(i: usize, confidence: f64, why: String) -> Act {
    Act {
        action: Action::PressKey { key: Key::Enter },
        kind: StepKind::Commit,
        confidence,
        margin: confidence / 2.0,
        why,
        order: i,
    }
}

/// The form's one submit button (`type=submit`), when the goal's words name none.
pub fn submit_button(f: &Facts) -> Option<usize> {
    f.only(|i| {
        let e = &f.els[i];
        let submit = e.facts.input_type == Some(InputType::Submit);
        submit && clickable(f, i) && e.enabled
    })
    .one()
}

/// The one enabled button named by a submit word ("Submit", "OK"), or by "Go" alone (a
/// search form's; "Go back" is no commit), when the goal's own word for the commit
/// ("search", "log in") names no button.
pub fn lone_submit_word_button(f: &Facts) -> Option<usize> {
    f.only(|i| {
        let first = f.name(i).split(' ').next().unwrap_or_default();
        // A div styled as a button is one to a person.
        let button_like = matches!(f.els[i].role, Role::Button | Role::Generic);
        let commit = is_submit_word(first) || f.name(i) == "go";
        button_like && f.els[i].enabled && clickable(f, i) && commit
    })
    .one()
}

/// The default button of the form the run last edited, when it has several submit buttons
/// ("Save", "Save and add another", "Save and continue editing"): the first submit button
/// after that field in page order, the one Enter in it presses (HTML's implicit
/// submission). The snapshot keeps no form element, so only one a submit word names
/// ("Save", not a footer's "Subscribe"); never one that marks a risk.
pub fn default_button(f: &Facts, h: &[ActionRecord]) -> Option<usize> {
    let edited = h[history::last_edit(h)?].action.target()?;
    let field = f.index_of(edited.as_str())?;
    let j = (field + 1..f.len()).find(|&j| {
        let e = &f.els[j];
        e.facts.input_type == Some(InputType::Submit) && e.enabled && clickable(f, j)
    })?;
    let first = f.name(j).split(' ').next().unwrap_or_default();
    let plain = is_submit_word(first) && arc_core::Risk::classify(&f.els[j].name).is_none();
    plain.then_some(j)
}

/// The form's own button when nothing names it a submit: the first plain button after
/// the field the run last edited, in page order, with no field between ("Reserve table"
/// under the phone field). Not a toggle or a choice, not a control that marks a risk,
/// not one that abandons the form.
pub fn trailing_button(f: &Facts, h: &[ActionRecord]) -> Option<usize> {
    let edited = h[history::last_edit(h)?].action.target()?;
    let last = f.index_of(edited.as_str())?;
    for j in last + 1..f.len() {
        if super::ground::is_field(f, j) && !f.is_descendant(j, last) {
            return None;
        }
        let e = &f.els[j];
        let plain = e.role == Role::Button && e.selected.is_none() && e.expanded.is_none();
        if plain && e.enabled && clickable(f, j) {
            let first = f.name(j).split(' ').next().unwrap_or_default();
            if !super::vocab::is_abandon_word(first) && arc_core::Risk::classify(&e.name).is_none()
            {
                return Some(j);
            }
        }
    }
    None
}

fn scroll(f: &Facts, h: &[ActionRecord], it: &Intent) -> Status {
    // "Scroll the text area to the bottom": an element's own content, not the page.
    if let Some(s) = super::scroll_inside::status(f, h, it) {
        return s;
    }
    let scrolls: Vec<&ActionRecord> = h
        .iter()
        .filter(|r| r.action.kind() == ActionKind::Scroll)
        .collect();
    let act = |direction: ScrollDirection, why: String| {
        Status::Pending(Act {
            action: Action::Scroll {
                direction,
                target: None,
            },
            kind: StepKind::Scroll,
            confidence: 0.9,
            margin: 0.9,
            why,
            order: 0,
        })
    };
    if it.core.is_empty() && it.quoted.is_none() {
        let direction = it.scroll.unwrap_or(ScrollDirection::Down);
        let done = if it.scroll_to_end {
            scrolls.len() >= MAX_SCROLLS || scrolls.last().is_some_and(|r| !r.state_changed)
        } else {
            !scrolls.is_empty()
        };
        return if done {
            Status::Done
        } else {
            act(direction, format!("scroll {direction:?}").to_lowercase())
        };
    }
    let (qs, threshold) = queries(it);
    match ground(f, &qs, &it.roles, threshold, |i| f.els[i].visible) {
        Grounding::Found { idx, .. } => {
            let e = &f.els[idx];
            if f.snapshot.on_screen(e) {
                return Status::Done;
            }
            if scrolls.len() >= MAX_SCROLLS {
                return Status::Stop(Outcome::NeedsAgent(format!(
                    "{} stayed off-screen after {MAX_SCROLLS} scrolls",
                    describe(f, idx)
                )));
            }
            let below = match (e.bounds, f.snapshot.viewport) {
                (Some(b), Some(v)) => b.y >= v.y + v.height,
                _ => true,
            };
            let direction = it.scroll.unwrap_or(if below {
                ScrollDirection::Down
            } else {
                ScrollDirection::Up
            });
            act(direction, format!("scroll to {}", describe(f, idx)))
        }
        Grounding::Tie { a, b, .. } => tie(f, it, a, b),
        Grounding::Missing { .. } => missing(it),
    }
}
