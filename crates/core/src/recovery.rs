//! The recovery compiler (seed §5.5): a model's recovery plan is validated against the
//! current snapshot and the subtask *before any step runs*, then compiled to decisions.
//!
//! Rules, each a [`RecoveryRule`]: the plan is non-empty and at most
//! [`MAX_PLAN_STEPS`] long; every verb is on the allow-list (matched ignoring case);
//! verbs that act on or check an element name a target that exists in the snapshot (and
//! offers the operation);
//! literals come only from `Subtask.inputs` (a plan cannot carry text to type); GOTO goes
//! only to http(s), never `javascript:`, `file:` or `data:` however spelled; waits are at
//! most [`MAX_WAIT_MS`]; ESCALATE ends the plan. The first broken rule rejects the whole
//! plan, naming the step and the rule.

use crate::action::{Action, ActionKind, ScrollDirection};
use crate::decision::{Decision, TerminalKind};
use crate::element::ElementId;
use crate::key::Key;
use crate::monitor::wire_enum;
use crate::provenance::Tier;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest plan accepted.
pub const MAX_PLAN_STEPS: usize = 10;
/// The longest wait a plan may ask for.
pub const MAX_WAIT_MS: u64 = 60_000;

wire_enum! {
    /// The allow-list: the seed's 11 verbs.
    pub enum RecoveryVerb {
        Click => "CLICK",
        Type => "TYPE",
        Select => "SELECT",
        Scroll => "SCROLL",
        PressKey => "PRESS_KEY",
        Goto => "GOTO",
        Wait => "WAIT",
        AssertVisible => "ASSERT_VISIBLE",
        AssertText => "ASSERT_TEXT",
        Noop => "NOOP",
        Escalate => "ESCALATE",
    }
}

impl RecoveryVerb {
    /// Verbs that act on or check one element.
    pub fn needs_target(self) -> bool {
        matches!(
            self,
            RecoveryVerb::Click
                | RecoveryVerb::Type
                | RecoveryVerb::Select
                | RecoveryVerb::AssertVisible
                | RecoveryVerb::AssertText
        )
    }
}

/// A plan as a model answers it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryPlan {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_cause: Option<String>,
    pub steps: Vec<RecoveryStep>,
}

/// One step. `verb` stays raw text so an unknown verb is a named rejection, not a parse
/// error; everything else is typed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryStep {
    pub verb: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<ElementId>,
    /// TYPE / SELECT: the literal's key in `Subtask.inputs`; GOTO: the URL's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_key: Option<String>,
    /// GOTO: the URL, which must equal one of the subtask's input literals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<Key>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<ScrollDirection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_ms: Option<u64>,
    /// ASSERT_TEXT: the text expected on the target (checked, never typed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl RecoveryStep {
    pub fn new(verb: impl Into<String>) -> Self {
        RecoveryStep {
            verb: verb.into(),
            ..RecoveryStep::default()
        }
    }

    pub fn target(mut self, id: &str) -> Self {
        self.target = Some(id.into());
        self
    }
}

impl RecoveryPlan {
    pub fn new(steps: Vec<RecoveryStep>) -> Self {
        RecoveryPlan {
            steps,
            ..RecoveryPlan::default()
        }
    }

    /// Parses a plan; unknown fields and ill-typed values are rejected here.
    pub fn from_json(text: &str) -> Result<RecoveryPlan, RecoveryError> {
        serde_json::from_str(text)
            .map_err(|e| RecoveryError::plan(RecoveryRule::InvalidPayload, e.to_string()))
    }
}

wire_enum! {
    /// The rule a rejected plan broke.
    pub enum RecoveryRule {
        InvalidPayload => "INVALID_PAYLOAD",
        EmptyPlan => "EMPTY_PLAN",
        PlanTooLong => "PLAN_TOO_LONG",
        UnknownVerb => "UNKNOWN_VERB",
        MissingTarget => "MISSING_TARGET",
        TargetNotInSnapshot => "TARGET_NOT_IN_SNAPSHOT",
        TargetDoesNotOffer => "TARGET_DOES_NOT_OFFER",
        MissingField => "MISSING_FIELD",
        FieldNotAllowed => "FIELD_NOT_ALLOWED",
        UnknownInputKey => "UNKNOWN_INPUT_KEY",
        ForbiddenScheme => "FORBIDDEN_SCHEME",
        UnsupportedUrl => "UNSUPPORTED_URL",
        UrlNotInInputs => "URL_NOT_IN_INPUTS",
        WaitTooLong => "WAIT_TOO_LONG",
        EscalateNotLast => "ESCALATE_NOT_LAST",
    }
}

/// A rejection: which step (0-based), which verb, which rule, and the specifics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryError {
    pub step: Option<usize>,
    pub verb: Option<String>,
    pub rule: RecoveryRule,
    pub detail: String,
}

impl RecoveryError {
    fn plan(rule: RecoveryRule, detail: impl Into<String>) -> Self {
        RecoveryError {
            step: None,
            verb: None,
            rule,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for RecoveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("recovery plan rejected: ")?;
        if let Some(i) = self.step {
            write!(f, "step {i}")?;
            if let Some(v) = &self.verb {
                write!(f, " ({v})")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{}: {}", self.rule, self.detail)
    }
}

impl std::error::Error for RecoveryError {}

/// A check a plan asks for after its preceding steps ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "check", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecoveryCheck {
    Visible { target: ElementId },
    Text { target: ElementId, text: String },
}

/// A validated plan: the decisions to run in order, and the checks to make after
/// `after_decisions` of them have run.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledRecovery {
    pub plan_id: Option<String>,
    pub decisions: Vec<Decision>,
    pub checks: Vec<(usize, RecoveryCheck)>,
    /// The plan ends by handing back (its last decision is NEEDS_AGENT).
    pub escalates: bool,
}

/// Validates `plan` against `snapshot` and `subtask`, and compiles it.
pub fn compile(
    plan: &RecoveryPlan,
    snapshot: &Snapshot,
    subtask: &Subtask,
) -> Result<CompiledRecovery, RecoveryError> {
    if plan.steps.is_empty() {
        return Err(RecoveryError::plan(RecoveryRule::EmptyPlan, "no steps"));
    }
    if plan.steps.len() > MAX_PLAN_STEPS {
        return Err(RecoveryError::plan(
            RecoveryRule::PlanTooLong,
            format!(
                "{} steps; at most {MAX_PLAN_STEPS} are allowed",
                plan.steps.len()
            ),
        ));
    }
    let mut out = CompiledRecovery {
        plan_id: plan.plan_id.clone(),
        decisions: Vec::with_capacity(plan.steps.len()),
        checks: Vec::new(),
        escalates: false,
    };
    let last = plan.steps.len() - 1;
    for (i, step) in plan.steps.iter().enumerate() {
        let ctx = StepCtx {
            index: i,
            step,
            snapshot,
            subtask,
        };
        let verb: RecoveryVerb =
            step.verb.trim().to_ascii_uppercase().parse().map_err(|_| {
                ctx.reject(RecoveryRule::UnknownVerb, allow_list_detail(&step.verb))
            })?;
        let compiled = ctx.compile(verb)?;
        match compiled {
            Compiled::Act(action) => {
                out.decisions
                    .push(recovery_decision(Decision::act(action), plan, i, verb))
            }
            Compiled::Check(check) => out.checks.push((out.decisions.len(), check)),
            Compiled::Nothing => {}
            Compiled::Escalate => {
                if i != last {
                    return Err(ctx.reject(
                        RecoveryRule::EscalateNotLast,
                        "ESCALATE hands back; no step may follow it",
                    ));
                }
                out.escalates = true;
                let d = Decision::terminal(TerminalKind::NeedsAgent)
                    .with_reason("the recovery plan asked to escalate");
                out.decisions.push(recovery_decision(d, plan, i, verb));
            }
        }
    }
    Ok(out)
}

fn allow_list_detail(verb: &str) -> String {
    let allowed: Vec<&str> = RecoveryVerb::ALL.iter().map(|v| v.as_str()).collect();
    format!("{verb:?} is not one of {allowed:?}")
}

/// Tags a compiled decision with where it came from (seed: recovery metadata).
fn recovery_decision(
    d: Decision,
    plan: &RecoveryPlan,
    step: usize,
    verb: RecoveryVerb,
) -> Decision {
    let id = plan.plan_id.as_deref().unwrap_or("-");
    let mut d = d
        .with_reason(format!("recovery plan {id}, step {step}: {verb}"))
        .by(Tier::Recovery, "recovery");
    d.raw = Some(serde_json::json!({
        "recovery": { "plan_id": plan.plan_id, "step": step, "verb": verb.as_str() }
    }));
    d
}

enum Compiled {
    Act(Action),
    Check(RecoveryCheck),
    Nothing,
    Escalate,
}

struct StepCtx<'a> {
    index: usize,
    step: &'a RecoveryStep,
    snapshot: &'a Snapshot,
    subtask: &'a Subtask,
}

impl StepCtx<'_> {
    fn reject(&self, rule: RecoveryRule, detail: impl Into<String>) -> RecoveryError {
        RecoveryError {
            step: Some(self.index),
            verb: Some(self.step.verb.clone()),
            rule,
            detail: detail.into(),
        }
    }

    fn compile(&self, verb: RecoveryVerb) -> Result<Compiled, RecoveryError> {
        self.only_fields(verb)?;
        let s = self.step;
        Ok(match verb {
            RecoveryVerb::Click => {
                Compiled::Act(Action::click(self.target_offering(&[ActionKind::Click])?.0))
            }
            RecoveryVerb::Type => {
                let (target, kind) =
                    self.target_offering(&[ActionKind::TypeText, ActionKind::SetValue])?;
                let input_key = self.input_key()?;
                Compiled::Act(if kind == ActionKind::TypeText {
                    Action::TypeText {
                        target,
                        input_key,
                        submit: None,
                    }
                } else {
                    Action::SetValue { target, input_key }
                })
            }
            // With an input key: set the value; without: pick the option element itself.
            RecoveryVerb::Select if s.input_key.is_some() => Compiled::Act(Action::SelectOption {
                target: self.target_offering(&[ActionKind::SelectOption])?.0,
                input_key: self.input_key()?,
            }),
            RecoveryVerb::Select => {
                Compiled::Act(Action::click(self.target_offering(&[ActionKind::Click])?.0))
            }
            RecoveryVerb::Scroll => {
                let direction = s.direction.ok_or_else(|| {
                    self.reject(RecoveryRule::MissingField, "SCROLL needs direction")
                })?;
                let target = match &s.target {
                    Some(_) => Some(self.target_offering(&[ActionKind::Scroll])?.0),
                    None => None,
                };
                Compiled::Act(Action::Scroll { direction, target })
            }
            RecoveryVerb::PressKey => Compiled::Act(Action::PressKey {
                key: s.key.ok_or_else(|| {
                    self.reject(RecoveryRule::MissingField, "PRESS_KEY needs key")
                })?,
            }),
            RecoveryVerb::Goto => Compiled::Act(Action::Navigate {
                input_key: self.goto_key()?,
            }),
            RecoveryVerb::Wait => {
                if let Some(ms) = s.wait_ms.filter(|ms| *ms > MAX_WAIT_MS) {
                    return Err(self.reject(
                        RecoveryRule::WaitTooLong,
                        format!("{ms} ms exceeds the {MAX_WAIT_MS} ms limit"),
                    ));
                }
                // The runtime owns timing: the requested length is bounded, not obeyed.
                Compiled::Act(Action::Wait)
            }
            RecoveryVerb::AssertVisible => Compiled::Check(RecoveryCheck::Visible {
                target: self.target()?,
            }),
            RecoveryVerb::AssertText => {
                let target = self.target()?;
                let text = s.text.clone().filter(|t| !t.is_empty()).ok_or_else(|| {
                    self.reject(RecoveryRule::MissingField, "ASSERT_TEXT needs text")
                })?;
                Compiled::Check(RecoveryCheck::Text { target, text })
            }
            RecoveryVerb::Noop => Compiled::Nothing,
            RecoveryVerb::Escalate => Compiled::Escalate,
        })
    }

    /// Fields a verb does not use are refused: a confused plan is not half-obeyed.
    fn only_fields(&self, verb: RecoveryVerb) -> Result<(), RecoveryError> {
        use RecoveryVerb::*;
        let s = self.step;
        let present = [
            (
                "target",
                s.target.is_some(),
                &[Click, Type, Select, Scroll, AssertVisible, AssertText][..],
            ),
            (
                "input_key",
                s.input_key.is_some(),
                &[Type, Select, Goto][..],
            ),
            ("url", s.url.is_some(), &[Goto][..]),
            ("key", s.key.is_some(), &[PressKey][..]),
            ("direction", s.direction.is_some(), &[Scroll][..]),
            ("wait_ms", s.wait_ms.is_some(), &[Wait][..]),
            ("text", s.text.is_some(), &[AssertText][..]),
        ];
        match present
            .iter()
            .find(|(_, set, allowed)| *set && !allowed.contains(&verb))
        {
            Some((name, ..)) => Err(self.reject(
                RecoveryRule::FieldNotAllowed,
                format!("{verb} does not take {name}"),
            )),
            None => Ok(()),
        }
    }

    /// The target id, which must exist in the snapshot.
    fn target(&self) -> Result<ElementId, RecoveryError> {
        let id = self.step.target.clone().ok_or_else(|| {
            self.reject(RecoveryRule::MissingTarget, "this verb needs a target id")
        })?;
        if self.snapshot.element(id.as_str()).is_none() {
            return Err(self.reject(
                RecoveryRule::TargetNotInSnapshot,
                format!("{id} is not in snapshot {}", self.snapshot.revision),
            ));
        }
        Ok(id)
    }

    /// The target, which must also offer one of `kinds`; returns the first it offers.
    fn target_offering(
        &self,
        kinds: &[ActionKind],
    ) -> Result<(ElementId, ActionKind), RecoveryError> {
        let id = self.target()?;
        let el = self
            .snapshot
            .element(id.as_str())
            .expect("checked by target()");
        match kinds.iter().find(|k| el.actions.contains(**k)) {
            Some(kind) => Ok((id, *kind)),
            None => Err(self.reject(
                RecoveryRule::TargetDoesNotOffer,
                format!(
                    "{id} ({} {:?}) offers {:?}, not {kinds:?}",
                    el.role, el.name, el.actions
                ),
            )),
        }
    }

    fn input_key(&self) -> Result<String, RecoveryError> {
        let key =
            self.step.input_key.clone().ok_or_else(|| {
                self.reject(RecoveryRule::MissingField, "this verb needs input_key")
            })?;
        if self.subtask.input(&key).is_none() {
            return Err(self.reject(
                RecoveryRule::UnknownInputKey,
                format!("{key:?} is not in the subtask's inputs"),
            ));
        }
        Ok(key)
    }

    /// GOTO's destination: a URL (checked, then matched to an input literal) or an input
    /// key (whose literal is checked). Either way the scheme check sees the real text.
    fn goto_key(&self) -> Result<String, RecoveryError> {
        match (&self.step.url, &self.step.input_key) {
            (Some(_), Some(_)) | (None, None) => Err(self.reject(
                RecoveryRule::MissingField,
                "GOTO needs exactly one of url and input_key",
            )),
            (Some(url), None) => {
                check_url(url).map_err(|(rule, d)| self.reject(rule, d))?;
                let want = url.trim();
                self.subtask
                    .inputs
                    .iter()
                    .find(|(_, v)| v.as_text().trim() == want)
                    .map(|(k, _)| k.clone())
                    .ok_or_else(|| {
                        self.reject(
                            RecoveryRule::UrlNotInInputs,
                            "a plan may only navigate to a URL the planner supplied",
                        )
                    })
            }
            (None, Some(_)) => {
                let key = self.input_key()?;
                let literal = self.subtask.input(&key).map(|v| v.as_text().into_owned());
                check_url(literal.as_deref().unwrap_or_default())
                    .map_err(|(rule, d)| self.reject(rule, d))?;
                Ok(key)
            }
        }
    }
}

const FORBIDDEN_SCHEMES: &[&str] = &["javascript", "vbscript", "file", "data", "blob"];

/// Only absolute http(s) URLs pass. The check runs on the text a browser would act on:
/// percent-encoding undone (repeatedly), tabs and newlines removed anywhere, leading
/// and trailing controls and spaces stripped, case folded.
pub fn check_url(raw: &str) -> Result<(), (RecoveryRule, String)> {
    let url = normalize_url(raw);
    let Some((scheme, _)) = url.split_once(':') else {
        return Err((
            RecoveryRule::UnsupportedUrl,
            format!("{raw:?} is not an absolute http(s) URL"),
        ));
    };
    if FORBIDDEN_SCHEMES.contains(&scheme) {
        return Err((
            RecoveryRule::ForbiddenScheme,
            format!("{scheme}: navigation is not allowed"),
        ));
    }
    if scheme != "http" && scheme != "https" {
        return Err((
            RecoveryRule::UnsupportedUrl,
            format!("scheme {scheme:?} is not http(s)"),
        ));
    }
    Ok(())
}

fn normalize_url(raw: &str) -> String {
    let mut s = raw.to_owned();
    // Bounded: each round strips one layer of encoding.
    for _ in 0..4 {
        let decoded = percent_decode(&s);
        if decoded == s {
            break;
        }
        s = decoded;
    }
    s.chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .trim_matches(|c: char| c <= ' ' || c.is_whitespace() || c == '\u{feff}')
        .to_ascii_lowercase()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
