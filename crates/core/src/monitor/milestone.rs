//! The heuristic milestone monitor (seed §4.5): five local signals of forward progress.
//! Error invariant: a step that ended in an exception, timeout or any other failure
//! never counts as a milestone.

use super::signal::StepSignal;
use crate::action::ActionKind;
use crate::check::Criterion;
use crate::element::Element;
use crate::role::Role;
use crate::scalar::Scalar;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;

wire_enum! {
    /// The five progress signals, in the seed's order.
    pub enum MilestoneSignal {
        /// The action's own expected effect on its target was observed (a typed value
        /// landed, a checkbox toggled, a combo box opened, a navigation moved the URL).
        DeclaredStateChange => "DECLARED_STATE_CHANGE",
        /// The URL now contains a goal URL it did not before.
        TargetUrlReached => "TARGET_URL_REACHED",
        /// A goal text is visible for the first time.
        TextAppeared => "TEXT_APPEARED",
        /// A submit-like click (or Enter) advanced the state without an error showing.
        FormSubmitted => "FORM_SUBMITTED",
        /// The state changed and no error indicator appeared.
        StateAdvanced => "STATE_ADVANCED",
    }
}

impl MilestoneSignal {
    /// Evidence weight; the score is a noisy-OR of the signals found.
    pub fn weight(self) -> f64 {
        match self {
            MilestoneSignal::DeclaredStateChange => 0.5,
            MilestoneSignal::TargetUrlReached => 0.9,
            MilestoneSignal::TextAppeared => 0.9,
            MilestoneSignal::FormSubmitted => 0.7,
            MilestoneSignal::StateAdvanced => 0.3,
        }
    }

    /// Signals about the goal rather than about the step's own mechanics. Only these
    /// may override a stuck tick: an A-B-A-B loop "advances" the state on every step.
    pub fn is_goal_progress(self) -> bool {
        matches!(
            self,
            MilestoneSignal::TargetUrlReached
                | MilestoneSignal::TextAppeared
                | MilestoneSignal::FormSubmitted
        )
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MilestoneReport {
    pub progressed: bool,
    /// Signals found, in [`MilestoneSignal::ALL`] order.
    pub signals: Vec<MilestoneSignal>,
    /// Noisy-OR of the signals' weights, 0..=1.
    pub score: f64,
}

impl MilestoneReport {
    pub fn none() -> Self {
        MilestoneReport {
            progressed: false,
            signals: Vec::new(),
            score: 0.0,
        }
    }

    pub fn has(&self, signal: MilestoneSignal) -> bool {
        self.signals.contains(&signal)
    }

    pub fn goal_progress(&self) -> bool {
        self.signals.iter().any(|s| s.is_goal_progress())
    }
}

/// What counts as reaching the goal: URLs and texts (at most 64 of each are tracked).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MilestoneGoals {
    pub urls: Vec<String>,
    pub texts: Vec<String>,
}

impl MilestoneGoals {
    /// Quoted strings in the verification criteria: URLs (`http…`, `/path`) and texts.
    pub fn from_subtask(subtask: &Subtask) -> Self {
        let mut goals = MilestoneGoals::default();
        let stated = subtask.verification.iter().flat_map(|c| match c {
            Criterion::Text(t) => quoted(t).into_iter().map(str::to_owned).collect(),
            Criterion::Check(c) => c.literals(),
        });
        for quoted in stated {
            let q = quoted.trim();
            if q.is_empty() {
                continue;
            }
            if q.starts_with("http://") || q.starts_with("https://") || q.starts_with('/') {
                goals.urls.push(q.to_owned());
            } else {
                goals.texts.push(q.to_owned());
            }
        }
        goals
    }
}

/// Text between straight or curly double quotes.
fn quoted(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(['"', '\u{201C}']) {
        let open = rest[start..].chars().next().map_or(1, char::len_utf8);
        let body = &rest[start + open..];
        let Some(end) = body.find(['"', '\u{201D}']) else {
            break;
        };
        out.push(&body[..end]);
        let close = body[end..].chars().next().map_or(1, char::len_utf8);
        rest = &body[end + close..];
    }
    out
}

#[derive(Clone, Debug, Default)]
pub struct MilestoneMonitor {
    goals: MilestoneGoals,
    /// Bit i: goal text i has been visible (so it cannot "appear" again).
    texts_seen: u64,
    /// Bit i: goal URL i has been reached.
    urls_seen: u64,
    primed: bool,
}

impl MilestoneMonitor {
    pub fn new(mut goals: MilestoneGoals) -> Self {
        goals.texts.truncate(64);
        goals.urls.truncate(64);
        MilestoneMonitor {
            goals,
            ..MilestoneMonitor::default()
        }
    }

    /// Records what the initial state already shows, so it never counts as progress.
    pub fn prime(&mut self, initial: &Snapshot) {
        self.texts_seen |= self.texts_present(initial);
        self.urls_seen |= self.urls_present(initial);
        self.primed = true;
    }

    pub fn observe(
        &mut self,
        step: &StepSignal,
        before: Option<&Snapshot>,
        after: Option<&Snapshot>,
    ) -> MilestoneReport {
        if !self.primed {
            if let Some(b) = before {
                self.prime(b);
            }
            self.primed = true;
        }
        // What is visible now is tracked even on an errored step, so a later clean step
        // cannot claim credit for it.
        let (new_texts, new_urls) = match after {
            Some(a) if step.state_changed || step.url_changed => {
                let t = self.texts_present(a) & !self.texts_seen;
                let u = self.urls_present(a) & !self.urls_seen;
                self.texts_seen |= t;
                self.urls_seen |= u;
                (t, u)
            }
            _ => (0, 0),
        };
        if step.is_errored() {
            return MilestoneReport::none();
        }
        let error_shown = after.is_some_and(|a| error_indicator_appeared(before, a));
        let clean_change = (step.state_changed || step.url_changed) && !error_shown;
        let mut signals = Vec::new();
        if let (Some(b), Some(a)) = (before, after) {
            if declared_change(step, b, a) {
                signals.push(MilestoneSignal::DeclaredStateChange);
            }
        }
        if new_urls != 0 {
            signals.push(MilestoneSignal::TargetUrlReached);
        }
        if new_texts != 0 {
            signals.push(MilestoneSignal::TextAppeared);
        }
        if clean_change && submit_like(step) {
            signals.push(MilestoneSignal::FormSubmitted);
        }
        if clean_change {
            signals.push(MilestoneSignal::StateAdvanced);
        }
        let score = 1.0 - signals.iter().map(|s| 1.0 - s.weight()).product::<f64>();
        MilestoneReport {
            progressed: !signals.is_empty(),
            signals,
            score,
        }
    }

    fn texts_present(&self, s: &Snapshot) -> u64 {
        if self.goals.texts.is_empty() {
            return 0;
        }
        let mut found = 0u64;
        for e in s.elements.iter().filter(|e| e.visible) {
            for (i, text) in self.goals.texts.iter().enumerate() {
                if found & (1 << i) == 0 && element_shows(e, text) {
                    found |= 1 << i;
                }
            }
        }
        found
    }

    fn urls_present(&self, s: &Snapshot) -> u64 {
        let Some(url) = s.url() else {
            return 0;
        };
        self.goals
            .urls
            .iter()
            .enumerate()
            .filter(|(_, goal)| url.contains(goal.as_str()))
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }
}

fn element_shows(e: &Element, text: &str) -> bool {
    contains_ignore_ascii_case(&e.name, text)
        || matches!(&e.value, Some(Scalar::Text(v)) if contains_ignore_ascii_case(v, text))
}

fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// The effect the action's kind promises on its own target.
fn declared_change(step: &StepSignal, before: &Snapshot, after: &Snapshot) -> bool {
    let Some(kind) = step.kind else {
        return false;
    };
    if kind == ActionKind::Navigate {
        return step.url_changed;
    }
    let Some(target) = &step.target else {
        return false;
    };
    let (Some(b), Some(a)) = (
        before.element(target.as_str()),
        after.element(target.as_str()),
    ) else {
        return false;
    };
    match kind {
        ActionKind::TypeText | ActionKind::SetValue | ActionKind::SelectOption => {
            a.value != b.value
        }
        ActionKind::Click | ActionKind::DoubleClick => {
            (b.selected.is_some() && a.selected != b.selected)
                || (b.expanded.is_some() && a.expanded != b.expanded)
        }
        _ => false,
    }
}

/// An alert that was not there before (the form said no).
fn error_indicator_appeared(before: Option<&Snapshot>, after: &Snapshot) -> bool {
    let is_alert = |e: &&Element| e.role == Role::Alert && e.visible && !e.name.is_empty();
    after.elements.iter().filter(is_alert).any(|a| {
        before.is_none_or(|b| {
            !b.elements
                .iter()
                .filter(is_alert)
                .any(|x| x.id == a.id && x.name == a.name)
        })
    })
}

const SUBMIT_WORDS: &[&str] = &[
    "submit",
    "send",
    "save",
    "continue",
    "confirm",
    "next",
    "finish",
    "done",
    "apply",
    "register",
    "login",
    "signin",
    "signup",
    "search",
    "checkout",
    "create",
    "ok",
    "proceed",
    "pay",
    "order",
    "subscribe",
    "sign",
    "log",
];

/// A click on something named like a submit or confirmation control.
fn submit_like(step: &StepSignal) -> bool {
    step.kind == Some(ActionKind::Click)
        && step.target_name.as_deref().is_some_and(|name| {
            name.split(|c: char| !c.is_alphanumeric())
                .any(|w| SUBMIT_WORDS.iter().any(|s| w.eq_ignore_ascii_case(s)))
        })
}
