//! The second look (issue 31, item 2): a policy that gives up right after an action is
//! asked again when a look after `late_reaction` finds the page changed — an app that
//! reacts, pauses while it works, then shows the result — and its give-up stands when
//! nothing changed. On paused time, with the app's own record of what it showed.

use crate::common::fast_config;

use arc_core::{
    Action, ActionKind, BackendError, Decision, Element, ExecutableAction, ExecutionResult,
    Executor, Role, RuntimeConfig, Snapshot, Source, Subtask, TerminalKind, Termination,
};
use arc_sim::{ScriptedPolicy, StateMachineBackend};
use std::time::Duration;
use tokio::time::Instant;

/// A "Move" button whose result ("Invoices" listed) shows `delay` after the click, and
/// nothing in between: settling ends before it shows.
struct Mover {
    delay: Duration,
    clicked_at: Option<Instant>,
}

fn shown(s: &Mover) -> bool {
    s.clicked_at.is_some_and(|t| t.elapsed() >= s.delay)
}

fn mover_snapshot(s: &Mover) -> Snapshot {
    let mut button = Element::new("btn", Role::Button, "Move");
    button.actions = [ActionKind::Click].into();
    button.source = Source::Sim;
    let mut elements = vec![button];
    if shown(s) {
        elements.push(Element::new("folder", Role::StaticText, "Invoices"));
    }
    Snapshot::new("Files", "Inbox", elements)
}

fn mover_transition(s: &mut Mover, _: &ExecutableAction) -> Result<(), BackendError> {
    s.clicked_at = Some(Instant::now());
    Ok(())
}

fn config(late: Duration) -> RuntimeConfig {
    RuntimeConfig {
        late_reaction: late,
        ..fast_config()
    }
}

/// Clicks Move, then follows `then`; returns the result and the run's duration.
async fn run(
    delay: Duration,
    late: Duration,
    then: &[TerminalKind],
) -> (ExecutionResult, Duration) {
    let mut script = vec![Decision::act(Action::click("btn"))];
    script.extend(then.iter().map(|t| Decision::terminal(*t)));
    let backend = StateMachineBackend::new(
        Mover {
            delay,
            clicked_at: None,
        },
        mover_snapshot,
        mover_transition,
    );
    let mut ex = Executor::new(backend, ScriptedPolicy::new(script), config(late));
    let started = Instant::now();
    let result = ex
        .run(&Subtask::new("Move the files", "Invoices is listed"))
        .await;
    (result, started.elapsed())
}

fn lists_invoices(r: &ExecutionResult) -> bool {
    r.final_snapshot
        .elements
        .iter()
        .any(|e| e.name == "Invoices")
}

#[tokio::test(start_paused = true)]
async fn a_give_up_right_after_an_action_looks_again_and_decides_on_the_late_change() {
    let (r, _) = run(
        Duration::from_millis(200),
        Duration::from_millis(300),
        &[TerminalKind::NeedsAgent, TerminalKind::SubtaskComplete],
    )
    .await;
    assert!(r.is_complete(), "{r:#?}");
    assert!(lists_invoices(&r), "{r:#?}");
    assert!(
        r.observations
            .iter()
            .any(|o| o.contains("NEEDS_AGENT right after an action")),
        "{:?}",
        r.observations
    );
}

#[tokio::test(start_paused = true)]
async fn the_give_up_stands_when_nothing_changed_on_the_second_look() {
    let (r, took) = run(
        Duration::from_secs(10),
        Duration::from_millis(50),
        &[TerminalKind::Blocked, TerminalKind::SubtaskComplete],
    )
    .await;
    assert_eq!(r.status, TerminalKind::Blocked, "{r:#?}");
    assert_eq!(r.termination, Termination::TerminalDecision);
    assert!(!lists_invoices(&r));
    assert!(took >= Duration::from_millis(50), "it looked: {took:?}");
}

#[tokio::test(start_paused = true)]
async fn it_looks_once_per_action_and_never_before_one_or_when_disabled() {
    // Asked again after the change, the policy gives up again: that one stands.
    let late = Duration::from_secs(1);
    let (r, took) = run(
        Duration::from_millis(200),
        late,
        &[TerminalKind::NeedsAgent, TerminalKind::NeedsAgent],
    )
    .await;
    assert_eq!(r.status, TerminalKind::NeedsAgent, "{r:#?}");
    assert!(lists_invoices(&r));
    assert!(took < late * 2, "one look per action: {took:?}");
    // Disabled: the first give-up stands.
    let (r, took) = run(
        Duration::from_millis(200),
        Duration::ZERO,
        &[TerminalKind::NeedsAgent, TerminalKind::SubtaskComplete],
    )
    .await;
    assert_eq!(r.status, TerminalKind::NeedsAgent, "{r:#?}");
    assert_eq!(took, Duration::ZERO);
    // Before any action there is no late reaction to wait for.
    let backend = StateMachineBackend::new(
        Mover {
            delay: Duration::ZERO,
            clicked_at: None,
        },
        mover_snapshot,
        mover_transition,
    );
    let policy = ScriptedPolicy::new([Decision::terminal(TerminalKind::NeedsAgent)]);
    let mut ex = Executor::new(backend, policy, config(late));
    let started = Instant::now();
    let r = ex
        .run(&Subtask::new("Move the files", "Invoices is listed"))
        .await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(started.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn a_give_up_right_after_a_wait_stands_without_another_look() {
    // Click, WAIT 500 ms (the policy's own look), then give up: the result at 1 s, which a
    // second look at 1.5 s would see, is not waited for.
    let late = Duration::from_secs(1);
    let script = vec![
        Decision::act(Action::click("btn")),
        Decision::act(Action::Wait),
        Decision::terminal(TerminalKind::NeedsAgent),
        Decision::terminal(TerminalKind::SubtaskComplete),
    ];
    let backend = StateMachineBackend::new(
        Mover {
            delay: Duration::from_secs(1),
            clicked_at: None,
        },
        mover_snapshot,
        mover_transition,
    );
    let mut ex = Executor::new(backend, ScriptedPolicy::new(script), config(late));
    let r = ex
        .run(&Subtask::new("Move the files", "Invoices is listed"))
        .await;
    assert_eq!(r.status, TerminalKind::NeedsAgent, "{r:#?}");
    assert!(
        !r.observations
            .iter()
            .any(|o| o.contains("right after an action")),
        "{:?}",
        r.observations
    );
}
