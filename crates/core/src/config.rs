//! Runtime knobs, with the reference defaults.

use crate::error::ContractError;
use crate::monitor::EscalationConfig;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use std::sync::Arc;
use std::time::Duration;

/// Called before a SUBTASK_COMPLETE is accepted; `false` turns it into NEEDS_AGENT.
pub type VerifyFn = Arc<dyn Fn(&Snapshot, &Subtask) -> bool + Send + Sync>;

/// How the runtime waits for the UI to settle after a mutation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SettleConfig {
    /// Interval between probe samples.
    pub poll: Duration,
    /// How long the probe must stay unchanged (and not busy) after a reaction.
    pub quiet: Duration,
    /// How long to wait for any reaction before concluding there was none.
    pub reaction: Duration,
    /// Hard upper bound on one settle. A backend may raise it, never lower it.
    pub cap: Duration,
}

impl Default for SettleConfig {
    fn default() -> Self {
        SettleConfig {
            poll: Duration::from_millis(20),
            quiet: Duration::from_millis(150),
            reaction: Duration::from_millis(600),
            cap: Duration::from_secs(2),
        }
    }
}

impl SettleConfig {
    /// No waiting at all: one probe, then observe. For synchronous backends and benches.
    pub fn immediate() -> Self {
        SettleConfig {
            poll: Duration::ZERO,
            quiet: Duration::ZERO,
            reaction: Duration::ZERO,
            cap: Duration::ZERO,
        }
    }
}

#[derive(Clone)]
pub struct RuntimeConfig {
    /// Consecutive stale re-observations allowed before NEEDS_AGENT.
    pub stale_retries: u32,
    /// Consecutive actions that change nothing before BLOCKED, once the last of them
    /// repeats one already in the streak (presses on distinct targets a page need not
    /// show — a like on each post — are no loop; 32 of those in a row still stop).
    pub no_change_limit: u32,
    pub settle: SettleConfig,
    /// Wall-clock bound on the whole run.
    pub timeout: Option<Duration>,
    /// Bound on one backend call that must not be interrupted halfway (execute, and the
    /// observation that records its effect).
    pub action_timeout: Duration,
    /// How long a WAIT action waits before observing again.
    pub wait: Duration,
    /// The second look: a NEEDS_AGENT or BLOCKED decided right after an action other than
    /// a WAIT (none looked at since) waits this long and observes again; when the page changed (an
    /// app that reacts, pauses while it works, then shows the result), the policy is asked
    /// again on what it shows now, else the give-up stands. Zero never looks again.
    pub late_reaction: Duration,
    /// Decisions below this confidence end the run with NEEDS_AGENT.
    pub min_confidence: Option<f64>,
    /// Decisions below this margin end the run with NEEDS_AGENT.
    pub min_margin: Option<f64>,
    /// Decide and validate the next action, then end DRY_RUN with it as the result's
    /// `planned_action` instead of acting.
    pub dry_run: bool,
    pub verify: Option<VerifyFn>,
    /// The escalation controller's limits (the loop's monitors run under them).
    pub escalation: EscalationConfig,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            stale_retries: 8,
            no_change_limit: 3,
            settle: SettleConfig::default(),
            timeout: None,
            action_timeout: Duration::from_secs(30),
            wait: Duration::from_millis(500),
            late_reaction: Duration::from_secs(1),
            min_confidence: None,
            min_margin: None,
            dry_run: false,
            verify: None,
            escalation: EscalationConfig::default(),
        }
    }
}

/// What a caller sets on one run at a front door (the CLI's flags, the host's and MCP's
/// `run_subtask`, Python's `RuntimeConfig`): the decision gate and the dry run, checked
/// here once for all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunOptions {
    pub dry_run: bool,
    pub min_confidence: Option<f64>,
    pub min_margin: Option<f64>,
    /// The second look's wait ([`RuntimeConfig::late_reaction`]); None keeps the config's.
    pub late_reaction: Option<Duration>,
}

/// The longest second look a caller may ask for: a give-up waits this long at most.
pub const MAX_LATE_REACTION: Duration = Duration::from_secs(30);

impl RunOptions {
    /// `config` with these options; a threshold outside 0..=1 (a confidence, or the gap
    /// between two confidences) is an error naming the field and the value.
    pub fn apply(self, config: RuntimeConfig) -> Result<RuntimeConfig, ContractError> {
        for (field, value) in [
            ("min_confidence", self.min_confidence),
            ("min_margin", self.min_margin),
        ] {
            if let Some(v) = value.filter(|v| !(0.0..=1.0).contains(v)) {
                return Err(ContractError::invalid(
                    field,
                    format!("must be between 0 and 1, got {v}"),
                ));
            }
        }
        if let Some(late) = self.late_reaction.filter(|l| *l > MAX_LATE_REACTION) {
            return Err(ContractError::invalid(
                "late_reaction",
                format!(
                    "{} ms is over the {} ms limit",
                    late.as_millis(),
                    MAX_LATE_REACTION.as_millis()
                ),
            ));
        }
        Ok(RuntimeConfig {
            late_reaction: self.late_reaction.unwrap_or(config.late_reaction),
            dry_run: self.dry_run,
            min_confidence: self.min_confidence,
            min_margin: self.min_margin,
            ..config
        })
    }
}

impl std::fmt::Debug for RuntimeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuntimeConfig")
            .field("stale_retries", &self.stale_retries)
            .field("no_change_limit", &self.no_change_limit)
            .field("settle", &self.settle)
            .field("timeout", &self.timeout)
            .field("action_timeout", &self.action_timeout)
            .field("wait", &self.wait)
            .field("late_reaction", &self.late_reaction)
            .field("min_confidence", &self.min_confidence)
            .field("min_margin", &self.min_margin)
            .field("dry_run", &self.dry_run)
            .field("verify", &self.verify.as_ref().map(|_| "fn"))
            .finish()
    }
}
