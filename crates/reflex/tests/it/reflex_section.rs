//! "In the library", where "Library" is a heading: a heading holds no text of
//! its own, it titles what follows it. What is in, or no longer in, a section a heading
//! names is read from that section — up to the next heading as high — so an added book
//! is found there, and an absence never holds merely because the heading itself is empty.
//! Real Chromium; judged by the page's own record.

use crate::reflex_browser::run_html;
use crate::reflex_run::assert_record;
use arc_core::TerminalKind;
use serde_json::json;

const PAGE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Books</title></head><body>
<main>
<h2>Library</h2>
<ul id="list"><li>Emma</li><li>Middlemarch</li></ul>
<h2>Add a book</h2>
<form id="add"><label>Title <input id="title"></label> <button>Add</button></form>
</main>
<p id="record" hidden></p>
<script>
const list = document.getElementById('list');
const record = () => document.getElementById('record').textContent =
  [...list.children].map((li) => li.textContent).join(', ');
document.getElementById('add').onsubmit = (e) => { e.preventDefault();
  const t = document.getElementById('title');
  if (t.value) { const li = document.createElement('li'); li.textContent = t.value; list.append(li); }
  t.value = ''; record(); };
record();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn what_a_heading_titles_is_read_in_the_section_below_it() {
    let ran = run_html(
        PAGE,
        json!({
            "goal": "Add Dune to the library",
            "inputs": {"title": "Dune"},
            "verification": ["Dune is in the library"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "Emma, Middlemarch, Dune").await;
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_absence_under_a_heading_is_not_held_by_the_heading_alone() {
    let ran = run_html(
        PAGE,
        json!({
            "goal": "Add Dune to the library",
            "inputs": {"title": "Dune"},
            "verification": ["Dune is shown", "Emma no longer appears in the library"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "Emma, Middlemarch, Dune").await;
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "Emma is still listed: {:?}",
        ran.result.reason
    );
}
