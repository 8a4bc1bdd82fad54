//! MiniWoB++ on arc-cua: fetch the pages (`fetch`), serve them and run seeded episodes
//! (`episode`), turn each utterance into a Subtask (`planner`), run the executor and read
//! the page's reward (`run`, `score`). Each episode is a shared `TaskResult`, so the
//! scorecard, the reports, `--shard K/N` and merge are the task suites'.
//!
//! The seal: the planner reads only the utterance — what a person would be told — and the
//! executor and policies get only the Subtask. Task names label result rows and build
//! URLs, nothing else; the reward is read by the harness after the runtime returns.

pub mod episode;
pub mod error;
pub mod fetch;
pub mod options;
pub mod planner;
pub mod result;
pub mod run;
mod score;
pub mod tasks;
pub mod utterance;

pub use episode::{HarnessOptions, MiniwobHost, Reward, Started, DEFAULT_HIDDEN_IDS};
pub use error::MiniwobError;
pub use fetch::ensure_pages;
pub use options::{miniwob_settle, MiniwobOptions, Slot, MINIWOB_WAIT};
pub use planner::plan;
pub use result::{Episode, EpisodeRecord, MiniwobResult, RunSpec, TaskRow};
pub use run::{run_miniwob, run_miniwob_with};
pub use tasks::{TaskKind, TaskName, REGISTERED};
pub use utterance::Utterance;
