//! A row's action named around the row: "Mark invoice INV-202 as paid" presses the
//! "Mark as paid" of INV-202's row, "Void invoice 201" its "Void invoice". The goal says
//! the control's words with the item's between them; the item's words pick the row.
//! Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html, Ran};
use crate::reflex_run::assert_record;
use arc_core::TerminalKind;
use serde_json::json;

/// The run handed back and the page's record is as it was: nothing was pressed for it.
async fn assert_handed_back_untouched(ran: &Ran, record: &str) {
    assert_record(ran, record).await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.actions()
    );
}

/// Unpaid invoices carry "Mark as paid" and "Void invoice" buttons; a polite live region
/// says what changed.
const INVOICES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Invoices</title></head><body>
<h1>Invoices</h1>
<table><thead><tr><th>Invoice</th><th>Client</th><th>Amount</th><th>State</th><th></th></tr></thead><tbody id="rows"></tbody></table>
<p id="live" aria-live="polite"></p><p id="record" hidden></p>
<script>
const invoices = [{ n: 'INV-201', who: 'Northwind', amt: '$120.00', st: 'unpaid' }, { n: 'INV-202', who: 'Contoso', amt: '$75.50', st: 'unpaid' },
  { n: 'INV-203', who: 'Fabrikam', amt: '$310.00', st: 'paid' }];
const write = () => { document.getElementById('record').textContent = invoices.map((i) => i.n + ' ' + i.st).join(', '); };
function render() {
  const body = document.getElementById('rows'); body.innerHTML = '';
  for (const i of invoices) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<td>${i.n}</td><td>${i.who}</td><td>${i.amt}</td><td>${i.st}</td><td></td>`;
    if (i.st === 'unpaid') {
      for (const [label, st] of [['Mark as paid', 'paid'], ['Void invoice', 'void']]) {
        const b = document.createElement('button'); b.textContent = label;
        b.onclick = () => { i.st = st; write(); render(); document.getElementById('live').textContent = `Invoice ${i.n} is now ${st}`; };
        tr.lastChild.append(b, ' ');
      }
    }
    body.append(tr);
  }
}
write(); render();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_control_named_around_the_item_is_pressed_in_its_row() {
    let ran = run_html(
        INVOICES,
        json!({
            "goal": "Mark invoice INV-202 as paid",
            "inputs": {},
            "verification": ["INV-202 paid"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "INV-201 unpaid, INV-202 paid, INV-203 paid").await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_named_before_the_item_is_pressed_in_its_row() {
    let ran = run_html(
        INVOICES,
        json!({
            "goal": "Void invoice 201",
            "inputs": {},
            "verification": ["Invoice INV-201 void"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "INV-201 void, INV-202 unpaid, INV-203 paid").await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_item_without_the_control_gets_no_press_elsewhere() {
    // INV-203 is paid already: no row of it carries the control, so none is pressed.
    let ran = run_html(
        INVOICES,
        json!({
            "goal": "Void invoice INV-203",
            "inputs": {},
            "verification": ["Invoice INV-203 void"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(&ran, "INV-201 unpaid, INV-202 unpaid, INV-203 paid").await;
}

/// Each file's "Archive" and "Delete" open a modal that asks to confirm.
const FILES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Files</title></head><body>
<h1>My files</h1><ul id="files"></ul><h2>Archive</h2><ul id="archived"></ul>
<p id="banner" role="status"></p><p id="record" hidden></p>
<div id="backdrop" hidden><div role="dialog" aria-modal="true" aria-labelledby="t"><h2 id="t"></h2>
<button id="no">Cancel</button> <button id="yes"></button></div></div>
<script>
let files = ['Roadmap 2027.pptx', 'Payroll March.csv', 'Logo final.png'], archived = [], pending = null;
const $ = (s) => document.querySelector(s);
const write = () => { $('#record').textContent = 'files: ' + files.join(', ') + ' | archived: ' + (archived.join(', ') || 'none'); };
function render() {
  $('#files').innerHTML = '';
  for (const f of files) {
    const li = document.createElement('li'); const s = document.createElement('span'); s.textContent = f; li.append(s, ' ');
    for (const [label, kind] of [['Archive', 'archive'], ['Delete', 'delete']]) {
      const b = document.createElement('button'); b.textContent = label; li.append(b, ' ');
      b.onclick = () => { pending = [f, kind]; $('#t').textContent = (kind === 'archive' ? 'Archive ' : 'Delete ') + f + '?';
        $('#yes').textContent = kind === 'archive' ? 'Archive' : 'Delete forever'; $('#backdrop').hidden = false; };
    }
    $('#files').append(li);
  }
  $('#archived').innerHTML = archived.map((a) => '<li>' + a + '</li>').join('');
}
$('#no').onclick = () => { $('#backdrop').hidden = true; pending = null; };
$('#yes').onclick = () => { const [f, kind] = pending; files = files.filter((x) => x !== f); if (kind === 'archive') archived.push(f);
  $('#backdrop').hidden = true; write(); render(); $('#banner').textContent = f + (kind === 'archive' ? ' archived' : ' deleted'); };
write(); render();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_row_action_named_by_its_verb_alone_is_confirmed_in_its_dialog() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Archive the Payroll March spreadsheet",
            "inputs": {},
            "verification": ["Payroll archived"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(
        &ran,
        "files: Roadmap 2027.pptx, Logo final.png | archived: Payroll March.csv",
    )
    .await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dialog_the_goal_answers_itself_is_not_confirmed() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Click Delete for Logo final.png, then click Cancel",
            "inputs": {},
            "allowed_risks": ["delete"],
            "verification": ["Logo final.png is still listed"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(
        &ran,
        "files: Roadmap 2027.pptx, Payroll March.csv, Logo final.png | archived: none",
    )
    .await;
    let acts = ran.actions();
    assert_eq!(
        acts.last().map(String::as_str),
        Some("CLICK Cancel"),
        "{acts:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dialog_asking_for_the_act_is_no_evidence_that_it_happened() {
    // Two ways to confirm: the run confirms neither, and the question that names the
    // file and the act ("Archive Logo final.png?") must not be read as its outcome.
    let page = FILES.replace(
        r#"<button id="yes"></button>"#,
        r#"<button id="yes"></button> <button id="yes2">Archive and notify the team</button>"#,
    );
    let ran = run_html(
        &page,
        json!({
            "goal": "Archive the Logo final image",
            "inputs": {},
            "verification": ["Logo final archived"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(
        &ran,
        "files: Roadmap 2027.pptx, Payroll March.csv, Logo final.png | archived: none",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_the_goal_asked_for_is_confirmed_by_the_dialogs_own_delete() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Delete the Roadmap 2027 deck",
            "inputs": {},
            "allowed_risks": ["delete"],
            "verification": ["Roadmap 2027 deleted"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(
        &ran,
        "files: Payroll March.csv, Logo final.png | archived: none",
    )
    .await;
    assert_complete(&ran);
    let acts = ran.actions();
    assert_eq!(
        acts.last().map(String::as_str),
        Some("CLICK Delete forever"),
        "{acts:?}"
    );
}

/// FILES with each row's buttons named after their file ("Archive Payroll March.csv").
fn files_named_per_row() -> String {
    FILES.replace(
        "b.textContent = label;",
        "b.textContent = label; b.setAttribute('aria-label', label + ' ' + f);",
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_carrying_its_item_in_its_name_is_the_one_the_goal_says_most_of() {
    let ran = run_html(
        &files_named_per_row(),
        json!({
            "goal": "Archive the Payroll March spreadsheet",
            "inputs": {},
            "verification": ["Payroll March archived"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(
        &ran,
        "files: Roadmap 2027.pptx, Logo final.png | archived: Payroll March.csv",
    )
    .await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_manner_adverb_before_the_verb_is_no_control() {
    let ran = run_html(
        &files_named_per_row(),
        json!({
            "goal": "Permanently delete Logo final.png",
            "inputs": {},
            "allowed_risks": ["delete"],
            "verification": ["Logo final.png deleted"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(
        &ran,
        "files: Roadmap 2027.pptx, Payroll March.csv | archived: none",
    )
    .await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_quote_is_said_as_written_not_by_its_words_in_a_question() {
    // The dialog asks "Archive Logo final.png?" (two ways to confirm, so none is pressed):
    // the same words in another order and form do not say "Logo final.png archived".
    let page = FILES.replace(
        r#"<button id="yes"></button>"#,
        r#"<button id="yes"></button> <button id="yes2">Archive and notify the team</button>"#,
    );
    let ran = run_html(
        &page,
        json!({
            "goal": "Archive the Logo final image",
            "inputs": {},
            "verification": ["A 'Logo final.png archived' notice is shown"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(
        &ran,
        "files: Roadmap 2027.pptx, Payroll March.csv, Logo final.png | archived: none",
    )
    .await;
}

/// Each product in stock has "Add <name> to cart"; a sold-out one has none.
const SHOP: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop</h1><ul>
<li><span>Blue mug</span> <button>Add Blue mug to cart</button></li>
<li><span>Linen apron</span> <em>Sold out</em></li>
<li><span>Soy candle</span> <button>Add Soy candle to cart</button></li>
</ul><p id="record" hidden>cart: empty</p>
<script>
for (const b of document.querySelectorAll('button')) b.onclick = () => {
  document.getElementById('record').textContent = 'cart: ' + b.textContent.slice(4, -8) + ' x1'; };
</script></body></html>"##;

/// Cards with a "Move <card> to Done" each.
const BOARD: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Board</title></head><body>
<h2>To do</h2><ul id="todo"></ul><h2>Done</h2><ul id="done"></ul><p id="record" hidden></p>
<script>
const todo = ['Write specs', 'Set up CI'], done = ['Kickoff meeting'];
function render() {
  document.getElementById('todo').innerHTML = ''; document.getElementById('done').innerHTML = '';
  for (const c of todo) { const li = document.createElement('li'); li.textContent = c + ' ';
    const b = document.createElement('button'); b.textContent = 'Move ' + c + ' to Done';
    b.onclick = () => { todo.splice(todo.indexOf(c), 1); done.push(c); render(); }; li.append(b);
    document.getElementById('todo').append(li); }
  for (const c of done) { const li = document.createElement('li'); li.textContent = c; document.getElementById('done').append(li); }
  document.getElementById('record').textContent = 'todo: ' + todo.join(', ') + ' | done: ' + done.join(', ');
}
render();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn an_item_without_its_own_control_gets_no_neighbours_press() {
    let ran = run_html(
        SHOP,
        json!({
            "goal": "Add the linen apron to the cart",
            "inputs": {},
            "verification": ["The linen apron is in the cart"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(&ran, "cart: empty").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_word_every_control_bears_names_no_item() {
    // "Done" is in every "Move … to Done": it names where, not which card.
    let ran = run_html(
        BOARD,
        json!({
            "goal": "Move the 'Book venue' card to Done",
            "inputs": {},
            "verification": ["Book venue is done"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(&ran, "todo: Write specs, Set up CI | done: Kickoff meeting")
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_card_a_control_carries_is_moved_by_its_own() {
    let ran = run_html(
        BOARD,
        json!({
            "goal": "Move the Set up CI card to Done",
            "inputs": {},
            "verification": ["Set up CI is listed under Done"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "todo: Write specs | done: Kickoff meeting, Set up CI").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_number_no_control_carries_names_no_item() {
    let ran = run_html(
        &files_named_per_row(),
        json!({
            "goal": "Archive the Roadmap 2028 deck",
            "inputs": {},
            "verification": ["Roadmap 2028 archived"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(
        &ran,
        "files: Roadmap 2027.pptx, Payroll March.csv, Logo final.png | archived: none",
    )
    .await;
}

/// One card in progress ("Move … to Done"), one to do ("Move … to Doing").
const STAGES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Board</title></head><body>
<ul><li>Write specs <button>Move Write specs to Doing</button></li>
<li>Set up CI <button>Move Set up CI to Done</button></li></ul>
<p id="record" hidden>moved: none</p>
<script>
for (const b of document.querySelectorAll('button')) b.onclick = () => {
  document.getElementById('record').textContent = 'moved: ' + b.textContent; b.remove(); };
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn where_the_goal_moves_a_card_does_not_name_the_card() {
    // "Done" is borne by one control only, but it is where the quoted card would go.
    let ran = run_html(
        STAGES,
        json!({
            "goal": "Move the 'Book venue' card to Done",
            "inputs": {},
            "verification": ["Book venue is done"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(&ran, "moved: none").await;
}

/// Each card has "◀"/"▶" named "Move <card> to <column>": a card's words are borne by
/// both its buttons, so only the destination is one button's own.
const ARROWS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Board</title></head><body>
<div role="article" aria-label="Write specs"><button aria-label="Move Write specs to Doing">▶</button> Write specs</div>
<div role="article" aria-label="Set up CI"><button aria-label="Move Set up CI to To do">◀</button> Set up CI
<button aria-label="Move Set up CI to Done">▶</button></div>
<p id="record" hidden>moved: none</p>
<script>
for (const b of document.querySelectorAll('button')) b.onclick = () => {
  document.getElementById('record').textContent = 'moved: ' + b.getAttribute('aria-label'); };
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_quoted_card_no_control_carries_gets_no_press() {
    let ran = run_html(
        ARROWS,
        json!({
            "goal": "Move the 'Book venue' card to Done",
            "inputs": {},
            "verification": ["Book venue is done"],
            "max_actions": 4
        }),
    )
    .await;
    assert_handed_back_untouched(&ran, "moved: none").await;
}

/// A list of groups, each row's "Delete" link leading to a page of its own (`?delete=`)
/// that asks "Are you sure?" and offers "Yes, I'm sure" and "No, take me back", with a
/// breadcrumb naming the group. Only "Yes" deletes. The groups live in sessionStorage.
const GROUPS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Groups</title></head><body>
<main id="main"></main>
<p id="record" hidden></p>
<script>
const $ = (s) => document.querySelector(s);
const groups = JSON.parse(sessionStorage.getItem('groups') || '["Editors", "Support", "Billing"]');
const save = () => sessionStorage.setItem('groups', JSON.stringify(groups));
$('#record').textContent = 'groups: ' + groups.join(', ');
const q = new URLSearchParams(location.search);
const main = $('#main');
if (q.get('delete')) {
  const g = q.get('delete');
  main.innerHTML = `<nav><a href="?">Home</a> › <a href="?">${g}</a> › Delete</nav><h1>Are you sure?</h1>
    <p>Are you sure you want to delete the group “${g}”? All of the following related items will be deleted:</p>
    <form><input type="submit" value="Yes, I’m sure"> <a href="?">No, take me back</a></form>`;
  main.querySelector('form').onsubmit = (e) => {
    e.preventDefault(); groups.splice(groups.indexOf(g), 1); save();
    location.href = '?msg=' + encodeURIComponent(`The group “${g}” was deleted successfully.`);
  };
} else {
  main.innerHTML = (q.get('msg') ? `<p>${q.get('msg')}</p>` : '') + '<h1>Groups</h1><table id="t"></table>';
  for (const g of groups) {
    const tr = document.createElement('tr');
    tr.innerHTML = `<th>${g}</th><td><a href="?delete=${encodeURIComponent(g)}">Delete</a></td>`;
    $('#t').append(tr);
  }
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_that_leads_to_a_page_asking_are_you_sure_is_confirmed_there() {
    let ran = run_html(
        GROUPS,
        json!({
            "goal": "Delete the Support group",
            "allowed_risks": ["delete"],
            "verification": ["A message confirms the group Support was deleted successfully"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(&ran, "groups: Editors, Billing").await;
    assert_complete(&ran);
    assert_eq!(
        ran.actions().last().map(String::as_str),
        Some("CLICK Yes, I’m sure"),
        "{:?}",
        ran.actions()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_not_allowed_never_reaches_the_page_that_asks() {
    let ran = run_html(
        GROUPS,
        json!({
            "goal": "Delete the Support group",
            "verification": ["The Support group is deleted"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(&ran, "groups: Editors, Support, Billing").await;
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_asking_whether_to_delete_is_no_message_that_it_was_deleted() {
    // The page's answer is no word the run knows as a yes: the question stays unanswered.
    let ran = run_html(
        &GROUPS.replace("Yes, I’m sure", "Proceed"),
        json!({
            "goal": "Delete the Support group",
            "allowed_risks": ["delete"],
            "verification": ["A message confirms the group Support was deleted"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "groups: Editors, Support, Billing").await;
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
}
