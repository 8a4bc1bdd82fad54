//! A form whose button no goal word names and no submit word marks ("Hold court", a plain
//! button, no <form>): once the inputs are placed, the first plain button after the last
//! field sends it — never a button that abandons the form. Real Chromium; judged by the
//! page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use arc_core::TerminalKind;
use serde_json::json;

const COURT: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Courts</title></head><body>
<h1>Tennis courts</h1>
<label>Player <input id="who"></label>
<label>Hour <input id="hour"></label>
<button type="button" id="clear">Clear</button>
<button type="button" id="hold">Hold court</button>
<p id="out" role="status"></p>
<p id="record" hidden>none</p>
<script>
const $ = (s) => document.getElementById(s);
$('clear').onclick = () => { $('who').value = ''; $('hour').value = ''; $('record').textContent = 'cleared'; };
$('hold').onclick = () => {
  $('record').textContent = $('who').value + ' at ' + $('hour').value;
  $('out').textContent = 'Court held for ' + $('who').value + ' at ' + $('hour').value;
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn the_forms_own_plain_button_sends_it_and_an_abandoning_one_is_passed_over() {
    // No verb the reflex knows; a commit verb no button bears.
    for goal in [
        "Get Rosa Parks a court at 10:00",
        "Book a court for Rosa Parks at 10:00",
    ] {
        let ran = run_html(
            COURT,
            json!({
                "goal": goal,
                "inputs": {"player": "Rosa Parks", "hour": "10:00"},
                "verification": [{"check": "text_present", "text": "Court held for Rosa Parks at 10:00"}],
                "max_actions": 5
            }),
        )
        .await;
        assert_eq!(
            ran.record().await,
            "Rosa Parks at 10:00",
            "{goal}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
        assert_complete(&ran);
    }
}

/// Told not to send, the run leaves the form unsent.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_the_goal_says_not_to_send_stays_unsent() {
    let ran = run_html(
        COURT,
        json!({
            "goal": "Fill in Rosa Parks at 10:00 but do not submit",
            "inputs": {"player": "Rosa Parks", "hour": "10:00"},
            "verification": [{"check": "text_present", "text": "Court held for Rosa Parks at 10:00"}],
            "max_actions": 5
        }),
    )
    .await;
    assert_eq!(ran.record().await, "none", "{:?}", ran.actions());
    assert_ne!(ran.result.status, TerminalKind::SubtaskComplete);
}
