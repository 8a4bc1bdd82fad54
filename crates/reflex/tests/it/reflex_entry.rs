//! Master and detail: the field or control a goal needs shows only once the list entry the
//! goal names is opened (by a reference, "order #2108"; by its words, "the Blue Harbor
//! account"), and a field on a tab not selected is found by opening tabs. Real Chromium;
//! judged by the page's own record.

use crate::reflex_run::{assert_complete, assert_record, run_html, Ran};
use arc_core::TerminalKind;
use serde_json::json;

/// Accounts in a master list; a click on one opens its detail: a shipping select, a note
/// box, "Save" (which says "Saved for <name>" 200 ms later).
const ACCOUNTS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Accounts</title></head><body>
<aside><h1>Accounts</h1><ul id="list"></ul></aside>
<main id="detail"><p>Pick an account to see it.</p></main>
<template id="tpl">
  <h2 class="title"></h2>
  <label for="ship">Shipping method</label><select id="ship"><option>Standard</option><option>Express</option></select>
  <label for="note">Note</label><textarea id="note"></textarea>
  <button type="button" id="save">Save</button><span id="msg" role="status"></span>
</template>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const all = [
  { n: 2107, t: 'Blue Sky Air', ship: 'Standard', note: '' },
  { n: 2108, t: 'Blue Harbor Logistics', ship: 'Standard', note: '' },
  { n: 2109, t: 'Green Valley Farms', ship: 'Standard', note: '' },
];
const write = () => { $('#record').textContent = all.map((a) => `${a.n}=${a.ship}/${a.note || '-'}`).join(', '); };
function open(a) {
  const d = $('#detail'); d.innerHTML = ''; d.append($('#tpl').content.cloneNode(true));
  d.querySelector('.title').textContent = `Account #${a.n} ${a.t}`;
  $('#ship').value = a.ship; $('#note').value = a.note;
  $('#save').onclick = () => {
    a.ship = $('#ship').value; a.note = $('#note').value.trim(); write();
    setTimeout(() => { $('#msg').textContent = `Saved for ${a.t}`; }, 200);
  };
}
for (const a of all) {
  const li = document.createElement('li');
  li.innerHTML = `<a href="#a${a.n}"></a>`;
  li.querySelector('a').textContent = `#${a.n} ${a.t}`;
  li.querySelector('a').onclick = (e) => { e.preventDefault(); open(a); };
  $('#list').append(li);
}
write();
</script></body></html>"##;

/// "Switch account #2108 to Express shipping and save", judged by `criterion`.
async fn switch_2108_to_express(criterion: &str) -> Ran {
    run_html(
        ACCOUNTS,
        json!({
            "goal": "Switch account #2108 to Express shipping and save",
            "inputs": {"shipping": "Express"},
            "verification": [criterion],
            "max_actions": 6
        }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_entry_named_by_its_reference_is_opened_for_the_field_its_detail_holds() {
    let ran = switch_2108_to_express("Saved for Blue Harbor Logistics").await;
    assert_record(&ran, "2107=Standard/-, 2108=Express/-, 2109=Standard/-").await;
    assert_eq!(ran.actions()[0], "CLICK #2108 Blue Harbor Logistics");
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_entry_named_by_the_words_one_entry_alone_shares_most_is_opened() {
    // "Blue" is on two entries; "Blue Harbor" on one.
    let ran = run_html(
        ACCOUNTS,
        json!({
            "goal": "Add the note 'Call back on Friday' to the Blue Harbor account and save it",
            "inputs": {"note": "Call back on Friday"},
            "verification": ["Saved for Blue Harbor Logistics"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(
        &ran,
        "2107=Standard/-, 2108=Standard/Call back on Friday, 2109=Standard/-",
    )
    .await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_entry_is_opened_for_a_reference_the_list_does_not_show() {
    let ran = run_html(
        ACCOUNTS,
        json!({
            "goal": "Switch account #2199 to Express shipping and save",
            "inputs": {"shipping": "Express"},
            "verification": ["Saved"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "2107=Standard/-, 2108=Standard/-, 2109=Standard/-").await;
    assert!(ran.actions().is_empty(), "{:?}", ran.actions());
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
}

/// Settings over two tabs; the digest select is on the one not selected. "Save settings"
/// under the panels saves both.
const TABBED: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Settings</title></head><body>
<div role="tablist" aria-label="Settings">
  <button role="tab" id="t1" aria-selected="true" aria-controls="p1">General</button>
  <button role="tab" id="t2" aria-selected="false" aria-controls="p2" tabindex="-1">Notifications</button>
</div>
<section role="tabpanel" id="p1"><label>Workspace name <input id="name" value="Acme"></label></section>
<section role="tabpanel" id="p2" hidden><label>Email digest <select id="digest"><option>Daily</option><option>Weekly</option><option>Never</option></select></label></section>
<button type="button" id="save">Save settings</button><span id="msg" role="status"></span>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const write = () => { $('#record').textContent = `name=${$('#name').value}; digest=${$('#digest').value}`; };
for (const [t, p] of [['#t1', '#p1'], ['#t2', '#p2']]) $(t).onclick = () => {
  for (const [u, q] of [['#t1', '#p1'], ['#t2', '#p2']]) { $(u).setAttribute('aria-selected', u === t); $(q).hidden = u !== t; }
};
$('#save').onclick = () => { write(); $('#msg').textContent = 'Settings saved'; };
write();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_field_on_a_tab_not_selected_is_found_by_opening_the_tab() {
    let ran = run_html(
        TABBED,
        json!({
            "goal": "Set the email digest to weekly and save the settings",
            "inputs": {"digest": "Weekly"},
            "verification": ["Settings saved"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "name=Acme; digest=Weekly").await;
    assert_eq!(ran.actions()[0], "CLICK Notifications");
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_entry_opened_is_part_of_the_record_its_commit_sent() {
    // "Saved for Blue Harbor Logistics" says neither the number nor the method: the entry
    // the run opened and the field it set there do.
    let ran = switch_2108_to_express("Account 2108 ships Express").await;
    assert_record(&ran, "2107=Standard/-, 2108=Express/-, 2109=Standard/-").await;
    assert_complete(&ran);
    let evidence = serde_json::to_string(&ran.result.verification).unwrap();
    assert!(evidence.contains("2108 Blue Harbor"), "{evidence}");
}

#[tokio::test(flavor = "multi_thread")]
async fn another_entrys_number_is_not_said_by_the_record_committed() {
    let ran = switch_2108_to_express("Account 2109 ships Express").await;
    assert_record(&ran, "2107=Standard/-, 2108=Express/-, 2109=Standard/-").await;
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}

/// An editor over a list of recipes: "Delete recipe" deletes the open one, and the first
/// is open when the page loads.
const RECIPES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Recipes</title></head><body>
<nav><ul id="list"></ul></nav>
<main>
<label for="name">Name</label><input id="name">
<button type="button" id="del">Delete recipe</button>
</main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const all = ['Omelette recipe', 'Pancake recipe', 'Waffle recipe'];
let cur = all[0];
const write = () => { $('#record').textContent = all.join(', '); };
function load() {
  $('#name').value = cur || '';
  $('#list').innerHTML = '';
  for (const x of all) {
    const li = document.createElement('li'); li.textContent = x; li.setAttribute('role', 'link'); li.tabIndex = 0;
    li.onclick = () => { cur = x; load(); };
    $('#list').append(li);
  }
}
$('#del').onclick = () => { if (!cur) return; all.splice(all.indexOf(cur), 1); cur = all[0] || null; write(); load(); };
write(); load();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_detail_control_acts_on_the_entry_the_goal_names_not_the_open_one() {
    let ran = run_html(
        RECIPES,
        json!({
            "goal": "Delete the Pancake recipe",
            "allowed_risks": ["delete"],
            "verification": ["Pancake recipe no longer appears"],
            "max_actions": 4
        }),
    )
    .await;
    // Pressing "Delete recipe" at once deletes the Omelette, the one open; and the entry
    // pressed open, named like the goal's object, is not the deletion done.
    assert_record(&ran, "Omelette recipe, Waffle recipe").await;
    assert_eq!(
        ran.actions()[..2],
        ["CLICK Pancake recipe", "CLICK Delete recipe"]
    );
    // Its entry, a link in the list, was there and went.
    assert_complete(&ran);
}

/// An admin's list of people (sessionStorage): an action bar (a select and "Go", which
/// with no row ticked only says so), a table whose column headers are sort links
/// ("Username", "Email address", "First name", "Last name"), each row's username a link to
/// that person's change page (`?edit=`), where "Save" (the first of three submit buttons,
/// beside "Save and add another" and "Save and continue editing") stores the form and goes
/// back to the list saying so, and "Delete" leads to a page asking "Are you sure?".
const PEOPLE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>People</title></head><body>
<main id="main"></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const people = JSON.parse(sessionStorage.getItem('people') || JSON.stringify([
  { u: 'jsmith', f: 'John', l: 'Smith', e: 'john.smith@example.org' },
  { u: 'lrossi', f: 'Luca', l: 'Rossi', e: 'luca.rossi@example.org' },
  { u: 'pnovak', f: 'Petra', l: 'Novak', e: 'petra.novak@example.org' },
]));
$('#record').textContent = people.map((p) => `${p.u}=${p.f} ${p.l} <${p.e}>`).join('; ');
const q = new URLSearchParams(location.search);
const who = people.find((p) => p.u === q.get('edit'));
if (who) {
  $('#main').innerHTML = `<h1>Change person</h1><h2>${who.u}</h2><form>
    <label for="f">First name:</label><input id="f" value="${who.f}">
    <label for="l">Last name:</label><input id="l" value="${who.l}">
    <label for="e">Email address:</label><input id="e" type="email" value="${who.e}">
    <input type="submit" value="Save"> <a href="?delete=${who.u}">Delete</a>
    <input type="submit" value="Save and add another"> <input type="submit" value="Save and continue editing"></form>`;
  $('form').onsubmit = (ev) => {
    ev.preventDefault();
    who.f = $('#f').value; who.l = $('#l').value; who.e = $('#e').value;
    sessionStorage.setItem('people', JSON.stringify(people));
    const msg = encodeURIComponent(`The person “${who.u}” was changed successfully.`);
    const how = ev.submitter ? ev.submitter.value : 'Save';
    location.href = how === 'Save' ? '?msg=' + msg : how === 'Save and add another' ? '?add=1' : `?edit=${who.u}&msg=${msg}`;
  };
} else if (q.get('delete')) {
  const u = q.get('delete');
  $('#main').innerHTML = `<h1>Are you sure?</h1><p>Are you sure you want to delete the person “${u}”?</p>
    <form><input type="submit" value="Yes, I’m sure"> <a href="?">No, take me back</a></form>`;
  $('form').onsubmit = (ev) => {
    ev.preventDefault();
    people.splice(people.findIndex((p) => p.u === u), 1);
    sessionStorage.setItem('people', JSON.stringify(people));
    location.href = '?msg=' + encodeURIComponent(`The person “${u}” was deleted successfully.`);
  };
} else {
  const sort = (k, t) => `<th scope="col"><a href="?o=${k}">${t}</a></th>`;
  $('#main').innerHTML = (q.get('msg') ? `<p>${q.get('msg')}</p>` : '') + `<h1>Select person to change</h1>
    <form id="actions"><label>Action: <select><option>---------</option><option>Delete selected people</option></select></label>
    <button type="submit">Go</button></form>
    <table><thead><tr>${sort(1, 'Username')}${sort(2, 'Email address')}${sort(3, 'First name')}${sort(4, 'Last name')}</tr></thead>
    <tbody>${people.map((p) => `<tr><th><a href="?edit=${p.u}">${p.u}</a></th><td>${p.e}</td><td>${p.f}</td><td>${p.l}</td></tr>`).join('')}</tbody></table>`;
  $('#actions').onsubmit = (ev) => { ev.preventDefault(); location.href = '?msg=' + encodeURIComponent('Items must be selected in order to perform actions on them.'); };
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn the_row_whose_cells_name_the_person_is_opened_not_a_column_header() {
    let ran = run_html(
        PEOPLE,
        json!({
            "goal": "Update Luca Rossi's email address",
            "inputs": {"email": "luca@rossi-design.it"},
            "verification": ["The person lrossi was changed successfully"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &ran,
        "jsmith=John Smith <john.smith@example.org>; lrossi=Luca Rossi <luca@rossi-design.it>; pnovak=Petra Novak <petra.novak@example.org>",
    )
    .await;
    assert_eq!(ran.actions()[0], "CLICK lrossi", "{:?}", ran.actions());
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_entry_whose_whole_name_the_goal_says_is_opened_for_its_field() {
    let ran = run_html(
        PEOPLE,
        json!({
            "goal": "Change pnovak's first name",
            "inputs": {"first name": "Petra-Marie"},
            "verification": ["pnovak was changed successfully"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &ran,
        "jsmith=John Smith <john.smith@example.org>; lrossi=Luca Rossi <luca.rossi@example.org>; pnovak=Petra-Marie Novak <petra.novak@example.org>",
    )
    .await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deletion_opens_the_record_it_names_instead_of_pressing_the_lists_go() {
    let ran = run_html(
        PEOPLE,
        json!({
            "goal": "Delete the user account pnovak (Petra Novak has left the company)",
            "allowed_risks": ["delete"],
            "verification": ["The person pnovak was deleted successfully"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &ran,
        "jsmith=John Smith <john.smith@example.org>; lrossi=Luca Rossi <luca.rossi@example.org>",
    )
    .await;
    assert_eq!(
        ran.actions(),
        ["CLICK pnovak", "CLICK Delete", "CLICK Yes, I’m sure"],
        "{:?}",
        ran.result.reason
    );
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_form_with_several_submit_buttons_is_saved_by_its_default_one() {
    let ran = run_html(
        PEOPLE,
        json!({
            "goal": "Correct jsmith's first name to Jonathan",
            "inputs": {"first name": "Jonathan"},
            "verification": ["The first name shows Jonathan and the changes are saved"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &ran,
        "jsmith=Jonathan Smith <john.smith@example.org>; lrossi=Luca Rossi <luca.rossi@example.org>; pnovak=Petra Novak <petra.novak@example.org>",
    )
    .await;
    let acts = ran.actions();
    let pressed: Vec<&String> = acts.iter().filter(|a| a.starts_with("CLICK")).collect();
    assert_eq!(
        pressed.last().map(|a| a.as_str()),
        Some("CLICK Save"),
        "{acts:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_list_of_a_kind_is_the_pages_table_of_records() {
    let ran = run_html(
        PEOPLE,
        json!({
            "goal": "Update Luca Rossi's email address",
            "inputs": {"email": "luca@rossi-design.it"},
            "verification": ["The person list shows luca@rossi-design.it"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &ran,
        "jsmith=John Smith <john.smith@example.org>; lrossi=Luca Rossi <luca@rossi-design.it>; pnovak=Petra Novak <petra.novak@example.org>",
    )
    .await;
    assert_complete(&ran);
    let gone = run_html(
        PEOPLE,
        json!({
            "goal": "Delete the user account pnovak",
            "allowed_risks": ["delete"],
            "verification": ["pnovak no longer appears in the person list"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(
        &gone,
        "jsmith=John Smith <john.smith@example.org>; lrossi=Luca Rossi <luca.rossi@example.org>",
    )
    .await;
    assert_complete(&gone);
}
