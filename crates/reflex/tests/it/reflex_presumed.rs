//! "Update X's …" presumes X's record: with no X on the page, the run hands back before
//! it fills the page's empty "add" form (which would create X, and the new record would
//! then read as the update made). Real Chromium; judged by the page's own record.

use crate::reflex_browser::run_html;
use arc_core::TerminalKind;
use serde_json::json;

const MEMBERS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Members</title></head><body>
<h1>Members</h1>
<table><tbody id="rows"><tr><td>Ida Wells</td><td>Gold</td></tr></tbody></table>
<h2>Add a member</h2>
<label>Name <input id="name"></label>
<label>Tier <input id="tier"></label>
<button type="button" id="add">Save member</button>
<p id="out" role="status"></p>
<p id="record" hidden>Ida Wells=Gold</p>
<script>
document.getElementById('add').onclick = () => {
  const n = document.getElementById('name').value, t = document.getElementById('tier').value;
  const tr = document.createElement('tr'); tr.innerHTML = '<td></td><td></td>';
  tr.cells[0].textContent = n; tr.cells[1].textContent = t;
  document.getElementById('rows').append(tr);
  document.getElementById('record').textContent += ' | ' + n + '=' + t;
  document.getElementById('out').textContent = 'Member saved';
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_change_to_a_named_record_the_page_lacks_hands_back_before_acting() {
    let ran = run_html(
        MEMBERS,
        json!({
            "goal": "Update Rosa Parks's tier to Silver",
            "inputs": {"name": "Rosa Parks", "tier": "Silver"},
            "verification": ["Rosa Parks's tier is Silver"],
            "max_actions": 6
        }),
    )
    .await;
    assert_eq!(ran.record().await, "Ida Wells=Gold");
    assert_eq!(ran.result.actions_taken, 0, "{:?}", ran.actions());
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("rosa parks"), "{reason}");
}

/// The record named is on the page: the change goes ahead.
#[tokio::test(flavor = "multi_thread")]
async fn a_change_to_a_named_record_on_the_page_is_not_held_back() {
    let ran = run_html(
        MEMBERS,
        json!({
            "goal": "Update Ida Wells's tier to Silver",
            "inputs": {"tier": "Silver"},
            "verification": ["Ida Wells's tier is Silver"],
            "max_actions": 6
        }),
    )
    .await;
    assert!(ran.result.actions_taken > 0, "{:?}", ran.result.reason);
}
