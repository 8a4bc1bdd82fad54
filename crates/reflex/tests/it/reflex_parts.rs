//! An object naming two things joined by "and" ("SMS notifications and the weekly
//! digest"): each is grounded and set on its own. Judged by the page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

const SETTINGS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Notifications</title></head><body>
<h1>Notifications</h1>
<label><input type="checkbox" id="email" checked> Email notifications</label><br>
<label><input type="checkbox" id="sms"> SMS notifications</label><br>
<label><input type="checkbox" id="digest"> Weekly digest</label><br>
<p id="record" hidden></p>
<script>
const note = () => {
  document.getElementById('record').textContent = ['email', 'sms', 'digest']
    .filter((id) => document.getElementById(id).checked).join(', ');
};
document.querySelectorAll('input').forEach((i) => i.addEventListener('change', note));
note();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn two_things_joined_by_and_are_each_set() {
    let ran = run_html(
        SETTINGS,
        json!({
            "goal": "Turn on SMS notifications and the weekly digest",
            "verification": [
                {"check": "element_state", "element": "SMS notifications", "state": "checked"},
                {"check": "element_state", "element": "Weekly digest", "state": "checked"}
            ],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "email, sms, digest",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_complete(&ran);
}

/// "A and B are enabled" is A on and B on: with only B turned on, never done.
#[tokio::test(flavor = "multi_thread")]
async fn two_subjects_sharing_a_verb_must_each_hold() {
    let ran = run_html(
        SETTINGS,
        json!({
            "goal": "Turn on the weekly digest",
            "verification": ["SMS alerts and the weekly digest are enabled"],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(ran.record().await, "email, digest", "{:?}", ran.actions());
    assert_ne!(
        ran.result.status,
        arc_core::TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
    let ran = run_html(
        SETTINGS,
        json!({
            "goal": "Turn on SMS notifications and the weekly digest",
            "verification": ["SMS notifications and the weekly digest are enabled"],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "email, sms, digest",
        "{:?}",
        ran.actions()
    );
    assert_complete(&ran);
}
