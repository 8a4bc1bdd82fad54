//! One step per input: ground the key to a field (or, failing that, the literal to a
//! choice), then say whether the field already holds the literal or which action puts
//! it there. A secret literal is compared, never written into a reason.

use super::dropdown;
use super::facts::{Facts, Only};
use super::ground::{
    checkable, clickable, conclude, field_by_whole, field_score, ground_role, is_choice,
    is_choice_container, is_field, role_phrase, Grounding, Ranking, THRESHOLD, TIE,
};
use super::history;
use super::label::adjacent_label;
use super::reference;
use super::rows::{self, Row};
use super::search_box;
use super::slider;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{calendar_date, identifier_words, normalize, same_date, same_time, Query};
use super::vocab::truthy;
use arc_core::{Action, ActionKind, ActionRecord, Role, Scalar};

/// One input of the subtask.
pub struct Input<'a> {
    pub key: &'a str,
    pub literal: &'a Scalar,
    pub secret: bool,
    /// The subtask's goal: its words may name which of several like fields is meant
    /// ("the count for item 45", `rows`).
    pub goal: &'a str,
}

impl Input<'_> {
    fn text(&self) -> String {
        self.literal.as_text().into_owned()
    }

    /// A URL meant for NAVIGATE rather than for a field.
    pub fn is_url(&self) -> bool {
        let t = self.literal.as_text();
        t.starts_with("http://") || t.starts_with("https://")
    }
}

pub fn status(f: &Facts, h: &[ActionRecord], input: &Input) -> Status {
    let key = Query::from_norm(identifier_words(input.key));
    let mut r = Ranking::default();
    for i in 0..f.len() {
        if is_field(f, i) {
            r.push(i, field_score(f, i, &key));
        } else if dropdown::is_trigger(f, i) {
            r.push(i, dropdown::score(f, i, &key));
        } else if f.els[i].visible && is_choice_container(&f.els[i].role) {
            // Just below a real field of the same name (a fieldset around its control);
            // a container counts only when it holds choices.
            let s = 0.97 * key.score(f.name(i));
            if s >= THRESHOLD && f.descendants(i).any(|j| is_choice(f, j)) {
                r.push(i, s);
            }
        }
    }
    match conclude(&r, THRESHOLD) {
        Grounding::Found { idx, score, margin } => field_step(f, h, input, idx, score, margin),
        Grounding::Tie { a, b, .. } if f.is_descendant(a, b) => {
            field_step(f, h, input, a, r.best_score(), 0.0)
        }
        Grounding::Tie { a, b, .. } if f.is_descendant(b, a) => {
            field_step(f, h, input, b, r.best_score(), 0.0)
        }
        // A combobox and its open popup share a name: the popup, if it lists the literal.
        Grounding::Tie { a, b, .. } if popup_pair(f, a, b) => {
            let (field, popup) = if is_field(f, a) { (a, b) } else { (b, a) };
            let pick = if offers_choice(f, popup, input) {
                popup
            } else {
                field
            };
            field_step(f, h, input, pick, r.best_score(), 0.0)
        }
        Grounding::Tie { a, b, .. } => {
            let tie = || {
                Status::Stop(Outcome::NeedsAgent(format!(
                    "two fields match input {:?} equally: {}, {}",
                    input.key,
                    describe(f, a),
                    describe(f, b)
                )))
            };
            // Like fields of a list's rows: the goal's words may name the row.
            let best = r.best_score();
            let rows: Vec<usize> = (0..f.len())
                .filter(|&i| is_field(f, i) && field_score(f, i, &key) > best - TIE)
                .collect();
            let labels: Vec<String> = rows.iter().map(|&i| field_label(f, i)).collect();
            match rows::pick(input.goal, &rows, &labels) {
                Row::One(i) => field_step(f, h, input, i, best, 0.5 * best),
                Row::Beyond(word) => {
                    rows::seek(f, h, input.key, &word, &labels).unwrap_or_else(tie)
                }
                Row::Unnamed => tie(),
            }
        }
        Grounding::Missing { .. } => match field_by_whole(f, &key).or_else(|| login_field(f, &key))
        {
            Some(i) => field_step(f, h, input, i, THRESHOLD, 0.5 * THRESHOLD),
            None => by_role(f, h, input, &key),
        },
    }
}

/// An account's identifier ("username", "login", "user id") with no field named for it:
/// the one text box right before the page's one password field, with no field between — a
/// sign-in form's own order, which password managers read the same way (a tracker's
/// sidebar login names its boxes only in the markup: `__login_name`).
fn login_field(f: &Facts, key: &Query) -> Option<usize> {
    let names_account = key
        .norm
        .split(' ')
        .any(|w| matches!(w, "username" | "user" | "login" | "userid" | "account"));
    if !names_account {
        return None;
    }
    let password = f
        .only(|i| f.els[i].visible && f.els[i].role == Role::PasswordField)
        .one()?;
    let before = (0..password).rev().find(|&i| is_field(f, i))?;
    (f.els[before].role == Role::TextField && f.els[before].enabled).then_some(before)
}

/// The text a field is known by: its name, else the label beside it.
fn field_label(f: &Facts, i: usize) -> String {
    match (f.name(i), adjacent_label(f, i)) {
        ("", Some(l)) => f.name(l).to_owned(),
        (name, _) => name.to_owned(),
    }
}

/// No field is named like the key, but the key names a role ("text_field",
/// "2nd_textbox", "list"): the one field of that role, or the ordinal's.
fn by_role(f: &Facts, h: &[ActionRecord], input: &Input, key: &Query) -> Status {
    let Some((roles, nth)) = role_phrase(&key.norm) else {
        return literal_choice(f, h, input);
    };
    match ground_role(f, &roles, nth, |i| is_field(f, i)) {
        Grounding::Found { idx, score, margin } => field_step(f, h, input, idx, score, margin),
        Grounding::Tie { a, b, .. } => Status::Stop(Outcome::NeedsAgent(format!(
            "input {:?} names a field by its kind only, and several match: {}, {}",
            input.key,
            describe(f, a),
            describe(f, b)
        ))),
        Grounding::Missing { .. } => literal_choice(f, h, input),
    }
}

/// One field and one choice container (a combobox and its listbox).
fn popup_pair(f: &Facts, a: usize, b: usize) -> bool {
    is_field(f, a) != is_field(f, b)
}

/// Whether container `i` lists a choice named like the literal.
fn offers_choice(f: &Facts, i: usize, input: &Input) -> bool {
    let want = compact(&input.text());
    f.descendants(i)
        .any(|j| is_choice(f, j) && compact(&f.els[j].name) == want)
}

/// `e4 "Email"`.
pub fn describe(f: &Facts, i: usize) -> String {
    format!("{} {:?}", f.els[i].id, f.els[i].name)
}

/// No field is named like the key: a radio, option or tab named like the literal.
fn literal_choice(f: &Facts, h: &[ActionRecord], input: &Input) -> Status {
    let absent = Status::Absent(format!("no field matches input {:?}", input.key));
    if input.secret || input.is_url() {
        return absent;
    }
    let lit = Query::new(&input.text());
    let mut r = Ranking::default();
    for i in 0..f.len() {
        if clickable(f, i) && checkable(&f.els[i].role) && f.els[i].role != Role::CheckBox {
            r.push(i, lit.score(f.name(i)));
        }
    }
    match conclude(&r, 0.9) {
        Grounding::Found { idx, score, margin } => {
            choose(f, idx, score, margin, format!("input {:?}", input.key))
        }
        Grounding::Tie { a, b, .. } => Status::Stop(Outcome::NeedsAgent(format!(
            "two choices match input {:?} equally: {}, {}",
            input.key,
            describe(f, a),
            describe(f, b)
        ))),
        Grounding::Missing { .. } => native_option(f, input)
            .or_else(|| lookup(f, h, input))
            .or_else(|| free_text(f, h, input))
            .or_else(|| super::stepper::step(f, h, input))
            .or_else(|| reference::shown(f, input.key, &input.text()).then_some(Status::Done))
            .unwrap_or(absent),
    }
}

/// No field or choice is named like the key, and the goal or the key asks to look
/// something up: the page's one search field takes the literal.
fn lookup(f: &Facts, h: &[ActionRecord], input: &Input) -> Option<Status> {
    if !(search_box::asks(input.key) || search_box::asks(input.goal)) {
        return None;
    }
    let i = search_box::lone(f)?;
    Some(field_step(f, h, input, i, THRESHOLD, 0.5 * THRESHOLD))
}

/// No field or choice is named like the key, and the literal is prose (words, not one
/// token): the page's one multi-line text box takes it — a comment or a message goes
/// where the page takes free text, whatever its label asks ("Anything else to tell
/// us?"). Not a box that holds other text, nor one another input was typed into: two
/// inputs never share a field.
fn free_text(f: &Facts, h: &[ActionRecord], input: &Input) -> Option<Status> {
    if !input.text().trim().contains(char::is_whitespace) {
        return None;
    }
    let Only::One(i) =
        f.only(|i| is_field(f, i) && f.els[i].facts.multiline && f.offers(i, ActionKind::TypeText))
    else {
        return None;
    };
    let id = &f.els[i].id;
    let others = h.iter().any(|r| {
        r.action.target() == Some(id) && r.action.action.input_key().is_some_and(|k| k != input.key)
    });
    let value = f.els[i]
        .value
        .as_ref()
        .map(|v| v.as_text())
        .unwrap_or_default();
    let free = value.trim().is_empty() || value.trim() == input.text().trim();
    (free && !others).then(|| field_step(f, h, input, i, THRESHOLD, 0.5 * THRESHOLD))
}

/// An option of a native select named exactly like the literal ("Brazil" in a
/// multi-select list): SELECT_OPTION on its select, which adds it to a multiple
/// selection rather than replacing it.
fn native_option(f: &Facts, input: &Input) -> Option<Status> {
    let want = compact(&input.text());
    let option = match f
        .only(|i| f.els[i].visible && f.in_native_select(i) && compact(&f.els[i].name) == want)
    {
        Only::None => return None,
        Only::One(i) => i,
        Only::Two(..) => {
            return Some(Status::Stop(Outcome::NeedsAgent(format!(
                "two list options match input {:?}",
                input.key
            ))))
        }
    };
    if f.els[option].selected == Some(true) {
        return Some(Status::Done);
    }
    let select = f.native_select_of(option)?;
    Some(Status::Pending(Act {
        action: Action::SelectOption {
            target: f.els[select].id.clone(),
            input_key: input.key.to_owned(),
        },
        kind: StepKind::Fill,
        confidence: 0.9,
        margin: 0.9,
        why: format!(
            "input {:?} → option {} of {}",
            input.key,
            describe(f, option),
            describe(f, select)
        ),
        order: option,
    }))
}

/// Click choice `i` unless it is already selected.
fn choose(f: &Facts, i: usize, confidence: f64, margin: f64, why: String) -> Status {
    let e = &f.els[i];
    if e.selected == Some(true) {
        return Status::Done;
    }
    Status::Pending(Act {
        action: Action::click(e.id.clone()),
        kind: StepKind::Choose,
        confidence,
        margin,
        why: format!("{why} → {}", describe(f, i)),
        order: i,
    })
}

/// The step that puts `input` into field `idx` (done when it holds it already).
pub fn fill(
    f: &Facts,
    h: &[ActionRecord],
    input: &Input,
    idx: usize,
    confidence: f64,
    margin: f64,
) -> Status {
    field_step(f, h, input, idx, confidence, margin)
}

fn field_step(
    f: &Facts,
    h: &[ActionRecord],
    input: &Input,
    idx: usize,
    confidence: f64,
    margin: f64,
) -> Status {
    let e = &f.els[idx];
    let why = format!("input {:?} → {}", input.key, describe(f, idx));
    let act = |action: Action, kind: StepKind| {
        Status::Pending(Act {
            action,
            kind,
            confidence,
            margin,
            why: why.clone(),
            order: idx,
        })
    };
    if slider::is_keyed(f, idx) {
        return slider::step(f, h, input, idx, confidence, margin);
    }
    let target = e.id.clone();
    if matches!(e.role, Role::CheckBox | Role::Switch | Role::Radio) {
        let Some(want) = as_bool(input.literal) else {
            return Status::Stop(Outcome::NeedsAgent(format!(
                "input {:?} grounds to {} but is not true/false",
                input.key,
                describe(f, idx)
            )));
        };
        if e.selected.unwrap_or(false) == want {
            return Status::Done;
        }
        return act(Action::click(target), StepKind::Toggle);
    }
    if f.is_native_select(idx) {
        return select_step(f, input, idx, act);
    }
    let types = e.actions.contains(ActionKind::TypeText);
    if types || e.actions.contains(ActionKind::SetValue) {
        if holds_text(f, h, input, idx) {
            return Status::Done;
        }
        let input_key = input.key.to_owned();
        return if types {
            act(Action::type_text(target, input_key), StepKind::Fill)
        } else {
            act(Action::SetValue { target, input_key }, StepKind::Fill)
        };
    }
    choice_step(f, h, input, idx, confidence, margin, why)
}

fn as_bool(s: &Scalar) -> Option<bool> {
    match s {
        Scalar::Bool(b) => Some(*b),
        Scalar::Int(i) if *i == 0 || *i == 1 => Some(*i == 1),
        Scalar::Text(t) => truthy(t),
        _ => None,
    }
}

fn compact(s: &str) -> String {
    normalize(s).replace(' ', "")
}

/// The field shows the literal: exactly, or — after we typed it — as the UI reformatted
/// it, or the same calendar date in another written form. A password field cannot be read back; having typed into it is all there is.
fn holds_text(f: &Facts, h: &[ActionRecord], input: &Input, idx: usize) -> bool {
    let e = &f.els[idx];
    let typed = h.iter().any(|r| {
        r.action.action.input_key() == Some(input.key)
            && r.action.target().is_some_and(|t| *t == e.id)
    });
    if e.role == Role::PasswordField {
        return typed;
    }
    let want = input.literal.as_text();
    let have = e.value.as_ref().map(|v| v.as_text()).unwrap_or_default();
    if e.facts.input_type == Some(arc_core::InputType::File) {
        // A file input shows the chosen file's name, never its path.
        let name = want.rsplit('/').next().unwrap_or_default();
        return !name.is_empty() && have.split(", ").any(|held| held == name);
    }
    // A date input holds the literal's date in its own form (10/20/2017 → 2017-10-20).
    have.trim() == want.trim()
        || (typed && compact(&have) == compact(&want))
        || same_date(&have, &want)
        || same_time(&have, &want)
}

/// A native select: SELECT_OPTION, checked against its options when they are exposed.
fn select_step(
    f: &Facts,
    input: &Input,
    idx: usize,
    act: impl Fn(Action, StepKind) -> Status,
) -> Status {
    let e = &f.els[idx];
    let want = compact(&input.text());
    let options: Vec<usize> = f
        .descendants(idx)
        .filter(|&j| f.els[j].role == Role::Option)
        .collect();
    let matching = options
        .iter()
        .copied()
        .find(|&j| compact(&f.els[j].name) == want);
    let value = e.value.as_ref().map(|v| compact(&v.as_text()));
    if value.as_deref() == Some(want.as_str())
        || matching.is_some_and(|j| f.els[j].selected == Some(true))
    {
        return Status::Done;
    }
    if matching.is_none() && !options.is_empty() {
        if reference::shown(f, input.key, &input.text()) {
            return Status::Done;
        }
        let names: Vec<&str> = options.iter().map(|&j| f.els[j].name.as_str()).collect();
        return Status::Stop(Outcome::NeedsAgent(format!(
            "{} has no option matching input {:?} (options: {})",
            describe(f, idx),
            input.key,
            names.join(", ")
        )));
    }
    act(
        Action::SelectOption {
            target: e.id.clone(),
            input_key: input.key.to_owned(),
        },
        StepKind::Fill,
    )
}

/// A custom combobox, listbox or radio group: click the choice named like the literal,
/// opening the combobox first when its choices are not shown.
fn choice_step(
    f: &Facts,
    h: &[ActionRecord],
    input: &Input,
    idx: usize,
    confidence: f64,
    margin: f64,
    why: String,
) -> Status {
    let e = &f.els[idx];
    let want = compact(&input.text());
    if e.value
        .as_ref()
        .is_some_and(|v| compact(&v.as_text()) == want || same_date(&v.as_text(), &input.text()))
    {
        return Status::Done;
    }
    let trigger = dropdown::is_trigger(f, idx);
    if trigger && dropdown::shows(f, idx, &input.text()) {
        return Status::Done;
    }
    // A field filled from a date picker (read-only, a calendar pops up): the day in the
    // calendar showing the literal's month, once it is open.
    let date = calendar_date(&input.text());
    if let Some(j) = date.and_then(|d| calendar_day(f, d)) {
        return choose(f, j, confidence, margin, why);
    }
    // A calendar open on another month: turn it toward the date's month.
    if let Some(turn) = date.and_then(|d| super::month::turn(f, h, d, confidence, &why)) {
        return turn;
    }
    let named = |j: usize| clickable(f, j) && is_choice(f, j) && compact(&f.els[j].name) == want;
    // Inside the container, or (a combobox's popup) anywhere after it.
    let found = f.descendants(idx).find(|&j| named(j)).or_else(|| {
        (e.role == Role::ComboBox || trigger)
            .then(|| (idx + 1..f.len()).find(|&j| named(j)))
            .flatten()
    });
    // A custom dropdown's list may hold plain clickable items, not options.
    let found = found.or_else(|| {
        trigger
            .then(|| dropdown::choice(f, idx, &want, compact))
            .flatten()
    });
    // A choice named by the literal and its unit ("4 people" for 4): the one whose name
    // opens with the literal's words.
    let found = found.or_else(|| {
        let lead = format!("{} ", normalize(&input.text()));
        let led: Vec<usize> = f
            .descendants(idx)
            .filter(|&j| clickable(f, j) && is_choice(f, j) && f.name(j).starts_with(&lead))
            .take(2)
            .collect();
        match led[..] {
            [j] => Some(j),
            _ => None,
        }
    });
    if let Some(j) = found {
        return choose(f, j, confidence, margin, why);
    }
    let opens =
        e.role == Role::ComboBox || trigger || (e.role == Role::TextField && date.is_some());
    if opens && f.offers(idx, ActionKind::Click) && e.expanded != Some(true) {
        return Status::Pending(Act {
            action: Action::click(e.id.clone()),
            kind: StepKind::Expand,
            confidence,
            margin,
            why,
            order: idx,
        });
    }
    // A key that names a kind of item ("issue") can match a filter over those items; a
    // literal no choice offers but the page shows as an item names that item instead.
    if reference::shown(f, input.key, &input.text()) {
        return Status::Done;
    }
    Status::Stop(Outcome::NeedsAgent(format!(
        "{} shows no choice matching input {:?}",
        describe(f, idx),
        input.key
    )))
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// In a shown calendar, the one clickable day of date `(y, m, d)`: named by the day's
/// number, under a container (at most a few levels up, below the document) whose first
/// month name — in it, else in its nearest preceding siblings — is the date's month and
/// which names its year (a day cell and its link
/// count once: the inner one). None when no calendar shows that month, or two days
/// qualify.
fn calendar_day(f: &Facts, (y, m, d): (u32, u32, u32)) -> Option<usize> {
    let day = d.to_string();
    let month = MONTHS[(m - 1) as usize];
    let year = y.to_string();
    let mut found = None;
    for j in 0..f.len() {
        if !(f.els[j].visible && clickable(f, j) && f.name(j) == day) {
            continue;
        }
        let mut up = f.parent(j);
        for _ in 0..6 {
            let Some(p) = up.filter(|&p| f.els[p].role != Role::Document) else {
                break;
            };
            // The container, then its nearest preceding siblings: a calendar's month
            // caption often sits beside its grid, not in it, once layout-only wrappers
            // are left out of the snapshot (jQuery UI's header beside its table).
            let scope: Vec<usize> = std::iter::once(p)
                .chain(preceding_siblings(f, p).take(CAPTION_SIBLINGS))
                .collect();
            let words = || {
                scope
                    .iter()
                    .flat_map(|&q| std::iter::once(q).chain(f.descendants(q)))
                    .flat_map(|k| f.name(k).split(' '))
            };
            if let Some(first) = words().find(|w| MONTHS.contains(w)) {
                if first != month || !words().any(|w| w == year) {
                    break;
                }
                // A day cell and the link inside it are one day: the inner one.
                match found {
                    Some(k) if f.is_descendant(j, k) => found = Some(j),
                    Some(k) if f.is_descendant(k, j) => {}
                    Some(_) => return None,
                    None => found = Some(j),
                }
                break;
            }
            up = f.parent(p);
        }
    }
    found
}

/// How many preceding siblings of a calendar's container may carry its month caption.
const CAPTION_SIBLINGS: usize = 3;

/// The siblings before `i` in the snapshot, nearest first.
fn preceding_siblings<'a>(f: &'a Facts, i: usize) -> impl Iterator<Item = usize> + 'a {
    let parent = f.els[i].parent_id.clone();
    (0..i)
        .rev()
        .filter(move |&k| parent.is_some() && f.els[k].parent_id == parent)
}

/// An input already placed: its action ran and its field is gone (a later stage).
/// Whether the run placed the input and then committed (a commit on its target), or
/// pressed a control the goal named ("Upload the receipt": its Upload): the form was sent
/// with it, and a field the page cleared since took it.
pub fn sent_after_placing(h: &[ActionRecord], input: &Input) -> bool {
    let lit = compact(&input.text());
    let placed = h.iter().rposition(|r| {
        r.action.action.input_key() == Some(input.key)
            || (history::tag(r) == Some(StepKind::Choose.as_str())
                && r.target_name.as_deref().is_some_and(|n| compact(n) == lit))
    });
    placed.is_some_and(|k| {
        let field = h[k].action.target();
        history::committed_after(h, k)
            || h[k + 1..].iter().any(|r| {
                r.on_target()
                    && r.action.kind() == ActionKind::Click
                    && r.action.target() != field
                    && history::tag(r) == Some(StepKind::Click.as_str())
            })
    })
}

pub fn done_before(h: &[ActionRecord], input: &Input) -> bool {
    if history::used_input(h, input.key) || history::held_input(h, input.key) {
        return true;
    }
    // Choices are clicked, not typed: their records carry the choice's name.
    let lit = compact(&input.text());
    h.iter().any(|r| {
        history::tag(r) == Some(StepKind::Choose.as_str())
            && r.target_name.as_deref().is_some_and(|n| compact(n) == lit)
    })
}
