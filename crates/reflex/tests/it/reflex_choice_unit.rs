//! A choice named by the literal and its unit: `{"guests": 4}` picks the radio "4 guests"
//! in a group labelled "Guests". Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
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
    assert_eq!(
        ran.record().await,
        "reserved: 4",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}
