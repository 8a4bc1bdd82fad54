//! Reading a trajectory back (for labeling, features and replay).

use super::record::TrajectoryRecord;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("reading the trajectory: {0}")]
    Io(#[from] std::io::Error),
    #[error("trajectory line {line}: {message}")]
    Line { line: usize, message: String },
}

/// Parses JSONL text; blank lines are skipped, a bad line is an error naming it (1-based).
pub fn parse_trajectory(text: &str) -> Result<Vec<TrajectoryRecord>, ReadError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| ReadError::Line {
                line: i + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

pub fn read_trajectory(path: impl AsRef<Path>) -> Result<Vec<TrajectoryRecord>, ReadError> {
    parse_trajectory(&std::fs::read_to_string(path)?)
}
