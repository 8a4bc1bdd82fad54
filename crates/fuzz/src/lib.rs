//! `arc-fuzz`: property fuzzing of the subtask and decision JSON boundaries, of the
//! compact-view renderer, and of the host's wire (its frames and the MCP server's
//! messages), on stable Rust with proptest's `TestRunner` (generation, seeding,
//! shrinking). A finding is the failed property and the minimized input.

pub mod decision;
pub mod host;
pub mod json;
pub mod mcp;
pub mod props;
pub mod snapshot;
pub mod subtask;
pub mod view;

use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Subtask,
    Decision,
    View,
    /// The host's transports: JSON lines and length-prefixed frames.
    Host,
    /// The MCP server's JSON-RPC lines.
    Mcp,
}

impl Target {
    pub const ALL: [Target; 5] = [
        Target::Subtask,
        Target::Decision,
        Target::View,
        Target::Host,
        Target::Mcp,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Target::Subtask => "subtask",
            Target::Decision => "decision",
            Target::View => "view",
            Target::Host => "host",
            Target::Mcp => "mcp",
        }
    }
}

/// The failed property and the smallest input proptest shrank it to.
#[derive(Clone, Debug)]
pub struct Finding {
    pub property: String,
    pub input: String,
}

/// One target's run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub target: Target,
    /// Generated cases checked (shrinking steps not counted).
    pub cases: u64,
    /// Cases the boundary accepted (subtask, decision) or rendered whole (view).
    pub accepted: u64,
    pub elapsed: Duration,
    pub finding: Option<Finding>,
}

/// A case that runs longer than this is a finding: the code under test must terminate.
pub const CASE_LIMIT: Duration = Duration::from_secs(20);

/// Runs `cases` generated cases of `target` from `seed`.
pub fn run(target: Target, cases: u32, seed: u64) -> Outcome {
    match target {
        Target::Subtask => drive(target, subtask::payload(), cases, seed, |t: &String| {
            subtask::check(t)
        }),
        Target::Decision => drive(target, decision::payload(), cases, seed, |t: &String| {
            decision::check(t)
        }),
        Target::View => drive(target, snapshot::case(), cases, seed, view::check),
        Target::Host => {
            let rig = host::Rig::new();
            drive(target, host::case(), cases, seed, |w| rig.check(w))
        }
        Target::Mcp => {
            let rig = mcp::Rig::new();
            drive(target, mcp::case(), cases, seed, |l| rig.check(l))
        }
    }
}

/// What the watchdog knows about the case in progress (formatted only if it hangs).
struct Current<T> {
    started_ms: AtomicU64,
    input: Mutex<Option<T>>,
}

fn drive<T: Debug + Clone + Send + 'static>(
    target: Target,
    strategy: BoxedStrategy<T>,
    cases: u32,
    seed: u64,
    check: impl Fn(&T) -> Result<bool, String>,
) -> Outcome {
    quiet_panics();
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4_096,
        // A hang found by a case's own bound would otherwise be shrunk for hours.
        max_shrink_time: 120_000,
        max_global_rejects: cases.saturating_mul(4),
        ..Config::default()
    };
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);

    let t0 = Instant::now();
    let current = Arc::new(Current {
        started_ms: AtomicU64::new(0),
        input: Mutex::new(None),
    });
    let watchdog = watch(target, current.clone(), t0);
    let checked = AtomicU64::new(0);
    let accepted = AtomicU64::new(0);
    let shrinking = std::sync::atomic::AtomicBool::new(false);
    let result = runner.run(&strategy, |value| {
        if let Ok(mut slot) = current.input.lock() {
            *slot = Some(value.clone());
        }
        current
            .started_ms
            .store(t0.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let verdict = check(&value);
        current.started_ms.store(0, Ordering::SeqCst);
        if !shrinking.load(Ordering::Relaxed) {
            checked.fetch_add(1, Ordering::Relaxed);
        }
        match verdict {
            Ok(whole) => {
                accepted.fetch_add(whole as u64, Ordering::Relaxed);
                Ok(())
            }
            Err(why) => {
                shrinking.store(true, Ordering::Relaxed);
                Err(TestCaseError::fail(why))
            }
        }
    });
    drop(watchdog);
    let finding = match result {
        Ok(()) => None,
        Err(TestError::Fail(why, input)) => Some(Finding {
            property: why.to_string(),
            input: format!("{input:?}"),
        }),
        Err(TestError::Abort(why)) => Some(Finding {
            property: format!("aborted: {why}"),
            input: String::new(),
        }),
    };
    Outcome {
        target,
        cases: checked.load(Ordering::Relaxed),
        accepted: accepted.load(Ordering::Relaxed),
        elapsed: t0.elapsed(),
        finding,
    }
}

/// Stops the watchdog thread when dropped.
struct Watchdog(Arc<std::sync::atomic::AtomicBool>);

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A case stuck past [`CASE_LIMIT`] cannot be interrupted in-thread: report it with its
/// input and exit non-zero.
fn watch<T: Debug + Send + 'static>(
    target: Target,
    current: Arc<Current<T>>,
    t0: Instant,
) -> Watchdog {
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = stop.clone();
    std::thread::spawn(move || {
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(200));
            let started = current.started_ms.load(Ordering::SeqCst);
            let now = t0.elapsed().as_millis() as u64 + 1;
            if started != 0 && now.saturating_sub(started) > CASE_LIMIT.as_millis() as u64 {
                // The checking thread holds no lock while it runs a case.
                let input = current
                    .input
                    .lock()
                    .map(|s| format!("{:?}", *s))
                    .unwrap_or_default();
                eprintln!(
                    "FINDING {}: a case ran past {:?} (no termination)\ninput: {input}",
                    target.as_str(),
                    CASE_LIMIT
                );
                std::process::exit(1);
            }
        }
    });
    Watchdog(stop)
}

/// Panics are findings, caught and reported once with the minimized input; the default
/// hook would print every one met while shrinking.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}
