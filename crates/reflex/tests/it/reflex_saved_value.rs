//! A value said of a record ("His email address is X", "tnguyen's first name is X", "The
//! First name field shows X"), or "the changes" said saved, after a save that leaves the
//! form for the list, as admin sites do: the field is gone from the page, so it holds on the
//! run's own edit of the field the key names, the one press that stored it, the page's
//! fresh word that it was stored, and the value shown on the page it led to. A value never
//! saved, a save the page refused, or another value than the one said is not done. Real
//! Chromium; judged by the page's own record.

use crate::reflex_run::{assert_complete, assert_record, run_html, Ran};
use arc_core::TerminalKind;
use serde_json::json;

/// A user's change form (the page with no query); "Save" stores the fields and leads to
/// the user list (`?msg=`) with "The user “tnguyen” was changed successfully.", unless the
/// email has no "@": then the form stays, saying "Please correct the error below.". The
/// users live in sessionStorage.
const USERS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Users</title></head><body>
<main id="main"></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const users = JSON.parse(sessionStorage.getItem('users') || JSON.stringify([
  { u: 'jsmith', email: 'john@example.org', first: 'John', last: 'Smith' },
  { u: 'tnguyen', email: '', first: '', last: '' },
]));
$('#record').textContent = users.map((x) => `${x.u}=${x.first || '-'}/${x.last || '-'}/${x.email || '-'}`).join(', ');
const q = new URLSearchParams(location.search);
const main = $('#main');
if (q.has('msg')) {
  main.innerHTML = `<p class="success">${q.get('msg')}</p><h1>Select user to change</h1>
    <table><thead><tr><th>Username</th><th>Email address</th><th>First name</th><th>Last name</th></tr></thead><tbody id="rows"></tbody></table>`;
  for (const x of users) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<th><a href="?">${x.u}</a></th><td>${x.email}</td><td>${x.first}</td><td>${x.last}</td>`;
    $('#rows').append(tr);
  }
} else {
  const me = users[1];
  main.innerHTML = `<nav><a href="?msg=">Users</a> › ${me.u}</nav><h1>Change user</h1><p id="err"></p>
    <form><p><label for="first">First name:</label> <input id="first" value="${me.first}"></p>
    <p><label for="last">Last name:</label> <input id="last" value="${me.last}"></p>
    <p><label for="email">Email address:</label> <input id="email" value="${me.email}"></p>
    <input type="submit" value="Save"></form>`;
  main.querySelector('form').onsubmit = (e) => {
    e.preventDefault();
    if (!$('#email').value.includes('@')) { $('#err').textContent = 'Please correct the error below.'; return; }
    Object.assign(me, { first: $('#first').value, last: $('#last').value, email: $('#email').value });
    sessionStorage.setItem('users', JSON.stringify(users));
    location.href = '?msg=' + encodeURIComponent(`The user “${me.u}” was changed successfully.`);
  };
}
</script></body></html>"##;

async fn fill_profile(goal: &str, email: &str, criterion: &str) -> Ran {
    run_html(
        USERS,
        json!({
            "goal": goal,
            "inputs": {"first_name": "Tomás", "last_name": "Nguyen", "email": email},
            "verification": [criterion],
            "max_actions": 6
        }),
    )
    .await
}

const GOAL: &str = "Fill in tnguyen's first name, last name and email address and save";
const STORED: &str =
    "jsmith=John/Smith/john@example.org, tnguyen=Tomás/Nguyen/tomas.nguyen@example.org";

#[tokio::test(flavor = "multi_thread")]
async fn a_value_said_of_a_field_the_save_left_holds_on_the_edit_the_store_and_the_list() {
    for criterion in [
        "His email address is tomas.nguyen@example.org",
        "tnguyen's email address is now tomas.nguyen@example.org",
        "The First name field shows Tomás",
        "tnguyen's email address now shows as tomas.nguyen@example.org in the user list",
        "The changes are saved",
    ] {
        let ran = fill_profile(GOAL, "tomas.nguyen@example.org", criterion).await;
        assert_record(&ran, STORED).await;
        assert_complete(&ran);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_value_not_saved_refused_or_other_than_said_is_not_done() {
    let cases = [
        // Typed, never saved.
        (
            "Fill in tnguyen's first name, last name and email address but do not save",
            "tomas.nguyen@example.org",
            "His email address is tomas.nguyen@example.org",
            "jsmith=John/Smith/john@example.org, tnguyen=-/-/-",
        ),
        (
            "Fill in tnguyen's first name, last name and email address but do not save",
            "tomas.nguyen@example.org",
            "The changes are saved",
            "jsmith=John/Smith/john@example.org, tnguyen=-/-/-",
        ),
        // The page refused the save.
        (
            GOAL,
            "tomas.nguyen",
            "The changes are saved",
            "jsmith=John/Smith/john@example.org, tnguyen=-/-/-",
        ),
        (
            GOAL,
            "tomas.nguyen",
            "His email address is tomas.nguyen",
            "jsmith=John/Smith/john@example.org, tnguyen=-/-/-",
        ),
        // Saved, but said of a record the page does not show.
        (
            GOAL,
            "tomas.nguyen@example.org",
            "mgarcia's email address is tomas.nguyen@example.org",
            STORED,
        ),
        // Saved, but not the value said.
        (
            GOAL,
            "tomas.nguyen@example.org",
            "His email address is tom@example.org",
            STORED,
        ),
    ];
    for (goal, email, criterion, record) in cases {
        let ran = fill_profile(goal, email, criterion).await;
        assert_record(&ran, record).await;
        assert_ne!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
    }
}

/// An issue's page: its status select and "Submit changes", which stores the status and
/// answers "issue3 status edited ok" on the same page. `LABEL` names the select: a label,
/// or (as trackers lay out forms) only a table cell beside it and its markup name.
const ISSUE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Issue 3</title></head><body>
<h1>Issue 3: CSV export drops the last row</h1><p id="msg"></p>
<form>LABEL
<select id="status" name="status"><option>open</option><option>in-progress</option><option>resolved</option></select>
ENDLABEL<input type="submit" value="Submit changes"></form>
<p id="record" hidden>status=open</p>
<script>
const $ = (s) => document.querySelector(s);
$('form').onsubmit = (e) => {
  e.preventDefault();
  $('#record').textContent = 'status=' + $('#status').value;
  $('#msg').textContent = 'issue3 status edited ok';
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_records_value_holds_when_the_page_shows_the_record_and_stored_the_edit() {
    for (label, end) in [
        (r#"<label for="status">Status</label>"#, ""),
        ("<table><tr><th>Status</th><td>", "</td></tr></table>"),
    ] {
        let page = ISSUE.replace("ENDLABEL", end).replace("LABEL", label);
        stored_status(&page).await;
    }
}

async fn stored_status(page: &str) {
    let run = |criterion: &str| {
        run_html(
            page,
            json!({
                "goal": "Set the CSV export issue's status to in-progress and submit",
                "inputs": {"status": "in-progress"},
                "verification": [criterion],
                "max_actions": 4
            }),
        )
    };
    let ran = run("The CSV export issue's status is in-progress").await;
    assert_record(&ran, "status=in-progress").await;
    assert_complete(&ran);
    // Stored, but said of an issue this page is not.
    let ran = run("The login issue's status is in-progress").await;
    assert_record(&ran, "status=in-progress").await;
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}

/// A tracker's "New issue" form (the page with no query): "Title", "Priority", "Submit"
/// leads to the new issue's own page (`?id=`), an edit form again, where the title shows
/// only in its field and in the document's title, under "issue7 created". An empty title
/// is refused on the form.
const NEW_ISSUE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>New issue</title></head><body>
<main id="main"></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const issues = JSON.parse(sessionStorage.getItem('issues') || '[]');
$('#record').textContent = 'issues: ' + (issues.map((i) => `${i.title}/${i.priority}`).join(', ') || 'none');
const q = new URLSearchParams(location.search);
const form = (t, p) => `<table><tr><th>Title</th><td><input name="title" value="${t}"></td></tr>
  <tr><th>Priority</th><td><select name="priority"><option>bug</option><option>urgent</option></select></td></tr></table>
  <input type="submit" value="Submit changes">`;
if (q.has('id')) {
  const i = issues[Number(q.get('id')) - 7];
  document.title = `Issue ${q.get('id')}: ${i.title}`;
  $('#main').innerHTML = `<h1>Issue${q.get('id')} Editing</h1><p class="ok">issue${q.get('id')} created</p><form>${form(i.title, i.priority)}</form>`;
  $('select').value = i.priority;
} else {
  $('#main').innerHTML = `<h1>New Issue Editing</h1><p id="err"></p><form>${form('', 'bug')}</form>`;
  $('form').onsubmit = (e) => {
    e.preventDefault();
    const title = e.target.elements.title.value.trim();
    if (!title) { $('#err').textContent = 'Error: title is required'; return; }
    issues.push({ title, priority: e.target.elements.priority.value });
    sessionStorage.setItem('issues', JSON.stringify(issues));
    location.href = '?id=' + (6 + issues.length);
  };
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_record_said_created_by_its_title_holds_on_the_stored_title_and_the_pages_word() {
    let run = |title: &str, criterion: &str| {
        run_html(
            NEW_ISSUE,
            json!({
                "goal": "File a new issue with priority urgent",
                "inputs": {"title": title, "priority": "urgent"},
                "verification": [criterion],
                "max_actions": 5
            }),
        )
    };
    let said = "A new issue titled Reset email never arrives has been created";
    let ran = run("Reset email never arrives", said).await;
    assert_record(&ran, "issues: Reset email never arrives/urgent").await;
    assert_complete(&ran);
    // Another title was filed than the one said.
    let ran = run("Reset email is slow", said).await;
    assert_record(&ran, "issues: Reset email is slow/urgent").await;
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}
