//! What a MiniWoB++ run is asked to do, and which episodes that makes.

use super::episode::HarnessOptions;
use super::error::MiniwobError;
use super::tasks::TaskName;
use crate::result::Mode;
use crate::shard::Shard;
use arc_browser::backend::BrowserOptions;
use arc_core::SettleConfig;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct MiniwobOptions {
    /// The html root; `None` fetches the pages into the cache if needed.
    pub html_root: Option<PathBuf>,
    pub tasks: Vec<TaskName>,
    /// Episodes per task, seeded `seed_base … seed_base + seeds − 1`.
    pub seeds: u32,
    pub seed_base: u64,
    /// Which decision tiers run (a fresh stack per episode).
    pub policy: Mode,
    /// Wall-clock bound on one episode's run (the page's own limit applies too, when
    /// shorter).
    pub episode_timeout: Duration,
    pub settle: SettleConfig,
    /// How long the runtime's WAIT lasts (the reflex waits at most twice for a criterion
    /// to come true after acting).
    pub wait: Duration,
    pub browser: BrowserOptions,
    pub harness: HarnessOptions,
    /// Capture the page at the start and after every step (embedded in the HTML report).
    /// Each capture takes ~10–30 ms of the episode's time, which the page's time-decayed
    /// reward sees; the raw reward (success) does not.
    pub screenshots: bool,
    /// Run only the episodes of this shard (by episode index, see [`Slot`]).
    pub shard: Option<Shard>,
}

impl Default for MiniwobOptions {
    fn default() -> Self {
        MiniwobOptions {
            html_root: None,
            tasks: TaskName::registered(),
            seeds: 3,
            seed_base: 0,
            policy: Mode::Reflex,
            episode_timeout: Duration::from_secs(10),
            settle: miniwob_settle(),
            wait: MINIWOB_WAIT,
            browser: BrowserOptions::default(),
            harness: HarnessOptions::default(),
            screenshots: false,
            shard: None,
        }
    }
}

/// WAIT on MiniWoB++ pages: a synchronous page that has settled has nothing left to show.
pub const MINIWOB_WAIT: Duration = Duration::from_millis(150);

/// Settling on MiniWoB++ pages: they react synchronously (jQuery UI animations at most
/// ~400 ms), so a shorter quiet window and reaction window than the general defaults.
pub fn miniwob_settle() -> SettleConfig {
    SettleConfig {
        poll: Duration::from_millis(10),
        quiet: Duration::from_millis(60),
        reaction: Duration::from_millis(150),
        cap: Duration::from_secs(2),
    }
}

/// One episode of a run: task `task` with seed `seed`, at `position` in the whole run's
/// task-major order (task 0's seeds, then task 1's, …). A shard takes the positions
/// `i % N == K − 1`, so each machine gets a mix of tasks and every episode keeps its own
/// seed: a sharded run replays exactly the episodes of a whole one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub position: usize,
    pub task: TaskName,
    pub seed: u64,
}

impl MiniwobOptions {
    /// The seeds each task runs with.
    pub fn seed_list(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.seeds as u64).map(|i| self.seed_base + i)
    }

    /// Every episode of the whole run, in order.
    pub fn slots(&self) -> Vec<Slot> {
        let mut out = Vec::with_capacity(self.tasks.len() * self.seeds as usize);
        for task in &self.tasks {
            for seed in self.seed_list() {
                out.push(Slot {
                    position: out.len(),
                    task: task.clone(),
                    seed,
                });
            }
        }
        out
    }

    /// The episodes this run (or shard) plays.
    pub fn chosen_slots(&self) -> Vec<Slot> {
        let mut slots = self.slots();
        slots.retain(|s| self.shard.is_none_or(|k| k.holds(s.position)));
        slots
    }

    pub(super) fn check(&self) -> Result<(), MiniwobError> {
        if self.tasks.is_empty() {
            return Err(MiniwobError::Options("no tasks".into()));
        }
        if self.seeds == 0 {
            return Err(MiniwobError::Options("seeds must be at least 1".into()));
        }
        if self.seed_base.checked_add(self.seeds as u64).is_none() {
            return Err(MiniwobError::Options("seed range overflows".into()));
        }
        if self.episode_timeout.is_zero() {
            return Err(MiniwobError::Options(
                "episode timeout must be positive".into(),
            ));
        }
        let mut seen = Vec::new();
        for t in &self.tasks {
            if seen.contains(&t) {
                // Two rows of one task would double its episodes' ids in the report.
                return Err(MiniwobError::Options(format!("task {t} is listed twice")));
            }
            seen.push(t);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_episodes_and_keep_their_seeds() {
        let opts = MiniwobOptions {
            tasks: TaskName::parse_list("a,b,c").unwrap(),
            seeds: 2,
            seed_base: 5,
            ..MiniwobOptions::default()
        };
        let all = opts.slots();
        assert_eq!(all.len(), 6);
        assert_eq!((all[3].task.as_str(), all[3].seed), ("b", 6));
        let shard = |k| MiniwobOptions {
            shard: Some(Shard::new(k, 4).unwrap()),
            ..opts.clone()
        };
        let mut joined: Vec<Slot> = (1..=4).flat_map(|k| shard(k).chosen_slots()).collect();
        joined.sort_by_key(|s| s.position);
        assert_eq!(joined, all);
        assert_eq!(shard(2).chosen_slots()[1], all[5]);
    }
}
