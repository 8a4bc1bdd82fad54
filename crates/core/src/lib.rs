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
pub mod config;
pub mod decision;
pub mod element;
pub mod error;
pub mod executable;
pub mod executor;
pub mod facts;
pub mod key;
pub mod monitor;
pub mod policy;
pub mod record;
pub mod recovery;
pub mod risk;
pub mod role;
pub mod scalar;
pub mod settle;
pub mod snapshot;
pub mod subtask;
pub mod view;

pub use action::{Action, ActionKind, ActionSet, ScrollDirection};
pub use backend::{Backend, SettleSample};
pub use config::{RuntimeConfig, SettleConfig, VerifyFn};
pub use decision::{Choice, Decision, TerminalKind};
pub use element::{Bounds, Element, ElementId, Guard, Source};
pub use error::{BackendError, ContractError, ErrorCode, InvalidDecision, PolicyError};
pub use executable::ExecutableAction;
pub use executor::{CancelHandle, Executor};
pub use facts::{ElementFacts, InputType, ObservationScope, PageFacts};
pub use key::{Chord, Key, Modifier};
pub use monitor::{
    ControllerAction, ControllerDecision, ControllerReason, EscalationConfig, EscalationController,
    FailureSignature, MilestoneGoals, MilestoneMonitor, MilestoneReport, MilestoneSignal,
    MonitorOutcome, MonitorSuite, StepFailure, StepSignal, StuckMonitor, StuckPattern, StuckReport,
};
pub use policy::{DecideContext, Policy};
pub use record::{ActionRecord, ExecutionResult, StepEvent, StepOutcome, Termination};
pub use recovery::{CompiledRecovery, RecoveryError, RecoveryPlan, RecoveryRule, RecoveryStep};
pub use risk::Risk;
pub use role::Role;
pub use scalar::Scalar;
pub use settle::{SettleEnd, SettleReport};
pub use snapshot::{CompactElement, CompactSnapshot, Snapshot};
pub use subtask::Subtask;
pub use view::{CompactView, FindHit, FindQuery, TruncationNotice, ViewOptions};
