//! What can go wrong around a MiniWoB++ run. A task the runtime cannot do is a result
//! (a row with its status), never an error: errors are the harness's own failures.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum MiniwobError {
    /// The pages are missing and fetching them failed.
    #[error("cannot fetch the MiniWoB++ pages into {dir}: {detail}")]
    Fetch { dir: PathBuf, detail: String },
    /// A task name that is not a page of the package.
    #[error("unknown MiniWoB++ task {0:?} (no miniwob/{0}.html under the html root)")]
    UnknownTask(String),
    #[error("cannot serve {root}: {source}")]
    Serve {
        root: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("browser: {0}")]
    Browser(#[from] arc_browser::BrowserError),
    /// The page did not behave like a MiniWoB++ task page (no `core`, no utterance, …).
    #[error("task {task} (seed {seed}): {detail}")]
    Page {
        task: String,
        seed: u64,
        detail: String,
    },
    #[error("the planner's subtask for {task} (seed {seed}) is invalid: {source}")]
    Contract {
        task: String,
        seed: u64,
        #[source]
        source: arc_core::ContractError,
    },
    #[error("invalid options: {0}")]
    Options(String),
}
