//! Read-only requests on a session's page: `find` and `wait_for`. Each takes a fresh
//! observation, which becomes the session's latest.

use crate::limits::Limits;
use crate::observation::{backend, backend_failure, differs, present};
use crate::protocol::{
    ErrorCode, FindHit, FindParams, Found, HostError, ObserveOptions, WaitCondition, WaitForParams,
    WaitResult,
};
use crate::session::{Session, SessionState};
use arc_core::{Backend, Scalar, Snapshot};
use arc_view::{find, FindQuery};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Most hits one `find` returns.
const MAX_FIND_HITS: usize = 200;

pub(crate) async fn find_in(
    state: &mut SessionState,
    params: &FindParams,
    limits: &Limits,
) -> Result<Found, HostError> {
    if let Some(text) = &params.text {
        limits.check_text("find text", text)?;
    }
    // The whole page, as `observe --find` searches it: what the viewport scan leaves out
    // is still found.
    let snapshot = match backend(state)?.observe_whole().await {
        Ok(s) => Arc::new(s),
        Err(e) => return Err(backend_failure(state, &e)),
    };
    let observation = present(
        state,
        Arc::clone(&snapshot),
        &ObserveOptions::default(),
        None,
    );
    let shown = state.redactor.snapshot(&snapshot);
    let query = FindQuery {
        text: params.text.clone(),
        role: params.role.clone(),
        limit: params.limit.min(MAX_FIND_HITS),
    };
    let hits = find(&shown, &query)
        .into_iter()
        .map(|h| FindHit {
            id: h.id,
            line: h.line,
            context: h.context,
        })
        .collect();
    Ok(Found {
        observation_id: observation.observation_id,
        hits,
    })
}

/// Between two looks at the page while waiting.
const POLL: Duration = Duration::from_millis(100);

pub(crate) async fn wait_for(
    session: &Session,
    state: &mut SessionState,
    params: &WaitForParams,
    limits: &Limits,
) -> Result<WaitResult, HostError> {
    limits.check_wait(params.timeout_ms)?;
    match &params.condition {
        WaitCondition::ElementPresent { text: Some(t), .. }
        | WaitCondition::TextContains { text: t } => {
            limits.check_text("the condition's text", t)?
        }
        WaitCondition::ValueEquals { name, value } => {
            limits.check_text("the condition's name", name)?;
            limits.check_text("the condition's value", value)?;
        }
        WaitCondition::ElementPresent { text: None, .. } | WaitCondition::Changed { .. } => {}
    }
    // `changed`'s baseline, taken once: the polls register nothing, and the result's
    // observation says what changed since it.
    let (before, options) = match &params.condition {
        WaitCondition::Changed { since } => {
            let Some(before) = state.fence.shown(since) else {
                return Err(HostError::new(
                    ErrorCode::StaleObservation,
                    format!(
                        "{} is not one of this session's recent observations; observe and wait on the new id",
                        arc_core::clip(&since.0, 80)
                    ),
                ));
            };
            let options = ObserveOptions {
                since: Some(since.clone()),
                ..ObserveOptions::default()
            };
            (Some(before), options)
        }
        _ => (None, ObserveOptions::default()),
    };
    let start = Instant::now();
    let deadline = start + Duration::from_millis(params.timeout_ms);
    loop {
        let snapshot = match backend(state)?.observe().await {
            Ok(s) => Arc::new(s),
            Err(e) => return Err(backend_failure(state, &e)),
        };
        state.redactor.learn(&snapshot);
        let shown = state.redactor.snapshot(&snapshot);
        let met = holds(&params.condition, before.as_deref(), &shown);
        let now = Instant::now();
        if met || now >= deadline || session.is_stopped() {
            let observation = present(state, snapshot, &options, None);
            session.live()?;
            return Ok(WaitResult {
                met,
                waited_ms: (now - start).as_millis() as u64,
                observation,
            });
        }
        tokio::select! {
            _ = tokio::time::sleep(POLL.min(deadline - now)) => {}
            _ = session.cancelled() => {}
        }
    }
}

fn contains(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

fn value_text(v: &Option<Scalar>) -> String {
    v.as_ref()
        .map(|v| v.as_text().into_owned())
        .unwrap_or_default()
}

/// Whether `condition` holds on `snapshot`; `before` is `changed`'s baseline.
fn holds(condition: &WaitCondition, before: Option<&Snapshot>, snapshot: &Snapshot) -> bool {
    let visible = || snapshot.elements.iter().filter(|e| e.visible);
    match condition {
        WaitCondition::ElementPresent { text, role } => visible().any(|e| {
            role.as_ref().is_none_or(|r| &e.role == r)
                && text
                    .as_deref()
                    .is_none_or(|t| contains(&e.name, t) || contains(&value_text(&e.value), t))
        }),
        WaitCondition::TextContains { text } => {
            visible().any(|e| contains(&e.name, text) || contains(&value_text(&e.value), text))
        }
        WaitCondition::ValueEquals { name, value } => {
            visible().any(|e| e.name == *name && value_text(&e.value) == *value)
        }
        WaitCondition::Changed { .. } => before.is_some_and(|b| differs(b, snapshot)),
    }
}
