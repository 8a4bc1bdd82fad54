//! The trajectory log (seed §5.7): one JSONL record per step with the monitors' view of
//! it, secrets and credentials redacted before anything is written; offline, the
//! deterministic auto-labeler and the 16-feature builder; and trace replay against a
//! backend as a regression test.
//!
//! Writing a run: `Executor::run_with(&subtask, |e| log.on_event(&e))` with a
//! [`TrajectoryLog`], then `log.finish()`.

pub mod features;
pub mod label;
pub mod log;
pub mod read;
pub mod record;
pub mod recorder;
pub mod redact;
pub mod replay;
pub mod writer;

pub use features::{features_per_step, FeatureValue, Features, FEATURE_NAMES};
pub use label::{label, LabelSummary, Labeled, MilestoneLabel, StepLabels, StuckLabel};
pub use log::TrajectoryLog;
pub use read::{parse_trajectory, read_trajectory, ReadError};
pub use record::{StepKind, TrajectoryRecord, SCHEMA_VERSION};
pub use recorder::{RunInfo, TrajectoryRecorder};
pub use redact::{CredentialFilter, CredentialKind, REDACTED};
pub use replay::{replay, Divergence, DivergenceField, ReplayError, ReplayReport};
pub use writer::{TrajectoryWriter, MAX_LINE_BYTES};
