//! `run_subtask`: the executor with the cascade (`arc_policy::stack`: the reflex, then the
//! host's model when one is set), on the session's page as it is (no reload), through the
//! same guarded backend as a raw act.

use crate::limits::Limits;
use crate::observation::{lost_or, present};
use crate::protocol::{ErrorCode, HostError, ObserveOptions, RunSubtaskParams, RunSubtaskResult};
use crate::session::{Session, SessionState};
use arc_core::{Backend, Executor, RunOptions, RuntimeConfig, StepEvent};
use arc_policy::{stack, ModelConfig};
use std::sync::Arc;
use std::time::Duration;

pub(crate) async fn run_subtask(
    session: &Session,
    state: &mut SessionState,
    params: &RunSubtaskParams,
    limits: &Limits,
    model: Option<ModelConfig>,
    mut on_event: impl FnMut(&StepEvent) + Send,
) -> Result<RunSubtaskResult, HostError> {
    state.fence.check(&params.observation_id)?;
    let subtask = &params.subtask.0;
    if !session.grants.allow_input {
        return Err(HostError::new(
            ErrorCode::InputNotGranted,
            "run_subtask acts on the page: it needs the allow_input grant",
        ));
    }
    session.grants.check_risks(&subtask.allowed_risks)?;
    for path in &subtask.files {
        session.grants.check_file(path)?;
    }
    // Each step is checked too; a page already elsewhere is refused before the run.
    crate::observation::backend(state)?.check_origin(None)?;
    let timeout_ms = params.timeout_ms.unwrap_or(limits.subtask_ms);
    if timeout_ms > limits.subtask_ms {
        return Err(HostError::limit(
            crate::protocol::LimitName::SubtaskMs,
            format!(
                "timeout_ms {timeout_ms} is over the {} ms limit",
                limits.subtask_ms
            ),
        ));
    }
    // Checked before anything is used up: a bad option loses nothing.
    let options = RunOptions {
        dry_run: params.dry_run,
        min_confidence: params.min_confidence,
        min_margin: params.min_margin,
        late_reaction: params.late_reaction_ms.map(Duration::from_millis),
    };
    let config = options
        .apply(RuntimeConfig {
            timeout: Some(Duration::from_millis(timeout_ms)),
            ..RuntimeConfig::default()
        })
        .map_err(|e| HostError::new(ErrorCode::InvalidParams, e.to_string()))?;
    for secret in subtask.secret_literals() {
        state.redactor.add(&secret);
    }
    let policy = stack::cascade(model.into(), None).map_err(|e| {
        HostError::new(
            ErrorCode::BackendFailure,
            format!("the model tier cannot start: {e}"),
        )
    })?;
    state.fence.consume();
    let Some(backend) = state.backend.take() else {
        return Err(HostError::new(
            ErrorCode::SessionStopped,
            "the session is stopped",
        ));
    };
    let mut executor = Executor::new(backend, policy, config).with_redactor(state.redactor.clone());
    let cancel = executor.cancel_handle();
    let result = {
        let run = executor.run_with(subtask, |event: StepEvent| on_event(&event));
        tokio::pin!(run);
        tokio::select! {
            result = &mut run => result,
            _ = session.cancelled() => {
                // Stopped or interrupted: the run ends at its next check, and its result
                // is still the truth about what ran.
                cancel.cancel();
                run.await
            }
        }
    };
    let (mut backend, _policy) = executor.into_parts();
    // The page after the run, for the next subtask to cite.
    let snapshot = backend.observe().await;
    state.backend = Some(backend);
    let snapshot = match snapshot {
        Ok(s) => s,
        Err(e) => {
            return Err(lost_or(
                state,
                format!("observing after the run failed: {e}"),
            ))
        }
    };
    let observation = present(state, Arc::new(snapshot), &ObserveOptions::default(), None);
    Ok(RunSubtaskResult {
        result,
        observation_id: observation.observation_id,
    })
}
