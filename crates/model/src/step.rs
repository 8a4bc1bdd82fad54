//! What one decision needs before any wire format is chosen: the redacted subtask and
//! snapshot, the compact view, the legal action space and the recent actions.

use super::config::ModelConfig;
use super::prompt::{self, PromptParts, RecentAction};
use super::space::{ActionSpace, SpaceLimits};
use arc_core::{DecideContext, ElementId, Redactor, Snapshot, Subtask};
use arc_view::{render, CompactView, ViewOptions};
use std::collections::HashSet;
use std::sync::Arc;

pub(crate) struct Step<'a> {
    pub subtask: &'a Subtask,
    pub redactor: Redactor,
    /// The snapshot with secrets redacted (names, values, context; passwords masked).
    pub snapshot: Arc<Snapshot>,
    /// The compact view, when the wire format carries one.
    pub view: Option<CompactView>,
    pub space: ActionSpace,
    pub goal: String,
    pub constraints: Vec<String>,
    pub criteria: Vec<String>,
    pub inputs: Vec<(String, String)>,
    pub recent: Vec<RecentAction>,
}

impl<'a> Step<'a> {
    /// `with_view`: render the compact view and offer only the ids it shows (a model
    /// cannot sensibly pick what it cannot see). `hover`: whether the wire format knows
    /// HOVER (see [`SpaceLimits::hover`]).
    pub fn prepare(
        ctx: DecideContext<'a>,
        config: &ModelConfig,
        with_view: bool,
        hover: bool,
    ) -> Self {
        let subtask = ctx.subtask;
        let redactor = Redactor::for_subtask(subtask);
        let snapshot = redactor.snapshot(ctx.snapshot);
        let view = with_view.then(|| {
            render(
                &snapshot,
                &ViewOptions {
                    budget_tokens: config.view_budget_tokens,
                    ..ViewOptions::default()
                },
            )
        });
        let unseen: HashSet<ElementId> = view
            .as_ref()
            .and_then(|v| v.notice.as_ref())
            .map(|n| n.dropped_actionable_ids.iter().cloned().collect())
            .unwrap_or_default();
        let space = ActionSpace::build(
            ctx.snapshot,
            subtask,
            SpaceLimits {
                max_candidates: config.max_candidates,
                unseen: &unseen,
                hover,
            },
        );
        let scrub_all = |v: &[String]| -> Vec<String> {
            v.iter().map(|s| redactor.redact(s).into_owned()).collect()
        };
        Step {
            subtask,
            goal: redactor.redact(&subtask.goal).into_owned(),
            constraints: scrub_all(&subtask.constraints),
            criteria: subtask
                .verification
                .iter()
                .map(|c| redactor.redact(&c.text()).into_owned())
                .collect(),
            inputs: prompt::inputs(subtask, &redactor),
            recent: prompt::recent_actions(ctx.history, config.history_limit, &redactor),
            redactor,
            snapshot,
            view,
            space,
        }
    }

    /// The user message of the OpenAI format (requires the view).
    pub fn user_message(&self) -> String {
        let empty = CompactView {
            text: String::new(),
            tokens: 0,
            truncated: false,
            notice: None,
        };
        prompt::user_message(&PromptParts {
            goal: &self.goal,
            constraints: &self.constraints,
            inputs: &self.inputs,
            criteria: &self.criteria,
            recent: &self.recent,
            application: &self.snapshot.application,
            window: &self.snapshot.window,
            view: self.view.as_ref().unwrap_or(&empty),
            space: &self.space,
        })
    }
}
