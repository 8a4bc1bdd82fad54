//! Progress of a run, reported through a callback: the harness has no terminal of its
//! own (the CLI draws a bar, or prints [`Progress::line`] where stderr is a log).

use crate::result::{Mode, TaskResult};

#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// The run is about to start `total` tasks (MiniWoB++: episodes) in `mode`.
    Begin { mode: Mode, total: usize },
    /// The `n`th of `total` finished.
    Finished {
        mode: Mode,
        n: usize,
        total: usize,
        result: &'a TaskResult,
    },
}

impl Progress<'_> {
    /// One plain line per finished task, for logs; none for `Begin`.
    pub fn line(&self) -> Option<String> {
        let Progress::Finished {
            mode,
            n,
            total,
            result,
        } = self
        else {
            return None;
        };
        Some(format!("[{n}/{total}] {mode} {}", summary(result)))
    }
}

/// `click-test seed 3: pass (SUBTASK_COMPLETE, reward 1.00, 1 step, 134 ms)`, or for a
/// task file `form-fill: pass (SUBTASK_COMPLETE, 1 step, 3/3 assertions, 420 ms)`.
pub fn summary(r: &TaskResult) -> String {
    let verdict = if r.success { "pass" } else { "FAIL" };
    let status = r.status.map(|s| s.as_str()).unwrap_or("no status");
    let steps = format!("{} step{}", r.steps, if r.steps == 1 { "" } else { "s" });
    let mut line = match &r.episode {
        Some(e) => format!(
            "{} seed {}: {verdict} ({status}, reward {:.2}, {steps}, {} ms)",
            e.task, e.seed, r.reward, r.wall_ms
        ),
        None => {
            let failed = r.assertions.iter().filter(|a| !a.passed()).count();
            format!(
                "{}: {verdict} ({status}, {steps}, {}/{} assertions, {} ms)",
                r.id,
                r.assertions.len() - failed,
                r.assertions.len(),
                r.wall_ms
            )
        }
    };
    if let Some(e) = &r.error {
        line.push_str(&format!(" — {e}"));
    }
    line
}
