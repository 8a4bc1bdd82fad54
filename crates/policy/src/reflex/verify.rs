//! Verification criteria, read once and checked against each snapshot: "the page shows X",
//! "X appears", "the Email field contains X", "X is checked/selected/visible", "the URL
//! contains X". A criterion this cannot read never holds: completion is claimed only on
//! evidence.

use super::affirm::{mention, negates_beyond, Mention};
use super::facts::Facts;
use super::ground::{
    checkable, conclude, field_score, ground, ground_role, is_field, Grounding, Ranking,
    QUOTED_THRESHOLD, THRESHOLD,
};
use super::history;
use super::inputs::describe;
use super::ordinal::Nth;
use super::step::StepKind;
use super::text::{
    contains_phrase, is_stopword, normalize, normalize_name, same_date, same_time, Query,
};
use super::tokens::{tokenize, Tok};
use super::vocab::{is_close_glyph, is_page_word, is_submit_word, strip_role_words};
use arc_core::{ActionKind, ActionRecord, Role};

#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Some visible text (outside editable fields) contains the phrase.
    PageShows(String),
    PageLacks(String),
    /// The subject element's value or text contains the phrase.
    ElementShows(Subject, String),
    ElementState(Subject, State, bool),
    /// The run clicked the subject: an event, not a state, so only the run's own records
    /// (each click hit-tested on its target before it was pressed) can show it.
    Clicked(Subject),
    /// "The \"star\" icon in the item showing \"Deva\" has been clicked": the run's click
    /// on the subject, whose item (`item`) on the page shows the word.
    ClickedIn(Subject, String),
    /// "All the boxes in the list are checked": every member of a group (`group`) in the
    /// state; a group of close controls holds "closed" once none is left.
    Group(super::group::Group, super::group::Kind, bool),
    /// "\"Jinny>Lynett\" is selected": a menu path, chosen when the run clicked its leaf
    /// after opening each parent in order (hover or click). Menu items usually vanish
    /// once chosen, so only the run's records — each hover and click hit-tested on its
    /// target — can show it; a click on a same-named item elsewhere does not count.
    MenuPath(Vec<String>),
    /// "The form has been submitted": the run committed (clicked a submit) after its last
    /// edit — again an event only the run's records show.
    Submitted,
    /// "The destination field starts with \"Ab\" and ends with \"yz\"": the subject's
    /// value begins with the prefix and (when given) ends with the suffix, as written.
    Affix(Subject, String, Option<String>),
    /// The subject is on the page (by its text, or as an element of the named role).
    Present(Subject),
    UrlContains(String),
    TitleContains(String),
    Unreadable,
}

impl Check {
    /// Whether the page itself can show the check coming true (not the run's records,
    /// not an unreadable sentence).
    pub fn reads_the_page(&self) -> bool {
        !matches!(
            self,
            Check::Clicked(_)
                | Check::ClickedIn(..)
                | Check::MenuPath(_)
                | Check::Submitted
                | Check::Unreadable
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Checked,
    Expanded,
    Enabled,
    Focused,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subject {
    pub query: Query,
    pub quoted: bool,
    pub roles: Vec<Role>,
    /// "the 3rd textbox": picked by position among the roles' elements.
    pub nth: Option<Nth>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    pub text: String,
    pub check: Check,
}

const TEXT_RELATIONS: &[&[&str]] = &[
    &["has", "the", "value"],
    &["has", "value"],
    &["has", "the", "text"],
    &["has", "text"],
    &["is", "set", "to"],
    &["is", "filled", "with"],
    &["contains"],
    &["contain"],
    &["includes"],
    &["include"],
    &["equals"],
    &["reads"],
    &["ends", "with"],
    &["shows"],
    &["show"],
    &["displays"],
    &["display"],
    &["says"],
    &["lists"],
];

const PRESENCE: &[&[&str]] = &[
    &["becomes", "visible"],
    &["is", "visible"],
    &["are", "visible"],
    &["is", "shown"],
    &["are", "shown"],
    &["is", "displayed"],
    &["are", "displayed"],
    &["is", "present"],
    &["appears"],
    &["appear"],
    &["exists"],
];

const CLICKED: &[&[&str]] = &[
    &["has", "been", "clicked"],
    &["have", "been", "clicked"],
    &["was", "clicked"],
    &["were", "clicked"],
    &["is", "clicked"],
    &["has", "been", "pressed"],
    &["was", "pressed"],
];

const SUBMITTED: &[&[&str]] = &[
    &["has", "been", "submitted"],
    &["was", "submitted"],
    &["is", "submitted"],
];

const ABSENCE: &[&[&str]] = &[
    &["is", "not", "visible"],
    &["is", "not", "shown"],
    &["is", "not", "displayed"],
    &["is", "hidden"],
    &["is", "gone"],
    &["disappears"],
];

fn state_word(w: &str) -> Option<(State, bool)> {
    Some(match w {
        "checked" | "ticked" | "selected" | "chosen" | "active" | "on" => (State::Checked, true),
        "unchecked" | "unticked" | "deselected" | "unselected" | "off" => (State::Checked, false),
        "expanded" | "open" | "opened" => (State::Expanded, true),
        "collapsed" | "closed" => (State::Expanded, false),
        "enabled" => (State::Enabled, true),
        "disabled" => (State::Enabled, false),
        "focused" => (State::Focused, true),
        _ => return None,
    })
}

pub fn parse(text: &str) -> Criterion {
    if let Some((rest, word)) = super::item::split_criterion(text) {
        let check = match parse(&rest).check {
            Check::Clicked(s) => Check::ClickedIn(s, word),
            // An item the runtime cannot tie the check to: not read at all.
            _ => Check::Unreadable,
        };
        return Criterion {
            text: text.to_owned(),
            check,
        };
    }
    let toks: Vec<Tok> = tokenize(text)
        .into_iter()
        .filter(|t| *t != Tok::Break)
        .collect();
    let check = match read(&toks) {
        Some(Check::UrlContains(_)) => url_text(text).map_or(Check::Unreadable, Check::UrlContains),
        Some(
            check @ (Check::ElementState(_, State::Checked, true)
            | Check::Clicked(_)
            | Check::Present(_)),
        ) => menu_path(&toks).map_or(check, Check::MenuPath),
        Some(check) => check,
        None => Check::Unreadable,
    };
    Criterion {
        text: text.to_owned(),
        check,
    }
}

/// The menu path a criterion's subject names: its quote, else its words up to the
/// relation ("Jinny>Lynett is selected").
fn menu_path(toks: &[Tok]) -> Option<Vec<String>> {
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        return super::menu::path(q);
    }
    let words: Vec<&str> = toks
        .iter()
        .filter_map(word)
        .take_while(|w| !matches!(*w, "is" | "was" | "are" | "has" | "have" | "were"))
        .collect();
    super::menu::path(&words.join(" "))
}

/// A URL is compared as written (lower-cased), not word by word: the text after the
/// relation, without quotes or a closing period.
fn url_text(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = [" contains ", " includes ", " ends with ", " is "]
        .iter()
        .filter_map(|rel| lower.find(rel).map(|i| i + rel.len()))
        .min()?;
    let rest = lower[at..]
        .trim()
        .trim_end_matches('.')
        .trim_matches(|c| matches!(c, '"' | '\'' | '“' | '”' | '`'));
    Some(rest.to_owned()).filter(|s| !s.is_empty())
}

fn word(t: &Tok) -> Option<&str> {
    match t {
        Tok::Word(w) => Some(w),
        _ => None,
    }
}

/// Whether `phrase` starts at token `at`.
fn phrase_at(toks: &[Tok], at: usize, phrase: &[&str]) -> bool {
    toks.len() >= at + phrase.len()
        && phrase
            .iter()
            .zip(&toks[at..])
            .all(|(p, t)| word(t) == Some(p))
}

fn read(toks: &[Tok]) -> Option<Check> {
    for at in 0..toks.len() {
        if [["starts", "with"], ["begins", "with"]]
            .iter()
            .any(|p| phrase_at(toks, at, p))
        {
            return affix(&toks[..at], &toks[at + 2..]);
        }
        if SUBMITTED.iter().any(|p| phrase_at(toks, at, p)) {
            return Some(Check::Submitted);
        }
        if CLICKED.iter().any(|p| phrase_at(toks, at, p)) {
            return Some(Check::Clicked(subject(&toks[..at])?));
        }
        if ABSENCE.iter().any(|p| phrase_at(toks, at, p)) {
            return Some(Check::PageLacks(plain(&toks[..at])?));
        }
        if PRESENCE.iter().any(|p| phrase_at(toks, at, p)) {
            return Some(Check::Present(subject(&toks[..at])?));
        }
        if let Some(p) = TEXT_RELATIONS.iter().find(|p| phrase_at(toks, at, p)) {
            return text_check(&toks[..at], &toks[at + p.len()..]);
        }
        if matches!(
            word(&toks[at]),
            Some("is" | "are" | "becomes" | "gets" | "was")
        ) {
            let negated = toks.get(at + 1).and_then(word) == Some("not");
            let next = toks.get(at + 1 + negated as usize).and_then(word);
            if let Some((state, want)) = next.and_then(state_word) {
                if let Some(g) = group_subject(&toks[..at], next, state, want != negated) {
                    return Some(g);
                }
                return Some(Check::ElementState(
                    subject(&toks[..at])?,
                    state,
                    want != negated,
                ));
            }
        }
    }
    None
}

/// `starts with "P" [and ends with "S"]`: the quotes as written (case kept).
fn affix(subj: &[Tok], rest: &[Tok]) -> Option<Check> {
    let Some(Tok::Quote(prefix)) = rest.first() else {
        return None;
    };
    let after = &rest[1..];
    let at = usize::from(after.first().and_then(word) == Some("and"));
    let suffix = match (
        after.get(at).and_then(word),
        after.get(at + 1).and_then(word),
    ) {
        (Some("ends"), Some("with")) => match after.get(at + 2) {
            Some(Tok::Quote(q)) => Some(q.clone()),
            _ => return None,
        },
        _ => None,
    };
    Some(Check::Affix(subject(subj)?, prefix.clone(), suffix))
}

/// A subject naming a group ("every notification is closed"): the kind of member its
/// state word speaks of — "closed" notices go away, "closed" sections collapse.
fn group_subject(subj: &[Tok], said: Option<&str>, state: State, want: bool) -> Option<Check> {
    use super::group::{parse, Kind};
    let words: Vec<&str> = subj.iter().filter_map(word).collect();
    if subj.iter().any(|t| matches!(t, Tok::Quote(_))) {
        return None;
    }
    let g = parse(&words.join(" "))?;
    let disclosure_noun = matches!(
        g.noun.as_str(),
        "section" | "panel" | "folder" | "group" | "accordion" | "item" | "node" | "category"
    );
    let kind = match state {
        State::Checked => Kind::Checkable,
        State::Expanded if !want && said == Some("closed") && !disclosure_noun => Kind::Closer,
        State::Expanded => Kind::Disclosure,
        State::Enabled | State::Focused => return None,
    };
    Some(Check::Group(g, kind, want))
}

/// The subject or object as plain text: a quote if there is one, else the words.
fn plain(toks: &[Tok]) -> Option<String> {
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        return Some(normalize(q)).filter(|s| !s.is_empty());
    }
    // "shows the text X", "shows a message X": the words that only announce the text.
    let words: Vec<&str> = toks.iter().filter_map(word).collect();
    let start = words
        .iter()
        .position(|w| {
            !matches!(
                *w,
                "the" | "a" | "an" | "text" | "message" | "words" | "value" | "label"
            )
        })
        .unwrap_or(words.len());
    Some(words[start..].join(" ")).filter(|s| !s.is_empty())
}

fn subject(toks: &[Tok]) -> Option<Subject> {
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        let words: Vec<&str> = toks.iter().filter_map(word).collect();
        let (_, roles) = strip_role_words(&words);
        // A close control shows "×" and is named "Close".
        let q = if is_close_glyph(q) {
            "close"
        } else {
            q.as_str()
        };
        return Some(Subject {
            query: Query::new(q),
            quoted: true,
            roles,
            nth: None,
        });
    }
    let words: Vec<&str> = toks.iter().filter_map(word).collect();
    let (rest, roles) = strip_role_words(&words);
    let rest: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !is_stopword(w))
        .collect();
    if rest.is_empty() && roles.is_empty() {
        return None;
    }
    let (nth, others) = Nth::split(&rest);
    let nth = nth.filter(|_| others.is_empty() && !roles.is_empty());
    Some(Subject {
        query: Query::from_norm(if nth.is_some() {
            String::new()
        } else {
            rest.join(" ")
        }),
        quoted: false,
        roles,
        nth,
    })
}

fn text_check(subj: &[Tok], obj: &[Tok]) -> Option<Check> {
    let text = plain(obj)?;
    let words: Vec<&str> = subj.iter().filter_map(word).collect();
    let quoted = subj.iter().any(|t| matches!(t, Tok::Quote(_)));
    let content: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !is_stopword(w) && !is_page_word(w))
        .collect();
    if !quoted && content.is_empty() {
        return Some(Check::PageShows(text));
    }
    if !quoted
        && content
            .iter()
            .any(|w| matches!(*w, "url" | "address" | "location"))
    {
        return Some(Check::UrlContains(String::new()));
    }
    if !quoted && content == ["title"] {
        return Some(Check::TitleContains(text));
    }
    Some(Check::ElementShows(subject(subj)?, text))
}

/// What visible text says about `phrase`: names, and values of anything but editable
/// fields (what a person typed is not what the page says). Affirmed by one element that
/// says it; Qualified (with the first such element) when every element that contains it
/// negates or qualifies it ("Not saved" for "saved").
pub fn page_mention(f: &Facts, phrase: &str) -> (Mention, Option<usize>) {
    let mut qualified = None;
    let mut buf = String::new();
    for i in 0..f.len() {
        let e = &f.els[i];
        if !e.visible || matches!(e.role, Role::Document | Role::Window) {
            continue;
        }
        // The normalized name is the cheap filter; only a match is read for negation.
        if contains_phrase(f.name(i), phrase) {
            match mention(&e.name, phrase) {
                Mention::Affirmed => return (Mention::Affirmed, Some(i)),
                Mention::Qualified => qualified = qualified.or(Some(i)),
                Mention::Absent => {}
            }
        }
        if let Some(v) = &e.value {
            if !matches!(
                e.role,
                Role::TextField | Role::PasswordField | Role::SpinButton
            ) {
                let v = v.as_text();
                buf.clear();
                super::text::normalize_into(&v, &mut buf);
                if contains_phrase(&buf, phrase) {
                    match mention(&v, phrase) {
                        Mention::Affirmed => return (Mention::Affirmed, Some(i)),
                        Mention::Qualified => qualified = qualified.or(Some(i)),
                        Mention::Absent => {}
                    }
                }
            }
        }
    }
    match qualified {
        Some(i) => (Mention::Qualified, Some(i)),
        None => (Mention::Absent, None),
    }
}

/// Whether the page says `phrase` (not merely mentions it); if not, why.
fn page_says(f: &Facts, phrase: &str) -> Result<(), String> {
    match page_mention(f, phrase) {
        (Mention::Affirmed, _) => Ok(()),
        (Mention::Qualified, Some(i)) => Err(only_qualified(f, i, phrase)),
        _ => Err(format!("no visible text contains {phrase:?}")),
    }
}

fn only_qualified(f: &Facts, i: usize, phrase: &str) -> String {
    format!(
        "{phrase:?} shows only negated or qualified, as in {}",
        describe(f, i)
    )
}

/// Whether the criterion holds; if not, why.
pub fn holds(f: &Facts, h: &[ActionRecord], c: &Criterion) -> Result<(), String> {
    match &c.check {
        Check::PageShows(p) => page_says(f, p),
        // Absence is strict the other way: a negated mention is still on the page.
        Check::PageLacks(p) => (page_mention(f, p).0 == Mention::Absent)
            .then_some(())
            .ok_or_else(|| format!("the page still shows {p:?}")),
        Check::Present(s) => present(f, s),
        Check::ElementShows(s, p) => {
            let i = match field_subject(f, s) {
                Some(i) => i,
                None => subject_element(f, s, |_| true)?,
            };
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
                Ok(())
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
            fits.then_some(()).ok_or_else(|| {
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
                None => Ok(()),
                Some(i) => Err(format!("{} is still open", describe(f, i))),
            }
        }
        Check::ElementState(s, State::Focused, true) => focused(f, h, s),
        Check::ElementState(s, state, want) => {
            let i = subject_element(f, s, |e| match state {
                State::Checked => checkable(&e.role) || e.selected.is_some(),
                State::Expanded => e.expanded.is_some(),
                State::Enabled | State::Focused => true,
            })?;
            let e = &f.els[i];
            let have = match state {
                State::Checked => e.selected.unwrap_or(false),
                State::Expanded => e.expanded.unwrap_or(false),
                State::Enabled => e.enabled,
                State::Focused => e.focused,
            };
            (have == *want)
                .then_some(())
                .ok_or_else(|| format!("{} is {}", describe(f, i), state_name(*state, have)))
        }
        Check::UrlContains(u) => {
            let url = f.url().unwrap_or_default().to_lowercase();
            url.contains(u.as_str())
                .then_some(())
                .ok_or_else(|| format!("the URL {url:?} does not contain {u:?}"))
        }
        Check::TitleContains(t) => (mention(f.snapshot.title(), t) == Mention::Affirmed)
            .then_some(())
            .ok_or_else(|| format!("the title {:?} does not contain {t:?}", f.snapshot.title())),
        Check::Group(g, kind, want) => super::group::holds(f, g, *kind, *want),
        Check::Clicked(s) => clicked(h, s).or_else(|why| committed_as(f, h, s).ok_or(why)),
        Check::ClickedIn(s, word) => {
            let threshold = if s.quoted {
                QUOTED_THRESHOLD
            } else {
                THRESHOLD
            };
            let named = |n: &str| s.query.score(&normalize_name(n)) >= threshold;
            super::item::clicked_in(f, h, named, word)
        }
        Check::MenuPath(path) => super::menu::walked(h, path),
        Check::Submitted => {
            let since = history::last_edit(h);
            let committed = h.iter().enumerate().any(|(k, r)| {
                since.is_none_or(|e| k > e) && history::tag(r) == Some(StepKind::Commit.as_str())
            });
            committed
                .then_some(())
                .ok_or_else(|| "nothing submitted since the last edit".to_owned())
        }
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
        _ => None,
    }
}

fn clicked(h: &[ActionRecord], s: &Subject) -> Result<(), String> {
    let threshold = if s.quoted {
        QUOTED_THRESHOLD
    } else {
        THRESHOLD
    };
    // "The button has been clicked": named by its role alone, which grounded the click.
    let any = s.query.is_empty() && s.nth.is_none();
    let hit = h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && (any
                || r.target_name
                    .as_deref()
                    .is_some_and(|n| s.query.score(&normalize_name(n)) >= threshold))
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

/// "\"login\" has been clicked" where no control says "login": the goal's word for its
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

/// A subject that closes by going away: a dialog named by its role alone.
fn closes(s: &Subject) -> bool {
    s.query.is_empty() && s.nth.is_none() && s.roles.contains(&Role::Dialog)
}

fn state_name(state: State, on: bool) -> &'static str {
    match (state, on) {
        (State::Checked, true) => "checked",
        (State::Checked, false) => "not checked",
        (State::Expanded, true) => "expanded",
        (State::Expanded, false) => "collapsed",
        (State::Enabled, true) => "enabled",
        (State::Enabled, false) => "disabled",
        (State::Focused, true) => "focused",
        (State::Focused, false) => "not focused",
    }
}

fn present(f: &Facts, s: &Subject) -> Result<(), String> {
    if s.roles.is_empty() && !s.query.is_empty() {
        match page_mention(f, &s.query.norm) {
            (Mention::Affirmed, _) => return Ok(()),
            (Mention::Qualified, Some(i)) => return Err(only_qualified(f, i, &s.query.norm)),
            _ => {}
        }
    }
    // An element "is visible" when a person could see it: on screen.
    let i = subject_element(f, s, |_| true)?;
    // A loose grounding must not take "Order not confirmed" for "order confirmed".
    if negates_beyond(&f.els[i].name, &s.query.norm) {
        return Err(only_qualified(f, i, &s.query.norm));
    }
    if f.snapshot.on_screen(&f.els[i]) {
        Ok(())
    } else {
        Err(format!("{} is off-screen", describe(f, i)))
    }
}

/// The one element the subject names; a tie is as good as nothing (no guessing).
pub fn subject_element(
    f: &Facts,
    s: &Subject,
    admit: impl Fn(&arc_core::Element) -> bool,
) -> Result<usize, String> {
    let threshold = if s.quoted {
        QUOTED_THRESHOLD
    } else {
        THRESHOLD
    };
    let queries = std::slice::from_ref(&s.query);
    let eligible = |i: usize| {
        let e = &f.els[i];
        e.visible && e.role != Role::Document && admit(e)
    };
    let grounded = match s.nth {
        Some(nth) => ground_role(f, &s.roles, Some(nth), eligible),
        None => ground(f, queries, &s.roles, threshold, eligible),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criteria_are_read_into_checks() {
        let c = |t: &str| parse(t).check;
        assert_eq!(
            c("The page shows \"Thank you, Ada\""),
            Check::PageShows("thank you ada".into())
        );
        assert_eq!(
            c("The page shows Selected country: Germany"),
            Check::PageShows("selected country germany".into())
        );
        assert!(matches!(
            c("The Email field contains ada@example.com"),
            Check::ElementShows(..)
        ));
        assert!(matches!(
            c("\"I accept the terms\" is checked"),
            Check::ElementState(_, State::Checked, true)
        ));
        assert!(matches!(
            c("The Details tab is not selected"),
            Check::ElementState(_, State::Checked, false)
        ));
        assert!(matches!(
            c("\"Order confirmed\" appears"),
            Check::Present(_)
        ));
        assert!(matches!(
            c("The URL contains /form.html"),
            Check::UrlContains(_)
        ));
        assert!(matches!(
            c("The text field starts with \"Sa\" and ends with \"ino\""),
            Check::Affix(_, p, Some(x)) if p == "Sa" && x == "ino"
        ));
        assert!(matches!(
            c("The city field starts with \"Ber\""),
            Check::Affix(_, p, None) if p == "Ber"
        ));
        assert_eq!(c("Everything went well"), Check::Unreadable);
    }
}
