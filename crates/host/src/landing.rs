//! Where an act's press landed, as the page confirms it (the landed-elsewhere watch `run`
//! reads too): a press that went to another element than the one aimed at or judged at
//! the point — an overlay that appeared between the gate and the press — is reported as
//! `landed_elsewhere`, naming what received it and the risk it carries when the session
//! does not allow it. It was pressed: the agent must check the page.

use arc_browser::backend::{PointInput, PointLanding};
use arc_core::{LandedElsewhere, Pressable, Risk};
use std::collections::BTreeSet;

/// A press that landed elsewhere.
pub(crate) struct Landed {
    /// What it was meant for: an element id, or the point.
    meant: String,
    element: Pressable,
}

impl Landed {
    /// An element action's press, as its backend reported it.
    pub(crate) fn of_action(l: LandedElsewhere) -> Self {
        Landed {
            meant: l.intended.to_string(),
            element: l.element,
        }
    }

    /// A point input's press (`what` names the input), as the page reported it.
    pub(crate) fn at_point(what: &str, input: &PointInput, l: PointLanding) -> Self {
        let at = match input {
            PointInput::Click { x, y, .. } => format!(" at ({x}, {y})"),
            _ => String::new(),
        };
        Landed {
            meant: format!("{what}{at}"),
            element: l.element,
        }
    }

    /// Says where it went and, when that element carries a risk `allowed` lacks, which.
    pub(crate) fn reason(&self, allowed: &BTreeSet<Risk>) -> String {
        match self.element.risk(|r| allowed.contains(&r)) {
            Some((risk, word, what)) => format!(
                "the press meant for {} landed on {what} instead: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include; it was pressed — check the page before acting again",
                self.meant
            ),
            None => format!(
                "the press meant for {} landed on {} instead; check the page before acting again",
                self.meant, self.element.element
            ),
        }
    }
}
