//! A choice named by the literal and its unit: `{"guests": 4}` picks the radio "4 guests"
//! in a group labelled "Guests". Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use crate::reflex_run::assert_record;
use serde_json::json;

const CHIPS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Table</title></head><body>
<div id="g-label">Guests</div>
<div role="radiogroup" aria-labelledby="g-label" id="g"></div>
<button type="button" id="go">Reserve</button>
<p id="out" role="status"></p>
<p id="record" hidden>reserved: none</p>
<script>
let n = 2;
for (let i = 1; i <= 6; i++) {
  const c = document.createElement('div');
  c.setAttribute('role', 'radio'); c.tabIndex = 0; c.textContent = i;
  c.setAttribute('aria-label', i + (i === 1 ? ' guest' : ' guests'));
  c.setAttribute('aria-checked', i === n);
  c.onclick = () => { n = i; document.querySelectorAll('[role=radio]').forEach((x) => x.setAttribute('aria-checked', x === c)); };
  document.getElementById('g').append(c);
}
document.getElementById('go').onclick = () => {
  document.getElementById('record').textContent = 'reserved: ' + n;
  document.getElementById('out').textContent = 'Table reserved';
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_number_picks_the_choice_it_leads() {
    let ran = run_html(
        CHIPS,
        json!({
            "goal": "Reserve a table",
            "inputs": {"guests": 4},
            "verification": [{"check": "text_present", "text": "Table reserved"}],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "reserved: 4").await;
    assert_complete(&ran);
}

/// Sizes drawn as toggle buttons (`aria-pressed`) in a labelled group: the input named by
/// the group presses the one the literal names, and no other.
const SIZES: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Order</title></head><body>
<label for="qty">Quantity</label> <input id="qty" type="number" value="1">
<div id="s-label">Size</div>
<div role="group" aria-labelledby="s-label" id="sizes"></div>
<button type="button" id="go">Add to list</button>
<p id="out" role="status"></p>
<p id="record" hidden>order: none</p>
<script>
let size = null;
for (const s of ['Small', 'Medium', 'Large']) {
  const b = document.createElement('button');
  b.type = 'button'; b.textContent = s; b.setAttribute('aria-pressed', 'false');
  b.onclick = () => { size = s; document.querySelectorAll('#sizes button').forEach((x) => x.setAttribute('aria-pressed', x === b)); };
  document.getElementById('sizes').append(b);
}
document.getElementById('go').onclick = () => {
  if (!size) { document.getElementById('out').textContent = 'Pick a size'; return; }
  document.getElementById('record').textContent = 'order: ' + document.getElementById('qty').value + ' ' + size;
  document.getElementById('out').textContent = 'Added: ' + size;
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_toggle_button_in_the_group_the_key_names_is_the_choice() {
    let ran = run_html(
        SIZES,
        json!({
            "goal": "Choose the quantity and the size, then add it to the list",
            "inputs": {"quantity": "2", "size": "Medium"},
            "verification": [{"check": "text_present", "text": "Added: Medium"}],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "order: 2 Medium").await;
    assert_complete(&ran);
}
