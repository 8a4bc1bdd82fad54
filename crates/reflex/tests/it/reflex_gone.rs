//! A row's own button removes the row: once pressed, the step is done, and the
//! runner-up left on the page (the next row's button) is never pressed in its place.
//! Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const TEAM: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Team</title></head><body>
<h1>Team</h1>
<ul id="team">
  <li>Kim Lee <button>Remove Kim Lee</button></li>
  <li>Kim Park <button>Remove Kim Park</button></li>
  <li>Raj Patel <button>Remove Raj Patel</button></li>
</ul>
<p id="record" hidden></p>
<script>
const note = () => {
  document.getElementById('record').textContent = [...document.querySelectorAll('#team li')]
    .map((li) => li.firstChild.textContent.trim()).join(', ');
};
document.querySelectorAll('#team button').forEach((b) => b.addEventListener('click', () => {
  b.parentElement.remove();
  note();
}));
note();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_pressed_row_button_that_is_gone_is_done_and_the_next_row_is_kept() {
    for criterion in [
        "Kim Lee removed",
        "Kim Lee no longer appears in the team list",
    ] {
        let ran = run_html(
            TEAM,
            json!({
                "goal": "Remove Kim Lee from the team",
                "verification": [criterion],
                "allowed_risks": ["delete"],
                "max_actions": 4
            }),
        )
        .await;
        assert_eq!(
            ran.record().await,
            "Kim Park, Raj Patel",
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
        assert_complete(&ran);
    }
}
