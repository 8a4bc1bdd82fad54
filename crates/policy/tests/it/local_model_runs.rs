//! Real inference: the local model (Gemma 3 270M, a base model that says yes to almost
//! anything) deciding and judging on real pages in headless Chromium. What it decides is
//! not scored; what is checked is that its decisions are legal and land where the run's
//! record says, and that its word never makes the runtime claim what the page's own
//! record contradicts.

use crate::judge::{SIGN_IN, UNREAD};
use crate::local_model;
use crate::reflex_browser::run_html_with;
use arc_core::{Choice, TerminalKind, Tier};
use arc_policy::stack::{cascade, ModelTier};
use arc_policy::OpenAiPolicy;
use serde_json::json;

const TWO_BUTTONS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Step 2 of 3</title></head><body>
<h1>Shipping</h1>
<p>Your address is saved.</p>
<button onclick="document.getElementById('record').textContent = 'pressed: Continue'">Continue</button>
<button onclick="document.getElementById('record').textContent = 'pressed: Back'">Back</button>
<p id="record" hidden>pressed: nothing</p>
</body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn the_local_model_makes_a_legal_decision_and_the_pages_record_agrees() {
    let model = OpenAiPolicy::new(local_model::config()).expect("a model policy");
    let stats = model.stats();
    let ran = run_html_with(
        TWO_BUTTONS,
        json!({"goal": "Click the Continue button", "verification": ["The shipping step is done"], "max_actions": 1}),
        model,
    )
    .await;
    let asked = stats.snapshot();
    assert!(
        asked.decisions >= 1,
        "the model answered: {asked:?} {:?}",
        ran.result.reason
    );
    assert_eq!(asked.failures, 0, "{asked:?} {:?}", ran.result.reason);
    let record = ran.record().await;
    match ran.result.history.first() {
        // An action: the model's, on an element of the page, and the page saw that press
        // (or none, for an action that is not a press of a button).
        Some(step) => {
            assert_eq!(step.decision.tier(), Some(Tier::Model));
            let pressed = step.target_name.clone().unwrap_or_default();
            if matches!(
                step.decision.choice,
                Choice::Act(arc_core::Action::Click { .. })
            ) && (pressed == "Continue" || pressed == "Back")
            {
                assert_eq!(record, format!("pressed: {pressed}"), "{:?}", ran.actions());
            } else {
                assert_eq!(record, "pressed: nothing", "{:?}", ran.actions());
            }
        }
        // A terminal answer: nothing was pressed.
        None => assert_eq!(record, "pressed: nothing", "{:?}", ran.result),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_local_model_as_judge_cannot_complete_a_refused_sign_in() {
    let model = OpenAiPolicy::new(local_model::config()).expect("a model policy");
    let stats = model.stats();
    let policy = cascade(ModelTier::Policy(Box::new(model)), None).expect("a cascade");
    let ran = run_html_with(
        SIGN_IN,
        json!({
            "goal": "Sign in with the username and password",
            "inputs": {"username": "ada", "password": "wrong-guess"},
            "verification": [UNREAD],
            "max_actions": 6
        }),
        policy,
    )
    .await;
    assert_eq!(ran.record().await, "refused: ada");
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        ran.result.reason,
        ran.result.verification
    );
    let asked = stats.snapshot();
    assert!(
        asked.judgments >= 1,
        "the local model was asked to judge: {asked:?} {:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
}
