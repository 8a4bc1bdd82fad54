//! A preview shows what a post would: while the goal's commit is still to be made, and
//! after it until the post lands (400 ms later here), no criterion is taken as met on what
//! the preview shows. Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const NOTES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Guestbook</title></head><body>
<h1>Guestbook</h1>
<ul id="posted"><li>Bo: First!</li></ul>
<form id="f">
  <label>Name <input id="name"></label>
  <label>Note <textarea id="note"></textarea></label>
  <button type="button" id="preview">Preview</button>
  <button type="submit">Post note</button>
</form>
<section id="shown" aria-label="Preview"></section>
<p id="record" hidden>posted: Bo=First!</p>
<script>
const $ = (s) => document.querySelector(s);
$('#preview').onclick = () => { $('#shown').textContent = $('#name').value + ': ' + $('#note').value; };
$('#f').addEventListener('submit', (e) => {
  e.preventDefault();
  setTimeout(post, 400);
});
function post() {
  const li = document.createElement('li');
  li.textContent = $('#name').value + ': ' + $('#note').value;
  $('#posted').appendChild(li);
  $('#record').textContent += ' | ' + $('#name').value + '=' + $('#note').value;
  $('#f').reset(); $('#shown').textContent = '';
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_preview_is_not_the_post_the_goal_asks_for() {
    let ran = run_html(
        NOTES,
        json!({
            "goal": "Preview Ada's note 'Hello there' and, once it looks right, post it",
            "inputs": {"name": "Ada", "note": "Hello there"},
            "allowed_risks": ["send"],
            "verification": ["Ada's note is published"],
            "max_actions": 8
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "posted: Bo=First! | Ada=Hello there",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}
