//! The loop's side of the risk gate's live facts (issue 15, item 4): what the backend says
//! an action would press is classified before anything is pressed, and a press the
//! backend says landed elsewhere is recorded as such and, when it landed on a risk the
//! subtask did not allow, ends the run. Checked against the app's own record.

use crate::common;

use arc_core::{
    Action, Backend, BackendError, Decision, ExecutableAction, Executed, Executor, Key,
    LandedElsewhere, PressFacts, Pressable, SettleSample, Snapshot, SubmitKey, Subtask,
    TerminalKind, Termination,
};
use arc_sim::{ScriptedPolicy, StateMachineBackend};
use async_trait::async_trait;
use common::*;

/// The counter app, plus what a browser would have read live in the page.
struct Live {
    inner: StateMachineBackend<Counter>,
    facts: Result<PressFacts, String>,
    landing: Option<Pressable>,
}

#[async_trait]
impl Backend for Live {
    fn name(&self) -> &'static str {
        "live"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        self.inner.observe().await
    }
    async fn is_fresh(&mut self, s: &Snapshot, a: &ExecutableAction) -> Result<bool, BackendError> {
        self.inner.is_fresh(s, a).await
    }
    async fn execute(
        &mut self,
        s: &Snapshot,
        a: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        let mut executed = self.inner.execute(s, a).await?;
        executed.landed_elsewhere = self.landing.clone().map(|element| LandedElsewhere {
            intended: a.target().cloned().expect("a targeted action"),
            element,
            began_on_target: false,
        });
        Ok(executed)
    }
    async fn press_facts(
        &mut self,
        _: &Snapshot,
        _: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        self.facts.clone().map_err(BackendError::failed)
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.inner.settle_probe().await
    }
}

fn live(facts: Result<PressFacts, String>, landing: Option<Pressable>) -> Live {
    Live {
        inner: counter(),
        facts,
        landing,
    }
}

fn wipe() -> Pressable {
    Pressable {
        element: r#"button#wipe "Delete account""#.into(),
        name: "Delete account".into(),
        text: "Delete account".into(),
        also: Vec::new(),
    }
}

fn task() -> Subtask {
    Subtask::new("Increment", "Count: 1")
}

#[tokio::test]
async fn visible_text_with_a_risk_word_refuses_the_click() {
    let facts = PressFacts {
        pressed: vec![Pressable {
            element: "button#inc".into(),
            text: "Dele\u{AD}te account".into(),
            ..Pressable::default()
        }],
        submitter: None,
    };
    let mut ex = Executor::new(
        live(Ok(facts), None),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::RiskRefused, "{r:#?}");
    let reason = r.reason.unwrap();
    assert!(reason.contains("on button#inc"), "{reason}");
    assert!(ex.backend_mut().inner.state().received.is_empty());
}

#[tokio::test]
async fn enter_is_refused_when_the_form_would_submit_through_a_risky_button() {
    let facts = PressFacts {
        pressed: Vec::new(),
        submitter: Some(wipe()),
    };
    let enter = Decision::act(Action::PressKey { key: Key::Enter });
    let mut ex = Executor::new(
        live(Ok(facts.clone()), None),
        ScriptedPolicy::new([enter, complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::RiskRefused, "{r:#?}");
    assert!(
        r.reason
            .unwrap()
            .contains(r#"the form's submitter button#wipe"#),
        "the reason names the submitter"
    );
    assert!(ex.backend_mut().inner.state().received.is_empty());
    // A click is not Enter: the submitter is not what it presses.
    let mut ex = Executor::new(
        live(Ok(facts), None),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert!(r.is_complete(), "{r:#?}");
}

#[tokio::test]
async fn enter_after_typing_is_refused_when_the_form_would_submit_through_a_risky_button() {
    let facts = PressFacts {
        pressed: Vec::new(),
        submitter: Some(wipe()),
    };
    let typed = |submit| {
        Decision::act(Action::TypeText {
            target: "query".into(),
            input_key: "q".into(),
            submit: Some(submit),
        })
    };
    let task = Subtask::new("Search", "Count: 0").with_input("q", "cats");
    let mut ex = Executor::new(
        live(Ok(facts.clone()), None),
        ScriptedPolicy::new([typed(SubmitKey::Enter), complete()]),
        fast_config(),
    );
    let r = ex.run(&task).await;
    assert_eq!(r.termination, Termination::RiskRefused, "{r:#?}");
    assert!(
        r.reason
            .unwrap()
            .contains(r#"refused TYPE_TEXT on the form's submitter button#wipe"#),
        "the reason names the submitter"
    );
    assert!(ex.backend_mut().inner.state().received.is_empty());
    // Tab after typing submits nothing: the field is filled and the run goes on.
    let mut ex = Executor::new(
        live(Ok(facts), None),
        ScriptedPolicy::new([typed(SubmitKey::Tab), complete()]),
        fast_config(),
    );
    let r = ex.run(&task).await;
    assert!(r.is_complete(), "{r:#?}");
    assert_eq!(ex.backend_mut().inner.state().query, "cats");
}

#[tokio::test]
async fn facts_that_cannot_be_read_stop_the_run_before_acting() {
    let mut ex = Executor::new(
        live(Err("the page went away".into()), None),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.termination, Termination::BackendError, "{r:#?}");
    assert!(ex.backend_mut().inner.state().received.is_empty());
}

#[tokio::test]
async fn a_press_that_landed_on_a_risk_is_recorded_and_ends_the_run() {
    let mut ex = Executor::new(
        live(Ok(PressFacts::default()), Some(wipe())),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert_eq!(r.status, TerminalKind::NeedsAgent);
    assert_eq!(r.termination, Termination::LandedElsewhere, "{r:#?}");
    let reason = r.reason.clone().unwrap();
    assert!(
        reason.contains(r#"meant for inc landed on button#wipe "Delete account""#),
        "{reason}"
    );
    assert_eq!(r.actions_taken, 1);
    assert!(!r.history[0].on_target());
    assert_eq!(ex.backend_mut().inner.state().received, ["CLICK inc"]);
    // The wire shape carries it.
    let json = serde_json::to_value(&r.history[0]).unwrap();
    assert_eq!(
        json["landed_elsewhere"]["element"]["name"],
        "Delete account"
    );
}

#[tokio::test]
async fn a_press_that_landed_on_an_allowed_or_harmless_element_is_recorded_only() {
    let harmless = Pressable {
        element: r#"button#later "Not now""#.into(),
        name: "Not now".into(),
        text: "Not now".into(),
        also: Vec::new(),
    };
    let mut ex = Executor::new(
        live(Ok(PressFacts::default()), Some(harmless)),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&task()).await;
    assert!(r.is_complete(), "{r:#?}");
    assert!(r.history[0].landed_elsewhere.is_some());
    assert!(
        r.observations
            .iter()
            .any(|o| o.contains(r#"meant for inc landed on button#later "Not now""#)),
        "{:#?}",
        r.observations
    );
    let mut allowed = task();
    allowed.allowed_risks.insert(arc_core::Risk::Delete);
    let mut ex = Executor::new(
        live(Ok(PressFacts::default()), Some(wipe())),
        ScriptedPolicy::new([click("inc"), complete()]),
        fast_config(),
    );
    let r = ex.run(&allowed).await;
    assert!(r.is_complete(), "{r:#?}");
}
