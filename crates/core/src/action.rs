//! UI operations. [`ActionKind`] is the wire vocabulary (`CLICK`, `TYPE_TEXT`, …);
//! [`Action`] is an operation with exactly the parameters its kind needs, so a
//! `TYPE_TEXT` without an input key cannot be represented past the JSON boundary.

use crate::element::ElementId;
use crate::key::{Chord, ClickModifier, Key, SubmitKey};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ActionKind {
    Click,
    DoubleClick,
    RightClick,
    TypeText,
    SetValue,
    PressKey,
    Hotkey,
    Scroll,
    DragTo,
    DragBy,
    Wait,
    SelectOption,
    Navigate,
    /// Moves the pointer onto an element without pressing (opens hover menus).
    Hover,
    /// Selects (highlights) all the text an element shows, with the mouse.
    SelectText,
}

impl ActionKind {
    pub const ALL: [ActionKind; 15] = [
        ActionKind::Click,
        ActionKind::DoubleClick,
        ActionKind::RightClick,
        ActionKind::TypeText,
        ActionKind::SetValue,
        ActionKind::PressKey,
        ActionKind::Hotkey,
        ActionKind::Scroll,
        ActionKind::DragTo,
        ActionKind::DragBy,
        ActionKind::Wait,
        ActionKind::SelectOption,
        ActionKind::Navigate,
        ActionKind::Hover,
        ActionKind::SelectText,
    ];

    /// The upper-case wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Click => "CLICK",
            ActionKind::DoubleClick => "DOUBLE_CLICK",
            ActionKind::RightClick => "RIGHT_CLICK",
            ActionKind::TypeText => "TYPE_TEXT",
            ActionKind::SetValue => "SET_VALUE",
            ActionKind::PressKey => "PRESS_KEY",
            ActionKind::Hotkey => "HOTKEY",
            ActionKind::Scroll => "SCROLL",
            ActionKind::DragTo => "DRAG_TO",
            ActionKind::DragBy => "DRAG_BY",
            ActionKind::Wait => "WAIT",
            ActionKind::SelectOption => "SELECT_OPTION",
            ActionKind::Navigate => "NAVIGATE",
            ActionKind::Hover => "HOVER",
            ActionKind::SelectText => "SELECT_TEXT",
        }
    }

    /// Kinds that act on an element and so must be offered by it.
    pub fn needs_target(self) -> bool {
        !matches!(
            self,
            ActionKind::PressKey
                | ActionKind::Hotkey
                | ActionKind::Scroll
                | ActionKind::Wait
                | ActionKind::Navigate
        )
    }

    /// Kinds whose literal comes from `Subtask.inputs` through `input_key`.
    pub fn needs_input(self) -> bool {
        matches!(
            self,
            ActionKind::TypeText
                | ActionKind::SetValue
                | ActionKind::SelectOption
                | ActionKind::Navigate
        )
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The legal operations on an element: a bit set, serialized as a list of kinds.
/// `contains` is one AND, which matters on the materialize path of every step.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ActionSet(u16);

impl ActionSet {
    pub const EMPTY: ActionSet = ActionSet(0);

    pub fn contains(self, kind: ActionKind) -> bool {
        self.0 & kind.bit() != 0
    }
    pub fn insert(&mut self, kind: ActionKind) {
        self.0 |= kind.bit();
    }
    pub fn with(mut self, kind: ActionKind) -> Self {
        self.insert(kind);
        self
    }
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
    pub fn bits(self) -> u16 {
        self.0
    }
    pub fn iter(self) -> impl Iterator<Item = ActionKind> {
        ActionKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

impl FromIterator<ActionKind> for ActionSet {
    fn from_iter<I: IntoIterator<Item = ActionKind>>(iter: I) -> Self {
        let mut set = ActionSet::EMPTY;
        for k in iter {
            set.insert(k);
        }
        set
    }
}

impl<const N: usize> From<[ActionKind; N]> for ActionSet {
    fn from(kinds: [ActionKind; N]) -> Self {
        kinds.into_iter().collect()
    }
}

impl fmt::Debug for ActionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Serialize for ActionSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for ActionSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<ActionKind>::deserialize(d)?.into_iter().collect())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ScrollDirection {
    Up,
    Down,
    Left,
    Right,
}

/// An operation with exactly the parameters its kind requires.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A left click, holding `modifier` down when given (MOD toggles the target in a
    /// multi-selection, SHIFT extends a range to it).
    Click {
        target: ElementId,
        modifier: Option<ClickModifier>,
    },
    DoubleClick {
        target: ElementId,
    },
    RightClick {
        target: ElementId,
    },
    /// Moves the pointer onto the target's visible box; nothing is pressed.
    Hover {
        target: ElementId,
    },
    /// Selects all the text the target shows, as a person does with the mouse: press
    /// before its first character, drag to after its last, release. The page's selection
    /// then holds exactly that text (a copy, a "highlight the passage" task).
    SelectText {
        target: ElementId,
    },
    /// Replaces what the field holds with `inputs[input_key]`, then presses `submit` on it
    /// when given (ENTER submits a search or a form, TAB moves to the next field): one
    /// action, one record.
    TypeText {
        target: ElementId,
        input_key: String,
        submit: Option<SubmitKey>,
    },
    SetValue {
        target: ElementId,
        input_key: String,
    },
    SelectOption {
        target: ElementId,
        input_key: String,
    },
    PressKey {
        key: Key,
    },
    Hotkey {
        chord: Chord,
    },
    /// Scrolls the page, or the given scrollable element.
    Scroll {
        direction: ScrollDirection,
        target: Option<ElementId>,
    },
    DragTo {
        target: ElementId,
        destination: ElementId,
    },
    DragBy {
        target: ElementId,
        dx: f64,
        dy: f64,
    },
    Wait,
    /// Navigates to the URL held in `inputs[input_key]` (never a model-invented URL).
    Navigate {
        input_key: String,
    },
}

impl Action {
    /// A plain left click.
    pub fn click(target: impl Into<ElementId>) -> Action {
        Action::Click {
            target: target.into(),
            modifier: None,
        }
    }

    /// Typing `inputs[input_key]` into `target`, with no key after it.
    pub fn type_text(target: impl Into<ElementId>, input_key: impl Into<String>) -> Action {
        Action::TypeText {
            target: target.into(),
            input_key: input_key.into(),
            submit: None,
        }
    }

    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Click { .. } => ActionKind::Click,
            Action::DoubleClick { .. } => ActionKind::DoubleClick,
            Action::RightClick { .. } => ActionKind::RightClick,
            Action::Hover { .. } => ActionKind::Hover,
            Action::SelectText { .. } => ActionKind::SelectText,
            Action::TypeText { .. } => ActionKind::TypeText,
            Action::SetValue { .. } => ActionKind::SetValue,
            Action::SelectOption { .. } => ActionKind::SelectOption,
            Action::PressKey { .. } => ActionKind::PressKey,
            Action::Hotkey { .. } => ActionKind::Hotkey,
            Action::Scroll { .. } => ActionKind::Scroll,
            Action::DragTo { .. } => ActionKind::DragTo,
            Action::DragBy { .. } => ActionKind::DragBy,
            Action::Wait => ActionKind::Wait,
            Action::Navigate { .. } => ActionKind::Navigate,
        }
    }

    /// The element the action lands on, if any.
    pub fn target(&self) -> Option<&ElementId> {
        match self {
            Action::Click { target, .. }
            | Action::DoubleClick { target }
            | Action::RightClick { target }
            | Action::Hover { target }
            | Action::SelectText { target }
            | Action::TypeText { target, .. }
            | Action::SetValue { target, .. }
            | Action::SelectOption { target, .. }
            | Action::DragTo { target, .. }
            | Action::DragBy { target, .. } => Some(target),
            Action::Scroll { target, .. } => target.as_ref(),
            Action::PressKey { .. }
            | Action::Hotkey { .. }
            | Action::Wait
            | Action::Navigate { .. } => None,
        }
    }

    /// The drop destination of a `DRAG_TO`.
    pub fn secondary_target(&self) -> Option<&ElementId> {
        match self {
            Action::DragTo { destination, .. } => Some(destination),
            _ => None,
        }
    }

    /// The key a `TYPE_TEXT` presses after its value.
    pub fn submit_key(&self) -> Option<SubmitKey> {
        match self {
            Action::TypeText { submit, .. } => *submit,
            _ => None,
        }
    }

    /// The key a `CLICK` holds down.
    pub fn click_modifier(&self) -> Option<ClickModifier> {
        match self {
            Action::Click { modifier, .. } => *modifier,
            _ => None,
        }
    }

    pub fn input_key(&self) -> Option<&str> {
        match self {
            Action::TypeText { input_key, .. }
            | Action::SetValue { input_key, .. }
            | Action::SelectOption { input_key, .. }
            | Action::Navigate { input_key } => Some(input_key),
            _ => None,
        }
    }

    /// Builds an action from the flat wire fields, naming what is missing, and refusing
    /// (as the reference's validation does) a key after typing other than ENTER or TAB and
    /// a click modifier on anything but CLICK, or other than MOD or SHIFT.
    pub fn from_fields(f: ActionFields) -> Result<Action, String> {
        let kind = f.kind;
        let target = || {
            f.target_id
                .clone()
                .ok_or_else(|| format!("{kind} requires target_id"))
        };
        let input_key = || {
            f.input_key
                .clone()
                .filter(|k| !k.is_empty())
                .ok_or_else(|| format!("{kind} requires input_key"))
        };
        let action = match kind {
            ActionKind::Click => Action::Click {
                target: target()?,
                modifier: f.click_modifier.map(ClickModifier::try_from).transpose()?,
            },
            ActionKind::DoubleClick => Action::DoubleClick { target: target()? },
            ActionKind::RightClick => Action::RightClick { target: target()? },
            ActionKind::Hover => Action::Hover { target: target()? },
            ActionKind::SelectText => Action::SelectText { target: target()? },
            ActionKind::TypeText => Action::TypeText {
                target: target()?,
                input_key: input_key()?,
                submit: f.key.map(SubmitKey::try_from).transpose()?,
            },
            ActionKind::SetValue => Action::SetValue {
                target: target()?,
                input_key: input_key()?,
            },
            ActionKind::SelectOption => Action::SelectOption {
                target: target()?,
                input_key: input_key()?,
            },
            ActionKind::PressKey => Action::PressKey {
                key: f.key.ok_or_else(|| format!("{kind} requires key"))?,
            },
            ActionKind::Hotkey => Action::Hotkey {
                chord: f
                    .hotkey
                    .clone()
                    .ok_or_else(|| format!("{kind} requires hotkey"))?,
            },
            ActionKind::Scroll => Action::Scroll {
                direction: f
                    .scroll_direction
                    .ok_or_else(|| format!("{kind} requires scroll_direction"))?,
                target: f.target_id.clone(),
            },
            ActionKind::DragTo => Action::DragTo {
                target: target()?,
                destination: f
                    .secondary_target_id
                    .clone()
                    .ok_or_else(|| format!("{kind} requires secondary_target_id"))?,
            },
            ActionKind::DragBy => {
                let (dx, dy) = match (f.drag_dx, f.drag_dy) {
                    (Some(dx), Some(dy)) if dx.is_finite() && dy.is_finite() => (dx, dy),
                    (Some(_), Some(_)) => {
                        return Err(format!("{kind} needs finite drag_dx/drag_dy"))
                    }
                    _ => return Err(format!("{kind} requires drag_dx and drag_dy")),
                };
                Action::DragBy {
                    target: target()?,
                    dx,
                    dy,
                }
            }
            ActionKind::Wait => Action::Wait,
            ActionKind::Navigate => Action::Navigate {
                input_key: input_key()?,
            },
        };
        if kind != ActionKind::Click && f.click_modifier.is_some() {
            return Err(format!(
                "{kind} does not take a click modifier (click_modifier is for CLICK)"
            ));
        }
        Ok(action)
    }

    /// The flat wire fields of this action.
    pub fn to_fields(&self) -> ActionFields {
        let mut f = ActionFields::new(self.kind());
        f.target_id = self.target().cloned();
        f.secondary_target_id = self.secondary_target().cloned();
        f.input_key = self.input_key().map(str::to_owned);
        match self {
            Action::Click {
                modifier: Some(m), ..
            } => f.click_modifier = Some(m.modifier()),
            Action::TypeText {
                submit: Some(k), ..
            } => f.key = Some(k.key()),
            Action::PressKey { key } => f.key = Some(*key),
            Action::Hotkey { chord } => f.hotkey = Some(chord.clone()),
            Action::Scroll { direction, .. } => f.scroll_direction = Some(*direction),
            Action::DragBy { dx, dy, .. } => {
                f.drag_dx = Some(*dx);
                f.drag_dy = Some(*dy);
            }
            _ => {}
        }
        f
    }
}

// `ActionParam` and `ActionFields`, from the one table (`params.rs`).
crate::action_params! { __action_fields {} }
