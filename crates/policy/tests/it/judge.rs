//! The model as a judge of criteria the reflex cannot read, and the model's own "done",
//! in the cascade on a real page in headless Chromium. The judge here says "holds" to everything (as the small
//! local model does): it must never make a run say done that the page's own record
//! contradicts. A loopback server stands in for the model and answers from what the
//! request shows, as a model would.

use crate::reflex_browser::{run_html_with, Ran};
use crate::server::{answer, chat, ModelServer, Recorded, Reply};
use arc_core::TerminalKind;
use arc_policy::stack::{cascade, ModelTier};
use arc_policy::ModelConfig;
use serde_json::json;
use std::time::Duration;

/// A sign-in page: the right password welcomes Ada, any other shows an error. The page's
/// own record says which happened. A welcome comes with a line that asks a question,
/// which the reflex's own acknowledgement refuses (`verify::acknowledged`): what the
/// reader cannot hold is then the judge's to decide.
pub(crate) const SIGN_IN: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Members</title></head><body>
<h1>Members</h1>
<form id="f">
  <label>Username <input id="user"></label>
  <label>Password <input id="pass" type="password"></label>
  <button type="submit">Sign in</button>
</form>
<div id="out"></div>
<p id="help"></p>
<p id="record" hidden>nobody</p>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const ok = document.getElementById('pass').value === 'hunter2';
  const out = document.getElementById('out');
  out.setAttribute('role', ok ? 'status' : 'alert');
  out.textContent = ok ? 'Welcome back, ada! Your account dashboard is ready.' : 'Wrong username or password.';
  document.getElementById('help').textContent = ok ? 'Questions about billing?' : '';
  document.getElementById('record').textContent = ok ? 'signed in: ada' : 'refused: ada';
});
</script></body></html>"##;

fn is_judgment(request: &Recorded) -> bool {
    request.json()["response_format"]["json_schema"]["name"] == "arc_cua_judgment"
}

/// A model that says "holds" to every judgment, citing what `cite` picks, and answers
/// every step with SUBTASK_COMPLETE and every criterion SATISFIED.
async fn always_yes(
    cite: impl Fn(&Recorded) -> Vec<String> + Send + Sync + 'static,
) -> ModelServer {
    ModelServer::with(move |_, request| {
        if is_judgment(request) {
            chat(&json!({"holds": true, "cites": cite(request)}))
        } else {
            chat(&answer("SUBTASK_COMPLETE", &[("criterion_0", "SATISFIED")]))
        }
    })
    .await
}

async fn sign_in(server: &ModelServer, password: &str, criterion: &str) -> Ran {
    let config =
        ModelConfig::new(server.base_url(), "test-model").with_timeout(Duration::from_secs(5));
    let policy = cascade(ModelTier::Endpoint(config), None).expect("a cascade");
    run_html_with(
        SIGN_IN,
        json!({
            "goal": "Sign in with the username and password",
            "inputs": {"username": "ada", "password": password},
            "verification": [criterion],
            "max_actions": 6
        }),
        policy,
    )
    .await
}

/// Not a sentence the reader turns into a check (asserted: its verdict is unread); its
/// every content word is on the page once the sign-in works.
pub(crate) const UNREAD: &str = "Welcome back ada, the dashboard of her account is ready";

#[tokio::test(flavor = "multi_thread")]
async fn an_always_yes_judge_on_a_page_that_refused_the_sign_in_hands_back() {
    let server = always_yes(|r| r.screen_id("\"Wrong username").into_iter().collect()).await;
    let ran = sign_in(&server, "wrong-guess", UNREAD).await;
    assert_eq!(ran.record().await, "refused: ada");
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.result.reason
    );
    let v = &ran.result.verification[0];
    assert!(v.unread && !v.holds, "{v:?}");
    assert!(v.evidence.text.contains("refused"), "{v:?}");
    assert!(
        server.requests().iter().any(is_judgment),
        "the judge was asked"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cited_id_the_page_lacks_is_refused_and_nothing_more_runs() {
    let server = always_yes(|_| vec!["e99999".into()]).await;
    let ran = sign_in(&server, "hunter2", UNREAD).await;
    assert_eq!(ran.record().await, "signed in: ada");
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    assert!(
        ran.result.verification[0].evidence.text.contains("e99999"),
        "{:?}",
        ran.result.verification
    );
    // The judgment was the last word: no model step ran after it.
    let last = ran
        .result
        .history
        .iter()
        .rev()
        .find(|r| r.target_name.is_some());
    assert_eq!(
        last.and_then(|r| r.target_name.as_deref()),
        Some("Sign in"),
        "{:?}",
        ran.actions()
    );
    let judged_at = server.requests().iter().position(is_judgment);
    assert_eq!(
        judged_at,
        Some(server.count() - 1),
        "nothing asked after the judgment"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_judgment_on_the_pages_new_text_completes_with_that_text_as_evidence() {
    let server = always_yes(|r| r.screen_id("\"Welcome back").into_iter().collect()).await;
    let ran = sign_in(&server, "hunter2", UNREAD).await;
    assert_eq!(ran.record().await, "signed in: ada");
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        ran.result.reason,
        ran.result.verification
    );
    let v = &ran.result.verification[0];
    assert!(v.holds && v.unread, "{v:?}");
    assert_eq!(v.evidence.elements.len(), 1, "{v:?}");
    assert!(v.evidence.text.contains("Welcome back"), "{v:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_models_own_done_stands_only_on_what_the_reflex_judged() {
    // A criterion the reader reads, false on this page: the model's SUBTASK_COMPLETE
    // (every criterion SATISFIED) is not taken.
    let server = always_yes(|_| Vec::new()).await;
    let ran = sign_in(&server, "wrong-guess", "The page shows \"Welcome back\"").await;
    assert_eq!(ran.record().await, "refused: ada");
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.result.reason
    );
    assert!(!ran.result.verification[0].holds);
    assert!(server.count() >= 1, "the model was asked");
    assert!(
        !server.requests().iter().any(is_judgment),
        "a read criterion is not judged"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_judge_that_is_unreachable_leaves_the_hand_back_as_it_was() {
    let server = ModelServer::with(|_, _| Reply::status(503, "busy")).await;
    let ran = sign_in(&server, "hunter2", UNREAD).await;
    assert_eq!(ran.record().await, "signed in: ada");
    // The reflex's own hand-back, its verdicts and the model's failure in the reason.
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    assert!(!ran.result.verification.is_empty() && !ran.result.verification[0].holds);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("the model could not be asked"), "{reason}");
}
