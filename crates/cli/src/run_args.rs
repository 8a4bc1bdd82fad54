//! How one run may act: `--dry-run`, the decision gate (`--min-confidence`,
//! `--min-margin`) and the second look (`--late-reaction-ms`), checked by core's
//! `RunOptions` as every front door's are.

use crate::exit::{Exit, Failure};
use arc_core::{RunOptions, RuntimeConfig};
use clap::Args;
use std::time::Duration;

#[derive(Args, Clone, Copy, Debug, Default)]
pub struct RunOptionArgs {
    /// Decide and check the next action, then end DRY_RUN with it as the result's
    /// `planned_action`; nothing is acted on.
    #[arg(long)]
    dry_run: bool,
    /// End NEEDS_AGENT, without acting, on a decision whose confidence (0..1) is below
    /// this (the reflex scores a loose match low); unscored decisions are not gated.
    #[arg(long, value_name = "P")]
    min_confidence: Option<f64>,
    /// As --min-confidence, for the gap between a decision's best and second choice.
    #[arg(long, value_name = "P")]
    min_margin: Option<f64>,
    /// A NEEDS_AGENT or BLOCKED right after an action waits this long, looks again and,
    /// when the page changed meanwhile, decides again (0: never).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    late_reaction_ms: u64,
}

impl RunOptionArgs {
    /// `config` with these options, or the flag at fault.
    pub fn apply(self, config: RuntimeConfig) -> Result<RuntimeConfig, Failure> {
        let options = RunOptions {
            dry_run: self.dry_run,
            min_confidence: self.min_confidence,
            min_margin: self.min_margin,
            late_reaction: Some(Duration::from_millis(self.late_reaction_ms)),
        };
        options.apply(config).map_err(|e| {
            let flag = match e.field.as_str() {
                "late_reaction" => "late-reaction-ms".to_owned(),
                f => f.replace('_', "-"),
            };
            (Exit::BadInput, format!("--{flag}: {}", e.message))
        })
    }
}
