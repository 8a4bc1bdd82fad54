//! Acts without an element: a click, wheel or drag at viewport points and typing at the
//! focus (the reference's `click_at`, `scroll_at`, `drag`, `type_text`). They pass the
//! same checks as element acts — the fence, the allow_input grant, limits (points inside
//! the cited observation's viewport, drag steps, text length), the risk gate on what the
//! live page has under the pressed point, the FIFO and the journal (`act::dispatch`).

use crate::act::{dispatch, Planned};
use crate::limits::Limits;
use crate::observation::{backend, backend_failure};
use crate::protocol::PointerButton;
use crate::protocol::{ActOutcome, ActParams, ActResult, ErrorCode, HostAction, HostError};
use crate::session::{Session, SessionState};
use arc_browser::backend::{PointButton, PointInput};
use arc_core::Pressable;

pub(crate) async fn act_at(
    session: &Session,
    state: &mut SessionState,
    params: &ActParams,
    limits: &Limits,
) -> Result<ActResult, HostError> {
    let snapshot = state.fence.check(&params.observation_id)?;
    let viewport = snapshot.viewport;
    session.grants.check_input("point and focus input")?;
    let (what, input) = checked(&params.action, limits, viewport)?;
    // The gates read the live page; nothing is pressed before they pass.
    let b = backend(state)?;
    let pressed = match &input {
        PointInput::Click { x, y, .. } => Some((*x, *y)),
        // A drop can press what it lands on (a drop zone that deletes).
        PointInput::Drag { points } => points.last().copied(),
        _ => None,
    };
    if let Some((x, y)) = pressed {
        let under = match b.target_mut().pressable_at(&snapshot, x, y).await {
            Ok(p) => p,
            Err(e) => return Err(backend_failure(state, &e)),
        };
        if let Some(reason) = under.iter().find_map(|p| risky(p, session, what, x, y)) {
            return Ok(ActResult {
                outcome: ActOutcome::Refused,
                reason: Some(state.redactor.redact(&reason).into_owned()),
                journal_seq: 0,
                observation: None,
            });
        }
    }
    if let PointInput::TypeFocused { text } = &input {
        let Some(page) = b.target_mut().page_mut() else {
            return Err(HostError::new(
                ErrorCode::UnsupportedOnTarget,
                "type_text (TYPE_FOCUSED) is served on browser pages only; on a desktop window use act with TYPE_TEXT on the field's element",
            ));
        };
        let focused = match page.focused_entry().await {
            Ok(f) => f,
            Err(e) => return Err(backend_failure(state, &e)),
        };
        if !focused.entry {
            let has = if focused.element.is_empty() {
                "nothing has focus".to_owned()
            } else {
                format!("the focus is on {}", focused.element)
            };
            return Err(HostError::new(
                ErrorCode::InvalidAction,
                format!("type_text types into the focused text field, and {has}: click the field first (or act with TYPE_TEXT on its element)"),
            ));
        }
        if focused.password {
            state.redactor.add(text);
        }
    }
    // From here on the observation is used, whatever happens.
    state.fence.consume();
    dispatch(
        session,
        state,
        params,
        limits,
        &snapshot,
        Planned::Point(what, &input),
    )
    .await
}

/// The action's name in messages and the journal, and its input, within the limits.
fn checked(
    action: &HostAction,
    limits: &Limits,
    viewport: Option<arc_core::Bounds>,
) -> Result<(&'static str, PointInput), HostError> {
    Ok(match action {
        HostAction::ClickAt {
            x,
            y,
            button,
            count,
            modifiers,
        } => {
            limits.check_point(viewport, *x, *y)?;
            if !(1..=3).contains(count) {
                return Err(HostError::new(
                    ErrorCode::InvalidParams,
                    format!("count must be 1–3 (got {count})"),
                ));
            }
            let button = match button {
                PointerButton::Left => PointButton::Left,
                PointerButton::Right => PointButton::Right,
            };
            (
                "CLICK_AT",
                PointInput::Click {
                    x: *x,
                    y: *y,
                    button,
                    count: *count,
                    modifiers: modifiers.iter().map(|m| m.to_core()).collect(),
                },
            )
        }
        HostAction::ScrollAt { x, y, dx, dy } => {
            limits.check_point(viewport, *x, *y)?;
            if !(dx.is_finite() && dy.is_finite()) {
                return Err(HostError::new(
                    ErrorCode::InvalidParams,
                    format!("dx and dy must be finite numbers (got {dx}, {dy})"),
                ));
            }
            limits.check_drag(*dx, *dy)?;
            // The reference's sign: positive dy shows what is above, which is a wheel
            // turned up (negative deltaY).
            (
                "SCROLL_AT",
                PointInput::Wheel {
                    x: *x,
                    y: *y,
                    dx: -dx,
                    dy: -dy,
                },
            )
        }
        HostAction::DragPath { points } => {
            limits.check_path(viewport, points)?;
            (
                "DRAG_PATH",
                PointInput::Drag {
                    points: points.iter().map(|[x, y]| (*x, *y)).collect(),
                },
            )
        }
        HostAction::TypeFocused { text } => {
            limits.check_text("text", text)?;
            (
                "TYPE_FOCUSED",
                PointInput::TypeFocused { text: text.clone() },
            )
        }
        other => {
            return Err(HostError::new(
                ErrorCode::InvalidAction,
                format!("{other:?} is an element action, not a point action"),
            ))
        }
    })
}

/// Why a press at (x, y) reaching `p` is refused: a risk word in any of its names that
/// the session's allowed_risks do not include.
fn risky(p: &Pressable, session: &Session, what: &str, x: f64, y: f64) -> Option<String> {
    let (risk, word, on) = p.risk(|r| session.grants.allowed_risks.contains(&r))?;
    Some(format!(
        "refused {what} at ({x}, {y}) on {on}: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include; nothing was pressed"
    ))
}
