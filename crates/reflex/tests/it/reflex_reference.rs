//! An input that names an item the page shows, not a field: nothing is typed, the goal's
//! words pick the item's row, and its control is pressed there. A key that is no kind of
//! item still hands back. Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use arc_core::TerminalKind;
use serde_json::json;

/// Three documents, each row with an "Archive" button; a search box that is not for them.
const FILES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Docs</title></head><body>
<label>Notes to self <input id="notes"></label>
<ul id="list"></ul>
<p id="record" hidden>archived: none</p>
<script>
const files = ['Budget 2026.xlsx', 'Q3 report.pdf', 'Team photo.jpg'];
const archived = [];
function draw() {
  const ul = document.getElementById('list'); ul.innerHTML = '';
  for (const n of files.filter((x) => !archived.includes(x))) {
    const li = document.createElement('li');
    li.innerHTML = `<span>${n}</span> <button type="button">Archive</button>`;
    li.querySelector('button').onclick = () => {
      archived.push(n);
      document.getElementById('record').textContent = 'archived: ' + archived.join(', ');
      draw();
    };
    ul.appendChild(li);
  }
}
draw();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn an_input_naming_a_shown_item_is_no_field_to_fill() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Archive the Q3 report",
            "inputs": {"file": "Q3 report.pdf"},
            "verification": [{"check": "none_remain", "name": "Q3 report.pdf"}],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "archived: Q3 report.pdf",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    let notes = ran.eval("document.getElementById('notes').value").await;
    assert_eq!(notes.as_str(), Some(""));
    assert_complete(&ran);
}

/// The goal names no row; the input's literal does.
#[tokio::test(flavor = "multi_thread")]
async fn the_item_an_input_names_picks_the_row() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Archive the file",
            "inputs": {"file": "Team photo.jpg"},
            "verification": [{"check": "none_remain", "name": "Team photo.jpg"}],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "archived: Team photo.jpg",
        "{:?}",
        ran.actions()
    );
    assert_complete(&ran);
}

/// A key that is no kind of item is no reference: the row stays unpicked, nothing is
/// archived, and the run hands back naming the input.
#[tokio::test(flavor = "multi_thread")]
async fn a_key_that_names_no_kind_of_item_is_no_reference() {
    let ran = run_html(
        FILES,
        json!({
            "goal": "Archive the file",
            "inputs": {"reason": "Team photo.jpg"},
            "verification": [{"check": "none_remain", "name": "Team photo.jpg"}],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(ran.record().await, "archived: none", "{:?}", ran.actions());
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}
