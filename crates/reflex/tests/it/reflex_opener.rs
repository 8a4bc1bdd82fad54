//! "Create a new recipe …" on an editor that holds the open record: the page's "New
//! recipe" is pressed before anything is typed, so the existing record is kept and a new
//! one is made. Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use crate::reflex_run::assert_record;
use serde_json::json;

/// An editor whose fields hold the open record: a new one starts with "New recipe". Its
/// "Saved" shows 300 ms after the save, when the list already names the new record.
const RECIPES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Recipes</title></head><body>
<nav><button type="button" id="new">New recipe</button><ul id="list"></ul></nav>
<main>
<label for="name">Name</label><input id="name">
<label for="ing">Ingredients</label><textarea id="ing"></textarea>
<button type="button" id="save">Save</button><span id="status" role="status"></span>
</main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const all = [{ n: 'Omelette', i: 'eggs, butter' }];
let cur = all[0];
const write = () => { $('#record').textContent = all.map((x) => x.n + '=' + x.i).join(' | '); };
function list() {
  $('#list').innerHTML = '';
  for (const x of all) {
    const li = document.createElement('li'); li.textContent = x.n; li.setAttribute('role', 'link'); li.tabIndex = 0;
    li.onclick = () => { cur = x; load(); };
    $('#list').append(li);
  }
}
function load() { $('#name').value = cur ? cur.n : ''; $('#ing').value = cur ? cur.i : ''; $('#status').textContent = ''; list(); }
$('#new').onclick = () => { cur = null; load(); };
$('#save').onclick = () => {
  if (!cur) { cur = { n: '', i: '' }; all.push(cur); }
  cur.n = $('#name').value.trim(); cur.i = $('#ing').value.trim(); write(); list();
  setTimeout(() => { $('#status').textContent = 'Saved'; }, 300);
};
write(); load();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_new_record_starts_at_the_pages_new_control_and_the_open_one_is_kept() {
    let ran = run_html(
        RECIPES,
        json!({
            "goal": "Create a new recipe named 'Pancakes' with the ingredients 'flour, milk, eggs' and save it",
            "inputs": {"name": "Pancakes", "ingredients": "flour, milk, eggs"},
            "verification": ["Recipe saved"],
            "max_actions": 8
        }),
    )
    .await;
    assert_record(&ran, "Omelette=eggs, butter | Pancakes=flour, milk, eggs").await;
    assert_eq!(ran.actions()[0], "CLICK New recipe", "{:?}", ran.actions());
    assert_complete(&ran);
}

/// An admin's index: one row per kind, each with its own bare "Add" and "Change". "Add"
/// shows that kind's form; the index stays beside it as a sidebar (so its "Add" links are
/// still there once the form is). "Save" records the new row and says so, the new row's
/// name a link inside the message (as Django's admin writes it), above the list's action
/// bar ("Go" counts its presses).
const ADMIN_INDEX: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Site administration</title></head><body>
<nav><table><caption>Authentication and Authorization</caption>
<tr><th scope="row"><a href="#users">Users</a></th><td><a href="#add-user" class="add">Add</a></td><td><a href="#users">Change</a></td></tr>
<tr><th scope="row"><a href="#groups">Groups</a></th><td><a href="#add-group" class="add">Add</a></td><td><a href="#groups">Change</a></td></tr>
</table></nav>
<main id="main"><h1>Site administration</h1></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const rows = { user: ['jsmith'], group: ['Editors'] };
const write = () => { $('#record').textContent = `users: ${rows.user.join(', ')}; groups: ${rows.group.join(', ')}` + (rows.go ? `; go: ${rows.go}` : ''); };
function form(kind) {
  $('#main').innerHTML = `<h1>Add ${kind}</h1><form><label for="f-name">Name:</label><input id="f-name">
    <input type="submit" value="Save and add another"> <input type="submit" value="Save and continue editing"> <input type="submit" id="save" value="Save"></form>`;
  $('#main form').onsubmit = (e) => {
    e.preventDefault();
    const v = $('#f-name').value.trim();
    rows[kind].push(v); write();
    $('#main').innerHTML = `<ul><li>The ${kind} “<a href="#${kind}-${v}">${v}</a>” was added successfully.</li></ul><h1>Select ${kind} to change</h1>
      <form id="bar"><select><option>---------</option><option>Delete selected</option></select><button type="submit">Go</button></form>`;
    $('#bar').onsubmit = (e) => { e.preventDefault(); rows.go = (rows.go || 0) + 1; write(); };
  };
}
for (const a of document.querySelectorAll('a.add')) {
  a.onclick = (e) => { e.preventDefault(); form(a.getAttribute('href') === '#add-user' ? 'user' : 'group'); };
}
write();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_bare_add_in_the_row_naming_the_kind_opens_the_form_a_new_record_needs() {
    let ran = run_html(
        ADMIN_INDEX,
        json!({
            "goal": "Create a new group named Auditors, without any permissions for now",
            "inputs": {"name": "Auditors"},
            "verification": ["A success message confirms that the group Auditors was added"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "users: jsmith; groups: Editors, Auditors").await;
    assert_eq!(ran.actions()[0], "CLICK Add", "{:?}", ran.actions());
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_naming_the_kind_goes_before_a_sidebars_bare_add() {
    let page = ADMIN_INDEX.replace(
        r#"<main id="main"><h1>Site administration</h1></main>"#,
        r##"<main id="main"><h1>Select group to change</h1><a href="#add-group" class="add">Add group</a></main>"##,
    );
    let ran = run_html(
        &page,
        json!({
            "goal": "Create a new group named Auditors",
            "inputs": {"name": "Auditors"},
            "verification": ["The group Auditors was added successfully"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "users: jsmith; groups: Editors, Auditors").await;
    assert_eq!(ran.actions()[0], "CLICK Add group", "{:?}", ran.actions());
    assert_complete(&ran);
}

/// A tracker's sidebar: blocks of links under a bold kind ("Issues": "Create New", "Show
/// All"; "Users": "Create New", "List"). "Create New" under Issues shows the issue form.
const TRACKER_SIDEBAR: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Tracker</title></head><body>
<aside>
<p><b>Issues</b><br><a href="#new-issue" class="new">Create New</a><br><a href="#all">Show All</a></p>
<p><b>Users</b><br><a href="#new-user" class="new">Create New</a><br><a href="#users">List</a></p>
</aside>
<main id="main"><h1>List of issues</h1></main>
<p id="record" hidden>issues: 1</p>
<script>
const $ = (s) => document.querySelector(s);
let issues = 1;
for (const a of document.querySelectorAll('a.new')) {
  a.onclick = (e) => {
    e.preventDefault();
    const kind = a.getAttribute('href') === '#new-issue' ? 'issue' : 'user';
    $('#main').innerHTML = `<h1>New ${kind}</h1><form><label for="t">Title</label><input id="t"><input type="submit" value="Submit changes"></form>`;
    $('#main form').onsubmit = (ev) => {
      ev.preventDefault();
      if (kind === 'issue') { issues += 1; $('#record').textContent = 'issues: ' + issues + ' (' + $('#t').value + ')'; }
      $('#main').innerHTML = `<p>${kind} ${issues} created</p>`;
    };
  };
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn create_new_under_the_block_naming_the_kind_opens_its_form() {
    let ran = run_html(
        TRACKER_SIDEBAR,
        json!({
            "goal": "File a new issue titled 'Typo on the pricing page'",
            "inputs": {"title": "Typo on the pricing page"},
            "verification": ["issue 2 created"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(&ran, "issues: 2 (Typo on the pricing page)").await;
    assert_eq!(ran.actions()[0], "CLICK Create New", "{:?}", ran.actions());
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_form_committed_once_is_not_committed_again_by_the_next_pages_go() {
    // A criterion the reader cannot hold: the run hands back rather than press on.
    let ran = run_html(
        ADMIN_INDEX,
        json!({
            "goal": "Create a new group named Auditors",
            "inputs": {"name": "Auditors"},
            "verification": ["Auditors is now available to receive permissions"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "users: jsmith; groups: Editors, Auditors").await;
}
