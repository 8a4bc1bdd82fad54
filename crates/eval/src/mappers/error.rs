//! Input a mapper cannot read. An upstream check it cannot express is not an error: it is
//! kept and flagged ([`super::Unsupported`]).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Not JSON at all: where it broke.
    #[error("{origin}:{line}:{column}: not valid JSON: {message}")]
    Json {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// JSON, but not a task of the format (a missing `intent`, a number for a list).
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: String },
    /// A `__SITE__` placeholder with no base URL given for it.
    #[error("{origin}: `{field}`: no base URL for the site placeholder __{name}__")]
    Placeholder {
        origin: String,
        field: &'static str,
        name: String,
    },
    /// A bad `NAME=URL` site entry.
    #[error("site {entry:?}: {reason}")]
    Site { entry: String, reason: String },
    #[error("task id {id:?} comes from two tasks ({first} and {second})")]
    DuplicateId {
        id: String,
        first: String,
        second: String,
    },
}
