//! A decision validated against the snapshot it was made on: the target exists, is
//! visible and enabled and offers the operation, the literal is resolved from the
//! subtask's inputs, and the target's guard is attached for the freshness check.

use crate::action::{Action, ActionKind};
use crate::element::{ElementId, Guard};
use crate::error::InvalidDecision;
use crate::key::{default_hotkeys, Chord, Key, DEFAULT_PRESS_KEYS};
use crate::scalar::Scalar;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use serde::{Deserialize, Serialize};

/// The longest drag a decision may ask for, in CSS/screen pixels.
pub const MAX_DRAG_PX: f64 = 10_000.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ExecutableWire", into = "ExecutableWire")]
pub struct ExecutableAction {
    pub action: Action,
    pub target_guard: Option<Guard>,
    pub secondary_target_guard: Option<Guard>,
    /// The literal from `inputs[input_key]`, for kinds that need one.
    pub value: Option<Scalar>,
}

impl ExecutableAction {
    pub fn kind(&self) -> ActionKind {
        self.action.kind()
    }

    pub fn target(&self) -> Option<&ElementId> {
        self.action.target()
    }

    /// The literal as text (empty for kinds without one).
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        self.value.as_ref().map(Scalar::as_text).unwrap_or_default()
    }

    /// The key press a `TYPE_TEXT` ends with (its submit key on the focus), as the action a
    /// backend that executes one step at a time — a state machine, the reference's
    /// Python protocol — receives right after the typing.
    pub fn submit_press(&self) -> Option<ExecutableAction> {
        let key = self.action.submit_key()?.key();
        Some(ExecutableAction {
            action: Action::PressKey { key },
            target_guard: None,
            secondary_target_guard: None,
            value: None,
        })
    }

    /// Validates `action` against `snapshot` and resolves its literal from `subtask`.
    pub fn materialize(
        action: &Action,
        snapshot: &Snapshot,
        subtask: &Subtask,
    ) -> Result<ExecutableAction, InvalidDecision> {
        let kind = action.kind();
        let target_guard = match action.target() {
            Some(id) => {
                let el = snapshot.element(id.as_str()).ok_or_else(|| {
                    InvalidDecision::new(
                        "target_id",
                        format!(
                            "Unknown target id {id}: not in snapshot {}",
                            snapshot.revision
                        ),
                    )
                })?;
                if !el.visible {
                    return Err(InvalidDecision::new(
                        "target_id",
                        format!("{id} is not visible"),
                    ));
                }
                // A wheel over a disabled box still scrolls it, and presses nothing.
                if !el.enabled && kind != ActionKind::Scroll {
                    return Err(InvalidDecision::new(
                        "target_id",
                        format!("{id} is not enabled"),
                    ));
                }
                let pressed_text = kind == ActionKind::Click && snapshot.text_in_control(el);
                if !el.offers(kind) && !pressed_text {
                    return Err(InvalidDecision::new(
                        "kind",
                        format!(
                            "{kind} is not legal for {id} ({} {}); it offers {:?}",
                            el.role,
                            crate::quote(&el.name),
                            el.actions
                        ),
                    ));
                }
                Some(el.effective_guard())
            }
            None => None,
        };
        let secondary_target_guard = match action.secondary_target() {
            Some(id) => {
                let el = snapshot.element(id.as_str()).ok_or_else(|| {
                    InvalidDecision::new(
                        "secondary_target_id",
                        format!("{id} is not in snapshot {}", snapshot.revision),
                    )
                })?;
                if !el.visible {
                    return Err(InvalidDecision::new(
                        "secondary_target_id",
                        format!("{id} is not visible"),
                    ));
                }
                if !el.accepts_drop {
                    return Err(InvalidDecision::new(
                        "secondary_target_id",
                        format!("{id} is not marked as a drop target"),
                    ));
                }
                Some(el.effective_guard())
            }
            None => None,
        };
        let value = match action.input_key() {
            Some(key) => Some(subtask.input(key).cloned().ok_or_else(|| {
                let known: Vec<&str> = subtask.inputs.keys().map(String::as_str).collect();
                InvalidDecision::new("input_key", format!("{key:?} is not in inputs {known:?}"))
            })?),
            None => None,
        };
        if let (Some(id), Some(literal)) = (action.target(), &value) {
            check_file_input(snapshot, id, literal, subtask)?;
        }
        match action {
            Action::PressKey { key } => check_key(*key)?,
            Action::Hotkey { chord } => check_chord(chord, subtask)?,
            Action::DragBy { dx, dy, .. } if dx.abs() > MAX_DRAG_PX || dy.abs() > MAX_DRAG_PX => {
                return Err(InvalidDecision::new(
                    "drag_dx",
                    format!("drag of ({dx}, {dy}) exceeds the {MAX_DRAG_PX} px limit"),
                ));
            }
            _ => {}
        }
        Ok(ExecutableAction {
            action: action.clone(),
            target_guard,
            secondary_target_guard,
            value,
        })
    }
}

/// A file input takes only a path the subtask lists in `files`: the literal rule, for
/// files (an input naming any other path, a planner's slip or a page's lure, is refused).
fn check_file_input(
    snapshot: &Snapshot,
    id: &crate::ElementId,
    literal: &crate::Scalar,
    subtask: &Subtask,
) -> Result<(), InvalidDecision> {
    let file_input = snapshot
        .element(id.as_str())
        .is_some_and(|el| el.facts.input_type == Some(crate::InputType::File));
    let path = literal.as_text();
    if file_input && !subtask.lists_file(&path) {
        return Err(InvalidDecision::new(
            "input_key",
            format!(
                "{id} is a file input: it takes only a path the subtask lists in `files`, and {:?} is not one",
                crate::clip(&path, crate::error::MAX_QUOTED_CHARS)
            ),
        ));
    }
    Ok(())
}

fn check_key(key: Key) -> Result<(), InvalidDecision> {
    if DEFAULT_PRESS_KEYS.contains(&key) || matches!(key, Key::F(_)) {
        Ok(())
    } else {
        Err(InvalidDecision::new(
            "key",
            format!("{key} is not a pressable key (named keys only; text comes from inputs)"),
        ))
    }
}

fn check_chord(chord: &Chord, subtask: &Subtask) -> Result<(), InvalidDecision> {
    if default_hotkeys().contains(chord) || subtask.shortcuts.contains(chord) {
        Ok(())
    } else {
        Err(InvalidDecision::new(
            "hotkey",
            format!("{chord} is neither a default hotkey nor declared in shortcuts"),
        ))
    }
}

crate::action_wire! {
    #[derive(Clone, Debug, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ExecutableWire { resolved }
}

impl TryFrom<ExecutableWire> for ExecutableAction {
    type Error = String;
    fn try_from(w: ExecutableWire) -> Result<Self, String> {
        Ok(ExecutableAction {
            action: Action::from_fields(w.action_fields())?,
            target_guard: w.target_guard,
            secondary_target_guard: w.secondary_target_guard,
            value: w.value,
        })
    }
}

impl From<ExecutableAction> for ExecutableWire {
    fn from(e: ExecutableAction) -> Self {
        let f = e.action.to_fields();
        let mut w = ExecutableWire::with_kind(f.kind);
        w.set_action_fields(f);
        w.target_guard = e.target_guard;
        w.secondary_target_guard = e.secondary_target_guard;
        w.value = e.value;
        w
    }
}
