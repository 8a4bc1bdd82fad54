//! The harness's own failures. A task that fails (wrong status, a failed assertion, a
//! browser that would not start for it) is a result, not an error: these are for input
//! the harness cannot read and output it cannot write.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A task file that does not parse or breaks a rule of the format.
    #[error("{origin}: {message}")]
    Task { origin: String, message: String },
    #[error("task id {id:?} appears more than once ({first} and {second})")]
    DuplicateId {
        id: String,
        first: String,
        second: String,
    },
    #[error("cannot serve the fixture site {root}: {source}")]
    Serve {
        root: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot merge shard results: {0}")]
    Merge(String),
    #[error("cannot serialize {what}: {source}")]
    Serialize {
        what: &'static str,
        source: serde_json::Error,
    },
}

impl EvalError {
    pub(crate) fn task(origin: impl Into<String>, message: impl Into<String>) -> EvalError {
        EvalError::Task {
            origin: origin.into(),
            message: message.into(),
        }
    }
}
