//! Cancellation and the run's deadline: what bounds every await of the loop.

use super::{cancelled, Stop};
use crate::record::Termination;
use std::future::{pending, Future};
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How long past the run's deadline an action or its recording observation may still
/// take: enough for a click that started just before it, short enough to stay a bound.
pub(super) const DEADLINE_GRACE: Duration = Duration::from_millis(500);

/// Cancellation and the run's deadline, shareable with the futures the loop awaits.
#[derive(Clone)]
pub(super) struct Interrupt {
    pub(super) cancel: CancellationToken,
    pub(super) deadline: Option<Instant>,
    pub(super) timeout: Option<Duration>,
}

impl Interrupt {
    pub(super) fn check(&self) -> Result<(), Stop> {
        if self.cancel.is_cancelled() {
            return Err(cancelled());
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(self.timed_out());
        }
        Ok(())
    }

    /// Awaits `fut` unless the run is cancelled or out of time first.
    pub(super) async fn bound<T>(&self, fut: impl Future<Output = T>) -> Result<T, Stop> {
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(cancelled()),
            _ = deadline_signal(self.deadline) => Err(self.timed_out()),
            v = fut => Ok(v),
        }
    }

    /// Resolves when the run is cancelled or out of time.
    pub(super) async fn signalled(self) {
        tokio::select! {
            _ = self.cancel.cancelled() => {}
            _ = deadline_signal(self.deadline) => {}
        }
    }

    /// `limit`, shortened so that it ends at most [`DEADLINE_GRACE`] after the deadline:
    /// the wall-clock timeout bounds even the calls that must not be torn.
    pub(super) fn cap(&self, limit: Duration) -> Duration {
        match self.deadline {
            Some(d) => limit.min(d.saturating_duration_since(Instant::now()) + DEADLINE_GRACE),
            None => limit,
        }
    }

    /// The stop for a bounded call that ran out: the run's timeout if the deadline has
    /// passed (the cap was the deadline's), else a backend error.
    pub(super) fn overran(&self, detail: String) -> Stop {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            let mut stop = self.timed_out();
            stop.reason = format!("{}: {detail}", stop.reason);
            stop
        } else {
            Stop::needs_agent(Termination::BackendError, detail)
        }
    }

    pub(super) fn timed_out(&self) -> Stop {
        let ms = self.timeout.map(|t| t.as_millis()).unwrap_or_default();
        Stop::needs_agent(
            Termination::Timeout,
            format!("wall-clock timeout of {ms} ms reached"),
        )
    }
}

async fn deadline_signal(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => pending().await,
    }
}
