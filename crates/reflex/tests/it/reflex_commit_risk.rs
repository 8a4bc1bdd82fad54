//! A commit is never grounded on a control of a risk its own verb does not name: once "Add
//! an event 'Team standup'" has added it, the new row's "Remove Team standup" button is
//! not the goal's commit still to make. Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const EVENTS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Events</title></head><body>
<ul id="list"><li>Dentist (Mon)</li></ul>
<form id="f">
  <label>Title <input id="title"></label>
  <label>Day <input id="day"></label>
  <button type="submit">Add event</button>
</form>
<p id="out" role="status"></p>
<p id="record" hidden>events: Dentist (Mon)</p>
<script>
const $ = (s) => document.querySelector(s);
const list = () => [...document.querySelectorAll('#list li')].map((li) => li.firstChild.textContent.trim());
const note = () => { $('#record').textContent = 'events: ' + list().join(', '); };
$('#f').addEventListener('submit', (e) => {
  e.preventDefault();
  const li = document.createElement('li');
  const title = $('#title').value;
  li.textContent = title + ' (' + $('#day').value + ') ';
  const rm = document.createElement('button');
  rm.type = 'button'; rm.textContent = 'Remove ' + title;
  rm.onclick = () => { li.remove(); note(); };
  li.append(rm);
  $('#list').append(li); note(); $('#out').textContent = 'Event added';
});
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_commit_is_not_grounded_on_a_risky_control_its_verb_does_not_name() {
    let ran = run_html(
        EVENTS,
        json!({
            "goal": "Add an event 'Team standup' on Friday",
            "inputs": {"title": "Team standup", "day": "Fri"},
            "verification": [{"check": "text_present", "text": "Event added"}],
            "max_actions": 5
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "events: Dentist (Mon), Team standup (Fri)",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}
