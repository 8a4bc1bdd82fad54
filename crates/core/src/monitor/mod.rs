//! Monitors and escalation (DESIGN §4.4, seed §4.4–§4.6): pure, per-step, no I/O.
//!
//! Each executed (or attempted) step becomes a [`StepSignal`]. The [`StuckMonitor`]
//! looks for the 7 stuck patterns over the last 5 signals, the [`MilestoneMonitor`]
//! looks for forward progress (never on an errored step), and the
//! [`EscalationController`] turns both into CONTINUE / RECOVER_LOCALLY / ESCALATE / ABORT.
//! [`MonitorSuite`] runs the three in order; the executor runs it once per step through
//! [`LoopMonitors`] and hands each [`StepVerdict`] on.

/// An enum with stable SCREAMING_SNAKE wire names: `as_str`, `Display`, `FromStr` and
/// serde all go through the same table, so a name can never drift between them.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// The stable wire name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $wire, )*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $( $wire => Ok($name::$variant), )*
                    other => Err(format!(
                        "unknown {} {other:?}",
                        stringify!($name)
                    )),
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let raw = String::deserialize(d)?;
                raw.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use wire_enum;

mod escalation;
mod milestone;
mod signal;
mod stuck;
mod verdict;

pub use escalation::{
    ControllerAction, ControllerDecision, ControllerReason, EscalationConfig, EscalationController,
};
pub use milestone::{MilestoneGoals, MilestoneMonitor, MilestoneReport, MilestoneSignal};
pub use signal::{StateHash, StepFailure, StepSignal};
pub use stuck::{
    FailureSignature, StuckMonitor, StuckPattern, StuckReport, STUCK_THRESHOLD, STUCK_WINDOW,
};
pub use verdict::{LoopMonitors, StepVerdict, RECENT_STEPS};

use crate::snapshot::Snapshot;

/// What the three monitors said about one step.
#[derive(Clone, Debug, PartialEq)]
pub struct MonitorOutcome {
    pub stuck: StuckReport,
    pub milestone: MilestoneReport,
    pub decision: ControllerDecision,
}

/// The stuck and milestone monitors and the controller, run in that order per step.
#[derive(Clone, Debug, Default)]
pub struct MonitorSuite {
    pub stuck: StuckMonitor,
    pub milestone: MilestoneMonitor,
    pub controller: EscalationController,
}

impl MonitorSuite {
    pub fn new(goals: MilestoneGoals, config: EscalationConfig) -> Self {
        MonitorSuite {
            stuck: StuckMonitor::new(),
            milestone: MilestoneMonitor::new(goals),
            controller: EscalationController::new(config),
        }
    }

    /// Feeds one step. `before` / `after` are the states around it when the caller has
    /// them (the milestone monitor's state-based signals need them; the rest does not).
    pub fn step(
        &mut self,
        signal: &StepSignal,
        before: Option<&Snapshot>,
        after: Option<&Snapshot>,
    ) -> MonitorOutcome {
        let stuck = self.stuck.observe(signal);
        let milestone = self.milestone.observe(signal, before, after);
        let decision = self.controller.decide(signal, &stuck, &milestone);
        MonitorOutcome {
            stuck,
            milestone,
            decision,
        }
    }
}
