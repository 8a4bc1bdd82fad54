//! An input whose key names no field and whose literal is prose goes to the page's one
//! multi-line box, however the box is labelled ("Anything else?"); never to a box that
//! holds other text. Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use crate::reflex_run::assert_record;
use serde_json::json;

const FEEDBACK: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Feedback</title></head><body>
<form id="f"><label for="who">Your name</label> <input id="who">
<label for="more">Anything else you would like us to know?</label><textarea id="more">PREFILL</textarea>
<button type="submit">Send feedback</button></form>
<p id="thanks" role="status"></p><p id="record" hidden>none</p>
<script>
document.getElementById('f').onsubmit = (e) => { e.preventDefault();
  document.getElementById('record').textContent = 'from ' + document.getElementById('who').value + ': ' + document.getElementById('more').value;
  document.getElementById('thanks').textContent = 'Thanks for the feedback, ' + document.getElementById('who').value; };
</script></body></html>"##;

fn subtask() -> serde_json::Value {
    json!({
        "goal": "Send feedback as Ada with the comment",
        "inputs": {"name": "Ada", "comment": "The checkout was slow"},
        "allowed_risks": ["send"],
        "verification": ["The page shows \"Thanks for the feedback, Ada\""],
        "max_actions": 5
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn prose_with_no_field_of_its_name_goes_to_the_one_multi_line_box() {
    let ran = run_html(&FEEDBACK.replace("PREFILL", ""), subtask()).await;
    assert_record(&ran, "from Ada: The checkout was slow").await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_box_that_holds_other_text_is_not_taken() {
    let ran = run_html(
        &FEEDBACK.replace("PREFILL", "Someone else's words"),
        subtask(),
    )
    .await;
    assert_record(&ran, "none").await;
}
