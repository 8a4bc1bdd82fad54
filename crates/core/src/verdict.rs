//! How each of the planner's criteria was judged when the run ended, and on what: the
//! result's `verification`, so a person (or a planner) reading it sees why it says done.

use crate::element::ElementId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    /// The criterion as the planner gave it (a stated check in words).
    pub criterion: String,
    /// What the runtime read it as, in words ("unreadable" when it could not read it).
    pub check: String,
    pub holds: bool,
    pub evidence: Evidence,
    /// The runtime could not read the criterion: it does not hold on the reader's word,
    /// and a judge (a model, a person) may settle it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unread: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What decided a verdict: the elements that showed it and what they said, or the run's
/// own records; for a criterion that does not hold, why not.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<ElementId>,
    pub text: String,
}
