//! "Language = Deutsch", "Language: Deutsch": a terse key and value holds when the field
//! the key names holds the value and the page stored it — on a page with nothing to press,
//! its own word that the change was saved; on a page with a Save control, a press of it
//! after the edit. A value left in the field unsaved, or a store the page says failed, is
//! not done. Real Chromium; judged by the page's own record.

use crate::reflex_browser::run_html;
use crate::reflex_run::assert_record;
use arc_core::TerminalKind;
use serde_json::json;

/// Preferences. `MODE`: `store` saves every change at once and flashes "Saved"; `fail`
/// answers every change with an error and stores nothing; `button` stores only on "Save
/// changes".
const PAGE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Preferences</title></head><body>
<h1>Preferences <span id="chip" role="status"></span></h1>
<p><label for="lang">Language</label>
<select id="lang"><option>English</option><option>Deutsch</option><option>Français</option></select></p>
<p><label for="size">Text size</label>
<select id="size"><option>Small</option><option selected>Medium</option><option>Large</option></select></p>
<button id="save" hidden>Save changes</button>
<p id="record" hidden>prefs: language=English; size=Medium</p>
<script>
const $ = (s) => document.querySelector(s);
const mode = 'MODE';
const store = () => { $('#record').textContent = `prefs: language=${$('#lang').value}; size=${$('#size').value}`; $('#chip').textContent = 'Saved'; };
if (mode === 'button') { $('#save').hidden = false; $('#save').onclick = store; }
document.addEventListener('change', () => {
  if (mode === 'store') store();
  if (mode === 'fail') $('#chip').textContent = 'Could not save: you are offline';
});
</script></body></html>"##;

fn subtask(goal: &str, criterion: &str) -> serde_json::Value {
    json!({
        "goal": goal,
        "inputs": {"language": "Deutsch"},
        "verification": [criterion],
        "max_actions": 6
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stored_value_holds_whether_the_page_saves_itself_or_is_saved() {
    for mode in ["store", "button"] {
        for criterion in ["Language = Deutsch", "Language: Deutsch"] {
            let ran = run_html(
                &PAGE.replace("MODE", mode),
                subtask("Change the interface language to German", criterion),
            )
            .await;
            assert_record(&ran, "prefs: language=Deutsch; size=Medium").await;
            assert_eq!(
                ran.result.status,
                TerminalKind::SubtaskComplete,
                "{mode}/{criterion}: {:?} {:?}",
                ran.result.reason,
                ran.actions()
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_value_the_page_did_not_store_is_not_done() {
    let cases = [
        ("fail", "Change the interface language to German"),
        (
            "button",
            "Pick German as the language but do not save it yet",
        ),
    ];
    for (mode, goal) in cases {
        for criterion in ["Language = Deutsch", "Language: Deutsch"] {
            let ran = run_html(&PAGE.replace("MODE", mode), subtask(goal, criterion)).await;
            assert_record(&ran, "prefs: language=English; size=Medium").await;
            assert_ne!(
                ran.result.status,
                TerminalKind::SubtaskComplete,
                "{mode}/{criterion}: {:?} {:?}",
                ran.result.reason,
                ran.actions()
            );
        }
    }
}
