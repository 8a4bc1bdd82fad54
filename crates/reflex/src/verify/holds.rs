//! Checking a read criterion against a snapshot and the run's own records: what the page
//! says, what a field holds, what was clicked, focused or committed. A criterion holds only
//! on evidence; `Err` says what is missing.

use super::super::affirm::{mention, negates_beyond, Mention};
use super::super::facts::Facts;
use super::super::ground::{
    checkable, conclude, field_score, ground, ground_role, is_field, Grounding, Ranking, THRESHOLD,
};
use super::super::history;
use super::super::inputs::describe;
use super::super::step::StepKind;
use super::super::text::{contains_phrase, normalize, normalize_name, same_date, same_time};
use super::super::vocab::{is_page_word, is_submit_word, pictured_as};
use super::mention::{
    names_collapsed, only_qualified, page_mention, page_says, stem_mention, Strongest,
};
use super::{Bounds, Check, Criterion, FieldMatch, State, Subject};
use arc_core::{ActionKind, ActionRecord, Role};

/// Whether the criterion holds; if not, why.
pub fn holds(f: &Facts, h: &[ActionRecord], c: &Criterion) -> Result<(), String> {
    judge(f, h, c).map(|_| ())
}

/// [`holds`], with the evidence: the elements that showed it (none when the URL, the
/// title, an absence or the run's own records decided).
pub fn judge(f: &Facts, h: &[ActionRecord], c: &Criterion) -> Result<Vec<usize>, String> {
    judge_check(f, h, &c.check)
}

/// [`judge`] of one check.
pub(super) fn judge_check(
    f: &Facts,
    h: &[ActionRecord],
    check: &Check,
) -> Result<Vec<usize>, String> {
    let none = |()| Vec::new();
    let one = |i: usize| vec![i];
    match check {
        Check::PageShows(p) => page_says(f, p).map(one),
        // Absence is strict the other way: a negated mention is still on the page, and
        // so is another form of its words ("notes" for "note").
        Check::PageLacks(p) => match (page_mention(f, p).0, stem_mention(f, 0..f.len(), p)?) {
            (Mention::Absent, None) => Ok(Vec::new()),
            (_, Some(i)) => Err(format!("{} still shows {p:?}", describe(f, i))),
            _ => Err(format!("the page still shows {p:?}")),
        },
        Check::Present(s) => present(f, s).map(one),
        Check::ShowsIn(p, scope) => shows_in(f, p, scope).map(one),
        Check::LacksIn(p, scope) => lacks_in(f, p, scope).map(none),
        Check::FieldValue(s, m) => field_value(f, s, m).map(one),
        Check::Count(s, b) => count(f, s, *b),
        Check::UrlIs(u) => {
            let url = f.url().unwrap_or_default().to_lowercase();
            (url.trim_end_matches('/') == u.trim_end_matches('/'))
                .then(Vec::new)
                .ok_or_else(|| format!("the URL is {url:?}, not {u:?}"))
        }
        Check::TitleIs(t) => (normalize(f.snapshot.title()) == *t)
            .then(Vec::new)
            .ok_or_else(|| format!("the title is {:?}, not {t:?}", f.snapshot.title())),
        Check::ElementShows(s, p) => element_shows(f, s, p).map(one),
        Check::Affix(s, prefix, suffix) => {
            let i = match field_subject(f, s) {
                Some(i) => i,
                None => subject_element(f, s, |_| true)?,
            };
            let v = f.els[i]
                .value
                .as_ref()
                .map(|v| v.as_text())
                .unwrap_or_default();
            let v = v.trim();
            let fits =
                v.starts_with(prefix.as_str()) && suffix.as_deref().is_none_or(|x| v.ends_with(x));
            fits.then(|| vec![i]).ok_or_else(|| {
                format!(
                    "{} holds {v:?}, not a text starting with {prefix:?}{}",
                    describe(f, i),
                    suffix
                        .as_ref()
                        .map(|x| format!(" and ending with {x:?}"))
                        .unwrap_or_default()
                )
            })
        }
        Check::ElementState(s, State::Expanded, false) if closes(s) => {
            // A dialog is closed once it is gone.
            match (0..f.len()).find(|&i| f.els[i].visible && s.roles.contains(&f.els[i].role)) {
                None => Ok(Vec::new()),
                Some(i) => Err(format!("{} is still open", describe(f, i))),
            }
        }
        Check::ElementState(s, State::Focused, true) => focused(f, h, s).map(none),
        Check::ElementState(s, State::Done, want) => done(f, s, *want).map(one),
        // "Marge is selected" where nothing named so shows a selected state (a menu item
        // states none, and is often gone once chosen): only the run's own click on it,
        // hit-tested on its target, can show the choice. What does show one is read.
        Check::ElementState(s, State::Checked, true)
            if subject_element(f, s, |e| e.selected.is_some()).is_err() =>
        {
            clicked(h, s).map(none)
        }
        Check::ElementState(s, state, want) => {
            let i = subject_element(f, s, |e| match state {
                State::Checked | State::Done => checkable(&e.role) || e.selected.is_some(),
                State::Expanded => e.expanded.is_some(),
                State::Enabled | State::Active | State::Focused => true,
            })?;
            let e = &f.els[i];
            let on = checkable(&e.role) && e.selected.is_some();
            let have = match state {
                State::Checked | State::Done => e.selected.unwrap_or(false),
                State::Expanded => e.expanded.unwrap_or(false),
                State::Enabled => e.enabled,
                State::Active if on => e.selected.unwrap_or(false),
                State::Active => e.enabled,
                State::Focused => e.focused,
            };
            (have == *want)
                .then(|| vec![i])
                .ok_or_else(|| format!("{} is {}", describe(f, i), state_name(*state, have)))
        }
        Check::UrlContains(u) => {
            let url = f.url().unwrap_or_default().to_lowercase();
            url.contains(u.as_str())
                .then(Vec::new)
                .ok_or_else(|| format!("the URL {url:?} does not contain {u:?}"))
        }
        Check::TitleContains(t) => (mention(f.snapshot.title(), t) == Mention::Affirmed)
            .then(Vec::new)
            .ok_or_else(|| format!("the title {:?} does not contain {t:?}", f.snapshot.title())),
        Check::Group(g, kind, want) => super::super::group::holds(f, g, *kind, *want).map(none),
        Check::Clicked(s) => clicked(h, s)
            .or_else(|why| {
                super::super::item::clicked_own_text(f, h, |n| names(s, n))
                    .then_some(())
                    .ok_or(why)
            })
            .or_else(|why| committed_as(f, h, s).ok_or(why))
            .or_else(|why| of_kind(f, h, s).ok_or(why))
            .map(none),
        Check::ClickedEach(s, spread) => {
            super::super::spread::holds(f, h, |i| names(s, f.name(i)), spread).map(none)
        }
        Check::ClickedIn(s, word) => {
            let named = |n: &str| names(s, &normalize_name(n));
            let captioned = |n: &str| s.query.score(&normalize_name(n)) >= THRESHOLD;
            super::super::item::clicked_in(f, h, named, captioned, word).map(none)
        }
        Check::MenuPath(path) => super::super::menu::walked(h, path).map(none),
        Check::ValueOf(s, key) => {
            let i = match field_subject(f, s) {
                Some(i) => i,
                None => subject_element(f, s, |_| true)?,
            };
            let src = super::super::clipboard::value_shown_for(f, key)?;
            let shown = f.name(src);
            let held = super::super::clipboard::held(f, i);
            if !shown.is_empty() && held == shown {
                Ok(vec![i, src])
            } else {
                Err(format!(
                    "{} holds {held:?}, not the value shown for {key:?} ({shown:?})",
                    describe(f, i)
                ))
            }
        }
        Check::ValuesByLabel => super::super::clipboard::each_holds(f).map(none),
        Check::Downloaded(w) => super::downloaded::downloaded(h, w).map(none),
        Check::ClickedNth(n) => super::super::paged::holds(f, h, *n).map(none),
        Check::Highlighted(object, quoted) => {
            super::super::highlight::highlighted(f, h, object, quoted.as_deref()).map(none)
        }
        Check::Submitted => {
            let since = history::last_edit(h);
            let committed = h.iter().enumerate().any(|(k, r)| {
                since.is_none_or(|e| k > e) && history::tag(r) == Some(StepKind::Commit.as_str())
            });
            committed
                .then(Vec::new)
                .ok_or_else(|| "nothing submitted since the last edit".to_owned())
        }
        Check::Confirmed(stems, stale) => confirmed(f, h, stems, stale).map(one),
        Check::Happened(e) => e.judge(f, h),
        Check::Either(a, b) => judge_check(f, h, a)
            .or_else(|first| judge_check(f, h, b).map_err(|second| format!("{first}; {second}"))),
        Check::Unreadable => Err("the reflex cannot read this criterion".into()),
    }
}

/// "The username field contains …": the field a label names, as an input key would
/// ground (its label beside it, placeholder, DOM name), rather than the label itself.
pub fn field_subject(f: &Facts, s: &Subject) -> Option<usize> {
    if s.quoted || s.nth.is_some() || s.query.is_empty() {
        return None;
    }
    let mut r = Ranking::default();
    for i in (0..f.len()).filter(|&i| is_field(f, i)) {
        r.push(i, field_score(f, i, &s.query));
    }
    match conclude(&r, THRESHOLD) {
        Grounding::Found { idx, .. } => Some(idx),
        Grounding::Missing { .. } => super::super::ground::field_by_whole(f, &s.query),
        Grounding::Tie { .. } => None,
    }
}

/// Whether a control's normalized name names the subject: by its words, or, for a quoted
/// function word, by a picture that stands for it ("delete" → "trash").
fn names(s: &Subject, name: &str) -> bool {
    s.query.score(name) >= s.threshold() || (s.quoted && pictured_as(&s.query.norm).contains(&name))
}

fn clicked(h: &[ActionRecord], s: &Subject) -> Result<(), String> {
    // "The button was clicked": named by its role alone, which grounded the click.
    let any = s.query.is_empty() && s.nth.is_none();
    let hit = h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && (any
                || r.target_name
                    .as_deref()
                    .is_some_and(|n| names(s, &normalize_name(n))))
    });
    hit.then_some(())
        .ok_or_else(|| format!("no click on {:?} yet", s.query.norm))
}

/// "X is focused": the snapshot shows it, or the run's last press began on X, a text field
/// (its mousedown focuses it), hit-tested on it. A page may hand the focus straight back
/// in its focus handler, or cover the field in answer, so no snapshot after the click shows
/// it: the record does.
fn focused(f: &Facts, h: &[ActionRecord], s: &Subject) -> Result<(), String> {
    let i = subject_element(f, s, |_| true)?;
    let e = &f.els[i];
    if e.focused {
        return Ok(());
    }
    let takes_focus = e.enabled && e.actions.contains(ActionKind::TypeText);
    let last_press = h
        .iter()
        .rev()
        .find(|r| !matches!(r.action.kind(), ActionKind::Wait | ActionKind::Scroll));
    let pressed_it = last_press
        .is_some_and(|r| history::pressed_down_on(std::slice::from_ref(r), e.id.as_str()));
    if takes_focus && pressed_it {
        Ok(())
    } else {
        Err(format!("{} is not focused", describe(f, i)))
    }
}

/// "\"login\" was clicked" where no control says "login": the goal's word for its
/// commit ("press login" on a form whose button says "OK"), which the run made as a
/// commit (its record says so) on a control that was on the page before the run acted,
/// hit-tested on its target. Only when nothing on the page bears the word: a control that
/// does must itself be clicked.
fn committed_as(f: &Facts, h: &[ActionRecord], s: &Subject) -> Option<()> {
    let word = s.query.norm.as_str();
    if s.nth.is_some() || word.contains(' ') || !is_submit_word(word) {
        return None;
    }
    let named = (0..f.len())
        .any(|i| f.offers(i, ActionKind::Click) && s.query.score(f.name(i)) >= THRESHOLD);
    // The form's own button: on the page before the run acted (not a popup's "OK").
    let commit = h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && history::tag(r) == Some(StepKind::Commit.as_str())
            && r.decision
                .raw
                .as_ref()
                .and_then(|raw| raw.pointer("/reflex/at_start"))
                .and_then(serde_json::Value::as_bool)
                == Some(true)
    });
    (!named && commit).then_some(())
}

/// "The \"textarea\" widget was clicked" where nothing bears the word: a click on a
/// control of that kind (`kind`).
fn of_kind(f: &Facts, h: &[ActionRecord], s: &Subject) -> Option<()> {
    (s.quoted && s.nth.is_none() && super::super::kind::clicked(f, h, &s.query.norm)).then_some(())
}

/// A subject that closes by going away: a dialog named by its role alone.
fn closes(s: &Subject) -> bool {
    s.query.is_empty() && s.nth.is_none() && s.roles.contains(&Role::Dialog)
}

pub(super) fn state_name(state: State, on: bool) -> &'static str {
    match (state, on) {
        (State::Checked, true) => "checked",
        (State::Checked, false) => "not checked",
        (State::Done, true) => "marked done",
        (State::Done, false) => "not marked done",
        (State::Expanded, true) => "expanded",
        (State::Expanded, false) => "collapsed",
        (State::Enabled | State::Active, true) => "enabled",
        (State::Enabled | State::Active, false) => "disabled",
        (State::Focused, true) => "focused",
        (State::Focused, false) => "not focused",
    }
}

/// "The Email field contains X", "the list shows X": the subject's value or text says the
/// phrase (a field's value only when the subject may be that field).
fn element_shows(f: &Facts, s: &Subject, p: &str) -> Result<usize, String> {
    // A field is the subject only when the subject's words allow its kind: "the to-do
    // list contains X" is not met by X typed into the box that adds to the list.
    let container = names_container(s);
    let fits = |e: &arc_core::Element| {
        if container {
            return s.roles.contains(&e.role);
        }
        !is_editable_role(&e.role) || s.roles.is_empty() || s.roles.contains(&e.role)
    };
    let grounded = match field_subject(f, s).filter(|&i| fits(&f.els[i])) {
        Some(i) => Ok(i),
        None => subject_element(f, s, fits),
    };
    let i = match grounded {
        Ok(i) => i,
        // "The list contains X" with several lists, or none named so: any of them.
        Err(why) if container => return shows_in(f, p, s).map_err(|_| why),
        Err(why) => return Err(why),
    };
    if is_container(&f.els[i].role) {
        match said_within(f, i, p) {
            (Mention::Affirmed, Some(k)) => return Ok(k),
            (Mention::Qualified, Some(q)) => return Err(only_qualified(f, q, p)),
            _ => {}
        }
    }
    let e = &f.els[i];
    // A field's value is data the run typed: contained is enough. What the page
    // itself says (a name, a status's value) must affirm the phrase.
    let editable = matches!(
        e.role,
        Role::TextField | Role::PasswordField | Role::SpinButton
    );
    let says = |raw: &str| {
        let norm = normalize(raw);
        same_date(&norm, p)
            || same_time(raw, p)
            || if editable {
                contains_phrase(&norm, p)
            } else {
                mention(raw, p) == Mention::Affirmed
            }
    };
    if e.value.as_ref().is_some_and(|v| says(&v.as_text()))
        || mention(&e.name, p) == Mention::Affirmed
    {
        Ok(i)
    } else if mention(&e.name, p) == Mention::Qualified
        || e.value
            .as_ref()
            .is_some_and(|v| !editable && mention(&v.as_text(), p) == Mention::Qualified)
    {
        Err(only_qualified(f, i, p))
    } else {
        Err(format!("{} does not show {p:?}", describe(f, i)))
    }
}

/// The containers a scope names: every visible one of its roles when it has no words,
/// else the one its name grounds to (an unnamed list is still "the list" when it is the
/// only one of its roles).
fn scoped(f: &Facts, scope: &Subject) -> Result<Vec<usize>, String> {
    let of_roles = |i: usize| {
        let e = &f.els[i];
        e.visible
            && (scope.roles.contains(&e.role) || (scope.roles.is_empty() && is_container(&e.role)))
    };
    if scope.query.is_empty() && scope.nth.is_none() {
        return Ok((0..f.len()).filter(|&i| of_roles(i)).collect());
    }
    let named = subject_element(f, scope, |e| {
        scope.roles.is_empty() || scope.roles.contains(&e.role) || is_container(&e.role)
    });
    let why = match named {
        Ok(i) => return Ok(vec![i]),
        Err(why) => why,
    };
    let mut out: Vec<usize> = f.only(of_roles).one().into_iter().collect();
    // "The user list", "the group list": what the list is of names no element; an admin
    // shows its records as a table. The page's tables (not its lists, which hold messages
    // and menus) are that list too.
    if scope.roles.contains(&Role::List) && !scope.query.norm.contains(' ') {
        out.extend(
            (0..f.len())
                .filter(|&i| f.els[i].visible && matches!(f.els[i].role, Role::Table | Role::Grid)),
        );
    }
    if out.is_empty() {
        Err(why)
    } else {
        Ok(out)
    }
}

/// Nothing inside the scope mentions the text (negated mentions included: still there).
fn lacks_in(f: &Facts, phrase: &str, scope: &Subject) -> Result<(), String> {
    let containers = scoped(f, scope)?;
    if containers.is_empty() {
        return Err(format!("no {} on the page", scope_name(scope)));
    }
    for c in containers {
        if let (Mention::Affirmed | Mention::Qualified, Some(i)) = said_within(f, c, phrase) {
            return Err(format!("{} still shows {phrase:?}", describe(f, i)));
        }
        if let Some(i) = stem_mention(f, f.held_by(c).into_iter(), phrase)? {
            return Err(format!("{} still shows {phrase:?}", describe(f, i)));
        }
    }
    Ok(())
}

/// A stated field value: the field its name grounds to (as an input key would, by label,
/// placeholder or DOM name), its whole value or a part, case and spacing folded.
fn field_value(f: &Facts, s: &Subject, m: &FieldMatch) -> Result<usize, String> {
    let i = match field_subject(f, s) {
        Some(i) => i,
        None => subject_element(f, s, |e| {
            !e.actions.is_empty() && e.role != Role::Button && e.role != Role::Link
        })?,
    };
    let held = f.els[i]
        .value
        .as_ref()
        .map(|v| super::stated::normalize_value(&v.as_text()))
        .unwrap_or_default();
    let ok = match m {
        FieldMatch::Equals(want) => held == *want,
        FieldMatch::Contains(part) => held.contains(part.as_str()),
    };
    ok.then_some(i).ok_or_else(|| {
        let (how, want) = match m {
            FieldMatch::Equals(w) => ("is not", w),
            FieldMatch::Contains(w) => ("does not contain", w),
        };
        format!("{} holds {held:?}, which {how} {want:?}", describe(f, i))
    })
}

/// Visible elements the subject names (by role, and by name or by text containing it),
/// none an editable field, each counted once: one inside a counted one is the same item.
fn count(f: &Facts, s: &Subject, b: Bounds) -> Result<Vec<usize>, String> {
    let phrase = s.query.norm.as_str();
    let gone = super::super::stem::content_stems(phrase);
    let mut counted: Vec<usize> = Vec::new();
    for i in 0..f.len() {
        let e = &f.els[i];
        if !e.visible
            || matches!(e.role, Role::Document | Role::Window)
            || is_editable_role(&e.role)
            || (!s.roles.is_empty() && !s.roles.contains(&e.role))
        {
            continue;
        }
        // "None remain" counts what still shows the words that name it, in any form.
        let names = phrase.is_empty()
            || contains_phrase(f.name(i), phrase)
            || (b.at_most == Some(0) && super::super::stem::has_all(f.name(i), &gone));
        if names && !counted.iter().any(|&c| f.is_descendant(i, c)) {
            counted.push(i);
        }
    }
    let n = counted.len() as u32;
    let fits = n >= b.at_least && b.at_most.is_none_or(|hi| n <= hi);
    fits.then(|| counted.clone()).ok_or_else(|| {
        let want = match (b.at_least, b.at_most) {
            (lo, Some(hi)) if lo == hi => format!("{lo}"),
            (0, Some(hi)) => format!("at most {hi}"),
            (lo, None) => format!("at least {lo}"),
            (lo, Some(hi)) => format!("{lo} to {hi}"),
        };
        let first = counted
            .first()
            .map(|&i| format!(", the first {}", describe(f, i)))
            .unwrap_or_default();
        format!("{n} match {:?}, not {want}{first}", s.query.norm)
    })
}

/// An outcome statement: after the run acted, a visible element that was not saying it
/// before (`stale`) says every content word, and no word of it negates ("Preferences
/// could not be saved").
fn confirmed(
    f: &Facts,
    h: &[ActionRecord],
    stems: &[String],
    stale: &std::collections::HashSet<arc_core::ElementId>,
) -> Result<usize, String> {
    let said = stems.join(" ");
    if !h.iter().any(|r| r.action.kind() != ActionKind::Wait) {
        return Err(format!("nothing was done yet to show {said:?}"));
    }
    let mut negated = None;
    for i in 0..f.len() {
        let e = &f.els[i];
        // A message is text, not a control ("Sign in" is an offer, not an outcome); one
        // that links its subject reads whole.
        if !e.visible
            || !e.actions.is_empty()
            || matches!(e.role, Role::Document | Role::Window)
            || is_editable_role(&e.role)
            || stale.contains(&e.id)
        {
            continue;
        }
        let text = if super::says_outcome(f.name(i), stems) {
            e.name.clone()
        } else {
            match f.sentence(i) {
                Some(s) if super::says_outcome(&normalize_name(&s), stems) => s,
                _ => continue,
            }
        };
        if super::super::affirm::denies(&text) {
            negated = negated.or(Some(i));
            continue;
        }
        if asks(f, i, &text, stems) {
            continue;
        }
        return Ok(i);
    }
    Err(match negated {
        Some(i) => format!("{} says it negated", describe(f, i)),
        None => format!("no message that appeared says {said:?}"),
    })
}

/// Whether text `i` asks rather than reports: a question ("Archive Payroll.csv?"), or
/// text in a dialog that still offers a control saying one of the outcome's words (its
/// "Archive" button not yet pressed). A dialog reporting success offers no such control.
fn asks(f: &Facts, i: usize, text: &str, stems: &[String]) -> bool {
    let asked = |q: &str| super::super::stem::has_any(&normalize_name(q), stems);
    if text.trim_end().ends_with('?') || questions(text).any(asked) {
        return true;
    }
    let Some(d) = std::iter::once(i)
        .chain(f.ancestors(i))
        .find(|&a| f.els[a].role == Role::Dialog)
    else {
        return false;
    };
    f.held_by(d).into_iter().any(|c| {
        f.els[c].visible
            && super::super::ground::clickable(f, c)
            && super::super::stem::has_any(f.name(c), stems)
    })
}

/// The questions of a text: each sentence that ends in "?" ("Are you sure you want to
/// delete the group “Support”? All of the following items will be deleted:" asks one).
fn questions(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive(['.', '!', '?'])
        .filter(|s| s.trim_end().ends_with('?'))
}

/// Roles that hold items: a subject naming one ("the list", "the Done column's table")
/// speaks of what is inside it.
fn is_container(role: &Role) -> bool {
    matches!(
        role,
        Role::List | Role::ListBox | Role::Table | Role::Grid | Role::Tree | Role::Group
    )
}

/// Whether a subject names a container by role (and no field: "the list box" is a field).
pub(super) fn names_container(s: &Subject) -> bool {
    s.roles.iter().any(is_container) && !s.roles.iter().any(is_editable_role)
}

pub(super) fn is_editable_role(r: &Role) -> bool {
    matches!(r, Role::TextField | Role::PasswordField | Role::SpinButton)
}

/// Whether text inside the scope says `phrase`: an element that is not an editable field
/// (what is typed there is a draft, not what the list holds), inside a visible container
/// the scope names — by name when it has words, else any of its roles.
fn shows_in(f: &Facts, phrase: &str, scope: &Subject) -> Result<usize, String> {
    let containers = scoped(f, scope)?;
    let mut qualified = None;
    for &c in &containers {
        match said_within(f, c, phrase) {
            (Mention::Affirmed, Some(i)) => return Ok(i),
            (Mention::Qualified, q) => qualified = qualified.or(q),
            (Mention::Affirmed | Mention::Absent, _) => {}
        }
    }
    match (qualified, containers.first()) {
        (Some(i), _) => Err(only_qualified(f, i, phrase)),
        (None, Some(&c)) => Err(format!("{} does not hold {phrase:?}", describe(f, c))),
        (None, None) => Err(format!("no {} on the page", scope_name(scope))),
    }
}

/// What the elements inside container `c` say about `phrase`, editable fields left out.
fn said_within(f: &Facts, c: usize, phrase: &str) -> (Mention, Option<usize>) {
    let mut best = Strongest::default();
    for i in f.held_by(c) {
        let e = &f.els[i];
        if !e.visible || is_editable_role(&e.role) || !contains_phrase(f.name(i), phrase) {
            continue;
        }
        if best.affirms(i, mention(&e.name, phrase)) {
            return (Mention::Affirmed, Some(i));
        }
    }
    best.end()
}

fn scope_name(s: &Subject) -> String {
    match s.roles.first() {
        Some(r) if s.query.is_empty() => format!("{r}"),
        _ => format!("{:?}", s.query.norm),
    }
}

/// "Buy milk is marked done": the checkable control X names — by its own name, or by the
/// label beside it (a to-do's checkbox is often named only by a sibling) — in the state.
/// The text X being on the page says nothing about its state.
fn done(f: &Facts, s: &Subject, want: bool) -> Result<usize, String> {
    let own = subject_element(f, s, |e| checkable(&e.role) || e.selected.is_some());
    let i = match own {
        Ok(i) => i,
        Err(why) => {
            let labelled = |i: usize| {
                let e = &f.els[i];
                e.visible
                    && (checkable(&e.role) || e.selected.is_some())
                    && caption(f, i).is_some_and(|l| s.query.score(f.name(l)) >= s.threshold())
            };
            match f.only(labelled) {
                super::super::facts::Only::One(i) => i,
                super::super::facts::Only::Two(a, b) => {
                    return Err(format!(
                        "{:?} labels two controls equally: {}, {}",
                        s.query.norm,
                        describe(f, a),
                        describe(f, b)
                    ))
                }
                super::super::facts::Only::None if want => {
                    return in_done_part(f, s).ok_or(why);
                }
                super::super::facts::Only::None => return Err(why),
            }
        }
    };
    let have = f.els[i].selected.unwrap_or(false);
    (have == want)
        .then_some(i)
        .ok_or_else(|| format!("{} is {}", describe(f, i), state_name(State::Done, have)))
}

/// X with no box to tick is done when its text sits in a part of the page named done
/// ("Completed", "Done"): a chore its button moved under the list's "Completed" heading.
fn in_done_part(f: &Facts, s: &Subject) -> Option<usize> {
    let i = subject_element(f, s, |e| e.actions.is_empty()).ok()?;
    let says_done = |a: &usize| {
        let words: Vec<&str> = f.name(*a).split(' ').collect();
        f.els[*a].role != Role::Document
            && !words.contains(&"not")
            && words
                .iter()
                .any(|w| super::state_word(w) == Some((State::Done, true)))
    };
    f.ancestors(i).any(|a| says_done(&a)).then_some(i)
}

/// The text that captions checkable control `i` inside its item: the first text sibling
/// after it (a to-do's box comes before its words), else the nearest one before it — never
/// across another checkable sibling, whose caption that would be.
fn caption(f: &Facts, i: usize) -> Option<usize> {
    let parent = f.els[i].parent_id.as_ref()?;
    let siblings: Vec<usize> = (0..f.len())
        .filter(|&j| f.els[j].visible && f.els[j].parent_id.as_ref() == Some(parent))
        .collect();
    let at = siblings.iter().position(|&j| j == i)?;
    let is_control = |j: usize| checkable(&f.els[j].role) || f.els[j].selected.is_some();
    let is_caption = |j: usize| f.els[j].actions.is_empty() && !f.name(j).is_empty();
    let after = siblings[at + 1..]
        .iter()
        .copied()
        .take_while(|&j| !is_control(j))
        .find(|&j| is_caption(j));
    after.or_else(|| {
        siblings[..at]
            .iter()
            .rev()
            .copied()
            .take_while(|&j| !is_control(j))
            .find(|&j| is_caption(j))
    })
}

fn present(f: &Facts, s: &Subject) -> Result<usize, String> {
    if let Some(i) = screen(f, s) {
        return Ok(i);
    }
    if s.roles.is_empty() && !s.query.is_empty() {
        match page_mention(f, &s.query.norm) {
            (Mention::Affirmed, Some(i)) => return Ok(i),
            (Mention::Qualified, Some(i)) => return Err(only_qualified(f, i, &s.query.norm)),
            _ => {}
        }
    }
    // An element "is visible" when a person could see it: on screen. Named without a
    // role, content is meant, which a collapsed disclosure only names.
    let i = subject_element(f, s, |e| !s.roles.is_empty() || e.expanded != Some(false))?;
    if s.roles.is_empty() && names_collapsed(f, i, f.name(i)) {
        return Err(format!(
            "{} only names a collapsed section, not what it holds",
            describe(f, i)
        ));
    }
    // A quote is said as written: "Archive Budget.xlsx?" does not say "Budget.xlsx
    // archived", though its words are the same.
    if s.quoted && !contains_phrase(f.name(i), &s.query.norm) {
        return Err(format!(
            "{} does not say {:?}",
            describe(f, i),
            s.query.norm
        ));
    }
    // A loose grounding must not take "Order not confirmed" for "order confirmed".
    if negates_beyond(&f.els[i].name, &s.query.norm) {
        return Err(only_qualified(f, i, &s.query.norm));
    }
    if f.snapshot.on_screen(&f.els[i]) {
        Ok(i)
    } else {
        Err(format!("{} is off-screen", describe(f, i)))
    }
}

/// "The Site administration dashboard", "the Settings page": a screen, named by a word for
/// one after its name, is shown when a heading on it says the name (the screen's name is
/// its heading, not an element's).
fn screen(f: &Facts, s: &Subject) -> Option<usize> {
    let words: Vec<&str> = s.query.norm.split(' ').collect();
    let (last, name) = words.split_last()?;
    let screen_word = is_page_word(last) || matches!(*last, "dashboard" | "homepage");
    if s.quoted || !s.roles.is_empty() || !screen_word || name.is_empty() {
        return None;
    }
    let name = name.join(" ");
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        e.visible
            && e.role == Role::Heading
            && f.snapshot.on_screen(e)
            && mention(&e.name, &name) == Mention::Affirmed
    })
}

/// The one element the subject names; a tie is as good as nothing (no guessing).
pub fn subject_element(
    f: &Facts,
    s: &Subject,
    admit: impl Fn(&arc_core::Element) -> bool,
) -> Result<usize, String> {
    let queries = std::slice::from_ref(&s.query);
    let eligible = |i: usize| {
        let e = &f.els[i];
        e.visible && e.role != Role::Document && admit(e)
    };
    let grounded = match s.nth {
        Some(nth) => ground_role(f, &s.roles, Some(nth), eligible),
        None => ground(f, queries, &s.roles, s.threshold(), eligible),
    };
    match grounded {
        Grounding::Found { idx, .. } => Ok(idx),
        Grounding::Tie { a, b, .. } => Err(format!(
            "{:?} names two elements equally: {}, {}",
            s.query.norm,
            describe(f, a),
            describe(f, b)
        )),
        Grounding::Missing { .. } => Err(format!("no element matches {:?}", s.query.norm)),
    }
}
