//! "Mark X as done", "tick off X and Y": a state the goal gives items, with a verb that
//! names no control. X's box is ticked where it has one, else X's own control bearing the
//! state's word is pressed; an item named by an input (`"task": …`) is which item, not a
//! box already ticked. Real Chromium; judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use crate::reflex_run::assert_record;
use serde_json::json;

/// Boxes labelled by sibling labels, saved on every change.
const TASKS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Tasks</title></head><body>
<h1>Tasks</h1><div id="tasks">
<div class="t"><input type="checkbox" id="a"><label for="a">Call the plumber</label></div>
<div class="t"><input type="checkbox" id="b"><label for="b">Call the plumber back</label></div>
<div class="t"><input type="checkbox" id="c"><label for="c">Walk the dog</label></div>
<div class="t"><input type="checkbox" id="d"><label for="d">Return library books</label></div>
</div><p id="record" hidden>done: none</p>
<script>
document.getElementById('tasks').addEventListener('change', () => {
  const done = [...document.querySelectorAll('.t')].filter((d) => d.querySelector('input').checked)
    .map((d) => d.querySelector('label').textContent);
  document.getElementById('record').textContent = 'done: ' + (done.join(', ') || 'none');
});
</script></body></html>"##;

/// Items with a "Done" button each that moves them under "Completed"; no message.
const CHORES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Chores</title></head><body>
<section aria-labelledby="h1"><h2 id="h1">To do</h2><ul id="open"></ul></section>
<section aria-labelledby="h2"><h2 id="h2">Completed</h2><ul id="done"></ul></section>
<p id="record" hidden>completed: none</p>
<script>
const open = ['Sweep the porch', 'Fold the towels'], done = [];
function render() {
  for (const [list, id, label, other] of [[open, 'open', 'Done', done], [done, 'done', 'Undo', open]]) {
    const ul = document.getElementById(id); ul.innerHTML = '';
    for (const c of list) {
      const li = document.createElement('li'); const s = document.createElement('span'); s.textContent = c;
      const b = document.createElement('button'); b.textContent = label; b.setAttribute('aria-label', label + ': ' + c);
      b.onclick = () => { list.splice(list.indexOf(c), 1); other.push(c); render();
        document.getElementById('record').textContent = 'completed: ' + (done.join(', ') || 'none'); };
      li.append(s, ' ', b); ul.append(li);
    }
  }
}
render();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn an_item_named_by_an_input_is_marked_done_by_its_box() {
    let ran = run_html(
        TASKS,
        json!({
            "goal": "Mark Call the plumber as done",
            "inputs": {"task": "Call the plumber"},
            "verification": ["The checkbox next to 'Call the plumber' is ticked"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "done: Call the plumber").await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn two_items_ticked_off_by_what_doing_them_is_are_ticked_each() {
    let ran = run_html(
        TASKS,
        json!({
            "goal": "Tick off walking the dog and returning the library books",
            "inputs": {},
            "verification": ["Walk the dog ✓", "Return library books ✓"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "done: Walk the dog, Return library books").await;
    assert_complete(&ran);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_item_without_a_box_is_marked_by_its_own_done_control_and_read_by_its_section() {
    let ran = run_html(
        CHORES,
        json!({
            "goal": "Mark the towels as done",
            "inputs": {},
            "verification": ["Towels complete"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "completed: Fold the towels").await;
    assert_complete(&ran);
}

/// The other item's section says nothing of this one: still to do, so never done.
#[tokio::test(flavor = "multi_thread")]
async fn an_item_left_under_to_do_is_not_read_as_done() {
    let ran = run_html(
        CHORES,
        json!({
            "goal": "Mark the towels as done",
            "inputs": {},
            "verification": ["The porch sweeping is done"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "completed: Fold the towels").await;
    assert_ne!(
        ran.result.status,
        arc_core::TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
}
