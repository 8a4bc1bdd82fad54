//! The vocabulary plan, inputs and intents share: a proposed action, a step's status and
//! the decision outcome before it becomes a [`arc_core::Decision`].

use arc_core::Action;

/// What kind of step an action serves; recorded in the decision's `raw` so later
/// decisions can read their own history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Fill,
    Toggle,
    Choose,
    Expand,
    /// Closing a list the run opened that a pick left open (`dropdown`).
    Close,
    Click,
    Commit,
    Progress,
    /// Opening a tab or collapsed item to look for a target the page does not show.
    Explore,
    Scroll,
    Press,
    Navigate,
    /// A click repeated once because the criteria stayed unmet after it.
    Retry,
    /// A pointer resting on a menu item to open it.
    Hover,
    /// Answering an uninvited popup with its cancel-like control (`popup`): no commit.
    Dismiss,
    /// A step of a copy and paste through the clipboard (`clipboard`).
    Clipboard,
    /// Focusing a slider or pressing one of its keys (`slider`).
    Slide,
    /// Selecting a passage's text with the mouse (`highlight`).
    Highlight,
    /// Opening the item a goal names by a word, whose own controls show once open
    /// (`item::open_named`).
    OpenItem,
    /// Turning a popup calendar to the month wanted (`month`).
    Turn,
    /// One press of a count's "+" or "−" (`stepper`): the page applies it, so it is no
    /// edit a later commit must send.
    Step,
    Wait,
}

impl StepKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Fill => "fill",
            StepKind::Toggle => "toggle",
            StepKind::Choose => "choose",
            StepKind::Expand => "expand",
            StepKind::Close => "close",
            StepKind::Click => "click",
            StepKind::Commit => "commit",
            StepKind::Progress => "progress",
            StepKind::Explore => "explore",
            StepKind::Scroll => "scroll",
            StepKind::Press => "press",
            StepKind::Navigate => "navigate",
            StepKind::Retry => "retry",
            StepKind::Hover => "hover",
            StepKind::Dismiss => "dismiss",
            StepKind::Clipboard => "clipboard",
            StepKind::Slide => "slide",
            StepKind::Highlight => "highlight",
            StepKind::OpenItem => "open_item",
            StepKind::Turn => "turn",
            StepKind::Step => "step",
            StepKind::Wait => "wait",
        }
    }

    /// What a click of this kind is for, when the kind says (settling ends once it holds):
    /// a dismissal closes what holds its control, an expansion opens, a close folds, and
    /// anything else it clicks for is answered by the page.
    pub fn expect(self) -> Option<arc_core::Expect> {
        use arc_core::Expect;
        match self {
            StepKind::Dismiss => Some(Expect::Hidden),
            StepKind::Expand => Some(Expect::Expanded(true)),
            StepKind::Close => Some(Expect::Expanded(false)),
            // A commit, a pick or the goal's own click: the page answers it.
            StepKind::Commit
            | StepKind::Click
            | StepKind::Choose
            | StepKind::Progress
            | StepKind::Step => Some(Expect::Reaction),
            _ => None,
        }
    }

    /// Steps that change what a form holds (a commit after them must be redone).
    pub fn edits_form(tag: &str) -> bool {
        matches!(tag, "fill" | "toggle" | "choose" | "slide")
    }
}

/// A proposed action with its grounding scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Act {
    pub action: Action,
    pub kind: StepKind,
    pub confidence: f64,
    pub margin: f64,
    /// What was grounded, for the decision's reason ("input \"email\" → e4 \"Email\"").
    pub why: String,
    /// Document position of the target: forms are filled top to bottom.
    pub order: usize,
}

/// Where one step stands on the current snapshot.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Done,
    Pending(Act),
    /// Nothing on this snapshot grounds it (it may appear after a later step): the text
    /// says what was looked for.
    Absent(String),
    /// The step cannot proceed; the run should end with this outcome.
    Stop(Outcome),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Act(Act),
    Complete(String),
    Wait(String),
    NeedsAgent(String),
    /// Every step is done and the criteria are not shown to hold: a hand-back a judge
    /// may settle.
    Unverified(String),
    NeedsInput(String),
    /// The page asks for what only a person can give (`person`).
    NeedsHuman(Box<super::person::Ask>),
}
