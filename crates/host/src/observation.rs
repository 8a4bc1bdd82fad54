//! Turning a snapshot into what a client reads: redacted (password values, and every
//! secret the session learned, never leave the host), rendered, registered in the fence.

use crate::limits::Limits;
use crate::protocol::{Delta, ErrorCode, HostError, LimitName, Observation, ObserveOptions};
use crate::session::SessionState;
use arc_core::{Backend, BackendError, Element, Snapshot};
use arc_desktop::screenshot::ScreenshotError;
use base64::Engine as _;
use std::collections::HashMap;
use std::sync::Arc;

/// Observes the page and registers the observation as the session's latest.
pub(crate) async fn observe(
    state: &mut SessionState,
    options: &ObserveOptions,
    limits: &Limits,
) -> Result<Observation, HostError> {
    if let Some(budget) = options.budget_tokens {
        limits.check_budget(budget)?;
    }
    let snapshot = backend(state)?.observe().await;
    let snapshot = match snapshot {
        Ok(s) => s,
        Err(e) => return Err(backend_failure(state, &e)),
    };
    let png = if options.include_png {
        let png = match backend(state)?.target().screenshot_png().await {
            Ok(png) => png,
            Err(e @ ScreenshotError::TooLarge { .. }) => {
                return Err(HostError::limit(LimitName::ScreenshotPixels, e.to_string()))
            }
            Err(e) => return Err(lost_or(state, format!("screenshot failed: {e}"))),
        };
        // The observation just taken taught the redactor what this page holds.
        let png = crate::screenshot::masked(png, &snapshot, &state.redactor).map_err(|e| {
            HostError::new(
                ErrorCode::BackendFailure,
                format!("the screenshot could not be masked ({e}); observe again"),
            )
        })?;
        Some(base64::engine::general_purpose::STANDARD.encode(png))
    } else {
        None
    };
    Ok(present(state, Arc::new(snapshot), options, png))
}

/// Registers an already taken snapshot (the end of a run, a wait) and renders it.
pub(crate) fn present(
    state: &mut SessionState,
    snapshot: Arc<Snapshot>,
    options: &ObserveOptions,
    png_base64: Option<String>,
) -> Observation {
    state.redactor.learn(&snapshot);
    let shown = state.redactor.snapshot(&snapshot);
    // Rendered again only when what is shown (redacted: a secret learned since counts)
    // or the budget differs from the last view's.
    let view = state
        .views
        .render(&shown, options.budget_tokens.unwrap_or(1_200));
    let delta = options.since.as_ref().and_then(|since| {
        let before = state.fence.shown(since)?;
        Some(delta(since.clone(), &before, &shown))
    });
    let observation_id = state.fence.register(snapshot, Arc::clone(&shown));
    Observation {
        observation_id,
        url: shown.url().map(str::to_owned),
        title: shown.title().to_owned(),
        view: view.text,
        tokens: view.tokens,
        truncated: view.truncated,
        elements: options.include_elements.then(|| shown.elements.to_vec()),
        png_base64,
        delta,
    }
}

fn delta(since: crate::protocol::ObservationId, before: &Snapshot, after: &Snapshot) -> Delta {
    let old: HashMap<&str, &Element> = before.elements.iter().map(|e| (e.id.as_str(), e)).collect();
    let new: HashMap<&str, &Element> = after.elements.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut added = Vec::new();
    let mut changed = Vec::new();
    for e in after.elements.iter() {
        match old.get(e.id.as_str()) {
            None => added.push(e.clone()),
            Some(was) if !same(was, e) => changed.push(e.clone()),
            Some(_) => {}
        }
    }
    let removed = before
        .elements
        .iter()
        .filter(|e| !new.contains_key(e.id.as_str()))
        .map(|e| e.id.clone())
        .collect();
    Delta {
        since,
        added,
        removed,
        changed,
    }
}

/// Whether [`delta`] would find anything, without building it (a wait's poll).
pub(crate) fn differs(before: &Snapshot, after: &Snapshot) -> bool {
    if before.elements.len() != after.elements.len() {
        return true;
    }
    let old: HashMap<&str, &Element> = before.elements.iter().map(|e| (e.id.as_str(), e)).collect();
    after
        .elements
        .iter()
        .any(|e| old.get(e.id.as_str()).is_none_or(|was| !same(was, e)))
}

/// Equal for an agent: everything but the box, which a layout shift moves on elements
/// nothing happened to.
fn same(a: &Element, b: &Element) -> bool {
    a.role == b.role
        && a.name == b.name
        && a.value == b.value
        && a.actions == b.actions
        && a.enabled == b.enabled
        && a.visible == b.visible
        && a.focused == b.focused
        && a.selected == b.selected
        && a.expanded == b.expanded
        && a.parent_id == b.parent_id
        && a.accepts_drop == b.accepts_drop
        && a.facts == b.facts
}

pub(crate) fn backend(
    state: &mut SessionState,
) -> Result<&mut crate::guarded::GuardedBackend, HostError> {
    state
        .backend
        .as_mut()
        .ok_or_else(|| HostError::new(ErrorCode::SessionStopped, "the session is stopped"))
}

/// A backend error as the client sees it; a lost page or browser breaks the session.
pub(crate) fn backend_failure(state: &mut SessionState, e: &BackendError) -> HostError {
    lost_or(state, e.to_string())
}

pub(crate) fn lost_or(state: &mut SessionState, detail: String) -> HostError {
    let lost = state.backend.as_ref().and_then(|b| b.lost());
    match lost {
        Some(lost) => {
            let e = HostError::new(
                ErrorCode::BrowserLost,
                format!("{lost}; this session is over (open a new one when a browser is back)"),
            );
            state.broken = Some(e.clone());
            e
        }
        None => HostError::new(
            ErrorCode::BackendFailure,
            format!("{detail}; observe again and retry"),
        ),
    }
}
