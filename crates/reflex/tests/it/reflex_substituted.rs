//! A control whose name says another word in place of one the goal says ("Download the
//! monthly report" for "the annual report", "Shipping address" for a billing address) is
//! not the one asked for: nothing is pressed or typed there, and the run hands back.
//! Judged by the page's own record.

use crate::reflex_run::{assert_complete, assert_record, run_html};
use arc_core::TerminalKind;
use serde_json::json;

fn reports(links: &[&str]) -> String {
    let links: String = links
        .iter()
        .map(|l| format!(r##"<li><a href="#" data-report="{l}">Download the {l} report</a></li>"##))
        .collect();
    format!(
        r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Reports</title></head><body>
<h1>Reports</h1><ul>{links}</ul><p id="record" hidden></p>
<script>
document.querySelectorAll('a').forEach((a) => a.addEventListener('click', (e) => {{
  e.preventDefault();
  document.getElementById('record').textContent += a.dataset.report;
}}));
</script></body></html>"##
    )
}

fn download_annual() -> serde_json::Value {
    json!({
        "goal": "Download the annual report",
        "verification": ["The annual report link has been clicked"],
        "max_actions": 3
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_monthly_report_is_not_the_annual_one() {
    let ran = run_html(&reports(&["monthly"]), download_annual()).await;
    assert_record(&ran, "").await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    assert_eq!(ran.result.actions_taken, 0, "{:?}", ran.actions());
}

#[tokio::test(flavor = "multi_thread")]
async fn beside_the_monthly_report_the_annual_one_is_pressed() {
    let ran = run_html(&reports(&["monthly", "annual"]), download_annual()).await;
    assert_record(&ran, "annual").await;
    assert_complete(&ran);
}

const ADDRESS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Order</title></head><body>
<h1>Order</h1><form id="f">
<label for="ship">Shipping address</label> <input id="ship">
<button type="submit">Place order</button></form><p id="record" hidden></p>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  document.getElementById('record').textContent = 'ship=' + document.getElementById('ship').value;
});
document.getElementById('ship').addEventListener('input', (e) => {
  document.getElementById('record').textContent = 'typed=' + e.target.value;
});
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_billing_address_is_not_typed_into_the_shipping_address() {
    let ran = run_html(
        ADDRESS,
        json!({
            "goal": "Enter the billing address and place the order",
            "inputs": {"billing_address": "1 Main St"},
            "verification": ["The order has been placed"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "").await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
}
