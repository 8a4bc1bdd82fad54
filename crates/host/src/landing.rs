//! Where an act's press landed, as the page confirms it (the landed-elsewhere watch `run`
//! reads too): a press that went to another element than the one aimed at or judged at
//! the point — an overlay that appeared between the gate and the press — is reported as
//! `landed_elsewhere`, naming what received it and the risk it carries when the session
//! does not allow it. It was pressed: the agent must check the page.

use crate::act::Planned;
use crate::guarded::GuardedBackend;
use arc_browser::backend::PointInput;
use arc_core::{Backend, Pressable, Risk};
use std::collections::BTreeSet;

/// A press that landed elsewhere.
pub(crate) struct Landed {
    /// What it was meant for: an element id, or the point.
    meant: String,
    element: Pressable,
}

/// Takes the backend's record of where the dispatched press landed, when elsewhere.
pub(crate) fn take(b: &mut GuardedBackend, planned: Planned<'_>) -> Option<Landed> {
    match planned {
        Planned::Action(_) => b.take_landed_elsewhere().map(|l| Landed {
            meant: l.intended.to_string(),
            element: l.element,
        }),
        Planned::Point(what, input) => {
            let l = b.target_mut().page_mut()?.take_point_landing()?;
            let at = match input {
                PointInput::Click { x, y, .. } => format!(" at ({x}, {y})"),
                _ => String::new(),
            };
            Some(Landed {
                meant: format!("{what}{at}"),
                element: l.element,
            })
        }
    }
}

impl Landed {
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
