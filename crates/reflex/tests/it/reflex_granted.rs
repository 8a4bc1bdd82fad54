//! A goal that grants or takes away what a record's checkbox says ("Grant Maria Garcia
//! staff status", "Revoke jsmith's staff status"): the record's entry is opened, the box
//! its words name is set that way, and the form saved. A box already so is left alone.
//! Real Chromium; judged by the page's own record.

use crate::reflex_run::{assert_complete, assert_record, run_html};
use serde_json::json;

/// A user list (the page with no query); a user's link opens their change page (`?u=`)
/// with "Active" and "Staff status" boxes and "Save", which stores both and leads back to
/// the list with "The user “…” was changed successfully.". The users live in
/// sessionStorage.
const USERS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Users</title></head><body>
<main id="main"></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const users = JSON.parse(sessionStorage.getItem('users') || JSON.stringify([
  { u: 'jsmith', name: 'John Smith', active: true, staff: true },
  { u: 'mgarcia', name: 'Maria Garcia', active: true, staff: false },
]));
$('#record').textContent = users.map((x) => `${x.u}: active=${+x.active} staff=${+x.staff}`).join(', ');
const q = new URLSearchParams(location.search);
const me = users.find((x) => x.u === q.get('u'));
if (me) {
  $('#main').innerHTML = `<h1>Change user</h1><h2>${me.u}</h2><form>
    <p><input type="checkbox" id="active"> <label for="active">Active</label></p>
    <p><input type="checkbox" id="staff"> <label for="staff">Staff status</label>
    <span>Designates whether the user can log into this admin site.</span></p>
    <input type="submit" value="Save"></form>`;
  $('#active').checked = me.active; $('#staff').checked = me.staff;
  $('form').onsubmit = (e) => {
    e.preventDefault();
    me.active = $('#active').checked; me.staff = $('#staff').checked;
    sessionStorage.setItem('users', JSON.stringify(users));
    location.href = '?msg=' + encodeURIComponent(`The user “${me.u}” was changed successfully.`);
  };
} else {
  $('#main').innerHTML = (q.get('msg') ? `<p>${q.get('msg')}</p>` : '') + '<h1>Select user to change</h1><table id="t"></table>';
  for (const x of users) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<th><a href="?u=${x.u}">${x.u}</a></th><td>${x.name}</td>`;
    $('#t').append(tr);
  }
}
</script></body></html>"##;

/// `goal` on the user list, held to the page's word that the user was changed.
async fn change_user(goal: &str) -> crate::reflex_run::Ran {
    run_html(
        USERS,
        json!({
            "goal": goal,
            "verification": ["The user was changed successfully"],
            "max_actions": 5
        }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_granted_or_revoked_status_sets_the_records_box_and_saves() {
    let cases = [
        (
            "Grant Maria Garcia (mgarcia) staff status",
            "jsmith: active=1 staff=1, mgarcia: active=1 staff=1",
        ),
        (
            "Revoke John Smith's staff status",
            "jsmith: active=1 staff=0, mgarcia: active=1 staff=0",
        ),
    ];
    for (goal, record) in cases {
        let ran = change_user(goal).await;
        assert_record(&ran, record).await;
        assert_complete(&ran);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_status_the_record_already_has_or_one_not_to_save_is_not_stored() {
    let cases = [
        "Grant John Smith (jsmith) staff status",
        "Grant Maria Garcia (mgarcia) staff status but do not save",
    ];
    for goal in cases {
        let ran = change_user(goal).await;
        assert_record(&ran, "jsmith: active=1 staff=1, mgarcia: active=1 staff=0").await;
        assert_ne!(
            ran.result.status,
            arc_core::TerminalKind::SubtaskComplete,
            "{goal}"
        );
    }
}

/// A to-do list that adds on Enter (no button); each to-do's box is named by its text.
const TODOS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Todos</title></head><body>
<input id="new" placeholder="New todo" aria-label="New todo"><ul id="list"></ul>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const todos = [{ t: 'Call mom', done: false }];
function draw() {
  $('#list').innerHTML = '';
  for (const x of todos) {
    const li = document.createElement('li');
    li.innerHTML = `<input type="checkbox" id="c${todos.indexOf(x)}"> <label for="c${todos.indexOf(x)}"></label>`;
    li.querySelector('label').textContent = x.t;
    li.querySelector('input').checked = x.done;
    li.querySelector('input').onchange = (e) => { x.done = e.target.checked; draw(); };
    $('#list').append(li);
  }
  $('#record').textContent = todos.map((x) => `${x.t}=${x.done ? 'done' : 'open'}`).join(', ');
}
$('#new').onkeydown = (e) => { if (e.key === 'Enter' && e.target.value.trim()) { todos.push({ t: e.target.value.trim(), done: false }); e.target.value = ''; draw(); } };
draw();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn an_item_added_then_marked_done_is_ticked_once() {
    // Its box, named by the goal's words, is ticked once as the marking; it is not then
    // pressed again as though it were the adding.
    let ran = run_html(
        TODOS,
        json!({
            "goal": "Add 'Water the garden' and mark it done right away",
            "inputs": {"todo": "Water the garden"},
            "verification": ["Water the garden: done"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "Call mom=open, Water the garden=done").await;
    assert_complete(&ran);
}
