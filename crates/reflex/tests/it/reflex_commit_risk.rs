//! A commit is never grounded on a control of a risk its own verb does not name: once "Add
//! an event 'Team standup'" has added it, the new row's "Remove Team standup" button is
//! not the goal's commit still to make; nor on one that adds another kind of record ("Add
//! User" for "add a comment"). Judged by the page's own record.

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

/// An issue's page: a sidebar with "Add User" (which leads away to a sign-up form), the
/// issue's change note (a box with no label) and "Submit Changes", which files the note.
const ISSUE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Issue 5</title></head><body>
<aside><p><b>Administration</b><br><a href="#" id="add-user">Add User</a></p></aside>
<main><h1>Issue 5: Typo on the pricing page</h1>
<form id="f"><textarea name="@note" rows="5"></textarea><br><input type="submit" value="Submit Changes"></form>
<ul id="msgs"></ul></main>
<p id="record" hidden>messages: none; pages: issue</p>
<script>
const $ = (s) => document.querySelector(s);
const msgs = [];
let page = 'issue';
const write = () => { $('#record').textContent = `messages: ${msgs.join(' | ') || 'none'}; pages: ${page}`; };
$('#add-user').onclick = (e) => { e.preventDefault(); page = 'add user'; write(); document.querySelector('main').innerHTML = '<h1>New user</h1><input type="password">'; };
$('#f').onsubmit = (e) => {
  e.preventDefault();
  msgs.push(e.target.elements['@note'].value); write();
  const li = document.createElement('li'); li.textContent = 'admin: ' + msgs[msgs.length - 1]; $('#msgs').append(li);
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_control_adding_another_kind_of_record_is_no_commit_of_this_one() {
    let ran = run_html(
        ISSUE,
        json!({
            "goal": "Add a comment to the issue saying it will be fixed tomorrow",
            "inputs": {"comment": "Fixed in tomorrow's deploy."},
            "verification": ["The comment appears in the issue's messages"],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "messages: Fixed in tomorrow's deploy.; pages: issue",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
}
