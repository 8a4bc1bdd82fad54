//! `--timeout-ms` before a run starts: launching Chromium and loading the first page
//! count against the same bound as the run.

use crate::exit::{Exit, Failure};
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// A command's wall-clock bound, from when it was parsed.
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    ms: u64,
    deadline: Instant,
}

impl Bound {
    pub fn from_ms(ms: Option<u64>) -> Option<Bound> {
        ms.map(|ms| Bound {
            ms,
            deadline: Instant::now() + Duration::from_millis(ms),
        })
    }

    /// What is left of it.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// Awaits `fut` within `bound` (if any); running out is an environment failure that
/// names the limit and `doing` (dropping `fut` kills a browser it launched).
pub async fn within<T>(
    bound: Option<Bound>,
    doing: &str,
    fut: impl Future<Output = T>,
) -> Result<T, Failure> {
    let Some(bound) = bound else {
        return Ok(fut.await);
    };
    tokio::time::timeout_at(bound.deadline, fut)
        .await
        .map_err(|_| {
            (
                Exit::Environment,
                format!("--timeout-ms {} ran out {doing}", bound.ms),
            )
        })
}
