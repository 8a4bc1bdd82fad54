//! Uninvited popups, in real headless Chromium: one that offers no dismissal is handed
//! back naming it (its accept control never pressed), and one the run's own click opened
//! is not dismissed. Each page keeps its own record (`window.__log`); the assertions read
//! it, never the runtime's claim.

use crate::reflex_browser::{run_html, Ran};
use arc_core::TerminalKind;
use serde_json::json;

/// A form; focusing its second field opens a modal that only accepts, and makes the form
/// inert behind it.
const NO_WAY_OUT: &str = r##"<!doctype html><html><head><title>Survey</title></head><body>
<script>window.__log = [];</script>
<main id="page">
  <label>Name <input id="name"></label>
  <label>Team <input id="team"></label>
  <button id="send" onclick="window.__log.push('sent')">Send</button>
</main>
<div id="pop" role="dialog" aria-modal="true" aria-label="Cookies" hidden>
  <p>We use cookies to run this site.</p>
  <button id="accept" onclick="window.__log.push('accepted')">Accept all cookies</button>
</div>
<script>
document.getElementById('team').addEventListener('focus', () => setTimeout(() => {
  document.getElementById('pop').hidden = false;
  document.getElementById('page').inert = true;
}, 0), { once: true });
</script></body></html>"##;

/// An "Archive" button whose click asks for confirmation: the run's own click opened it.
const CONFIRM: &str = r##"<!doctype html><html><head><title>Drafts</title></head><body>
<script>window.__log = [];</script>
<p>Draft: Quarterly letter</p>
<button id="del">Archive draft</button>
<div id="ask" role="dialog" aria-modal="true" aria-label="Are you sure?" hidden>
  <button onclick="window.__log.push('confirmed')">Yes</button>
  <button onclick="window.__log.push('cancelled'); this.parentNode.hidden = true">Cancel</button>
</div>
<script>
document.getElementById('del').addEventListener('click', () => {
  window.__log.push('asked');
  document.getElementById('ask').hidden = false;
});
</script></body></html>"##;

/// A form; focusing its second field appends a plain (not dialog) popup of two
/// paragraphs and disables the form until it is answered.
const PLAIN_POPUP: &str = r##"<!doctype html><html><head><title>Sign in</title></head><body>
<script>window.__log = [];</script>
<div id="area"><div id="form">
  <p><label>Username</label><input id="user"></p>
  <p><label>Password</label><input id="pass" type="password"></p>
  <button id="ok" onclick="window.__log.push('signed in as ' + document.getElementById('user').value)">OK</button>
</div></div>
<script>
let shown = false;
document.getElementById('pass').addEventListener('focus', () => {
  if (shown) return;
  shown = true;
  for (const id of ['user', 'pass', 'ok']) document.getElementById(id).disabled = true;
  const pop = document.createElement('div');
  pop.innerHTML = '<p>Your session is about to expire.</p>' +
    '<p><button id="pop-ok">OK</button> <button id="pop-cancel">Cancel</button></p>';
  document.getElementById('area').appendChild(pop);
  document.getElementById('pop-ok').onclick = () => window.__log.push('popup accepted');
  document.getElementById('pop-cancel').onclick = () => {
    window.__log.push('popup cancelled');
    for (const id of ['user', 'pass', 'ok']) document.getElementById(id).disabled = false;
    pop.remove();
  };
});
</script></body></html>"##;

/// The page's own record.
async fn log(ran: &Ran) -> Vec<String> {
    serde_json::from_value(ran.eval("window.__log").await).expect("a list of strings")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_popup_without_a_dismissal_is_handed_back_by_name_and_never_accepted() {
    let ran = run_html(
        NO_WAY_OUT,
        json!({
            "goal": "Enter the name and team, then press Send",
            "inputs": {"name": "Ada", "team": "Compilers"},
            "verification": ["\"Send\" has been clicked"]
        }),
    )
    .await;
    let log = log(&ran).await;
    assert_eq!(log, Vec::<String>::new(), "the page saw: {log:?}");
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(
        reason.contains("popup") && reason.contains("Cookies") && reason.contains("no control"),
        "{reason}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dialog_the_runs_own_click_opened_is_not_dismissed() {
    let ran = run_html(
        CONFIRM,
        json!({
            "goal": "Click the \"Archive draft\" button",
            "verification": ["The page shows \"Draft archived\""]
        }),
    )
    .await;
    let log = log(&ran).await;
    // Asked, and neither confirmed nor cancelled by the run: the planner decides.
    assert_eq!(log, vec!["asked"], "{:?}", ran.result.reason);
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}

/// An uninvited plain popup whose "Cancel" stands alone in the tree (its wrappers carry
/// nothing) is still dismissed by it, and the form then finished.
#[tokio::test(flavor = "multi_thread")]
async fn an_uninvited_popup_is_cancelled_and_the_form_finished() {
    let ran = run_html(
        PLAIN_POPUP,
        json!({
            "goal": "Enter the username and password, then press OK",
            "inputs": {"username": "ada", "password": "s3cret"},
            "secret_inputs": ["password"],
            "verification": ["\"OK\" has been clicked"]
        }),
    )
    .await;
    let log = log(&ran).await;
    assert_eq!(
        log,
        vec!["popup cancelled", "signed in as ada"],
        "{:?}",
        ran.result.reason
    );
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
}
