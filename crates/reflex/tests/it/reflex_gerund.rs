//! A clause led by a verb's -ing form asks for that step: "Register Ada, agreeing to the
//! terms" ticks the terms box, which is what enables the form's button. Judged by the
//! page's own record of what was sent.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const FORM: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Register</title></head><body>
<form id="f">
  <label>Full name <input id="name"></label>
  <label><input type="checkbox" id="terms"> I agree to the terms</label>
  <button type="submit" id="go" disabled>Create account</button>
</form>
<p id="out" role="status"></p>
<p id="record" hidden>sent: none</p>
<script>
const terms = document.getElementById('terms');
terms.addEventListener('change', () => { document.getElementById('go').disabled = !terms.checked; });
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  document.getElementById('record').textContent = 'sent: ' + document.getElementById('name').value
    + (terms.checked ? ', terms agreed' : ', terms not agreed');
  document.getElementById('out').textContent = 'Account created';
});
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn agreeing_to_the_terms_ticks_them_before_the_form_is_sent() {
    let ran = run_html(
        FORM,
        json!({
            "goal": "Register Ada Lovelace, agreeing to the terms",
            "inputs": {"full_name": "Ada Lovelace"},
            "verification": [{"check": "text_present", "text": "Account created"}],
            "max_actions": 5
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "sent: Ada Lovelace, terms agreed",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}
