//! What an outcome statement's verb says happened to its subject ("Alan Turing added",
//! "Ada Byron removed", "Bio saved", "Dark mode on"), judged on the page and the run's
//! records rather than on a confirmation's wording: pages confirm in their own words
//! ("Contact saved" for an added contact, "Profile updated" for a saved bio). Each event
//! holds only on evidence of its own kind, and only after the run acted:
//! - appeared: something outside editable fields shows the subject's words, and nothing did
//!   before the run acted (a draft in the form is not the record);
//! - gone: the subject was shown before the run acted, and no form of its words is now;
//! - committed: the subject names a field the run edited, the run committed after that
//!   edit, and a message that appeared since says a commit word, not negated;
//! - signed in: a sign-out control appeared, or the sign-in form left with the password
//!   the run typed into it and the page answered with something new, no fault and no
//!   next question; and the subject is shown or is who the run signed in as;
//! - a state: the subject's own control states it, as "X is on" reads.

use super::super::affirm::denies;
use super::super::facts::Facts;
use super::super::history;
use super::super::stem::{content_stems, has_all};
use super::super::tokens::Tok;
use super::assignment::ASSIGNMENT_WORDS;
use super::{field_subject, State, Subject};
use arc_core::{ActionKind, ActionRecord, ElementId, Role};
use std::collections::HashSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Appeared,
    Gone,
    Committed,
    /// "Ada is signed in", "Logged in": a sign-out control appeared, or the sign-in form
    /// went away with its password.
    SignedIn,
    /// "The report is downloaded": the run saved a file the subject names (`downloaded`).
    Downloaded,
    State(State, bool),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Happened {
    pub event: Event,
    /// The subject's words, normalized ("alan turing").
    pub subject: String,
    /// Whether the subject's words were shown outside fields before the run acted
    /// (filled in from the run's first snapshot).
    pub shown_at_start: Option<bool>,
    /// Elements of the first snapshot that already said a commit word.
    pub stale: HashSet<ElementId>,
    /// Elements that already showed the subject when the run last committed: what was
    /// there before the commit (a preview of the post) is no sign of what it made.
    pub before_commit: HashSet<ElementId>,
    /// Signed in: every element of the run's first snapshot (what is new since), and the
    /// password fields any snapshot showed (a sign-in form's, which leave with it).
    pub at_start: HashSet<ElementId>,
    pub password_fields: HashSet<ElementId>,
    /// Committed: the value the field must hold ("Language = Deutsch", "Topic: Sales").
    pub value: Option<String>,
    /// Committed: the record the field belongs to ("ada" of "Ada's email address"),
    /// whose words the page must show.
    pub owner: Option<String>,
}

/// The event a verb or state word names, as written (participles: "added", not "add" —
/// an imperative is an instruction, not an outcome).
pub fn event_word(w: &str) -> Option<Event> {
    Some(match w {
        "added" | "created" | "posted" | "published" | "uploaded" | "inserted" | "scheduled" => {
            Event::Appeared
        }
        "removed" | "deleted" | "cleared" | "erased" | "dismissed" | "gone" => Event::Gone,
        "downloaded" => Event::Downloaded,
        w if is_commit_word(w) => Event::Committed,
        w => {
            let (s, want) = super::state_word(w)?;
            Event::State(s, want)
        }
    })
}

/// Words a page confirms a commit with, whatever the planner called it ("Profile updated"
/// for "Bio saved").
fn is_commit_word(w: &str) -> bool {
    matches!(
        w,
        "saved"
            | "updated"
            | "changed"
            | "edited"
            | "modified"
            | "submitted"
            | "sent"
            | "applied"
            | "stored"
            | "recorded"
    )
}

/// An outcome statement's event and subject: the last event word, with nothing after it
/// but filler, and the content words before it.
pub(super) fn read(toks: &[Tok]) -> Option<Happened> {
    let words: Vec<&str> = toks.iter().filter_map(super::word).collect();
    // "signed in" / "logged in": two words, the event; a subject is optional.
    let signed = words
        .windows(2)
        .rposition(|w| matches!(w[0], "signed" | "logged") && w[1] == "in");
    let (at, end, event) = match signed {
        Some(k) => (k, k + 2, Event::SignedIn),
        None => {
            let at = words.iter().rposition(|w| event_word(w).is_some())?;
            (at, at + 1, event_word(words[at])?)
        }
    };
    // "Logged in as admin": who, said after the event.
    if event == Event::SignedIn && words.get(end) == Some(&"as") {
        let who: Vec<&str> = words[end + 1..]
            .iter()
            .copied()
            .filter(|w| !super::super::text::is_stopword(w))
            .collect();
        if who.is_empty() || who.len() > ASSIGNMENT_WORDS {
            return None;
        }
        return Some(Happened::new(event, who.join(" ")));
    }
    if !words[end..].iter().all(|w| super::around::is_filler(w)) {
        return None;
    }
    let subject: Vec<&str> = words[..at]
        .iter()
        .copied()
        .filter(|w| {
            !super::super::text::is_stopword(w)
                && !matches!(
                    *w,
                    "is" | "are" | "was" | "were" | "has" | "have" | "been" | "be" | "now" | "s"
                )
        })
        .collect();
    if subject.is_empty() && event != Event::SignedIn {
        return None;
    }
    Some(Happened::new(event, subject.join(" ")))
}

/// "X no longer appears", "X is not listed any more": X was shown and is gone, said of
/// the words `subject` (normalized). Held as [`Event::Gone`]: never on a page that never
/// showed X, nor before the run acted.
pub(super) fn gone(subject: &str) -> Happened {
    let words: Vec<&str> = subject
        .split(' ')
        .filter(|w| !w.is_empty() && !super::super::text::is_stopword(w))
        .collect();
    Happened::new(Event::Gone, words.join(" "))
}

impl Happened {
    /// An event said of `subject`, nothing read of the page yet.
    pub(super) fn new(event: Event, subject: String) -> Happened {
        Happened {
            event,
            subject,
            shown_at_start: None,
            stale: HashSet::new(),
            before_commit: HashSet::new(),
            at_start: HashSet::new(),
            password_fields: HashSet::new(),
            value: None,
            owner: None,
        }
    }

    /// Reads the run's first snapshot: was the subject shown, which messages were there.
    pub(super) fn note_start(&mut self, f: &Facts) {
        self.shown_at_start = Some(match self.event {
            Event::SignedIn => sign_out_control(f).is_some(),
            // What can go is what would still show it: a list entry that is a link too
            // ("Meeting notes" in a sidebar of notes one opens by a click).
            Event::Gone => still_shown(f, &self.subject, |_| false).is_some(),
            _ => shown(f, &self.subject).is_some(),
        });
        for i in 0..f.len() {
            if says_commit(f, i) {
                self.stale.insert(f.els[i].id.clone());
            }
        }
        if self.event == Event::SignedIn {
            self.at_start = f.els.iter().map(|e| e.id.clone()).collect();
            self.note_step(f);
        }
    }

    /// Reads a snapshot the run decides on: a sign-in's password fields.
    pub(super) fn note_step(&mut self, f: &Facts) {
        if self.event != Event::SignedIn {
            return;
        }
        for e in f
            .els
            .iter()
            .filter(|e| e.visible && e.role == Role::PasswordField)
        {
            self.password_fields.insert(e.id.clone());
        }
    }

    /// Reads the snapshot a commit is decided on: what already shows the subject then.
    pub(super) fn note_commit(&mut self, f: &Facts) {
        if self.event != Event::Appeared {
            return;
        }
        self.before_commit = showing(f, &self.subject)
            .map(|i| f.els[i].id.clone())
            .collect();
    }

    /// The subject as a criterion's subject (role words read: "the Dark mode switch").
    fn subject(&self) -> Option<Subject> {
        let toks: Vec<Tok> = self
            .subject
            .split(' ')
            .map(|w| Tok::Word(w.to_owned()))
            .collect();
        super::subject(&toks)
    }

    /// The evidence (element indices), or what is missing.
    pub(super) fn judge(&self, f: &Facts, h: &[ActionRecord]) -> Result<Vec<usize>, String> {
        if !h.iter().any(|r| r.action.kind() != ActionKind::Wait) {
            return Err(format!(
                "nothing was done yet to show {:?} {}",
                self.subject,
                self.verb()
            ));
        }
        let subj = &self.subject;
        match self.event {
            Event::Downloaded => super::downloaded::downloaded(h, subj).map(|()| Vec::new()),
            Event::Appeared => {
                if self.shown_at_start != Some(false) {
                    return Err(format!(
                        "{subj:?} was shown before the run acted: its showing now proves nothing new"
                    ));
                }
                let fresh = |i: &usize| !self.before_commit.contains(&f.els[*i].id);
                match showing(f, subj).find(fresh) {
                    Some(i) => Ok(vec![i]),
                    None if shown(f, subj).is_some() => Err(format!(
                        "{subj:?} is shown only where it was before the run's last commit"
                    )),
                    None => Err(format!("nothing outside the fields shows {subj:?}")),
                }
            }
            Event::Gone => {
                if self.shown_at_start != Some(true) {
                    return Err(format!(
                        "{subj:?} was not shown before the run acted: nothing went"
                    ));
                }
                // "Ada Byron deleted" says it went; "could not be deleted" still shows it.
                let went = |i: usize| {
                    let n = f.name(i);
                    n.split(' ').any(|w| event_word(w) == Some(Event::Gone))
                        && !denies(&f.els[i].name)
                };
                match still_shown(f, subj, went) {
                    None => Ok(Vec::new()),
                    Some(i) => Err(format!(
                        "{} still shows {subj:?}",
                        super::super::inputs::describe(f, i)
                    )),
                }
            }
            Event::Committed => self.committed(f, h),
            Event::SignedIn => {
                if self.shown_at_start != Some(false) {
                    return Err("a sign-out control was there before the run acted".into());
                }
                let mut evidence = match sign_out_control(f) {
                    Some(out) => vec![out],
                    None => self
                        .form_left(f, h)
                        .map_err(|why| format!("no sign-out control appeared, and {why}"))?,
                };
                // "Ada is signed in": the page names her, or she is who the run signed in as.
                if content_stems(subj).is_empty() || signed_in_as(h, subj) {
                    return Ok(evidence);
                }
                let i = shown(f, subj).ok_or_else(|| {
                    format!("the run signed in, but nothing shows {subj:?} and it did not sign in as {subj:?}")
                })?;
                evidence.push(i);
                Ok(evidence)
            }
            Event::State(state, want) => {
                let s = self
                    .subject()
                    .ok_or_else(|| format!("{subj:?} names no element"))?;
                super::holds::judge_check(f, h, &super::Check::ElementState(s, state, want))
            }
        }
    }

    /// A sign-in form that left with its password: the run typed into a password field
    /// and acted after, no password field shows now (the form is gone, not refused), the
    /// page shows something new that is not a fault, a denial or a question, and no new
    /// field asks for more (a code to enter next). The evidence: what is new.
    fn form_left(&self, f: &Facts, h: &[ActionRecord]) -> Result<Vec<usize>, String> {
        let typed = h
            .iter()
            .rposition(|r| {
                r.action.kind() == ActionKind::TypeText
                    && r.action
                        .target()
                        .is_some_and(|t| self.password_fields.contains(t))
            })
            .ok_or("the run typed no password")?;
        if h[typed + 1..]
            .iter()
            .all(|r| r.action.kind() == ActionKind::Wait)
            && h[typed].action.action.submit_key().is_none()
        {
            return Err("nothing was done after the password was typed".into());
        }
        if let Some(i) =
            (0..f.len()).find(|&i| f.els[i].visible && f.els[i].role == Role::PasswordField)
        {
            return Err(format!(
                "{} is still shown",
                super::super::inputs::describe(f, i)
            ));
        }
        let new = |i: usize| f.els[i].visible && !self.at_start.contains(&f.els[i].id);
        // A field the run never filled, new since it began: the next question (a code),
        // whether or not the page gave it the focus.
        let filled = |i: usize| h.iter().any(|r| r.action.target() == Some(&f.els[i].id));
        if let Some(i) = (0..f.len())
            .find(|&i| new(i) && super::holds::is_editable_role(&f.els[i].role) && !filled(i))
        {
            return Err(format!(
                "the page asks for more ({})",
                super::super::inputs::describe(f, i)
            ));
        }
        let said: Vec<usize> = (0..f.len())
            .filter(|&i| new(i) && is_message(f, i) && !f.name(i).is_empty())
            .collect();
        if let Some(&i) = said.iter().find(|&&i| {
            let raw = f.els[i].name.trim();
            raw.ends_with('?')
                || denies(raw)
                || f.name(i).split(' ').any(super::super::vocab::is_fault_word)
        }) {
            return Err(format!("the page answered {:?}", f.els[i].name.trim()));
        }
        if said.is_empty() {
            return Err("the sign-in form left and nothing new shows".into());
        }
        Ok(said.into_iter().take(3).collect())
    }

    /// The field the subject names, edited by the run, committed after that edit, and a
    /// message since that confirms a commit without negating it.
    fn committed(&self, f: &Facts, h: &[ActionRecord]) -> Result<Vec<usize>, String> {
        let subj = &self.subject;
        let owner = match &self.owner {
            Some(o) => Some(owner_shown(f, o).ok_or_else(|| format!("nothing shows {o:?}"))?),
            None => None,
        };
        let field = self
            .subject()
            .and_then(|s| field_subject(f, &s))
            .or_else(|| edited_as(f, h, subj));
        let Some(field) = field else {
            return self
                .stored_and_left(f, h)
                .map(|e| e.into_iter().chain(owner).collect());
        };
        let id = f.els[field].id.as_str();
        let edited = h.iter().rposition(|r| {
            history::edits_form(r) && r.action.target().is_some_and(|t| t.as_str() == id)
        });
        // A field the run did not edit here may be the record's own page after the save
        // (the edit was on the form that left).
        let Some(edited) = edited else {
            return self
                .stored_and_left(f, h)
                .map(|e| e.into_iter().chain(owner).collect())
                .map_err(|why| format!("the run did not edit {subj:?} on this page, and {why}"));
        };
        if let Some(v) = &self.value {
            holds_value(f, field, v)?;
        }
        // A page with nothing to press stores each change as it is made, and says so
        // itself; one with a commit control stores nothing until it is pressed.
        if !history::committed_after(h, edited) {
            let why = format!("nothing was submitted after {subj:?} was edited");
            return Err(match commit_control(f) {
                Some(i) => format!(
                    "{why}, and {} is there to",
                    super::super::inputs::describe(f, i)
                ),
                None if h[edited + 1..].iter().any(history::edits_form) => {
                    format!("{why}, and the run edited more since")
                }
                // A value stands on the page's answer to the edit, the run's last act.
                None if self.value.is_some()
                    && h[edited + 1..]
                        .iter()
                        .any(|r| r.action.kind() != ActionKind::Wait) =>
                {
                    format!("{why}, and the run pressed more since")
                }
                None => return self.acknowledged_edit(f, field),
            });
        }
        if self.value.is_some() {
            // A value is stored by the one press since its edit: after a second press, a
            // "Saved" may answer the first, and the second (Publish) left what it left.
            let presses = h[edited + 1..]
                .iter()
                .filter(|r| r.action.kind() != ActionKind::Wait && !history::edits_form(r))
                .count();
            if presses != 1 {
                return Err(format!(
                    "the run pressed more than its commit since {subj:?} was edited"
                ));
            }
        }
        let mut negated = None;
        for i in (0..f.len()).filter(|&i| is_message(f, i) && !self.stale.contains(&f.els[i].id)) {
            if denies(&f.els[i].name) {
                negated = negated.or(Some(i));
            } else if says_commit(f, i) {
                return Ok([field, i].into_iter().chain(owner).collect());
            }
        }
        Err(match negated {
            Some(i) => format!(
                "{} says the commit failed",
                super::super::inputs::describe(f, i)
            ),
            None => "no message that appeared confirms a commit".to_owned(),
        })
    }

    /// An edit stored by a save that left the form (an admin site's list after "Save"):
    /// the run's last edit of a field the subject names (any, for "the changes") entered
    /// the value said, one press since committed it, a message that appeared since says
    /// so and nothing denies it, and page text (no field: a draft is not the record) now
    /// shows the value said.
    fn stored_and_left(&self, f: &Facts, h: &[ActionRecord]) -> Result<Vec<usize>, String> {
        use super::super::text::{contains_phrase, normalize};
        let subj = &self.subject;
        let key = content_stems(subj);
        let collective = !subj.is_empty() && subj.split(' ').all(names_the_edits);
        let named = |r: &ActionRecord| {
            collective
                || entered_as(r, subj)
                || r.target_name
                    .as_deref()
                    .is_some_and(|n| !key.is_empty() && has_all(&normalize(n), &key))
        };
        let edited = h
            .iter()
            .rposition(|r| history::edits_form(r) && named(r))
            .ok_or_else(|| format!("no field is named {subj:?}"))?;
        let typed = normalize(&h[edited].action.text());
        if let Some(value) = &self.value {
            if !contains_phrase(&typed, value) {
                return Err(format!(
                    "the run entered {typed:?} as {subj:?}, not {value:?}"
                ));
            }
        }
        let presses = h[edited + 1..]
            .iter()
            .filter(|r| r.action.kind() != ActionKind::Wait && !history::edits_form(r))
            .count();
        if !history::committed_after(h, edited) || presses != 1 {
            return Err(format!(
                "{subj:?} is no field on this page, and the one press after its edit was no commit"
            ));
        }
        let fresh = |i: &usize| is_message(f, *i) && !self.stale.contains(&f.els[*i].id);
        let messages: Vec<usize> = (0..f.len()).filter(fresh).collect();
        if let Some(&i) = messages.iter().find(|&&i| denies(&f.els[i].name)) {
            return Err(format!(
                "{} says the commit failed",
                super::super::inputs::describe(f, i)
            ));
        }
        let said = messages
            .into_iter()
            .find(|&i| says_commit(f, i))
            .ok_or("no message that appeared confirms a commit")?;
        let Some(value) = &self.value else {
            return Ok(vec![said]);
        };
        // The page's own text, or its title (which the page sets, not the run).
        let shows = (0..f.len())
            .find(|&i| {
                (is_page_text(f, i) || f.els[i].role == Role::Document)
                    && contains_phrase(f.name(i), value)
            })
            .ok_or_else(|| format!("nothing outside the fields shows {value:?}"))?;
        Ok(vec![said, shows])
    }

    /// An edit the page stored as it was made (the value, when one is said, already
    /// checked): a message that appeared confirms a commit, none negating it.
    fn acknowledged_edit(&self, f: &Facts, field: usize) -> Result<Vec<usize>, String> {
        let messages =
            (0..f.len()).filter(|&i| is_message(f, i) && !self.stale.contains(&f.els[i].id));
        let mut confirmed = None;
        for i in messages {
            if denies(&f.els[i].name)
                || f.name(i).split(' ').any(super::super::vocab::is_fault_word)
            {
                return Err(format!(
                    "{} says the change was not stored",
                    super::super::inputs::describe(f, i)
                ));
            }
            if says_commit(f, i) {
                confirmed = confirmed.or(Some(i));
            }
        }
        match confirmed {
            Some(i) => Ok(vec![field, i]),
            None => Err(format!(
                "nothing was submitted after {:?} was edited, and no message that appeared says it was stored",
                self.subject
            )),
        }
    }

    fn verb(&self) -> &'static str {
        match self.event {
            Event::Appeared => "appeared",
            Event::Gone => "gone",
            Event::Committed => "committed",
            Event::SignedIn => "signed in",
            Event::Downloaded => "downloaded",
            Event::State(..) => "in its state",
        }
    }

    pub(super) fn describe(&self) -> String {
        match self.event {
            Event::Downloaded => format!("the run downloaded {:?}", self.subject),
            Event::Appeared => format!("{:?} shown, and not before the run acted", self.subject),
            Event::Gone => format!(
                "{:?} shown before the run acted, and no longer",
                self.subject
            ),
            Event::Committed => match &self.value {
                Some(v) => format!(
                    "field {:?} holds {v:?}, edited and stored (submitted after, or saved as edited), and a message confirms it",
                    self.subject
                ),
                None => format!(
                    "field {:?} edited, submitted after (or saved as edited), and a message confirms it",
                    self.subject
                ),
            },
            Event::SignedIn => format!(
                "a sign-out control appeared, and {:?} is shown",
                self.subject
            ),
            Event::State(s, on) => {
                format!("{:?} is {}", self.subject, super::holds::state_name(s, on))
            }
        }
    }
}

/// A visible, enabled button led by a commit verb ("Save changes", "Apply"): what a page
/// that stores nothing until asked offers.
fn commit_control(f: &Facts) -> Option<usize> {
    use super::super::vocab::{verb_at, Verb};
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        let words: Vec<&str> = f.name(i).split(' ').collect();
        e.visible
            && e.enabled
            && e.role == Role::Button
            && matches!(verb_at(&words, 0), Some((Verb::Submit, _)))
    })
}

/// The field holds the value: its text contains it (a select's chosen option, a box's
/// typed text), folded as names are.
fn holds_value(f: &Facts, field: usize, value: &str) -> Result<(), String> {
    let e = &f.els[field];
    let held = e.value.as_ref().map(|v| v.as_text()).unwrap_or_default();
    let held = super::super::text::normalize(&held);
    if super::super::text::contains_phrase(&held, value) {
        Ok(())
    } else {
        Err(format!(
            "{} holds {held:?}, not {value:?}",
            super::super::inputs::describe(f, field)
        ))
    }
}

/// Visible, not the document and not an editable field (a draft is not the record).
fn is_page_text(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    e.visible
        && !matches!(e.role, Role::Document | Role::Window)
        && !super::holds::is_editable_role(&e.role)
}

/// Page text that is not a control.
fn is_message(f: &Facts, i: usize) -> bool {
    is_page_text(f, i) && f.els[i].actions.is_empty()
}

/// A message saying a commit: a commit word, or that the record was made ("issue7
/// created").
fn says_commit(f: &Facts, i: usize) -> bool {
    is_message(f, i)
        && f.name(i)
            .split(' ')
            .any(|w| is_commit_word(w) || event_word(w) == Some(Event::Appeared))
}

/// Page text outside any dialog (which asks, it does not record).
fn is_content(f: &Facts, i: usize) -> bool {
    let dialog = |k: usize| f.els[k].role == Role::Dialog;
    is_page_text(f, i) && !dialog(i) && !f.ancestors(i).any(dialog)
}

/// The first content element that is not a control, says every content word of `subject`
/// (any form) and does not negate it: a kind noun alone names nothing.
fn shown(f: &Facts, subject: &str) -> Option<usize> {
    showing(f, subject).next()
}

/// Every content element, not a control, that says every content word of `subject`
/// without denying it.
fn showing<'f>(f: &'f Facts, subject: &str) -> impl Iterator<Item = usize> + 'f {
    let want = content_stems(subject);
    (0..f.len()).filter(move |&i| {
        !want.is_empty()
            && is_content(f, i)
            && f.els[i].actions.is_empty()
            && has_all(f.name(i), &want)
            && !denies(&f.els[i].name)
    })
}

/// A visible element whose name or value says every content word of a record's `owner`.
fn owner_shown(f: &Facts, owner: &str) -> Option<usize> {
    let want = content_stems(owner);
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        !want.is_empty()
            && e.visible
            && (has_all(f.name(i), &want)
                || e.value
                    .as_ref()
                    .is_some_and(|v| has_all(&super::super::text::normalize(&v.as_text()), &want)))
    })
}

/// The first content element, control or not, that still says every content word of
/// `subject` in any form, negated too, unless `went` says it is the news of its going.
fn still_shown(f: &Facts, subject: &str, went: impl Fn(usize) -> bool) -> Option<usize> {
    let want = content_stems(subject);
    if want.is_empty() {
        return None;
    }
    (0..f.len()).find(|&i| is_content(f, i) && has_all(f.name(i), &want) && !went(i))
}

/// Whether the run typed `subject`'s every content word into a field (the account it
/// signed in as: a username, or an email address holding the name). Secret values never
/// say it.
fn signed_in_as(h: &[ActionRecord], subject: &str) -> bool {
    let want = content_stems(subject);
    !want.is_empty()
        && h.iter().any(|r| {
            r.action.kind() == ActionKind::TypeText
                && has_all(&super::super::text::normalize(&r.action.text()), &want)
        })
}

/// A visible control that signs out ("Sign out", "Log out", "Logout"): what a page offers
/// once someone is signed in, and not before.
fn sign_out_control(f: &Facts) -> Option<usize> {
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        let n = f.name(i);
        e.visible
            && !e.actions.is_empty()
            && (["sign out", "log out", "sign off", "log off"]
                .iter()
                .any(|p| super::super::text::contains_phrase(n, p))
                || n.split(' ').any(|w| matches!(w, "logout" | "signout")))
    })
}

/// Words that name a run's edits together, not one field ("the changes", "the settings",
/// "the profile"): any field the run edited is theirs.
fn names_the_edits(w: &str) -> bool {
    matches!(
        w,
        "change"
            | "changes"
            | "edit"
            | "edits"
            | "update"
            | "updates"
            | "setting"
            | "settings"
            | "preference"
            | "preferences"
            | "profile"
            | "form"
            | "details"
            | "information"
    )
}

/// Whether record `r` entered the input the subject names by its key ("status" for the
/// run's input `status`): the field the run itself chose for that value, named on the page
/// or not.
fn entered_as(r: &ActionRecord, subj: &str) -> bool {
    r.action.action.input_key().is_some_and(|k| {
        let k = super::super::text::identifier_words(k);
        !k.is_empty() && k == subj
    })
}

/// The field the run last edited that the subject names loosely: every content word of
/// the subject in its name ("password" for "New password"), or any, when the subject
/// names the run's edits together ("the change has been saved").
fn edited_as(f: &Facts, h: &[ActionRecord], subj: &str) -> Option<usize> {
    let words: Vec<&str> = subj
        .split(' ')
        .filter(|w| !w.is_empty() && !super::super::text::is_stopword(w))
        .collect();
    if words.is_empty() {
        return None;
    }
    let collective = words.iter().all(|w| names_the_edits(w));
    h.iter()
        .rev()
        .filter(|r| history::edits_form(r))
        .find_map(|r| {
            let i = f.index_of(r.action.target()?.as_str())?;
            let name: Vec<&str> = f.name(i).split(' ').collect();
            (collective || entered_as(r, subj) || words.iter().all(|w| name.contains(w)))
                .then_some(i)
        })
}
