//! The assertion engine: what a task claims about the page after a run, checked by the
//! harness itself — in the page for browser tasks ([`page`]), on the harness's own
//! observation for the simulated app ([`sim`]) — never taken from the runtime's result.
//!
//! Every assertion yields an [`AssertionOutcome`]; an assertion that does not hold, or
//! cannot even be evaluated (a bad selector, a page that stopped answering), is a failed
//! outcome with the reason, never an error or a panic.

mod fingerprint;
mod locator;
pub mod page;
pub mod rows;
pub mod sim;
mod text_match;

pub use fingerprint::Fingerprint;
pub use locator::Locator;
pub use rows::RowChange;
pub use text_match::{Pattern, TextMatch};

use serde::{Deserialize, Serialize};
use std::fmt;

/// One claim about the page after the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Assertion {
    /// The page's URL (`location.href`, fragment included).
    Url(TextMatch),
    /// The text is on the page and rendered: not inside a display:none, visibility:hidden,
    /// opacity:0, aria-hidden or zero-size element, nor clipped away by an overflow box.
    VisibleText {
        text: String,
    },
    /// The first element the locator finds (in document order) is in this state.
    ElementState {
        target: Locator,
        state: ElementState,
    },
    /// The first element the locator finds has exactly this value (`.value`).
    InputValue {
        target: Locator,
        value: String,
    },
    PageTitle(TextMatch),
    /// The first element the locator finds: its text, value or selected index (as decimal
    /// text), matched. What WebArena's `document.querySelector(sel).outerText` checks read.
    ElementText {
        target: Locator,
        #[serde(default)]
        property: TextProperty,
        text: TextMatch,
    },
    /// Whether the page's DOM (markup, form values, URL, title) differs from before the
    /// run. `changed: false` says a run must leave the page as it found it.
    StateChanged {
        #[serde(default = "yes")]
        changed: bool,
    },
    /// The application's database changed by exactly these rows in its watched tables
    /// (none: it did not change). Judged by `eval apps` on the app's own record; a page
    /// or the simulated app has no database to read.
    Rows {
        changes: Vec<RowChange>,
    },
}

fn yes() -> bool {
    true
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementState {
    Visible,
    /// Not rendered (see [`Assertion::VisibleText`]), or not in the document at all.
    Hidden,
    Enabled,
    Disabled,
    Checked,
    Unchecked,
    /// `aria-selected="true"`, or a selected `<option>`.
    Selected,
    Unselected,
    /// In the document, rendered or not.
    Attached,
    Detached,
}

/// Which reading of an element [`Assertion::ElementText`] matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextProperty {
    /// `innerText`: the rendered text, line breaks kept (what `outerText` reads too).
    #[default]
    Text,
    /// `.value` of a form control.
    Value,
    /// `.selectedIndex` of a `<select>`, as decimal text (`-1` when none is selected).
    SelectedIndex,
}

impl TextProperty {
    pub fn as_str(self) -> &'static str {
        match self {
            TextProperty::Text => "text",
            TextProperty::Value => "value",
            TextProperty::SelectedIndex => "selected index",
        }
    }
}

impl ElementState {
    pub fn as_str(self) -> &'static str {
        match self {
            ElementState::Visible => "visible",
            ElementState::Hidden => "hidden",
            ElementState::Enabled => "enabled",
            ElementState::Disabled => "disabled",
            ElementState::Checked => "checked",
            ElementState::Unchecked => "unchecked",
            ElementState::Selected => "selected",
            ElementState::Unselected => "unselected",
            ElementState::Attached => "attached",
            ElementState::Detached => "detached",
        }
    }
}

impl fmt::Display for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Assertion::Url(m) => write!(f, "url {m}"),
            Assertion::VisibleText { text } => write!(f, "visible text {text:?}"),
            Assertion::ElementState { target, state } => {
                write!(f, "{target} is {}", state.as_str())
            }
            Assertion::InputValue { target, value } => write!(f, "{target} has value {value:?}"),
            Assertion::PageTitle(m) => write!(f, "title {m}"),
            Assertion::ElementText {
                target,
                property,
                text,
            } => write!(f, "{target} {} {text}", property.as_str()),
            Assertion::StateChanged { changed: true } => f.write_str("the page changed"),
            Assertion::StateChanged { changed: false } => f.write_str("the page did not change"),
            Assertion::Rows { changes } if changes.is_empty() => {
                f.write_str("the database did not change")
            }
            Assertion::Rows { changes } => {
                let each: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
                write!(f, "the database changed by {}", each.join("; "))
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Passed,
    Failed,
}

/// The result of one assertion: the verdict and what was found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssertionOutcome {
    pub assertion: Assertion,
    pub verdict: Verdict,
    pub message: String,
}

impl AssertionOutcome {
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Passed
    }

    pub(crate) fn judge(assertion: &Assertion, ok: bool, message: impl Into<String>) -> Self {
        AssertionOutcome {
            assertion: assertion.clone(),
            verdict: if ok { Verdict::Passed } else { Verdict::Failed },
            message: message.into(),
        }
    }

    pub(crate) fn fail(assertion: &Assertion, message: impl Into<String>) -> Self {
        Self::judge(assertion, false, message)
    }
}
