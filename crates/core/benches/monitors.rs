//! Stuck + milestone monitors + escalation controller, per step (issue 4 target:
//! p95 ≤ 10 µs). Criterion measures the mean step over a realistic mix of signals
//! (healthy, stale, no-change, oscillating, timing out); a separate pass times every
//! step on its own and prints the median and p95, which criterion does not report.
//!
//! Three shapes: signals only (what the loop knows without snapshots), and with the
//! before/after snapshots the milestone monitor's state-based signals read, at the
//! sign-up app's size (9 elements) and at 1,000 elements. The goal text never appears,
//! so every state-changing step scans the whole after-state (the worst case).

use arc_core::{
    ActionKind, Element, EscalationConfig, MilestoneGoals, MonitorSuite, Role, Snapshot,
    StepFailure, StepSignal,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A repeating mix: clean progress, a stale pair, no-change repeats, an A-B-A-B loop,
/// readiness timeouts and an exception.
fn signals() -> Vec<StepSignal> {
    let click = |t: &str| StepSignal::new(ActionKind::Click, Some(t)).with_target_name("Sign up");
    let mut out = Vec::new();
    for i in 0..4 {
        out.push(click("next").transition(i, i + 1));
    }
    out.push(click("submit").with_failure(StepFailure::Stale));
    out.push(click("submit").with_failure(StepFailure::Stale));
    out.push(click("save").transition(9, 9));
    out.push(click("save").transition(9, 9));
    out.push(click("save").transition(9, 9));
    for _ in 0..2 {
        out.push(click("toggle").transition(1, 2));
        out.push(click("toggle").transition(2, 1));
    }
    for i in 20..23 {
        out.push(
            click("load")
                .transition(i, i + 1)
                .with_failure(StepFailure::ReadinessTimeout),
        );
    }
    out.push(click("x").with_failure(StepFailure::ActionException));
    out.push(StepSignal::new(ActionKind::TypeText, Some("f0")).transition(30, 31));
    out
}

fn snapshot(n: usize, generation: usize) -> Snapshot {
    let elements: Vec<Element> = (0..n)
        .map(|i| {
            let role = if i % 10 == 0 {
                Role::Button
            } else {
                Role::StaticText
            };
            let mut e = Element::new(
                format!("f{i}"),
                role,
                format!("Element {i} gen {generation}"),
            );
            if i % 10 == 0 {
                e.actions = [ActionKind::Click, ActionKind::TypeText].into();
                e.value = Some(format!("v{generation}").into());
            }
            e
        })
        .collect();
    Snapshot::new("Bench", "Window", elements)
}

fn goals() -> MilestoneGoals {
    MilestoneGoals {
        urls: vec!["/done".into()],
        texts: vec!["Welcome, ada@example.com! Your Pro account is ready.".into()],
    }
}

/// A fresh suite per window of signals, as a run would have.
struct Workload {
    signals: Vec<StepSignal>,
    states: Option<[Snapshot; 2]>,
}

impl Workload {
    fn new(elements: Option<usize>) -> Self {
        Workload {
            signals: signals(),
            states: elements.map(|n| [snapshot(n, 0), snapshot(n, 1)]),
        }
    }

    fn suite(&self) -> MonitorSuite {
        MonitorSuite::new(goals(), EscalationConfig::default())
    }

    fn step(&self, suite: &mut MonitorSuite, i: usize) {
        let s = &self.signals[i % self.signals.len()];
        let (b, a) = match &self.states {
            Some(st) => (Some(&st[i % 2]), Some(&st[(i + 1) % 2])),
            None => (None, None),
        };
        black_box(suite.step(black_box(s), b, a));
    }
}

fn percentiles(name: &str, w: &Workload) {
    const STEPS: usize = 200_000;
    let mut suite = w.suite();
    let mut times = Vec::with_capacity(STEPS);
    for i in 0..STEPS {
        if i % 1_000 == 0 {
            suite = w.suite();
        }
        let t = Instant::now();
        w.step(&mut suite, i);
        times.push(t.elapsed());
    }
    times.sort_unstable();
    let at = |q: f64| times[((STEPS as f64 * q) as usize).min(STEPS - 1)];
    println!(
        "monitors/{name}: median {:?}, p95 {:?}, p99 {:?} per step ({STEPS} steps)",
        at(0.5),
        at(0.95),
        at(0.99)
    );
}

fn bench(c: &mut Criterion) {
    let shapes = [
        ("signals_only", None),
        ("with_snapshots_9", Some(9)),
        ("with_snapshots_1000", Some(1_000)),
    ];
    let mut group = c.benchmark_group("monitors_per_step");
    for (name, elements) in shapes {
        let w = Workload::new(elements);
        percentiles(name, &w);
        group.bench_with_input(BenchmarkId::from_parameter(name), &w, |b, w| {
            b.iter_custom(|iters| {
                let mut suite = w.suite();
                let start = Instant::now();
                for i in 0..iters as usize {
                    if i % 1_000 == 999 {
                        suite = w.suite();
                    }
                    w.step(&mut suite, i);
                }
                start.elapsed()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
