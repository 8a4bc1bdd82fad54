//! The cascade: the cache replays what the model once decided, with zero model calls;
//! with no model, a stuck run goes back to the planner with its failure signature.

use crate::fixtures;
use crate::server;

use arc_core::{
    ActionKind, DecideContext, Decision, Element, Executor, Policy, PolicyError, Role,
    RuntimeConfig, SettleConfig, Snapshot, Subtask, TerminalKind,
};
use arc_policy::cache::SelectorCache;
use arc_policy::{Cascade, OpenAiPolicy};
use arc_sim::{SignupApp, StateMachineBackend};
use async_trait::async_trait;
use fixtures::{bounded, fast_config};
use server::{answer, chat, ModelServer};

/// A reflex tier that can ground nothing (a goal phrased past its vocabulary).
struct Ungrounded;

#[async_trait]
impl Policy for Ungrounded {
    fn name(&self) -> &'static str {
        "ungrounded"
    }
    async fn decide(&mut self, _: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Ok(Decision::terminal(TerminalKind::NeedsAgent).with_reason("cannot ground the goal"))
    }
}

fn signup_script() -> Vec<server::Reply> {
    vec![
        chat(&answer(
            "TYPE_TEXT",
            &[("type_text_target", "email"), ("type_text_input", "email")],
        )),
        chat(&answer("CLICK", &[("click_target", "plan")])),
        chat(&answer("CLICK", &[("click_target", "plan-pro")])),
        chat(&answer("CLICK", &[("click_target", "terms")])),
        chat(&answer("CLICK", &[("click_target", "submit")])),
        chat(&answer("SUBTASK_COMPLETE", &[("criterion_0", "SATISFIED")])),
    ]
}

fn quick() -> RuntimeConfig {
    RuntimeConfig {
        settle: SettleConfig {
            cap: std::time::Duration::from_secs(2),
            ..SettleConfig::default()
        },
        ..Default::default()
    }
}

#[tokio::test]
async fn a_second_identical_subtask_runs_from_the_cache_with_zero_model_calls() {
    bounded(async {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("selectors.json");
        let server = ModelServer::scripted(signup_script()).await;
        let model = OpenAiPolicy::new(fast_config(&server.base_url())).unwrap();
        let cascade = Cascade::new(Box::new(Ungrounded))
            .with_model(Box::new(model))
            .with_cache(SelectorCache::open(&path).unwrap());
        let mut first = Executor::new(SignupApp::backend(), cascade, quick());
        let result = first.run(&SignupApp::demo_subtask()).await;
        assert!(result.is_complete(), "{:?}", result.reason);
        let (_, cascade) = first.into_parts();
        assert_eq!(cascade.counts().model, 6);
        // Stored by the cascade itself when the run finished (the second run proves the
        // file holds it).
        assert!(
            matches!(cascade.learned(), Some(Ok(true))),
            "the completed run is stored: {:?}",
            cascade.learned()
        );
        assert_eq!(server.count(), 6);

        // A new process: the cache file, a model that must not be called, a fresh app.
        let server2 = ModelServer::scripted(vec![]).await;
        let model2 = OpenAiPolicy::new(fast_config(&server2.base_url())).unwrap();
        let cascade2 = Cascade::new(Box::new(Ungrounded))
            .with_model(Box::new(model2))
            .with_cache(SelectorCache::open(&path).unwrap());
        let mut second = Executor::new(SignupApp::backend(), cascade2, quick());
        let result = second.run(&SignupApp::demo_subtask()).await;
        assert!(result.is_complete(), "{:?}", result.reason);
        assert_eq!(server2.count(), 0, "zero model calls");
        let (app, cascade2) = second.into_parts();
        assert_eq!(cascade2.counts().cache, 6);
        // The app's own record: the same submission landed.
        assert_eq!(
            app.state().confirmation().as_deref(),
            Some("Welcome, ada@example.com! Your Pro account is ready.")
        );
    })
    .await
}

/// Clicks a button that does nothing, forever.
struct Repeater;

#[async_trait]
impl Policy for Repeater {
    fn name(&self) -> &'static str {
        "repeater"
    }
    async fn decide(&mut self, _: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Ok(Decision::act(arc_core::Action::click("noop")))
    }
}

fn inert_page(_: &()) -> Snapshot {
    let mut b = Element::new("noop", Role::Button, "Do nothing");
    b.actions = [ActionKind::Click].into();
    Snapshot::new("App", "Main", vec![b])
}

#[tokio::test]
async fn a_stuck_run_with_no_model_goes_back_to_the_planner_with_its_signature() {
    bounded(async {
        let backend = StateMachineBackend::new((), inert_page, |_, _| Ok(()));
        let config = RuntimeConfig {
            no_change_limit: 0,
            settle: SettleConfig::immediate(),
            ..Default::default()
        };
        let mut ex = Executor::new(backend, Cascade::new(Box::new(Repeater)), config);
        let result = ex
            .run(&Subtask::new("Make something happen", "Something happened"))
            .await;
        assert_eq!(result.status, TerminalKind::NeedsAgent);
        let reason = result.reason.unwrap();
        assert!(reason.contains("no model is configured"), "{reason}");
        assert!(
            reason.contains("STATE_NOT_CHANGED") || reason.contains("CYCLIC_LOOP"),
            "{reason}"
        );
        // Local recovery and escalation came before the loop's own no-change limit.
        assert!(result.actions_taken <= 20, "{}", result.actions_taken);
        let (_, cascade) = ex.into_parts();
        assert!(cascade.counts().escalations >= 1);
    })
    .await
}
