//! One test per way a run can end (DESIGN §2), each checked against the app's own state.

use crate::common;

use arc_core::{
    Action, Decision, Executor, Key, Policy, PolicyError, RuntimeConfig, Subtask, TerminalKind,
    Termination,
};
use arc_sim::ScriptedPolicy;
use async_trait::async_trait;
use common::*;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

fn task() -> Subtask {
    Subtask::new("Increment the counter", "The status shows Count: 1")
}

#[tokio::test]
async fn a_terminal_decision_ends_the_run_with_its_status_and_reason() {
    for kind in [
        TerminalKind::SubtaskComplete,
        TerminalKind::Blocked,
        TerminalKind::NeedsAgent,
    ] {
        let script = [
            click("inc"),
            Decision::terminal(kind).with_reason("policy says so"),
        ];
        let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), fast_config());
        let r = ex.run(&task()).await;
        assert_eq!(r.status, kind);
        assert_eq!(r.termination, Termination::TerminalDecision);
        assert_eq!(r.reason.as_deref(), Some("policy says so"));
        assert_eq!(r.actions_taken, 1);
        assert_eq!(ex.backend_mut().state().count, 1);
    }
}

#[tokio::test]
async fn a_rejecting_verify_callback_turns_completion_into_needs_agent() {
    let mut config = fast_config();
    // Reads the app's status line, independently of the policy's claim.
    config.verify = Some(Arc::new(|s, _| {
        s.element("status").is_some_and(|e| e.name == "Count: 2")
    }));
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([click("inc"), complete()]),
        config,
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::VerifyRejected);
    assert_eq!(
        r.reason.as_deref(),
        Some("Verification callback rejected SUBTASK_COMPLETE.")
    );
}

#[tokio::test]
async fn an_accepting_verify_callback_lets_completion_through() {
    let mut config = fast_config();
    config.verify = Some(Arc::new(|s, _| {
        s.element("status").is_some_and(|e| e.name == "Count: 1")
    }));
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([click("inc"), complete()]),
        config,
    );
    assert!(ex.run(&task()).await.is_complete());
}

#[tokio::test]
async fn the_action_budget_ends_in_needs_agent_without_exceeding_it() {
    let mut t = task();
    t.max_actions = 2;
    let script = [click("inc"), click("inc"), click("inc"), complete()];
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), fast_config());
    let r = ex.run(&t).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::BudgetExhausted);
    assert_eq!(r.actions_taken, 2);
    assert_eq!(
        ex.backend_mut().state().count,
        2,
        "a third action must not run"
    );
    assert!(r.reason.unwrap().contains("budget of 2"));
}

#[tokio::test]
async fn a_terminal_decision_after_the_last_budgeted_action_is_honoured() {
    let mut t = task();
    t.max_actions = 1;
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    assert!(ex.run(&t).await.is_complete());
}

/// A policy that never answers (a hung model endpoint).
struct Hung;

#[async_trait]
impl Policy for Hung {
    fn name(&self) -> &'static str {
        "hung"
    }
    async fn decide(&mut self, _: arc_core::DecideContext<'_>) -> Result<Decision, PolicyError> {
        std::future::pending().await
    }
}

#[tokio::test(start_paused = true)]
async fn the_wall_clock_timeout_interrupts_a_hung_policy() {
    let mut config = fast_config();
    config.timeout = Some(Duration::from_millis(250));
    let mut ex = Executor::new(counter(), Hung, config);
    let started = tokio::time::Instant::now();
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::Timeout);
    assert!(started.elapsed() < Duration::from_millis(300));
    assert!(r.reason.unwrap().contains("250 ms"));
}

/// Clicks "Increment" forever.
struct Endless;

#[async_trait]
impl Policy for Endless {
    fn name(&self) -> &'static str {
        "endless"
    }
    async fn decide(&mut self, _: arc_core::DecideContext<'_>) -> Result<Decision, PolicyError> {
        Ok(click("inc"))
    }
}

#[test]
fn cancel_from_another_thread_ends_the_run_within_one_step() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let backend = Faulty::new(counter(), Fault::None);
    let executions = backend.executions.clone();
    let mut config = fast_config();
    config.no_change_limit = 0;
    let mut t = task();
    t.max_actions = 1_000_000;
    let mut ex = Executor::new(backend, Endless, config);
    let handle = ex.cancel_handle();
    let watcher_count = executions.clone();
    let canceller = std::thread::spawn(move || {
        while watcher_count.load(Ordering::SeqCst) < 20 {
            std::thread::sleep(Duration::from_micros(50));
        }
        let at_cancel = watcher_count.load(Ordering::SeqCst);
        handle.cancel();
        at_cancel
    });
    let r = rt.block_on(ex.run(&t));
    let at_cancel = canceller.join().unwrap();
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::Cancelled);
    let ran = executions.load(Ordering::SeqCst);
    assert!(
        ran <= at_cancel + 1,
        "{ran} actions ran, {at_cancel} before cancel"
    );
    // Every action that ran is in the history: none is left unreported.
    assert_eq!(r.actions_taken, ran);
    assert_eq!(ex.backend_mut().inner.state().count, ran);
}

#[tokio::test]
async fn a_target_that_never_matches_its_guard_exhausts_stale_retries() {
    let backend = Faulty::new(counter(), Fault::NeverFresh);
    let executions = backend.executions.clone();
    let mut config = fast_config();
    config.stale_retries = 3;
    let script = std::iter::repeat_n(click("inc"), 10).collect::<Vec<_>>();
    let mut events = Vec::new();
    let mut ex = Executor::new(backend, ScriptedPolicy::new(script), config);
    let r = ex.run_with(&task(), |e| events.push(e)).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::StaleRetriesExhausted);
    assert_eq!(
        executions.load(Ordering::SeqCst),
        0,
        "nothing may be clicked on a stale target"
    );
    assert_eq!(r.observations.len(), 4, "3 retries + the one that gave up");
    assert_eq!(events.len(), 5, "4 stale events + the finish");
}

#[tokio::test]
async fn a_stale_error_from_execute_is_bounded_by_the_same_limit() {
    let mut ex = Executor::new(
        Faulty::new(counter(), Fault::StaleAlways),
        Endless,
        RuntimeConfig {
            stale_retries: 8,
            ..fast_config()
        },
    );
    let r = tokio::time::timeout(Duration::from_secs(5), ex.run(&task()))
        .await
        .expect("the loop must end");
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::StaleRetriesExhausted);
    assert_eq!(
        ex.backend_mut().stale_reports,
        9,
        "8 retries, then give up on the 9th"
    );
    assert!(r.reason.unwrap().contains("after 8 re-observations"));
}

#[tokio::test]
async fn a_decision_is_consumed_before_its_mutation_so_a_stale_retry_never_repeats_it() {
    let backend = Faulty::new(counter(), Fault::ActThenStaleOnce);
    let executions = backend.executions.clone();
    let script = [click("inc"), click("noop"), complete()];
    let mut ex = Executor::new(backend, ScriptedPolicy::new(script), fast_config());
    let r = ex.run(&task()).await;
    assert!(r.is_complete());
    let app = ex.backend_mut().inner.state();
    assert_eq!(app.count, 1, "the increment landed exactly once");
    assert_eq!(app.received, vec!["CLICK inc", "CLICK noop"]);
    assert_eq!(executions.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn consecutive_unchanged_actions_end_blocked() {
    let script = [
        click("inc"),
        click("noop"),
        click("noop"),
        click("noop"),
        complete(),
    ];
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), fast_config());
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::Blocked);
    assert_eq!(r.termination, Termination::NoChangeLimit);
    assert_eq!(r.actions_taken, 4);
    assert!(r.history[0].state_changed);
    assert!(r.history[1..].iter().all(|h| !h.state_changed));
}

/// Distinct actions that each change nothing (a like on each post, shown by colour only)
/// are no loop; going back to one of them is.
#[tokio::test]
async fn distinct_unchanged_actions_go_on_and_a_repeat_among_them_ends_blocked() {
    let key = |k: Key| Decision::act(Action::PressKey { key: k });
    let distinct = [
        click("noop"),
        key(Key::Tab),
        key(Key::Escape),
        key(Key::Enter),
        complete(),
    ];
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(distinct), fast_config());
    let r = ex.run(&task()).await;
    assert!(r.is_complete(), "{:?}", r.reason);
    assert_eq!(r.actions_taken, 4);

    let back_and_forth = [click("noop"), key(Key::Tab), click("noop"), complete()];
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new(back_and_forth),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::NoChangeLimit);
    assert_eq!(r.actions_taken, 3);
    assert!(r
        .reason
        .unwrap()
        .starts_with("3 consecutive actions changed nothing"));
}

#[tokio::test]
async fn a_backend_failure_ends_in_needs_agent_with_its_message() {
    let mut ex = Executor::new(Faulty::new(counter(), Fault::Fail), Endless, fast_config());
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::BackendError);
    assert!(r.reason.unwrap().contains("input device unplugged"));
    assert_eq!(r.actions_taken, 0);
}

#[tokio::test]
async fn a_failing_first_observation_ends_in_needs_agent() {
    let mut ex = Executor::new(
        Faulty::new(counter(), Fault::ObserveFails),
        Endless,
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::BackendError);
    assert!(r.reason.unwrap().contains("display went away"));
}

#[tokio::test(start_paused = true)]
async fn an_action_whose_after_observation_failed_is_recorded_and_hands_back() {
    let backend = Faulty::new(counter(), Fault::ObserveFailsAfterExecute);
    let executions = backend.executions.clone();
    let mut ex = Executor::new(backend, ScriptedPolicy::new([click("inc")]), fast_config());
    let mut acted = 0;
    let r = ex
        .run_with(&task(), |e| {
            acted += u32::from(matches!(e.outcome, arc_core::StepOutcome::Acted { .. }))
        })
        .await;
    // The app's own state: the click landed once.
    assert_eq!(ex.backend_mut().inner.state().count, 1);
    assert_eq!(executions.load(Ordering::SeqCst), 1);
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::BackendError);
    let reason = r.reason.as_deref().unwrap();
    assert!(
        reason.contains("the action ran but the observation after it failed")
            && reason.contains("display went away"),
        "{reason}"
    );
    // Reported as taken, so a planner does not click again.
    assert_eq!(r.actions_taken, 1);
    assert_eq!(r.history.len(), 1);
    assert_eq!(acted, 1);
    let record = &r.history[0];
    assert!(!record.after_observed);
    assert!(!record.state_changed);
    assert_eq!(record.after_revision, "");
    assert_eq!(record.target_name.as_deref(), Some("Increment"));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["history"][0]["after_observed"], false);
}

#[tokio::test]
async fn a_policy_failure_ends_in_needs_agent() {
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([click("inc")]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::PolicyError);
    assert!(r.reason.unwrap().contains("script exhausted after 1"));
}

#[tokio::test]
async fn an_unsupported_action_ends_in_needs_agent() {
    // The counter app has nothing to scroll: its backend refuses SCROLL.
    let decision = Decision::act(Action::Scroll {
        direction: arc_core::ScrollDirection::Down,
        target: None,
    });
    let mut ex = Executor::new(counter(), ScriptedPolicy::new([decision]), fast_config());
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::UnsupportedAction);
    assert!(r.reason.unwrap().contains("does not support SCROLL"));
}

#[tokio::test]
async fn low_confidence_decisions_hand_back_to_the_agent() {
    let mut config = fast_config();
    config.min_confidence = Some(0.8);
    let script = [click("inc").with_confidence(0.55, 0.3)];
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), config);
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::LowConfidence);
    assert_eq!(ex.backend_mut().state().count, 0);
}

#[tokio::test]
async fn the_gate_names_the_decision_and_lets_a_handback_through() {
    let mut config = fast_config();
    config.min_confidence = Some(0.6);
    let doubtful_done = Decision::terminal(TerminalKind::SubtaskComplete).with_confidence(0.5, 0.5);
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([doubtful_done]),
        config.clone(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::LowConfidence);
    let reason = r.reason.unwrap();
    assert!(
        reason.contains("0.50 for SUBTASK_COMPLETE is below min_confidence 0.60"),
        "{reason}"
    );

    // A handback already returns to the planner: however doubtful, it stands.
    let doubtful_block = Decision::terminal(TerminalKind::Blocked).with_confidence(0.1, 0.1);
    let mut ex = Executor::new(counter(), ScriptedPolicy::new([doubtful_block]), config);
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::Blocked);
    assert_eq!(r.termination, Termination::TerminalDecision);
}

#[tokio::test]
async fn a_dry_run_reports_the_next_action_without_acting() {
    let mut config = fast_config();
    config.dry_run = true;
    let mut ex = Executor::new(counter(), ScriptedPolicy::new([click("inc")]), config);
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::DryRun);
    assert_eq!(r.termination, Termination::DryRun);
    assert_eq!(r.actions_taken, 0);
    assert_eq!(ex.backend_mut().state().count, 0);
    let planned = r.planned_action.expect("a planned action");
    assert_eq!(planned.action, arc_core::ActionKind::Click);
    assert_eq!(
        planned.target.map(|t| t.to_string()).as_deref(),
        Some("inc")
    );
    assert_eq!(planned.target_name.as_deref(), Some("Increment"));
    assert!(r
        .reason
        .unwrap()
        .contains("would be CLICK on \"Increment\""));
}

#[tokio::test]
async fn needs_input_names_the_field_as_the_snapshot_shows_it() {
    let wire = r#"{"terminal": "NEEDS_INPUT", "target_id": "inc", "reason": "needs a value"}"#;
    let asks = Decision::from_json(wire).unwrap();
    let mut ex = Executor::new(counter(), ScriptedPolicy::new([asks]), fast_config());
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::NeedsInput);
    assert_eq!(r.actions_taken, 0);
    let field = r.needs_input.expect("the requested field");
    assert_eq!(field.element_id.to_string(), "inc");
    assert_eq!(field.name, "Increment");
    let json = serde_json::to_value(&field).unwrap();
    assert_eq!(json["role"], "button");
}

#[tokio::test]
async fn pressing_a_named_key_runs() {
    let script = [
        Decision::act(Action::PressKey { key: Key::Escape }),
        complete(),
    ];
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), fast_config());
    assert!(ex.run(&task()).await.is_complete());
    assert_eq!(ex.backend_mut().state().received, vec!["PRESS_KEY "]);
}

/// The counter, except that one call never returns: execute, or the observation after
/// the first action (a page that froze once clicked).
struct Freezes {
    inner: arc_sim::StateMachineBackend<Counter>,
    on_execute: bool,
    observations: u32,
}

#[async_trait]
impl arc_core::Backend for Freezes {
    fn name(&self) -> &'static str {
        "freezes"
    }
    async fn observe(&mut self) -> Result<arc_core::Snapshot, arc_core::BackendError> {
        self.observations += 1;
        if !self.on_execute && self.observations > 1 {
            std::future::pending::<()>().await;
        }
        self.inner.observe().await
    }
    async fn is_fresh(
        &mut self,
        s: &arc_core::Snapshot,
        a: &arc_core::ExecutableAction,
    ) -> Result<bool, arc_core::BackendError> {
        self.inner.is_fresh(s, a).await
    }
    async fn execute(
        &mut self,
        s: &arc_core::Snapshot,
        a: &arc_core::ExecutableAction,
    ) -> Result<arc_core::Executed, arc_core::BackendError> {
        if self.on_execute {
            std::future::pending::<()>().await;
        }
        self.inner.execute(s, a).await
    }
    async fn settle_probe(&mut self) -> Result<arc_core::SettleSample, arc_core::BackendError> {
        self.inner.settle_probe().await
    }
}

/// The wall-clock timeout bounds the calls that must not be torn, too: `action_timeout`
/// (30 s) would otherwise hold a 1 s run for 30 s. They get a short grace past it.
async fn a_frozen_call_is_cut_at_the_deadline(on_execute: bool, says: &str) {
    let mut config = fast_config();
    config.timeout = Some(Duration::from_secs(1));
    let backend = Freezes {
        inner: counter(),
        on_execute,
        observations: 0,
    };
    let mut ex = Executor::new(
        backend,
        ScriptedPolicy::new([click("inc"), complete()]),
        config,
    );
    let started = tokio::time::Instant::now();
    let r = ex.run(&task()).await;
    let took = started.elapsed();
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::Timeout, "{:?}", r.reason);
    assert!(
        took >= Duration::from_secs(1) && took <= Duration::from_millis(1600),
        "took {took:?}"
    );
    let reason = r.reason.unwrap();
    assert!(
        reason.contains("1000 ms") && reason.contains(says),
        "{reason}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_wall_clock_timeout_cuts_an_action_that_never_finishes() {
    a_frozen_call_is_cut_at_the_deadline(true, "CLICK did not finish").await;
}

#[tokio::test(start_paused = true)]
async fn the_wall_clock_timeout_cuts_the_observation_after_an_action() {
    a_frozen_call_is_cut_at_the_deadline(false, "observing its effect").await;
}

#[tokio::test(start_paused = true)]
async fn without_a_timeout_a_frozen_action_ends_at_the_action_timeout() {
    let mut config = fast_config();
    config.action_timeout = Duration::from_secs(3);
    let backend = Freezes {
        inner: counter(),
        on_execute: true,
        observations: 0,
    };
    let mut ex = Executor::new(
        backend,
        ScriptedPolicy::new([click("inc"), complete()]),
        config,
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::BackendError, "{:?}", r.reason);
    assert!(r.reason.unwrap().contains("within 3000 ms"));
}
