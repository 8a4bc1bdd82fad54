//! Grounding: which element a phrase or an input key names, with the runner-up kept so a
//! near-tie is reported rather than guessed. Words first; character-level fuzziness only
//! when no element matches by words.

use super::facts::Facts;
use super::label::adjacent_label;
use super::ordinal::Nth;
use super::text::{identifier_words, is_stopword, normalize, Query};
use super::vocab::strip_role_words;
use arc_core::{ActionKind, InputType, Role};

/// Scores below this name nothing.
pub const THRESHOLD: f64 = 0.6;
/// A quoted string names something nearly exactly.
pub const QUOTED_THRESHOLD: f64 = 0.7;
/// Best and runner-up closer than this are a tie.
pub const TIE: f64 = 0.05;

/// The best and second-best distinct candidates.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ranking {
    pub best: Option<(usize, f64)>,
    pub second: Option<(usize, f64)>,
}

impl Ranking {
    pub fn push(&mut self, i: usize, score: f64) {
        if score <= 0.0 {
            return;
        }
        match self.best {
            Some((_, b)) if score <= b => {
                if self.second.is_none_or(|(_, s)| score > s) {
                    self.second = Some((i, score));
                }
            }
            _ => {
                self.second = self.best;
                self.best = Some((i, score));
            }
        }
    }

    pub fn best_score(&self) -> f64 {
        self.best.map_or(0.0, |(_, s)| s)
    }

    pub fn runner_up(&self) -> f64 {
        self.second.map_or(0.0, |(_, s)| s)
    }
}

/// What a phrase grounded to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Grounding {
    Found {
        idx: usize,
        score: f64,
        margin: f64,
    },
    /// Two candidates scored within [`TIE`] of each other, both above the threshold.
    Tie {
        a: usize,
        b: usize,
        score: f64,
    },
    Missing {
        best: f64,
    },
}

pub fn conclude(r: &Ranking, threshold: f64) -> Grounding {
    match (r.best, r.second) {
        (Some((a, sa)), Some((b, sb))) if sa >= threshold && sb >= threshold && sa - sb < TIE => {
            Grounding::Tie { a, b, score: sa }
        }
        (Some((idx, score)), _) if score >= threshold => Grounding::Found {
            idx,
            score: score.min(1.0),
            margin: (score - r.runner_up()).clamp(0.0, 1.0),
        },
        _ => Grounding::Missing {
            best: r.best_score(),
        },
    }
}

/// Small nudges by the roles a phrase names ("the Settings *tab*").
fn role_adjust(role: &Role, roles: &[Role]) -> f64 {
    if roles.is_empty() {
        0.0
    } else if roles.contains(role) {
        0.04
    } else {
        -0.08
    }
}

/// Grounds `queries` among the elements `eligible` admits: word scores first, and
/// character-level ones only if nothing reaches the threshold by words.
pub fn ground(
    f: &Facts,
    queries: &[Query],
    roles: &[Role],
    threshold: f64,
    eligible: impl Fn(usize) -> bool,
) -> Grounding {
    let mut r = Ranking::default();
    for i in 0..f.len() {
        if !eligible(i) {
            continue;
        }
        let name = f.name(i);
        let s = queries.iter().map(|q| q.score(name)).fold(0.0, f64::max);
        if s > 0.0 {
            r.push(i, s + role_adjust(&f.els[i].role, roles));
        }
    }
    if r.best_score() < threshold {
        let mut fuzzy = Ranking::default();
        for i in 0..f.len() {
            if eligible(i) {
                let name = f.name(i);
                let s = queries.iter().map(|q| q.fuzzy(name)).fold(0.0, f64::max);
                if s > 0.0 {
                    fuzzy.push(i, s + role_adjust(&f.els[i].role, roles));
                }
            }
        }
        if fuzzy.best_score() >= threshold {
            r = fuzzy;
        }
    }
    if r.best.is_none() && queries.iter().all(Query::is_empty) && !roles.is_empty() {
        // "click the button": only the role names it; unique or nothing.
        for i in 0..f.len() {
            if eligible(i) && roles.contains(&f.els[i].role) {
                r.push(i, 0.75);
            }
        }
    }
    conclude(&r, threshold)
}

/// Score of an element a phrase names by its role alone ("the textbox"): below any
/// name match, above the threshold.
pub const ROLE_ONLY: f64 = 0.75;

/// A phrase that names only roles, maybe with an ordinal: "the textbox", "the 2nd
/// text input" → (roles, ordinal). None when any other word names something.
pub fn role_phrase(norm: &str) -> Option<(Vec<Role>, Option<Nth>)> {
    let words: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    let (rest, roles) = strip_role_words(&words);
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let (nth, rest) = Nth::split(&rest);
    (!roles.is_empty() && rest.iter().all(|w| is_stopword(w))).then_some((roles, nth))
}

/// Among the eligible elements of `roles`, in document order: the `nth`, or the only one
/// (two are a tie: no guessing which "text field" was meant).
pub fn ground_role(
    f: &Facts,
    roles: &[Role],
    nth: Option<Nth>,
    eligible: impl Fn(usize) -> bool,
) -> Grounding {
    let candidates: Vec<usize> = (0..f.len())
        .filter(|&i| roles.contains(&f.els[i].role) && eligible(i))
        .collect();
    among(&candidates, nth, ROLE_ONLY)
}

/// The candidate `nth` picks, else the only one (a tie between the first two, missing
/// when there are none), each found at `score`.
pub fn among(candidates: &[usize], nth: Option<Nth>, score: f64) -> Grounding {
    let found = |idx| Grounding::Found {
        idx,
        score,
        margin: score,
    };
    match (nth, candidates) {
        (Some(n), c) => n.pick(c).map_or(Grounding::Missing { best: 0.0 }, found),
        (None, [one]) => found(*one),
        (None, [a, b, ..]) => Grounding::Tie {
            a: *a,
            b: *b,
            score,
        },
        (None, []) => Grounding::Missing { best: 0.0 },
    }
}

/// A tie between an element and one inside it (a tab named by the button it holds):
/// the inner one, which is what a person would click.
pub fn prefer_inner(f: &Facts, g: Grounding) -> Grounding {
    match g {
        Grounding::Tie { a, b, score } if f.is_descendant(b, a) || f.is_descendant(a, b) => {
            let idx = if f.is_descendant(b, a) { b } else { a };
            Grounding::Found {
                idx,
                score,
                margin: 0.5 * score,
            }
        }
        g => g,
    }
}

/// Something a person clicks: visible, offering CLICK, not a text entry.
pub fn clickable(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    f.offers(i, ActionKind::Click)
        && !matches!(
            e.role,
            Role::TextField | Role::PasswordField | Role::SpinButton | Role::Document
        )
        && !f.in_native_select(i)
}

/// Something holding a checked/selected state a click toggles.
pub fn checkable(role: &Role) -> bool {
    matches!(
        role,
        Role::CheckBox
            | Role::Switch
            | Role::Radio
            | Role::Tab
            | Role::Option
            | Role::MenuItem
            | Role::TreeItem
    )
}

/// One of a set of choices: a checkable control, or a toggle button (a button that
/// states whether it is pressed: time slots, size chips).
pub fn is_choice(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    checkable(&e.role) || (e.role == Role::Button && e.selected.is_some())
}

/// A container of choices (radio group, listbox, tablist, menu).
pub fn is_choice_container(role: &Role) -> bool {
    match role {
        Role::Group | Role::ListBox | Role::TabList | Role::Menu | Role::MenuBar | Role::Tree => {
            true
        }
        Role::Other(r) => r.eq_ignore_ascii_case("radiogroup"),
        _ => false,
    }
}

/// A control that holds a value an input may fill.
pub fn is_field(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    e.visible
        && (e.actions.contains(ActionKind::TypeText)
            || e.actions.contains(ActionKind::SetValue)
            || e.actions.contains(ActionKind::SelectOption)
            || matches!(
                e.role,
                Role::TextField
                    | Role::PasswordField
                    | Role::SpinButton
                    | Role::ComboBox
                    | Role::Slider
                    | Role::CheckBox
                    | Role::Switch
            ))
}

/// The one text field a part-of-a-date key names by its whole (`vocab::whole_of`), when
/// no field bears the key itself.
pub fn field_by_whole(f: &Facts, key: &Query) -> Option<usize> {
    super::vocab::whole_of(&key.norm).iter().find_map(|w| {
        let whole = Query::new(w);
        let mut r = Ranking::default();
        let typed = |i: usize| is_field(f, i) && f.els[i].actions.contains(ActionKind::TypeText);
        for i in (0..f.len()).filter(|&i| typed(i)) {
            r.push(i, field_score(f, i, &whole));
        }
        match conclude(&r, THRESHOLD) {
            Grounding::Found { idx, .. } => Some(idx),
            _ => None,
        }
    })
}

/// How well input key `key` names field `i`: its accessible name, its placeholder, its
/// adjacent label when it has no name, its DOM name / id / test id, and its input type.
pub fn field_score(f: &Facts, i: usize, key: &Query) -> f64 {
    let e = &f.els[i];
    let mut s = key.score(f.name(i));
    if s >= 1.0 {
        return s;
    }
    let facts = &e.facts;
    if let Some(p) = &facts.placeholder {
        s = s.max(0.95 * key.score(&normalize(p)));
    }
    // A name that only repeats the value (Chromium names some read-only inputs so) is no
    // label: the text beside the field is.
    let echoes_value = e
        .value
        .as_ref()
        .is_some_and(|v| normalize(&v.as_text()) == f.name(i));
    if f.name(i).is_empty() || echoes_value {
        if let Some(l) = adjacent_label(f, i) {
            s = s.max(0.95 * key.score(f.name(l)));
        }
    }
    for v in facts.identifiers() {
        s = s.max(0.9 * key.score(&identifier_words(v)));
    }
    // What the field holds, by its input type (`<input type="date">` for key "date"):
    // weaker than anything the page names it by.
    if let Some(t) = facts.input_type.as_ref().filter(|t| tells_content(t)) {
        s = s.max(0.85 * key.score(&identifier_words(t.as_str())));
    }
    s
}

/// Whether an input type says what a field holds.
fn tells_content(t: &InputType) -> bool {
    use InputType::*;
    matches!(
        t,
        Email | Tel | Url | Number | Date | Time | DatetimeLocal | Month | Week | Color
    )
}
