//! The evaluation harness: task suites and their assertion engine, the fixture suite, the
//! runner (reflex-only and cascade modes, sharding), the scorecard and its reports.
//! Assertions read the page itself, never the runtime's own claims.
//!
//! ```no_run
//! use arc_eval::{report, run_suite, suite, Mode, RunOptions, Scorecard, Pricing};
//!
//! # async fn demo() -> Result<(), arc_eval::EvalError> {
//! let tasks = suite::fixture_suite()?;
//! let reflex = run_suite(&tasks, &RunOptions::new(Mode::Reflex)).await?;
//! let cascade = run_suite(&tasks, &RunOptions::new(Mode::Cascade)).await?;
//! let card = Scorecard::compare(&[reflex, cascade], Pricing::default());
//! report::write_all(&card, std::path::Path::new("eval-report"))?;
//! # Ok(()) }
//! ```
//!
//! Layout: `task` (the file format), `corpus` (the planner corpus, one task per criterion style), `apps` (real applications, their
//! tasks chained on one live page, judged on their databases), `assert` (the engine: in a page, on the simulated
//! app), `suite` (a directory of tasks), `runner` (one mode over a suite), `miniwob`
//! (MiniWoB++ episodes, each a `TaskResult` through the same runner parts), `shard`
//! (`--shard K/N` and merge), `result` (what a run records), `progress` (the callback a
//! run reports through), `scorecard` and `stats` (the summary), `report` (JSON,
//! Markdown, HTML), `mappers` (WebArena and OSWorld task files into the task format;
//! nothing is run live).

pub mod apps;
pub mod assert;
pub mod corpus;
mod error;
pub mod mappers;
pub mod miniwob;
pub mod pricing;
pub mod progress;
pub mod report;
pub mod result;
pub mod runner;
pub mod scorecard;
pub mod shard;
pub mod stats;
pub mod suite;
pub mod task;

pub use assert::{Assertion, AssertionOutcome, ElementState, Locator, TextMatch, Verdict};
pub use error::EvalError;
pub use progress::Progress;
pub use result::{Agreement, Mode, StepTrace, SuiteKind, SuiteResult, TaskResult};
pub use runner::{run_suite, run_suite_with, run_task, RunOptions, Stack};
pub use scorecard::{GroupCard, KindCard, Pricing, RunCard, Scorecard, Summary, TaskCard};
pub use shard::{merge, merge_named, Shard};
pub use task::{Category, Expectation, Start, Task, TaskId};
