//! The loop's own cost per step: a backend that hands out prebuilt 1,000-element
//! snapshots and a policy that answers instantly, so what is measured is observe-wrap,
//! decide-dispatch, materialize, risk check, freshness dispatch, settle bookkeeping,
//! record and event emission. Target (issue 2): ≤ 50 µs per step.

use arc_core::{
    Action, ActionKind, Backend, BackendError, DecideContext, Decision, Element, ExecutableAction,
    Executed, Executor, Policy, PolicyError, Role, RuntimeConfig, SettleConfig, SettleSample,
    Snapshot, Subtask, TerminalKind,
};
use async_trait::async_trait;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const STEPS: u32 = 100;

struct Prebuilt {
    snapshots: [Snapshot; 2],
    turn: usize,
}

impl Prebuilt {
    fn new(elements: usize) -> Self {
        let make = |generation: usize| {
            let elements: Vec<Element> = (0..elements)
                .map(|i| {
                    let role = if i % 10 == 0 {
                        Role::Button
                    } else {
                        Role::StaticText
                    };
                    let mut e = Element::new(
                        format!("e{i}"),
                        role,
                        format!("Element number {i} gen {generation}"),
                    );
                    if i % 10 == 0 {
                        e.actions = [ActionKind::Click].into();
                    }
                    e
                })
                .collect();
            Snapshot::new("Bench", "Window", elements)
        };
        Prebuilt {
            snapshots: [make(0), make(1)],
            turn: 0,
        }
    }
}

#[async_trait]
impl Backend for Prebuilt {
    fn name(&self) -> &'static str {
        "prebuilt"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        self.turn ^= 1;
        Ok(self.snapshots[self.turn].clone())
    }
    async fn is_fresh(&mut self, _: &Snapshot, _: &ExecutableAction) -> Result<bool, BackendError> {
        Ok(true)
    }
    async fn execute(
        &mut self,
        _: &Snapshot,
        _: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        Ok(Executed::default())
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(SettleSample {
            fingerprint: self.turn as u64,
            busy: false,
        })
    }
}

/// Clicks a button deep in the snapshot, then completes.
struct Clicker {
    left: u32,
    target: String,
}

#[async_trait]
impl Policy for Clicker {
    fn name(&self) -> &'static str {
        "clicker"
    }
    async fn decide(&mut self, _: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if self.left == 0 {
            return Ok(Decision::terminal(TerminalKind::SubtaskComplete));
        }
        self.left -= 1;
        Ok(Decision::act(Action::click(self.target.as_str())))
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("loop_step");
    group.throughput(Throughput::Elements(STEPS as u64));
    for elements in [100usize, 1_000] {
        let mut subtask = Subtask::new("Click it", "It was clicked");
        subtask.max_actions = STEPS;
        let config = RuntimeConfig {
            settle: SettleConfig::immediate(),
            no_change_limit: 0,
            ..Default::default()
        };
        group.bench_with_input(BenchmarkId::from_parameter(elements), &elements, |b, &n| {
            b.iter_batched(
                || {
                    // A button near the end: lookups pay for the whole snapshot.
                    let clicker = Clicker {
                        left: STEPS,
                        target: format!("e{}", n - 10),
                    };
                    Executor::new(Prebuilt::new(n), clicker, config.clone())
                },
                |mut ex| {
                    let r = rt.block_on(ex.run(&subtask));
                    assert_eq!(r.actions_taken, STEPS);
                    r
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
