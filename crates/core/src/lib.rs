//! The arc-cua contract and executor loop.
//!
//! This crate owns the planner-facing contract (Subtask in, ExecutionResult out), the
//! observation model every backend normalizes into ([`Snapshot`], [`Element`]), the
//! decision model every policy answers with ([`Decision`]), and the loop that turns
//! decisions into guarded, settled actions ([`Executor`]).
//!
//! Invariant: core performs no I/O of its own. It talks to the world only through the
//! [`Backend`] and [`Policy`] traits, and only sleeps through tokio's timer.

pub mod action;
pub mod backend;
pub mod check;
pub mod config;
pub mod decision;
pub mod effect;
pub mod element;
pub mod error;
pub mod executable;
pub mod executor;
pub mod facts;
pub mod judgment;
pub mod key;
pub mod monitor;
pub mod name;
mod params;
pub mod policy;
pub mod provenance;
pub mod record;
pub mod recovery;
pub mod redact;
pub mod risk;
pub mod role;
pub mod scalar;
#[cfg(feature = "schema")]
pub mod schema;
pub mod scripted;
pub mod settle;
pub mod snapshot;
pub mod subtask;
pub mod verdict;

pub use action::{Action, ActionKind, ActionParam, ActionSet, ScrollDirection};
pub use backend::{Backend, EffectSample, Executed, SettleSample};
pub use check::{Check, Criterion, Items, Scope, StateName};
pub use config::{RunOptions, RuntimeConfig, SettleConfig, VerifyFn, MAX_LATE_REACTION};
pub use decision::{Choice, Decision, HumanNeed, TerminalKind};
pub use effect::{Expect, ExpectedEffect};
pub use element::{Bounds, Element, ElementId, Guard, Source};
pub use error::{
    clip, clip_quoted, quote, BackendError, ContractError, ErrorCode, InvalidDecision, PolicyError,
    MAX_QUOTED_CHARS,
};
pub use executable::ExecutableAction;
pub use executor::{CancelHandle, Executor};
pub use facts::{Download, ElementFacts, InputType, ObservationScope, PageFacts, ScrollOffset};
pub use judgment::{Claim, Question};
pub use key::{Chord, ClickModifier, Key, Modifier, SubmitKey};
pub use monitor::{
    ControllerAction, ControllerDecision, ControllerReason, EscalationConfig, EscalationController,
    FailureSignature, LoopMonitors, MilestoneGoals, MilestoneMonitor, MilestoneReport,
    MilestoneSignal, MonitorOutcome, MonitorSuite, StateHash, StepFailure, StepSignal, StepVerdict,
    StuckMonitor, StuckPattern, StuckReport,
};
pub use policy::{DecideContext, Policy};
pub use provenance::{Provenance, Tier};
pub use record::{
    ActionRecord, ExecutionResult, HandOff, LandedElsewhere, PlannedAction, RequestedField,
    StepEvent, StepOutcome, Termination,
};
pub use recovery::{CompiledRecovery, RecoveryError, RecoveryPlan, RecoveryRule, RecoveryStep};
pub use redact::{Redactor, SECRET_PLACEHOLDER};
pub use risk::{PressFacts, Pressable, Risk};
pub use role::Role;
pub use scalar::{NumberText, Scalar};
pub use scripted::ScriptedPolicy;
pub use settle::{SettleEnd, SettleReport};
pub use snapshot::{CompactElement, CompactSnapshot, Snapshot};
pub use subtask::Subtask;
pub use verdict::{Evidence, Verdict};
