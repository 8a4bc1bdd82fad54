//! One raw action: fence, grants and limits, materialize against the cited observation,
//! the risk gate, freshness, dispatch through the FIFO (journaled), settle, and — when
//! asked — the next observation.

use crate::guarded::admit;
use crate::journal::JournalState;
use crate::landing::Landed;
use crate::limits::Limits;
use crate::observation::{backend, backend_failure, observe};
use crate::protocol::{ActOutcome, ActParams, ActResult, ErrorCode, HostError, Observation};
use crate::session::{Session, SessionState};
use arc_browser::backend::PointInput;
use arc_core::settle::{settle_for, SettleEnd};
use arc_core::{
    risk, Backend, BackendError, ExecutableAction, ExpectedEffect, SettleConfig, Snapshot, Subtask,
};

/// The subtask a raw act is checked against: the literal as its one input, the
/// session's risks as its allowed risks.
fn act_subtask(session: &Session, literal: Option<&str>) -> Subtask {
    let mut subtask = Subtask::new("raw act", "the action ran");
    if let Some(text) = literal {
        subtask = subtask.with_input(crate::protocol::LITERAL_KEY, text);
    }
    subtask.allowed_risks = session.grants.allowed_risks.clone();
    subtask
}

pub(crate) async fn act(
    session: &Session,
    state: &mut SessionState,
    params: &ActParams,
    limits: &Limits,
) -> Result<ActResult, HostError> {
    let Some((action, literal)) = params.action.to_core() else {
        return crate::point::act_at(session, state, params, limits).await;
    };
    let snapshot = state.fence.check(&params.observation_id)?;
    session.grants.check_kind(action.kind())?;
    if let Some(text) = literal {
        limits.check_text("the literal", text)?;
    }
    for id in [action.target(), action.secondary_target()]
        .into_iter()
        .flatten()
    {
        if snapshot.element(id.as_str()).is_none() {
            return Err(HostError::new(
                ErrorCode::UnknownElement,
                format!(
                    "{} is not in observation {}: use an id from the observation you cite",
                    arc_core::clip(id.as_str(), 64),
                    params.observation_id.0
                ),
            ));
        }
    }
    let mut subtask = act_subtask(session, literal);
    // A file input takes a path only from a directory the session's allow_files grants.
    let to_file_input = action
        .target()
        .and_then(|id| snapshot.element(id.as_str()))
        .is_some_and(|el| el.facts.input_type == Some(arc_core::InputType::File));
    if let (true, Some(path)) = (to_file_input, literal) {
        session.grants.check_file(path)?;
        subtask.files = vec![path.to_owned()];
    }
    let exec = ExecutableAction::materialize(&action, &snapshot, &subtask).map_err(|e| {
        HostError::new(
            ErrorCode::InvalidAction,
            format!("{}: {}", e.field, e.message),
        )
    })?;
    admit(&session.grants, limits, &snapshot, &exec)?;
    if matches!(exec.action, arc_core::Action::Navigate { .. })
        && backend(state)?.target().page().is_none()
    {
        return Err(HostError::new(
            ErrorCode::UnsupportedOnTarget,
            "NAVIGATE is served on browser pages only; this session is bound to a desktop window",
        ));
    }
    // The risk gate reads what the live page would press.
    let b = backend(state)?;
    let facts = match b.press_facts(&snapshot, &exec).await {
        Ok(f) => f,
        Err(e) => return Err(backend_failure(state, &e)),
    };
    if let Err(refusal) = risk::check(&exec, &snapshot, &subtask, &facts) {
        return Ok(ActResult {
            outcome: ActOutcome::Refused,
            reason: Some(state.redactor.redact(&refusal.reason).into_owned()),
            journal_seq: 0,
            observation: None,
        });
    }
    // From here on the observation is used, whatever happens.
    state.fence.consume();
    let b = backend(state)?;
    let fresh = match b.is_fresh(&snapshot, &exec).await {
        Ok(f) => f,
        Err(e) => return Err(backend_failure(state, &e)),
    };
    if !fresh {
        return stale(
            state,
            params,
            limits,
            "the target changed since the observation",
        )
        .await;
    }
    dispatch(
        session,
        state,
        params,
        limits,
        &snapshot,
        Planned::Action(&exec),
    )
    .await
}

/// What an act dispatches: a core action, or point input with its name (`CLICK_AT`, …)
/// for the journal and messages.
#[derive(Clone, Copy)]
pub(crate) enum Planned<'a> {
    Action(&'a ExecutableAction),
    Point(&'static str, &'a PointInput),
}

/// Dispatches a checked act on the cited `snapshot` (journaled, through the FIFO),
/// settles, and reports done / changed / stale with the next observation when asked.
pub(crate) async fn dispatch(
    session: &Session,
    state: &mut SessionState,
    params: &ActParams,
    limits: &Limits,
    snapshot: &Snapshot,
    planned: Planned<'_>,
) -> Result<ActResult, HostError> {
    // What the act should do to the page; settling ends early once it shows (core's
    // effect-aware settle), and point input has no known effect.
    let (what, effect, kind) = match &planned {
        Planned::Action(exec) => (
            exec.kind().as_str(),
            ExpectedEffect::of(exec, snapshot),
            Some(exec.kind()),
        ),
        Planned::Point(what, _) => (*what, ExpectedEffect::Unknown, None),
    };
    let b = backend(state)?;
    b.check_origin(kind)?;
    // A navigation stopped before this act is not this act's.
    b.take_blocked_navigation();
    let before = match b.settle_probe().await {
        Ok(s) => s,
        Err(e) => return Err(backend_failure(state, &e)),
    };
    // Where the press landed, when elsewhere (`landing.rs`).
    let executed = match planned {
        Planned::Action(exec) => b
            .execute(snapshot, exec)
            .await
            .map(|e| e.landed_elsewhere.map(Landed::of_action)),
        Planned::Point(what, input) => b
            .execute_at(what.to_owned(), input)
            .await
            .map(|l| l.map(|l| Landed::at_point(what, input, l))),
    };
    let (seq, journaled) = b.last_dispatch().unwrap_or((0, JournalState::NotDone));
    let lost = b.lost().is_some();
    let stopped = b
        .take_blocked_navigation()
        .map(|url| stopped_navigation(&url));
    if let (Err(_), Some(stopped)) = (&executed, &stopped) {
        // A NAVIGATE (or a redirect on its way) the page's origins stopped: not done.
        return Err(HostError::new(
            ErrorCode::OriginNotAllowed,
            format!("{what} {stopped}"),
        ));
    }
    let landed = match executed {
        Ok(landed) => landed,
        Err(BackendError::Stale { detail, .. }) => {
            return stale(state, params, limits, &detail).await.map(|mut r| {
                r.journal_seq = seq;
                r
            })
        }
        Err(e) if journaled == JournalState::Unknown => {
            let err = HostError::new(
                ErrorCode::CompletionUnknown,
                format!(
                    "{} (journal entry {seq}) was dispatched and then failed: {}; it may or may not have happened, so it is not retried — check the page before acting again",
                    what,
                    state.redactor.redact(&e.to_string())
                ),
            );
            if lost {
                state.broken = Some(err.clone());
            }
            return Err(err);
        }
        Err(e) => {
            return Err(HostError::new(
                ErrorCode::InvalidAction,
                format!("{}; observe again", state.redactor.redact(&e.to_string())),
            ))
        }
    };
    let b = backend(state)?;
    let reacted = if params.settle {
        let cfg = SettleConfig::default();
        let cap = cfg.cap.max(b.min_settle_cap());
        match settle_for(b, before, &effect, &cfg, cap, session.cancelled()).await {
            Ok(report) => matches!(
                report.end,
                SettleEnd::Quiet | SettleEnd::Cap | SettleEnd::Effect
            ),
            Err(e) => return Err(backend_failure(state, &e)),
        }
    } else {
        // One probe: did anything move at all?
        match b.settle_probe().await {
            Ok(after) => after != before,
            Err(e) => return Err(backend_failure(state, &e)),
        }
    };
    let observation = observe_if_asked(state, params, limits).await?;
    let changed = match (&observation, state.fence_latest_revision()) {
        (Some(_), Some(rev)) => rev != snapshot.revision || reacted,
        _ => reacted,
    };
    let stopped = stopped.or_else(|| {
        backend(state)
            .ok()?
            .take_blocked_navigation()
            .map(|url| stopped_navigation(&url))
    });
    let (outcome, reason) = match landed {
        Some(l) => (
            ActOutcome::LandedElsewhere,
            Some(
                state
                    .redactor
                    .redact(&l.reason(&session.grants.allowed_risks))
                    .into_owned(),
            ),
        ),
        // The act ran; a navigation it started (a link, a form, script) was stopped.
        None => (
            if changed {
                ActOutcome::Changed
            } else {
                ActOutcome::Done
            },
            stopped.map(|s| format!("{what} ran; a navigation it started {s}")),
        ),
    };
    Ok(ActResult {
        outcome,
        reason,
        journal_seq: seq,
        observation,
    })
}

/// What is said of a navigation the session's origins stopped: where it led (its origin
/// only: a path or query may carry what should not leave).
fn stopped_navigation(url: &str) -> String {
    let to = arc_browser::backend::origin(url).unwrap_or_else(|| "another page".to_owned());
    format!("was stopped: it led to {to}, which is not one of this session's origins; the page stayed where it was")
}

/// The fresh observation an act returns when its params ask for one.
async fn observe_if_asked(
    state: &mut SessionState,
    params: &ActParams,
    limits: &Limits,
) -> Result<Option<Observation>, HostError> {
    match &params.observe_after {
        Some(options) => Ok(Some(observe(state, options, limits).await?)),
        None => Ok(None),
    }
}

async fn stale(
    state: &mut SessionState,
    params: &ActParams,
    limits: &Limits,
    detail: &str,
) -> Result<ActResult, HostError> {
    let observation = observe_if_asked(state, params, limits).await?;
    // The detail may name what covered the target, as the page shows it.
    let detail = state.redactor.redact(detail);
    Ok(ActResult {
        outcome: ActOutcome::Stale,
        reason: Some(format!(
            "{detail}: nothing was done; act on a fresh observation"
        )),
        journal_seq: 0,
        observation,
    })
}
