//! A field that asks for a value again takes the literal of the field it repeats: the
//! planner gives a password once. Judged by the page's own record of what was sent.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const SIGNUP: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Join</title></head><body>
<form id="f">
  <label>Name <input id="name"></label>
  <label>Password <input id="pw" type="password"></label>
  <label>Repeat password <input id="pw2" type="password"></label>
  <button type="submit">Join</button>
</form>
<p id="out" role="status"></p>
<p id="record" hidden>sent: none</p>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const same = document.getElementById('pw').value === document.getElementById('pw2').value
    && document.getElementById('pw').value !== '';
  document.getElementById('record').textContent =
    'sent: ' + document.getElementById('name').value + (same ? ', passwords match' : ', passwords differ');
  document.getElementById('out').textContent = same ? 'Welcome aboard' : 'Passwords differ';
});
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_repeat_field_gets_the_literal_of_the_field_it_repeats() {
    let ran = run_html(
        SIGNUP,
        json!({
            "goal": "Join with the name and password given",
            "inputs": {"name": "Ada", "password": "S3cret-pw!"},
            "secret_inputs": ["password"],
            "verification": [{"check": "text_present", "text": "Welcome aboard"}],
            "max_actions": 6
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "sent: Ada, passwords match",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_repeat_the_subtask_gives_itself_is_typed_as_given() {
    let ran = run_html(
        SIGNUP,
        json!({
            "goal": "Join with the name and passwords given",
            "inputs": {"name": "Ada", "password": "S3cret-pw!", "repeat_password": "Other-pw!"},
            "secret_inputs": ["password", "repeat_password"],
            "verification": [{"check": "text_present", "text": "Welcome aboard"}],
            "max_actions": 6
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "sent: Ada, passwords differ",
        "{:?}",
        ran.actions()
    );
    assert_ne!(ran.result.status, arc_core::TerminalKind::SubtaskComplete);
}
