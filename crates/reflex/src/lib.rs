//! The reflex policy: local, deterministic, no network, well under a millisecond per
//! decision. It grounds the subtask — input keys to fields (accessible name, placeholder,
//! adjacent label, DOM name/id), the goal's verbs and quoted strings to operations and
//! targets — in the current snapshot, acts on the first step not yet done, and answers
//! SUBTASK_COMPLETE only when every verification criterion holds on the snapshot. When
//! it cannot ground something, or two candidates tie, it says NEEDS_AGENT with what it
//! could not ground instead of guessing.
//!
//! Confidence and margin: on an action, the grounding score of its target and the gap
//! to the runner-up (inferred steps — a "Next" to reach a later stage, a submit the goal
//! did not name — report 0.6, so a confidence gate can refuse them); on WAIT and on a
//! terminal, 1.0: the snapshot shows it, and a gate must not turn a precise reason into a
//! vague one.

mod affirm;
mod autocomplete;
mod clipboard;
mod confirm;
mod confirm_press;
mod dropdown;
mod echo;
mod entry;
mod explore;
mod facts;
mod goal;
mod goal_option;
mod ground;
mod group;
mod highlight;
mod history;
mod inputs;
mod intents;
mod item;
mod kind;
mod label;
mod layout_label;
mod marked;
mod menu;
mod month;
mod opener;
mod ordinal;
mod paged;
mod person;
mod plan;
mod popup;
mod presumed;
mod reference;
mod rows;
mod scroll_inside;
mod search_box;
mod slider;
mod spread;
mod stem;
mod step;
mod stepper;
pub mod support;
mod text;
mod tokens;
mod verdicts;
mod verify;
mod vocab;
mod wizard;
mod wrapped;

use arc_core::{
    Action, DecideContext, Decision, Policy, PolicyError, Redactor, Snapshot, Subtask,
    TerminalKind, Tier,
};
use async_trait::async_trait;
use facts::Facts;
use inputs::Input;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;
use step::{Act, Outcome};

/// The subtask read once: its goal's intents and its criteria.
struct Reading {
    /// The ids on the run's first snapshot: what was on the page before the run acted.
    at_start: std::collections::HashSet<String>,
    goal: String,
    verification: Vec<arc_core::Criterion>,
    intents: Vec<goal::Intent>,
    criteria: Vec<verify::Criterion>,
    /// The goal changes a named owner's record that the first page does not show.
    presumed_missing: Option<String>,
}

#[derive(Default)]
pub struct ReflexPolicy {
    /// Boxed: a policy is held in enums beside far smaller ones (clippy's
    /// `large_enum_variant`), and the reading is made once per subtask.
    reading: Option<Box<Reading>>,
    /// The snapshot the last click was decided on: whether the page reacted to it at all
    /// (beyond focus) decides whether a click may be retried.
    clicked_on: Option<Arc<Snapshot>>,
    /// Which popups came uninvited, as first seen.
    popups: popup::Memory,
}

impl ReflexPolicy {
    pub fn new() -> ReflexPolicy {
        ReflexPolicy::default()
    }

    fn read(&mut self, subtask: &Subtask, snapshot: &Snapshot) -> &Reading {
        let fresh = matches!(&self.reading, Some(r)
            if r.goal == subtask.goal && r.verification == subtask.verification);
        if !fresh {
            self.reading = None;
            self.popups = popup::Memory::default();
        }
        self.reading.get_or_insert_with(|| {
            let mut criteria: Vec<verify::Criterion> = subtask
                .verification
                .iter()
                .enumerate()
                .flat_map(|(i, c)| verify::criteria(i, c))
                .collect();
            let first = Facts::new(snapshot);
            verify::note_start(&mut criteria, &first);
            Box::new(Reading {
                presumed_missing: presumed::missing(&subtask.goal, &first),
                at_start: snapshot
                    .elements
                    .iter()
                    .map(|e| e.id.as_str().to_owned())
                    .collect(),
                goal: subtask.goal.clone(),
                verification: subtask.verification.clone(),
                intents: reference::with_items(goal::parse(&subtask.goal), &subtask.inputs, |k| {
                    subtask.is_secret(k)
                }),
                criteria,
            })
        })
    }

    /// One decision, synchronously (the trait's `decide` is this).
    pub fn decide_now(&mut self, ctx: DecideContext<'_>) -> Decision {
        let started = Instant::now();
        let subtask = ctx.subtask;
        let clicked_on = self.clicked_on.take();
        self.read(subtask, ctx.snapshot);
        let reading = self.reading.as_ref().expect("read above");
        let facts = Facts::new(ctx.snapshot);
        let inputs: Vec<Input> = subtask
            .inputs
            .iter()
            .map(|(key, literal)| Input {
                key,
                literal,
                secret: subtask.is_secret(key),
                goal: &subtask.goal,
            })
            .collect();
        let outcome = plan::next(
            &facts,
            ctx.history,
            &reading.intents,
            &reading.criteria,
            &inputs,
            clicked_on.as_deref(),
            goal::forbids_commit(
                std::iter::once(subtask.goal.as_str())
                    .chain(subtask.constraints.iter().map(String::as_str)),
            ),
        );
        let popup = popup::find(
            &facts,
            ctx.history,
            &reading.at_start,
            &mut self.popups,
            &reading.intents,
            &inputs,
        );
        let outcome = popup::screen(&facts, ctx.history, popup, outcome);
        let outcome = match &reading.presumed_missing {
            Some(why) => Outcome::NeedsAgent(why.clone()),
            None => outcome,
        };
        let outcome = person::screen(&facts, ctx.history, &inputs, &reading.at_start, outcome);
        // A commit remembers whether its control was on the page before the run acted:
        // the form's own button, not one an uninvited popup brought (`verify`).
        let own_commit = match &outcome {
            Outcome::Act(a) if a.kind == step::StepKind::Commit => a
                .action
                .target()
                .map(|t| reading.at_start.contains(t.as_str())),
            _ => None,
        };
        self.clicked_on = match &outcome {
            Outcome::Act(Act {
                action: Action::Click { .. },
                ..
            }) => Some(ctx.snapshot.clone()),
            _ => clicked_on,
        };
        // An exploring click remembers which tabs were open before it: their panels
        // were seen, so they are not reopened once the click unselects them.
        let open_tabs = matches!(&outcome, Outcome::Act(a) if a.kind == step::StepKind::Explore)
            .then(|| explore::open_tabs(&facts));
        // A slider key remembers the value it was decided on: the next decision reads
        // the key's effect from it (`slider`).
        let slid = match &outcome {
            Outcome::Act(a) if a.kind == step::StepKind::Slide => slider_from(&facts, a),
            _ => None,
        };
        // A count's press remembers the count it was decided on (`stepper`).
        let counted = match &outcome {
            Outcome::Act(a) if a.kind == step::StepKind::Step => stepper::count_at(&facts, a),
            _ => None,
        };
        // A page turn remembers the page size it was decided on (`paged`).
        let per_page = match &outcome {
            Outcome::Act(a) => paged::page_size(&facts, a),
            _ => None,
        };
        // A press that leaves a stage remembers which inputs the page held in place on it
        // (`history::held_input`); other steps leave the stage's fields where they are.
        let held: Vec<&str> = match &outcome {
            Outcome::Act(a)
                if matches!(a.kind, step::StepKind::Progress | step::StepKind::Commit) =>
            {
                inputs
                    .iter()
                    .filter(|i| inputs::status(&facts, ctx.history, i) == step::Status::Done)
                    .map(|i| i.key)
                    .collect()
            }
            _ => Vec::new(),
        };
        let ended = match &outcome {
            Outcome::Complete(_) => Some(true),
            Outcome::NeedsAgent(_)
            | Outcome::Unverified(_)
            | Outcome::NeedsInput(_)
            | Outcome::NeedsHuman(_) => Some(false),
            _ => None,
        };
        // A commit remembers what already showed each outcome's subject (`happened`).
        if let Some(r) = self.reading.as_mut() {
            verify::note_step(&mut r.criteria, &facts);
            if matches!(&outcome, Outcome::Act(a) if a.kind == step::StepKind::Commit) {
                verify::note_commit(&mut r.criteria, &facts);
            }
        }
        let reading = self.reading.as_ref().expect("read above");
        let mut decision = decision(outcome);
        if let Some(complete) = ended {
            decision.verdicts = verdicts::verdicts(
                &facts,
                ctx.history,
                &reading.criteria,
                &subtask.verification,
                self.clicked_on.as_deref(),
                complete,
            );
        }
        if let (Some(n), Some(raw)) = (counted, decision.raw.as_mut()) {
            raw["reflex"]["count"] = json!(n);
        }
        if let (Some(n), Some(raw)) = (per_page, decision.raw.as_mut()) {
            raw["reflex"]["per_page"] = json!(n);
        }
        if let (Some((id, from)), Some(raw)) = (slid, decision.raw.as_mut()) {
            raw["reflex"]["slider"] = json!(id);
            raw["reflex"]["from"] = json!(from);
        }
        if let (Some(ids), Some(raw)) = (open_tabs, decision.raw.as_mut()) {
            raw["reflex"]["seen"] = json!(ids);
        }
        if let (false, Some(raw)) = (held.is_empty(), decision.raw.as_mut()) {
            raw["reflex"]["held"] = json!(held);
        }
        if let (Some(own), Some(raw)) = (own_commit, decision.raw.as_mut()) {
            raw["reflex"]["at_start"] = json!(own);
        }
        if let Some(reason) = decision.reason.as_mut() {
            // Whatever quoted it (a criterion, a label): the policy's answer is shown.
            Redactor::for_subtask(subtask).redact_string(reason);
        }
        decision.latency_ms = Some(started.elapsed().as_millis() as u64);
        decision.by(Tier::Reflex, "reflex")
    }
}

/// The slider a slide key acts on (the focused one) and its value now.
fn slider_from(f: &Facts, a: &Act) -> Option<(String, f64)> {
    if !matches!(a.action, Action::PressKey { .. }) {
        return None;
    }
    let i = (0..f.len()).find(|&i| f.els[i].focused && slider::is_keyed(f, i))?;
    Some((f.els[i].id.as_str().to_owned(), slider::value(f, i)?))
}

fn decision(outcome: Outcome) -> Decision {
    let terminal = |kind: TerminalKind, step: &str, reason: String| {
        Decision::terminal(kind)
            .with_confidence(1.0, 1.0)
            .with_reason(reason)
            .with_raw(step)
    };
    match outcome {
        Outcome::Act(Act {
            action,
            kind,
            confidence,
            margin,
            why,
            ..
        }) => Decision::act(action)
            .expecting(kind.expect())
            .with_confidence(confidence.clamp(0.0, 1.0), margin.clamp(0.0, 1.0))
            .with_reason(format!("{}: {why}", kind.as_str()))
            .with_raw(kind.as_str()),
        Outcome::Wait(why) => Decision::act(Action::Wait)
            .with_confidence(1.0, 1.0)
            .with_reason(why)
            .with_raw(step::StepKind::Wait.as_str()),
        Outcome::Complete(why) => terminal(TerminalKind::SubtaskComplete, "complete", why),
        Outcome::NeedsAgent(why) => terminal(TerminalKind::NeedsAgent, "needs_agent", why),
        Outcome::Unverified(why) => Decision {
            work_done: true,
            ..terminal(TerminalKind::NeedsAgent, "needs_agent", why)
        },
        Outcome::NeedsInput(why) => terminal(TerminalKind::NeedsInput, "needs_input", why),
        Outcome::NeedsHuman(ask) => Decision {
            hands_off: Some((ask.id, ask.need)),
            ..terminal(TerminalKind::NeedsAgent, "needs_human", ask.why)
        },
    }
}

/// Tags a decision with the step it serves, so later decisions can read their history.
trait WithRaw {
    fn with_raw(self, step: &str) -> Self;
}

impl WithRaw for Decision {
    fn with_raw(mut self, step: &str) -> Self {
        self.raw = Some(json!({ "reflex": { "step": step } }));
        self
    }
}

#[async_trait]
impl Policy for ReflexPolicy {
    fn name(&self) -> &'static str {
        "reflex"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Ok(self.decide_now(ctx))
    }
}
