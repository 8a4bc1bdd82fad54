//! What the loop refuses before acting (materialize, risk), what it records, and how it
//! settles — each checked against the app's own record of what it received.

use crate::common;

use arc_core::{
    Action, Chord, Decision, ExecutionResult, Executor, Risk, Role, RuntimeConfig, SettleConfig,
    StepOutcome, Subtask, TerminalKind, Termination,
};
use arc_sim::{ScriptedPolicy, SignupApp};
use common::*;
use rstest::rstest;
use std::time::Duration;

async fn run_one(decision: Decision, subtask: &Subtask) -> (ExecutionResult, Vec<String>) {
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([decision, complete()]),
        fast_config(),
    );
    let r = ex.run(subtask).await;
    let received = ex.backend_mut().state().received.clone();
    (r, received)
}

fn typing(key: &str) -> Decision {
    Decision::act(Action::type_text("query", key))
}

#[rstest]
#[case::unknown_target(click("e404"), "target_id", "Unknown target id e404")]
#[case::disabled_target(click("locked"), "target_id", "locked is not enabled")]
#[case::hidden_target(click("hidden"), "target_id", "hidden is not visible")]
#[case::kind_not_offered(Decision::act(Action::DoubleClick { target: "inc".into() }), "kind", "DOUBLE_CLICK is not legal for inc")]
#[case::hover_not_offered(Decision::act(Action::Hover { target: "inc".into() }), "kind", "HOVER is not legal for inc")]
#[case::input_key_missing(typing("nope"), "input_key", "\"nope\" is not in inputs")]
#[case::undeclared_hotkey(Decision::act(Action::Hotkey { chord: "CTRL+ALT+DELETE".parse().unwrap() }), "hotkey", "neither a default hotkey nor declared")]
#[case::printable_key(Decision::act(Action::PressKey { key: "x".parse().unwrap() }), "key", "not a pressable key")]
#[case::huge_drag(Decision::act(Action::DragBy { target: "inc".into(), dx: 1e6, dy: 0.0 }), "kind", "DRAG_BY is not legal for inc")]
#[tokio::test]
async fn an_illegal_decision_is_refused_without_acting(
    #[case] decision: Decision,
    #[case] field: &str,
    #[case] says: &str,
) {
    let subtask = Subtask::new("Search", "Query contains cats").with_input("q", "cats");
    let (r, received) = run_one(decision, &subtask).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::InvalidDecision);
    let reason = r.reason.unwrap();
    assert!(reason.contains(&format!("{field}:")), "{reason}");
    assert!(reason.contains(says), "{reason}");
    assert!(
        received.is_empty(),
        "nothing may reach the app: {received:?}"
    );
}

#[tokio::test]
async fn a_declared_shortcut_is_allowed() {
    let chord: Chord = "CTRL+ALT+K".parse().unwrap();
    let mut subtask = Subtask::new("Open the palette", "The palette is open");
    subtask.shortcuts.push(chord.clone());
    let mut ex = Executor::new(
        Faulty::new(counter(), Fault::None),
        ScriptedPolicy::new([Decision::act(Action::Hotkey { chord }), complete()]),
        fast_config(),
    );
    let r = ex.run(&subtask).await;
    // The counter backend does not implement HOTKEY: the decision passed materialize and
    // reached the backend, which is what this test is about.
    assert_eq!(r.termination, Termination::UnsupportedAction);
}

#[tokio::test]
async fn a_risky_click_is_refused_unless_the_planner_allows_it() {
    let subtask = Subtask::new("Reset the counter", "Count: 0");
    let (r, received) = run_one(click("delete"), &subtask).await;
    assert_eq!(r.termination, Termination::RiskRefused);
    assert!(r.reason.unwrap().contains("'delete' risk"));
    assert!(received.is_empty());

    let mut allowed = subtask.clone();
    allowed.allowed_risks.insert(Risk::Delete);
    let (r, received) = run_one(click("delete"), &allowed).await;
    assert!(r.is_complete());
    assert_eq!(received, vec!["CLICK delete"]);
}

#[tokio::test]
async fn input_keys_resolve_to_the_planner_literal() {
    let subtask = Subtask::new("Search for cats", "Query contains cats").with_input("q", "cats");
    let (r, received) = run_one(typing("q"), &subtask).await;
    assert!(r.is_complete());
    assert_eq!(received, vec!["TYPE_TEXT query"]);
    let field = r
        .final_snapshot
        .elements
        .iter()
        .find(|e| e.id.as_str() == "query")
        .unwrap();
    assert_eq!(field.value, Some("cats".into()));
}

#[tokio::test]
async fn a_secret_literal_never_leaves_in_results_or_events() {
    let mut subtask = Subtask::new("Log in", "Logged in").with_input("pw", "hunter2-very-secret");
    subtask.secret_inputs.insert("pw".into());
    let decision = Decision::act(Action::type_text("query", "pw"));
    let mut lines = Vec::new();
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([decision, complete()]),
        fast_config(),
    );
    let r = ex
        .run_with(&subtask, |e| lines.push(serde_json::to_string(&e).unwrap()))
        .await;
    // The app did receive it…
    assert_eq!(ex.backend_mut().state().query, "hunter2-very-secret");
    // …but neither the history nor the event stream carries it.
    let history = serde_json::to_string(&r.history).unwrap();
    assert!(!history.contains("hunter2"), "{history}");
    assert!(history.contains("[secret]"));
    assert!(lines.iter().all(|l| !l.contains("hunter2")));
}

#[tokio::test]
async fn each_cycle_emits_one_event_and_the_last_carries_the_result() {
    let script = [click("inc"), click("inc"), complete()];
    let mut events = Vec::new();
    let mut ex = Executor::new(counter(), ScriptedPolicy::new(script), fast_config());
    let r = ex.run_with(&task(), |e| events.push(e)).await;
    assert_eq!(events.len(), 3);
    assert!(matches!(events[0].outcome, StepOutcome::Acted { .. }));
    assert!(matches!(events[1].outcome, StepOutcome::Acted { .. }));
    assert_eq!(events[2].result(), Some(&r));
    assert_eq!(
        events.iter().map(|e| e.cycle).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    // Revisions chain: each action's after is the next decision's snapshot.
    assert_eq!(r.history[0].after_revision, r.history[1].before_revision);
}

fn task() -> Subtask {
    Subtask::new("Increment twice", "Count: 2")
}

#[tokio::test(start_paused = true)]
async fn settling_waits_out_pending_work_before_observing() {
    // The sign-up app reports itself busy for 300 ms after submit; the confirmation
    // appears only then. A loop that observed right away would miss it.
    let mut ex = Executor::new(
        SignupApp::backend(),
        ScriptedPolicy::new(SignupApp::demo_script()),
        RuntimeConfig::default(),
    );
    let r = ex.run(&SignupApp::demo_subtask()).await;
    assert!(r.is_complete(), "{r:?}");
    let submit = r.history.last().unwrap();
    assert!(submit.settle.elapsed_ms >= 300, "{:?}", submit.settle);
    let confirmation = r
        .final_snapshot
        .elements
        .iter()
        .find(|e| e.role == Role::Status)
        .unwrap();
    assert_eq!(
        confirmation.name,
        "Welcome, ada@example.com! Your Pro account is ready."
    );
    let app = ex.backend_mut().state();
    assert_eq!(
        app.received,
        vec![
            "TYPE_TEXT email",
            "CLICK plan",
            "CLICK plan-pro",
            "CLICK terms",
            "CLICK submit"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn settling_stops_at_the_cap_when_the_ui_never_goes_quiet() {
    let busy_forever = counter().with_busy(|_| true);
    let config = RuntimeConfig {
        settle: SettleConfig {
            cap: Duration::from_millis(700),
            ..SettleConfig::default()
        },
        ..RuntimeConfig::default()
    };
    let mut ex = Executor::new(
        busy_forever,
        ScriptedPolicy::new([click("inc"), complete()]),
        config,
    );
    let r = ex.run(&task()).await;
    let settle = r.history[0].settle;
    assert_eq!(settle.end, arc_core::SettleEnd::Cap);
    assert!((700..800).contains(&settle.elapsed_ms), "{settle:?}");
}

#[tokio::test(start_paused = true)]
async fn an_action_with_no_visible_effect_settles_after_the_reaction_window() {
    let mut ex = Executor::new(
        counter(),
        ScriptedPolicy::new([click("noop"), complete()]),
        RuntimeConfig::default(),
    );
    let r = ex.run(&task()).await;
    let settle = r.history[0].settle;
    assert_eq!(settle.end, arc_core::SettleEnd::NoReaction);
    assert!((600..700).contains(&settle.elapsed_ms), "{settle:?}");
}
