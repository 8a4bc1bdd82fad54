//! Who made a decision, as a type: the tier that answered and the policy behind it.
//! The CLI, the trajectory log and eval read this, never a string inside `raw`.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// The kind of decision-maker. One enum for every reader (counts, logs, reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// The local, deterministic reflex policy.
    Reflex,
    /// A replay from the selector cache.
    Cache,
    /// A model endpoint.
    Model,
    /// The escalation controller's own answer (a local-recovery wait, an abort, a
    /// hand-back) — not a recovery plan.
    Controller,
    /// A step of a compiled recovery plan (`recovery.rs`).
    Recovery,
    /// A script: decisions written in advance (tests, `--policy script`, replays).
    Script,
}

impl Tier {
    pub const ALL: [Tier; 6] = [
        Tier::Reflex,
        Tier::Cache,
        Tier::Model,
        Tier::Controller,
        Tier::Recovery,
        Tier::Script,
    ];

    /// The wire name (serde's).
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Reflex => "reflex",
            Tier::Cache => "cache",
            Tier::Model => "model",
            Tier::Controller => "controller",
            Tier::Recovery => "recovery",
            Tier::Script => "script",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decision's maker: its tier and the deciding policy's [`Policy::name`].
///
/// [`Policy::name`]: crate::Policy::name
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    pub tier: Tier,
    /// Borrowed from a `&'static` policy name on the hot path; owned when parsed.
    pub policy: Cow<'static, str>,
}

impl Provenance {
    pub fn new(tier: Tier, policy: &'static str) -> Self {
        Provenance {
            tier,
            policy: Cow::Borrowed(policy),
        }
    }
}
