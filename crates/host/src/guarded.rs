//! The session's backend: its target's backend (a page or a desktop window) behind the
//! session's grants, limits, the host's input FIFO and the session's journal. `act` and `run_subtask` both go through
//! it, so a subtask's executor cannot do what a raw act may not.

use crate::confine::Confinement;
use crate::grants::Grants;
use crate::input_fifo::InputFifo;
use crate::journal::{Journal, JournalState};
use crate::limits::Limits;
use crate::protocol::{ErrorCode, HostError};
use crate::target::TargetBackend;
use arc_browser::backend::{PointInput, PointLanding};
use arc_browser::Lost;
use arc_core::{
    Action, ActionKind, Backend, BackendError, EffectSample, Element, ExecutableAction, Executed,
    ExpectedEffect, InvalidDecision, PressFacts, Redactor, Role, SettleSample, Snapshot,
};
use async_trait::async_trait;
use std::sync::Arc;
use std::time::Duration;

pub struct GuardedBackend {
    inner: TargetBackend,
    grants: Grants,
    limits: Limits,
    fifo: Arc<InputFifo>,
    journal: Arc<Journal>,
    redactor: Redactor,
    /// The page has a window of its own (the host opened it): it is never hidden.
    own_window: bool,
    /// The journal entry of the last dispatch and whether its outcome is unknown.
    last: Option<(u64, JournalState)>,
    /// Where a page session may be (`None` on a desktop window).
    confinement: Option<Confinement>,
}

impl GuardedBackend {
    pub fn new(
        inner: TargetBackend,
        grants: Grants,
        limits: Limits,
        fifo: Arc<InputFifo>,
        journal: Arc<Journal>,
        redactor: Redactor,
        confinement: Option<Confinement>,
    ) -> Self {
        GuardedBackend {
            inner,
            grants,
            limits,
            fifo,
            journal,
            redactor,
            own_window: false,
            last: None,
            confinement,
        }
    }

    /// Marks the page as one in a window of its own (no visibility check before input).
    pub fn in_own_window(mut self) -> Self {
        self.own_window = true;
        self
    }

    pub fn target(&self) -> &TargetBackend {
        &self.inner
    }

    pub fn lost(&self) -> Option<Lost> {
        self.inner.lost()
    }

    /// An observation of the whole page, not only near its viewport (`find`).
    pub async fn observe_whole(&mut self) -> Result<Snapshot, BackendError> {
        let snapshot = self.inner.observe_whole().await;
        self.learn(snapshot)
    }

    /// Every observation of the session passes here (observe, find, wait, a subtask's
    /// steps): what a password field held is a secret of the session from now on,
    /// wherever the page repeats it and whatever it turns the field into.
    fn learn(&self, snapshot: Result<Snapshot, BackendError>) -> Result<Snapshot, BackendError> {
        if let Ok(snapshot) = &snapshot {
            for value in snapshot.password_values() {
                self.redactor.learn_password(value);
            }
        }
        snapshot
    }

    /// The last dispatch's journal entry and state.
    pub fn last_dispatch(&self) -> Option<(u64, JournalState)> {
        self.last
    }

    /// Everything the session's grants and the host's limits say about `action` on
    /// `snapshot`, before anything is pressed.
    pub fn admit(&self, snapshot: &Snapshot, action: &ExecutableAction) -> Result<(), HostError> {
        admit(&self.grants, &self.limits, snapshot, action)
    }

    /// Refuses `kind` on a page whose document is off the session's origins (`confine`),
    /// read from the page's events (no call). NAVIGATE (its URL is checked against the
    /// grants) and WAIT do nothing on the page, so they pass: NAVIGATE is the way back.
    pub fn check_origin(&self, kind: Option<ActionKind>) -> Result<(), HostError> {
        if matches!(kind, Some(ActionKind::Navigate | ActionKind::Wait)) {
            return Ok(());
        }
        match (&self.confinement, self.inner.page()) {
            (Some(c), Some(page)) => c.check(page.committed_url().as_deref()),
            _ => Ok(()),
        }
    }

    /// The navigation of the page the backend last stopped (off its origins), taken.
    pub fn take_blocked_navigation(&mut self) -> Option<String> {
        self.inner.page_mut()?.take_blocked_navigation()
    }

    pub fn target_mut(&mut self) -> &mut TargetBackend {
        &mut self.inner
    }

    /// Dispatches input at a point or at the focus (`crate::point` has checked it):
    /// journaled and through the FIFO, as every element action. Says where a click's
    /// press went when not on what the point's gate judged.
    pub async fn execute_at(
        &mut self,
        what: String,
        input: &PointInput,
    ) -> Result<Option<PointLanding>, BackendError> {
        self.journaled(what, Dispatch::Point(input))
            .await
            .map(|d| d.point_landing)
    }

    /// Plans the journal entry, takes the FIFO, brings a hidden page to the front,
    /// dispatches, and records whether it is confirmed, not done or unknown.
    async fn journaled(
        &mut self,
        what: String,
        dispatch: Dispatch<'_>,
    ) -> Result<Dispatched, BackendError> {
        let seq = self.journal.plan(what);
        let result = {
            // One FIFO for every session's input, pages' and windows' alike.
            let mut front = self.fifo.acquire().await;
            if let (false, TargetBackend::Page(page)) = (self.own_window, &mut self.inner) {
                let target = page.page().target_id().0.clone();
                if front.as_deref() != Some(target.as_str()) {
                    // Chromium holds a background tab's input back (≈5 s a press): bring
                    // a hidden page to the front first. Pages the host opened have a
                    // window each and are never hidden. A failure here is the
                    // dispatch's to report.
                    let hidden = page
                        .page()
                        .evaluate("document.visibilityState")
                        .await
                        .is_ok_and(|v| v == "hidden");
                    if !hidden || page.activate().await.is_ok() {
                        *front = Some(target);
                    }
                }
            }
            self.journal.mark(seq, JournalState::Dispatched);
            match dispatch {
                Dispatch::Action(snapshot, action) => self
                    .inner
                    .execute(snapshot, action)
                    .await
                    .map(|executed| Dispatched {
                        executed,
                        point_landing: None,
                    }),
                Dispatch::Point(input) => {
                    self.inner
                        .input_at(input)
                        .await
                        .map(|point_landing| Dispatched {
                            executed: Executed::default(),
                            point_landing,
                        })
                }
            }
        };
        let state = match &result {
            Ok(_) => JournalState::Confirmed,
            Err(
                BackendError::Stale { .. }
                | BackendError::Invalid(_)
                | BackendError::Unsupported { .. },
            ) if self.inner.lost().is_none() => JournalState::NotDone,
            // A failure after dispatch (the browser went, a call timed out): it may have
            // happened.
            Err(_) => JournalState::Unknown,
        };
        self.journal.mark(seq, state);
        self.last = Some((seq, state));
        result
    }
}

/// What one journaled dispatch sends.
enum Dispatch<'a> {
    Action(&'a Snapshot, &'a ExecutableAction),
    Point(&'a PointInput),
}

/// What one journaled dispatch did: an action's outcome, or where a point click landed.
struct Dispatched {
    executed: Executed,
    point_landing: Option<PointLanding>,
}

pub fn admit(
    grants: &Grants,
    limits: &Limits,
    snapshot: &Snapshot,
    action: &ExecutableAction,
) -> Result<(), HostError> {
    grants.check_kind(action.kind())?;
    let text = action.text();
    limits.check_text("the literal", &text)?;
    if let Action::Navigate { .. } = action.action {
        grants.check_url(&text)?;
    }
    if let Action::DragBy { dx, dy, .. } = action.action {
        limits.check_drag(dx, dy)?;
    }
    for id in [action.target(), action.action.secondary_target()]
        .into_iter()
        .flatten()
    {
        if snapshot.element(id.as_str()).is_some_and(is_other_tab) {
            return Err(HostError::new(
                ErrorCode::TargetOutOfScope,
                format!("{id} is another tab: a session stays on its one page (open a session on that target)"),
            ));
        }
    }
    Ok(())
}

/// A tab the page opened: the browser backend shows it as an element a click switches to.
fn is_other_tab(e: &Element) -> bool {
    e.facts.opened_tab
}

/// A literal typed into a password field is a secret from then on.
fn into_password(snapshot: &Snapshot, action: &ExecutableAction) -> bool {
    matches!(
        action.action,
        Action::TypeText { .. } | Action::SetValue { .. }
    ) && action
        .target()
        .and_then(|id| snapshot.element(id.as_str()))
        .is_some_and(|e| e.role == Role::PasswordField)
}

fn describe(action: &ExecutableAction) -> String {
    match action.target() {
        Some(id) => format!("{} {id}", action.kind()),
        None => action.kind().to_string(),
    }
}

#[async_trait]
impl Backend for GuardedBackend {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        // Tabs the page opened stay visible (an agent may open a session on one), but
        // acting on one is `target_out_of_scope` (`admit`).
        let snapshot = self.inner.observe().await;
        self.learn(snapshot)
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.inner.is_fresh(snapshot, action).await
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        if let Err(e) = self
            .admit(snapshot, action)
            .and_then(|()| self.check_origin(Some(action.kind())))
        {
            return Err(BackendError::Invalid(InvalidDecision::new(
                "kind",
                format!("{}: {}", e.code, e.message),
            )));
        }
        if into_password(snapshot, action) {
            self.redactor.add(&action.text());
        }
        self.journaled(describe(action), Dispatch::Action(snapshot, action))
            .await
            .map(|d| d.executed)
    }

    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        self.inner.press_facts(snapshot, action).await
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.inner.settle_probe().await
    }

    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        self.inner.settle_probe_for(effect).await
    }

    fn min_settle_cap(&self) -> Duration {
        self.inner.min_settle_cap()
    }
}
