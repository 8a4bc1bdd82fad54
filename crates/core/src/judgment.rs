//! A judge's word on criteria the runtime could not read: asked of a model when a policy
//! did the work and cannot say whether it holds. Untrusted, like a recovery plan: the
//! caller accepts "holds" only on the cited elements' own text (arc-reflex's `support`).

use crate::element::ElementId;
use serde::{Deserialize, Serialize};

/// One criterion put to a judge: its place among the subtask's criteria, and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub index: usize,
    pub criterion: String,
}

/// A judge's answer on one question: whether the criterion holds on the current
/// snapshot, and the elements whose text shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub holds: bool,
    #[serde(default)]
    pub cites: Vec<ElementId>,
}
