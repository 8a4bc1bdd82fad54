//! "Copy the text from X and paste it into Y" as UI mechanics, never as reading: focus X,
//! select all inside it (MOD+A), copy (MOD+C), focus Y, select all (so the paste
//! replaces), paste (MOD+V). The runtime never reads X's text into an action; it only
//! compares, after the paste, Y's value with X's on the snapshot to verify the step.
//!
//! The stage is read from the run's own records: the clipboard steps it made, in order
//! (tag `clipboard`). X must be a field (input or textarea, read-only included): select
//! all inside anything else would select the whole page, so that is a hand-back.

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{field_score, ground_role, is_field, Ranking, THRESHOLD};
use super::history;
use super::inputs::describe;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{is_stopword, normalize, Query};
use super::vocab::{line_shape, strip_role_words, Verb};
use arc_core::{Action, ActionKind, ActionRecord, Chord, Key, Modifier, Role};

/// The clipboard steps made so far, oldest first.
fn steps(h: &[ActionRecord]) -> Vec<&ActionRecord> {
    h.iter()
        .filter(|r| history::tag(r) == Some(StepKind::Clipboard.as_str()))
        .collect()
}

fn chord(key: char) -> Chord {
    Chord {
        modifiers: vec![Modifier::Mod],
        key: Key::Char(key),
    }
}

fn is_chord(r: &ActionRecord, key: char) -> bool {
    matches!(&r.action.action, Action::Hotkey { chord: c } if *c == chord(key))
}

fn clicked(r: &ActionRecord, f: &Facts, i: usize) -> bool {
    r.action.kind() == ActionKind::Click
        && r.action
            .target()
            .is_some_and(|t| t.as_str() == f.els[i].id.as_str())
}

/// The field a copy or paste clause names: the words after its preposition, minus "the
/// text", grounded like an input key (label, placeholder, DOM name).
fn field(f: &Facts, it: &Intent) -> Result<usize, Status> {
    field_in(f, &it.object, &it.verb_words)
}

fn field_in(f: &Facts, object: &str, verb_words: &str) -> Result<usize, Status> {
    let words: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
    let after = words
        .iter()
        .position(|w| matches!(*w, "from" | "in" | "into" | "inside" | "of" | "onto" | "to"))
        .map_or(&words[..], |k| &words[k + 1..]);
    let (rest, roles) = strip_role_words(after);
    let core: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !is_stopword(w) && !matches!(*w, "text" | "it" | "value" | "below" | "above"))
        .collect();
    let what = format!("{object:?}");
    let eligible = |i: usize| is_field(f, i) && f.offers(i, ActionKind::Click);
    let grounding = if core.is_empty() {
        // "the text in the textbox": the one field of that kind, or a tie.
        if roles.is_empty() {
            return Err(Status::Stop(Outcome::NeedsAgent(format!(
                "{verb_words} {what}: no words name the field"
            ))));
        }
        // "the textarea" vs "the textbox": the words' shape first, any field of the
        // roles when no field has that shape.
        let shaped = line_shape(after).map(|multi| {
            ground_role(f, &roles, None, |i| {
                eligible(i) && f.els[i].facts.multiline == multi
            })
        });
        match shaped {
            Some(g @ super::ground::Grounding::Found { .. })
            | Some(g @ super::ground::Grounding::Tie { .. }) => g,
            _ => ground_role(f, &roles, None, eligible),
        }
    } else {
        let q = Query::from_norm(core.join(" "));
        let mut r = Ranking::default();
        for i in (0..f.len()).filter(|&i| eligible(i)) {
            r.push(i, field_score(f, i, &q));
        }
        super::ground::conclude(&r, THRESHOLD)
    };
    match grounding {
        super::ground::Grounding::Found { idx, .. } => Ok(idx),
        super::ground::Grounding::Tie { a, b, .. } => {
            Err(Status::Stop(Outcome::NeedsAgent(format!(
                "two fields match {what} equally: {}, {}",
                describe(f, a),
                describe(f, b)
            ))))
        }
        super::ground::Grounding::Missing { .. } => {
            Err(Status::Absent(format!("no field matches {what}")))
        }
    }
}

fn act(action: Action, order: usize, why: String) -> Status {
    Status::Pending(Act {
        action,
        kind: StepKind::Clipboard,
        confidence: 0.8,
        margin: 0.8,
        why,
        order,
    })
}

fn click(f: &Facts, i: usize, why: &str) -> Status {
    act(
        Action::click(f.els[i].id.clone()),
        i,
        format!("{why}: focus {}", describe(f, i)),
    )
}

fn hotkey(key: char, order: usize, why: String) -> Status {
    act(Action::Hotkey { chord: chord(key) }, order, why)
}

/// Where a copy or paste clause stands.
pub fn status(f: &Facts, h: &[ActionRecord], it: &Intent) -> Status {
    let done = steps(h);
    match it.verb {
        Verb::Copy => copy(f, &done, it),
        Verb::Paste => paste(f, &done, it),
        _ => Status::Done,
    }
}

fn copy(f: &Facts, done: &[&ActionRecord], it: &Intent) -> Status {
    if done.iter().any(|r| is_chord(r, 'C')) {
        return Status::Done;
    }
    let src = match field(f, it) {
        Ok(i) => i,
        Err(s) => return s,
    };
    if !f.els[src].actions.contains(ActionKind::TypeText)
        && !f.els[src].actions.contains(ActionKind::SetValue)
        && !f.els[src].actions.contains(ActionKind::Click)
    {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "copying from {} needs its text selected, and it is no field",
            describe(f, src)
        )));
    }
    match done.last() {
        Some(r) if is_chord(r, 'A') => hotkey(
            'C',
            src,
            format!("copy the selection of {}", describe(f, src)),
        ),
        Some(r) if clicked(r, f, src) => hotkey(
            'A',
            src,
            format!("select all the text in {}", describe(f, src)),
        ),
        _ => click(f, src, "copy"),
    }
}

fn paste(f: &Facts, done: &[&ActionRecord], it: &Intent) -> Status {
    let Some(copied) = done.iter().position(|r| is_chord(r, 'C')) else {
        return Status::Absent(format!("nothing copied yet for {:?}", it.object));
    };
    let after = &done[copied + 1..];
    let dst = match field(f, it) {
        Ok(i) => i,
        Err(s) => return s,
    };
    if after.iter().any(|r| is_chord(r, 'V')) {
        return landed(f, done, dst);
    }
    paste_into(f, after, dst)
}

/// The next step of a paste into `dst`, given the clipboard steps since the copy: focus
/// it, select what it holds (so the paste replaces it), paste.
fn paste_into(f: &Facts, after: &[&ActionRecord], dst: usize) -> Status {
    match after.last() {
        Some(r) if is_chord(r, 'A') => hotkey('V', dst, format!("paste into {}", describe(f, dst))),
        Some(r) if clicked(r, f, dst) => hotkey(
            'A',
            dst,
            format!(
                "select what {} holds, so the paste replaces it",
                describe(f, dst)
            ),
        ),
        _ => click(f, dst, "paste"),
    }
}

/// A field's value as the reflex compares text ("" when it holds none).
pub fn held(f: &Facts, i: usize) -> String {
    f.els[i]
        .value
        .as_ref()
        .map(|v| normalize(&v.as_text()))
        .unwrap_or_default()
}

/// After MOD+V: the target holds what the source holds (compared on the snapshot, never
/// typed), else the paste did not land.
fn landed(f: &Facts, done: &[&ActionRecord], dst: usize) -> Status {
    let src = done
        .iter()
        .find(|r| r.action.kind() == ActionKind::Click)
        .and_then(|r| r.action.target())
        .and_then(|t| f.index_of(t.as_str()));
    match src {
        Some(s) if !held(f, s).is_empty() && held(f, s) == held(f, dst) => Status::Done,
        Some(s) => Status::Stop(Outcome::NeedsAgent(format!(
            "pasted into {}, but it does not hold what {} holds",
            describe(f, dst),
            describe(f, s)
        ))),
        None => Status::Stop(Outcome::NeedsAgent(format!(
            "pasted into {}, but the field copied from is gone: the paste cannot be checked",
            describe(f, dst)
        ))),
    }
}

/// "Enter the value of K into Y" with no literal for it: (K, "into Y") from the object
/// ("the value of year of birth into the textbox"), when it reads so.
pub fn value_transfer(object: &str) -> Option<(String, String)> {
    let rest = object
        .strip_prefix("the value of ")
        .or_else(|| object.strip_prefix("value of "))?;
    let at = rest.rfind(" into ").or_else(|| rest.rfind(" in "))?;
    let (key, dst) = (rest[..at].trim(), rest[at..].trim());
    (!key.is_empty() && dst.split(' ').count() > 1).then(|| (key.to_owned(), dst.to_owned()))
}

/// The text the page shows as K's value: a passage of text (it takes SELECT_TEXT) whose
/// caption — the text beside it in its own row or record, as a form's label — names K
/// ("Tracking code" in the cell before "NW-88-310-QX"). The caption itself is never its
/// own value.
pub fn value_shown_for(f: &Facts, key: &str) -> Result<usize, String> {
    let q = Query::new(key);
    let mut r = Ranking::default();
    // A form's own caption ("Color:" beside its field) is no value, whatever precedes it.
    let shown = |j: usize| f.offers(j, ActionKind::SelectText) && f.els[j].role != Role::Label;
    for j in (0..f.len()).filter(|&j| shown(j)) {
        if q.score(f.name(j)) >= THRESHOLD {
            continue;
        }
        // The caption sits in the value's own row or record (a table row, a "Label:
        // value" line), not merely before it in the document (the previous row's value).
        let near = |l: usize| {
            let p = f.parent(l);
            p.is_some() && (p == f.parent(j) || p == f.parent(j).and_then(|k| f.parent(k)))
        };
        if let Some(l) = super::label::adjacent_label(f, j).filter(|&l| near(l)) {
            r.push(j, q.score(f.name(l)));
        }
    }
    match super::ground::conclude(&r, THRESHOLD) {
        super::ground::Grounding::Found { idx, .. } => Ok(idx),
        super::ground::Grounding::Tie { a, b, .. } => Err(format!(
            "two values are shown for {key:?}: {}, {}",
            describe(f, a),
            describe(f, b)
        )),
        super::ground::Grounding::Missing { .. } => {
            Err(format!("no text on the page is captioned {key:?}"))
        }
    }
}

/// The value of `key` into the field `dst` names, through the clipboard: SELECT_TEXT on
/// the value, MOD+C, then the paste's own staging (focus, MOD+A, MOD+V). Done once the
/// field holds the value's text on the snapshot.
pub fn transfer(f: &Facts, h: &[ActionRecord], key: &str, dst: &str) -> Status {
    stage(f, &steps(h), key, || field_in(f, dst, "enter"))
}

/// Select the value `src` shows, then MOD+C.
fn copy_value(f: &Facts, done: &[&ActionRecord], key: &str, src: usize) -> Status {
    let selected = done.last().is_some_and(
        |r| matches!(&r.action.action, Action::SelectText { target } if *target == f.els[src].id),
    );
    if selected {
        hotkey('C', src, format!("copy the value of {key:?}"))
    } else {
        act(
            Action::SelectText {
                target: f.els[src].id.clone(),
            },
            src,
            format!("the value of {key:?}: select {}", describe(f, src)),
        )
    }
}

/// One value's transfer into the field `dst` grounds (once the value is copied), staged by
/// the clipboard steps `done` made for it: copy (once), then the paste's own staging; done
/// once the field holds the value.
fn stage(
    f: &Facts,
    done: &[&ActionRecord],
    key: &str,
    dst: impl FnOnce() -> Result<usize, Status>,
) -> Status {
    let Some(copied) = done.iter().position(|r| is_chord(r, 'C')) else {
        return match value_shown_for(f, key) {
            Ok(src) => copy_value(f, done, key, src),
            Err(why) => Status::Stop(Outcome::NeedsAgent(why)),
        };
    };
    let dst = match dst() {
        Ok(i) => i,
        Err(s) => return s,
    };
    let after = &done[copied + 1..];
    if after.iter().any(|r| is_chord(r, 'V')) {
        let shown = value_shown_for(f, key).map(|s| f.name(s));
        return match shown {
            Ok(s) if !s.is_empty() && s == held(f, dst) => Status::Done,
            _ => Status::Stop(Outcome::NeedsAgent(format!(
                "pasted into {}, but it does not hold the value shown for {key:?}",
                describe(f, dst)
            ))),
        };
    }
    paste_into(f, after, dst)
}

/// "Enter the value that corresponds with each label into the form": the object names
/// every field by its own label.
pub fn by_each_label(object: &str) -> bool {
    let w: Vec<&str> = object.split(' ').collect();
    let valued = w.iter().any(|x| matches!(*x, "value" | "values"));
    let each = w
        .windows(2)
        .any(|p| matches!(p[0], "each" | "every" | "all") && matches!(p[1], "label" | "labels"));
    valued && each
}

/// The form's labelled fields, each with the caption its label names and the text the
/// page shows for it (`value_shown_for`), in document order; a labelled field the page
/// shows no one value for is an error naming it (never skipped: "each label" means all).
fn labelled_values(f: &Facts) -> Result<Vec<(usize, String, usize)>, String> {
    let fields: Vec<(usize, &str)> = (0..f.len())
        .filter(|&i| {
            let e = &f.els[i];
            e.visible && e.enabled && e.actions.contains(ActionKind::TypeText)
        })
        .filter_map(|i| {
            let label = if f.name(i).is_empty() {
                f.name(super::label::adjacent_label(f, i)?)
            } else {
                f.name(i)
            };
            Some((i, label))
        })
        .collect();
    if fields.is_empty() {
        return Err("no field on the page is labelled".to_owned());
    }
    fields
        .into_iter()
        .map(|(i, label)| {
            let src =
                value_shown_for(f, label).map_err(|why| format!("{}: {why}", describe(f, i)))?;
            Ok((i, label.to_owned(), src))
        })
        .collect()
}

/// Every such field, in turn, gets its value through the clipboard as `transfer` carries
/// one: each field's stages are the clipboard steps since the previous paste.
pub fn transfer_each(f: &Facts, h: &[ActionRecord]) -> Status {
    let fields = match labelled_values(f) {
        Ok(v) => v,
        Err(why) => return Status::Stop(Outcome::NeedsAgent(why)),
    };
    let done = steps(h);
    let since = done
        .iter()
        .rposition(|r| is_chord(r, 'V'))
        .map_or(0, |k| k + 1);
    match fields
        .iter()
        .find(|&&(dst, _, src)| held(f, dst) != f.name(src))
    {
        Some(&(dst, ref key, _)) => stage(f, &done[since..], key, || Ok(dst)),
        None => Status::Done,
    }
}

/// A stated `values_by_label`: each field holds the value the page shows beside its own
/// caption.
pub fn each_holds(f: &Facts) -> Result<(), String> {
    let fields = labelled_values(f)?;
    match fields
        .iter()
        .find(|&&(dst, _, src)| held(f, dst) != f.name(src))
    {
        None => Ok(()),
        Some((dst, key, src)) => Err(format!(
            "{} holds {:?}, not the value shown for {key:?} ({:?})",
            describe(f, *dst),
            held(f, *dst),
            f.name(*src)
        )),
    }
}
