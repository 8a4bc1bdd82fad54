//! The vocabulary of one model request: the operations it may pick, the heads (questions)
//! it answers, and the verdicts on verification criteria. Each has one wire spelling,
//! shared by the OpenAI schema and the JEV questions.

use arc_core::action::ActionParam;
use arc_core::{ActionKind, TerminalKind};
use std::fmt;

/// What the `operation` head may answer: an offered action kind or a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    Act(ActionKind),
    Terminal(TerminalKind),
}

/// The terminals a model may pick (NEEDS_INPUT and DRY_RUN are the runtime's own).
pub const MODEL_TERMINALS: [TerminalKind; 3] = [
    TerminalKind::SubtaskComplete,
    TerminalKind::Blocked,
    TerminalKind::NeedsAgent,
];

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Act(k) => k.as_str(),
            Operation::Terminal(t) => t.as_str(),
        }
    }

    pub fn parse(raw: &str) -> Option<Operation> {
        ActionKind::ALL
            .into_iter()
            .find(|k| k.as_str() == raw)
            .map(Operation::Act)
            .or_else(|| {
                MODEL_TERMINALS
                    .into_iter()
                    .find(|t| t.as_str() == raw)
                    .map(Operation::Terminal)
            })
    }

    /// One line for the model: what picking this operation means.
    pub fn describe(self) -> &'static str {
        match self {
            Operation::Act(k) => match k {
                ActionKind::Click => "Click an observed element.",
                ActionKind::DoubleClick => "Double-click an observed element.",
                ActionKind::RightClick => "Open an observed element's context menu.",
                ActionKind::Hover => {
                    "Rest the pointer on an observed element without clicking (opens hover menus)."
                }
                ActionKind::SelectText => {
                    "Highlight all the text an observed element shows (as a mouse drag)."
                }
                ActionKind::TypeText => "Enter one planner-supplied input into a text field.",
                ActionKind::SetValue => "Set a control's value to one planner-supplied input.",
                ActionKind::SelectOption => {
                    "Choose the option named by one planner-supplied input."
                }
                ActionKind::PressKey => "Press one named key.",
                ActionKind::Hotkey => "Press one offered keyboard shortcut.",
                ActionKind::Scroll => "Scroll the page one screen in a direction.",
                ActionKind::DragTo => "Drag an observed element onto an observed drop target.",
                ActionKind::DragBy => "Drag an observed element by an offset.",
                ActionKind::Wait => "Wait briefly for an in-progress change.",
                ActionKind::Navigate => "Open the URL held in one planner-supplied input.",
            },
            Operation::Terminal(t) => match t {
                TerminalKind::SubtaskComplete => {
                    "Every verification criterion is observably satisfied now."
                }
                TerminalKind::Blocked => "No offered operation can make progress.",
                _ => "Progress or verification needs higher-level reasoning or perception.",
            },
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One question of a request. Its wire name is the schema property / JEV question key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Head {
    Operation,
    /// The element a targeted operation lands on: `click_target`, `type_text_target`, …
    Target(ActionKind),
    /// The drop target of DRAG_TO: `drag_to_destination`.
    Destination,
    /// The input key an operation's literal comes from: `type_text_input`, …
    Input(ActionKind),
    /// `press_key_value`.
    Key,
    /// `hotkey_value`.
    Hotkey,
    /// `scroll_direction`.
    Scroll,
    /// `criterion_<i>`: the verdict on `verification[i]`.
    Criterion(usize),
}

impl Head {
    pub fn name(self) -> String {
        let lower = |k: ActionKind| k.as_str().to_ascii_lowercase();
        match self {
            Head::Operation => "operation".into(),
            Head::Target(k) => format!("{}_target", lower(k)),
            Head::Destination => "drag_to_destination".into(),
            Head::Input(k) => format!("{}_input", lower(k)),
            Head::Key => "press_key_value".into(),
            Head::Hotkey => "hotkey_value".into(),
            Head::Scroll => "scroll_direction".into(),
            Head::Criterion(i) => format!("criterion_{i}"),
        }
    }
}

impl Head {
    /// The action parameter (of core's one table) this head's answer fills; none for
    /// the operation (the kind) and the criteria. DRAG_BY's offsets have no head: a free
    /// number is not a choice (see `space.rs`).
    pub fn param(self) -> Option<ActionParam> {
        match self {
            Head::Target(_) => Some(ActionParam::TargetId),
            Head::Destination => Some(ActionParam::SecondaryTargetId),
            Head::Input(_) => Some(ActionParam::InputKey),
            Head::Key => Some(ActionParam::Key),
            Head::Hotkey => Some(ActionParam::Hotkey),
            Head::Scroll => Some(ActionParam::ScrollDirection),
            Head::Operation | Head::Criterion(_) => None,
        }
    }
}

impl fmt::Display for Head {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A model's verdict on one verification criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Satisfied,
    NotSatisfied,
    Unknown,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Satisfied, Verdict::NotSatisfied, Verdict::Unknown];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Satisfied => "SATISFIED",
            Verdict::NotSatisfied => "NOT_SATISFIED",
            Verdict::Unknown => "UNKNOWN",
        }
    }

    pub fn parse(raw: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == raw)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Satisfied => "The screen shows the criterion holds.",
            Verdict::NotSatisfied => "The screen shows the criterion does not hold yet.",
            Verdict::Unknown => "The screen cannot establish it either way.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parsing_round_trip() {
        assert_eq!(
            Head::Target(ActionKind::TypeText).name(),
            "type_text_target"
        );
        assert_eq!(Head::Input(ActionKind::SetValue).name(), "set_value_input");
        assert_eq!(Head::Criterion(2).name(), "criterion_2");
        for op in ActionKind::ALL
            .map(Operation::Act)
            .into_iter()
            .chain(MODEL_TERMINALS.map(Operation::Terminal))
        {
            assert_eq!(Operation::parse(op.as_str()), Some(op));
        }
        assert_eq!(Operation::parse("DRY_RUN"), None);
        assert_eq!(Verdict::parse("NOT_SATISFIED"), Some(Verdict::NotSatisfied));
    }

    /// The model reaches every parameter of core's table through a head, except the
    /// drag offsets (DRAG_BY is never offered) and the click modifier: a modified click
    /// opens tabs or extends selections, a planner's literal choice, never the model's.
    #[test]
    fn the_heads_cover_the_parameter_table() {
        let heads = [
            Head::Operation,
            Head::Target(ActionKind::Click),
            Head::Destination,
            Head::Input(ActionKind::TypeText),
            Head::Key,
            Head::Hotkey,
            Head::Scroll,
            Head::Criterion(0),
        ];
        let reached: Vec<&str> = heads
            .iter()
            .filter_map(|h| h.param())
            .map(|p| p.name())
            .collect();
        let all: Vec<&str> = ActionParam::ALL.iter().map(|p| p.name()).collect();
        let unreached: Vec<&str> = all.into_iter().filter(|p| !reached.contains(p)).collect();
        assert_eq!(unreached, ["drag_dx", "drag_dy", "click_modifier"]);
    }
}
