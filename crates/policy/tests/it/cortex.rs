//! The cortex wired: on ESCALATE the cascade asks a (scripted, loopback) model for a
//! recovery plan; a valid plan runs through the loop and completes the subtask, an
//! invalid one is refused whole and the run goes back to the planner with the
//! compiler's reason. The simulated app's own state is the oracle.

use crate::fixtures::{bounded, fast_config};
use crate::server::{chat, ModelServer, Reply};

use arc_core::{
    Action, ActionKind, DecideContext, Decision, Element, ExecutionResult, Executor, Policy,
    PolicyError, Role, RuntimeConfig, SettleConfig, Snapshot, Subtask, TerminalKind, Tier,
};
use arc_policy::{Cascade, OpenAiPolicy};
use arc_sim::StateMachineBackend;
use async_trait::async_trait;
use serde_json::{json, Value};

/// The app's own record: every action that reached it, by target.
#[derive(Default)]
struct App {
    log: Vec<String>,
    done: bool,
}

fn page(app: &App) -> Snapshot {
    let mut noop = Element::new("noop", Role::Button, "Do nothing");
    noop.actions = [ActionKind::Click].into();
    let mut go = Element::new("go", Role::Button, "Continue");
    go.actions = [ActionKind::Click].into();
    // Once pressed, the button gives way to the confirmation.
    let mut elements = vec![noop];
    if app.done {
        elements.push(Element::new("done", Role::StaticText, "All done"));
    } else {
        elements.push(go);
    }
    Snapshot::new("App", if app.done { "Done" } else { "Main" }, elements)
}

fn backend() -> StateMachineBackend<App> {
    StateMachineBackend::new(App::default(), page, |app, a| {
        // Only actions on elements: a WAIT reaches the app but does nothing to it.
        if let Some(target) = a.action.target() {
            app.log.push(format!("{} {}", a.kind(), target.0));
            app.done |= target.0 == "go";
        }
        Ok(())
    })
}

/// A first tier that cannot find the way: it clicks the inert button until the page
/// shows "All done", then says the subtask is complete (its own check of the criterion).
struct Stubborn;

#[async_trait]
impl Policy for Stubborn {
    fn name(&self) -> &'static str {
        "stubborn"
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if ctx.snapshot.element("done").is_some() {
            return Ok(Decision::terminal(TerminalKind::SubtaskComplete));
        }
        Ok(Decision::act(Action::click("noop")))
    }
}

fn config() -> RuntimeConfig {
    RuntimeConfig {
        no_change_limit: 0,
        settle: SettleConfig::immediate(),
        ..Default::default()
    }
}

fn subtask() -> Subtask {
    Subtask::new("Get past the main page", "The page says All done")
        .with_input("home", "https://example.com/")
}

fn plan(steps: Vec<Value>) -> Reply {
    let steps: Vec<Value> = steps
        .into_iter()
        .map(|mut s| {
            for k in [
                "target",
                "input_key",
                "url",
                "key",
                "direction",
                "wait_ms",
                "text",
            ] {
                if s.get(k).is_none() {
                    s[k] = Value::Null;
                }
            }
            s
        })
        .collect();
    chat(&json!({ "plan_id": "p1", "root_cause": "wrong button", "steps": steps }))
}

async fn run(reply: Reply) -> (ExecutionResult, App, Cascade, ModelServer) {
    let server = ModelServer::scripted(vec![reply]).await;
    let model = OpenAiPolicy::new(fast_config(&server.base_url())).unwrap();
    let cascade = Cascade::new(Box::new(Stubborn)).with_model(Box::new(model));
    let mut ex = Executor::new(backend(), cascade, config());
    let result = ex.run(&subtask()).await;
    let (mut backend, cascade) = ex.into_parts();
    let app = std::mem::take(backend.state_mut());
    (result, app, cascade, server)
}

#[tokio::test]
async fn cortex_escalation_names_the_signature_and_recent_steps_and_a_valid_plan_completes() {
    bounded(async {
        let reply = plan(vec![
            json!({"verb": "ASSERT_VISIBLE", "target": "go"}),
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "WAIT", "wait_ms": 500}),
        ]);
        let (result, app, cascade, server) = run(reply).await;
        assert!(result.is_complete(), "{:?}", result.reason);
        // The app's record: the plan's click landed, after the stuck clicks.
        assert!(app.done);
        assert_eq!(app.log.iter().filter(|l| l.ends_with(" go")).count(), 1);
        let sent_at = app.log.iter().position(|l| l.ends_with(" go")).unwrap();
        assert!(app.log[..sent_at].iter().any(|l| l.ends_with(" noop")));
        assert_eq!(
            cascade.counts().recovery,
            2,
            "CLICK and WAIT ran from the plan"
        );
        assert_eq!(cascade.counts().escalations, 1);

        // Exactly one request, and it is an escalation that carries the failure.
        let requests = server.requests();
        assert_eq!(requests.len(), 1);
        let body = requests[0].json();
        assert_eq!(
            body["response_format"]["json_schema"]["name"],
            "arc_cua_recovery_plan"
        );
        let user = body["messages"][1]["content"].as_str().unwrap();
        assert!(user.starts_with("ESCALATION\n"), "{user}");
        let signature = user
            .lines()
            .find_map(|l| l.strip_prefix("FAILURE SIGNATURE: "))
            .unwrap();
        assert!(
            ["STATE_NOT_CHANGED", "CYCLIC_LOOP"].contains(&signature),
            "{signature}"
        );
        let steps: Vec<&str> = user
            .lines()
            .skip_while(|l| !l.starts_with("RECENT STEPS"))
            .skip(1)
            .take_while(|l| l.starts_with("- "))
            .collect();
        assert!(steps.len() >= 2, "{user}");
        for s in &steps {
            assert!(s.contains("; state ") && s.contains(" -> "), "{s}");
        }
        let clicks = steps.iter().filter(|s| s.starts_with("- CLICK [noop]"));
        assert!(
            clicks.count() >= 2,
            "the repeated click is named: {steps:?}"
        );
        assert!(
            steps.iter().any(|s| s.ends_with("; nothing changed")),
            "{steps:?}"
        );
        assert!(user.contains("GOAL\nGet past the main page"), "{user}");
        assert!(user.contains("[go]"), "the compact view is carried: {user}");
    })
    .await
}

async fn refused(steps: Vec<Value>, rule: &str) {
    let (result, app, cascade, server) = run(plan(steps)).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    let reason = result.reason.clone().unwrap_or_default();
    assert!(reason.contains("recovery plan rejected"), "{reason}");
    assert!(reason.contains(rule), "{rule} in {reason}");
    // Nothing of the plan ran: the app never saw the plan's valid first step.
    assert!(!app.done);
    assert!(
        app.log.iter().all(|l| l.ends_with(" noop")),
        "{:?}",
        app.log
    );
    assert_eq!(cascade.counts().recovery, 0);
    assert_eq!(cascade.counts().plans_rejected, 1);
    assert_eq!(cascade.last_tier(), Some(Tier::Controller));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn cortex_plan_with_a_javascript_navigation_is_refused_whole() {
    bounded(refused(
        vec![
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "GOTO", "url": " JaVaScRiPt%3Aalert(1)"}),
        ],
        "FORBIDDEN_SCHEME",
    ))
    .await
}

#[tokio::test]
async fn cortex_plan_with_an_unknown_target_is_refused_whole() {
    bounded(refused(
        vec![
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "CLICK", "target": "ghost"}),
        ],
        "TARGET_NOT_IN_SNAPSHOT",
    ))
    .await
}

#[tokio::test]
async fn cortex_plan_with_an_eleventh_step_is_refused_whole() {
    let steps = (0..11)
        .map(|_| json!({"verb": "CLICK", "target": "go"}))
        .collect();
    bounded(refused(steps, "PLAN_TOO_LONG")).await
}

#[tokio::test]
async fn cortex_plan_with_a_61_second_wait_is_refused_whole() {
    bounded(refused(
        vec![
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "WAIT", "wait_ms": 61_000}),
        ],
        "WAIT_TOO_LONG",
    ))
    .await
}

#[tokio::test]
async fn cortex_plan_is_dropped_when_its_next_target_is_gone() {
    bounded(async {
        // The second CLICK expects the button still there; the first one removed it.
        let reply = plan(vec![
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "CLICK", "target": "go"}),
            json!({"verb": "WAIT", "wait_ms": 100}),
        ]);
        let (result, app, cascade, _server) = run(reply).await;
        assert!(result.is_complete(), "{:?}", result.reason);
        assert_eq!(app.log.iter().filter(|l| l.ends_with(" go")).count(), 1);
        // Dropped before it was handed out (not refused later by the executor as stale),
        // and the WAIT after it never ran either.
        assert_eq!(cascade.counts().recovery, 1);
    })
    .await
}
