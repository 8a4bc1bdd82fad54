//! What only a person can give is handed to one: a password the subtask does not
//! give, a one-time code asked after signing in, a CAPTCHA in the form. The run ends
//! NEEDS_AGENT with termination `needs_human`, the element named, nothing typed there
//! and nothing sent without it; a form that asks for nothing of the kind goes on as
//! before. Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run};
use arc_core::{HumanNeed, TerminalKind, Termination};
use serde_json::json;

fn assert_handed_to_a_person(ran: &crate::reflex_browser::Ran, need: HumanNeed, name: &str) {
    let r = &ran.result;
    assert_eq!(r.status, TerminalKind::NeedsAgent, "{:?}", ran.actions());
    assert_eq!(
        r.termination,
        Termination::NeedsHuman,
        "{:?}: {:?}",
        ran.actions(),
        r.reason
    );
    let asked = r
        .needs_human
        .as_ref()
        .expect("needs_human names the element");
    assert_eq!(asked.need, need);
    assert_eq!(asked.name, name);
    assert!(
        r.history
            .iter()
            .all(|h| h.action.target() != Some(&asked.element_id)),
        "nothing is done on the element a person must answer: {:?}",
        ran.actions()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_password_the_subtask_does_not_give_stops_the_sign_in_before_it_is_sent() {
    let ran = run(
        "second-factor.html",
        json!({
            "goal": "Sign in as ada@example.com",
            "inputs": {"email": "ada@example.com"},
            "verification": ["The page says Signed in as ada@example.com"]
        }),
    )
    .await;
    assert_handed_to_a_person(&ran, HumanNeed::Password, "Password");
    assert_eq!(
        ran.eval("window.__attempts").await,
        json!([]),
        "nothing was sent"
    );
    assert_eq!(
        ran.eval("document.getElementById('password').value").await,
        ""
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_one_time_code_asked_after_signing_in_is_handed_to_a_person() {
    let ran = run(
        "second-factor.html",
        json!({
            "goal": "Sign in as ada@example.com",
            "inputs": {"email": "ada@example.com", "password": "orchid-42"},
            "secret_inputs": ["password"],
            "verification": ["The page says Signed in as ada@example.com"]
        }),
    )
    .await;
    assert_handed_to_a_person(&ran, HumanNeed::OneTimeCode, "Verification code");
    assert_eq!(
        ran.eval("window.__attempts").await,
        json!([{"email": "ada@example.com", "password": true}])
    );
    assert_eq!(
        ran.eval("window.__codes").await,
        json!([]),
        "no code was sent"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_captcha_in_the_form_is_handed_to_a_person_before_the_form_is_sent() {
    let ran = run(
        "captcha.html",
        json!({
            "goal": "Send the message to the support team",
            "inputs": {"name": "Ada", "message": "My order has not arrived."},
            "verification": ["Message sent"]
        }),
    )
    .await;
    assert_handed_to_a_person(&ran, HumanNeed::Captcha, "reCAPTCHA");
    assert_eq!(ran.eval("window.__sent").await, json!([]));
    assert_eq!(
        ran.eval("document.getElementById('status').textContent")
            .await,
        ""
    );
}

/// The hand-off keeps the page: a person's answer (here the planner's next subtask with
/// the code the person read out) goes on from where the run stopped.
#[tokio::test(flavor = "multi_thread")]
async fn the_next_subtask_goes_on_with_the_code_on_the_same_page() {
    let ran = run(
        "second-factor.html",
        json!({
            "goal": "Sign in as ada@example.com",
            "inputs": {"email": "ada@example.com", "password": "orchid-42"},
            "secret_inputs": ["password"],
            "verification": ["The page says Signed in as ada@example.com"]
        }),
    )
    .await;
    assert_handed_to_a_person(&ran, HumanNeed::OneTimeCode, "Verification code");
    let ran = ran
        .then(json!({
            "goal": "Enter the verification code",
            "inputs": {"verification_code": "246810"},
            "verification": ["The page says Signed in as ada@example.com"]
        }))
        .await;
    assert_complete(&ran);
    assert_eq!(ran.eval("window.__codes").await, json!(["246810"]));
    assert_eq!(
        ran.eval("window.__attempts.length").await,
        1,
        "signed in once"
    );
}
