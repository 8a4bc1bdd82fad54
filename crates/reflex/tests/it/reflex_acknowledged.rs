//! An outcome the page acknowledges in its own words: every step done, the page answers
//! the run's press with new text, and what the press brought says every word of the
//! planner's sentence. Never on text that was there before the press, a fault, a
//! question, a next step, a draft, or a negated sentence. Real Chromium; judged by the
//! page's own record (`#record`), never by the runtime's claim.

use crate::reflex_browser::{assert_complete, run_html};
use arc_core::TerminalKind;
use serde_json::json;

/// A rental desk: the answer to "Rent bike" depends on the stock; the record is what was
/// rented. The page names an electric bike it does not rent, and its button has a
/// question behind it when the customer already has a rental.
const RENTAL: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Rentals</title></head><body>
<h1>Bike rentals</h1>
<p>Electric bikes return next spring.</p>
<form id="f">
<label>Customer <input id="name"></label>
<label>Bike <select id="bike"><option>City</option><option>Mountain</option><option>Tandem</option></select></label>
<label>Hours <input id="hours" type="number"></label>
<button type="submit">Rent bike</button>
</form>
<div id="answer" role="status"></div>
<p id="record" hidden>none</p>
<script>
const stock = { City: 4, Mountain: 2, Tandem: 0 };
document.getElementById('f').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const name = document.getElementById('name').value;
  const bike = document.getElementById('bike').value;
  const hours = document.getElementById('hours').value;
  const answer = document.getElementById('answer');
  if (name === 'Ida Wells') {
    answer.textContent = 'Ida Wells already has a bike out. Rent a second one?';
    return;
  }
  if (!stock[bike]) {
    answer.textContent = 'Sorry, every ' + bike + ' bike is out right now.';
    return;
  }
  answer.textContent = bike === 'Mountain'
    ? 'Rented: ' + bike + ' bike to ' + name + ' for ' + hours + ' hours.'
    : 'Thanks, ' + name + '! Enjoy the ride.';
  document.getElementById('record').textContent = bike + ' for ' + name + ', ' + hours + 'h';
});
</script></body></html>"##;

async fn rent(who: &str, bike: &str, criterion: &str) -> crate::reflex_run::Ran {
    run_html(
        RENTAL,
        json!({
            "goal": "Fill in the rental form and rent the bike",
            "inputs": {"customer": who, "bike": bike, "hours": "3"},
            "verification": [criterion],
            "max_actions": 8
        }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outcome_in_other_words_holds_on_the_pages_answer_with_its_evidence() {
    let ran = rent(
        "Rosa Parks",
        "Mountain",
        "A mountain bike has been rented to Rosa Parks for 3 hours",
    )
    .await;
    assert_eq!(ran.record().await, "Mountain for Rosa Parks, 3h");
    assert_complete(&ran);
    let v = &ran.result.verification[0];
    assert!(v.holds, "{v:?}");
    assert!(v.check.contains("acknowledged"), "{v:?}");
    assert!(v.evidence.text.contains("Rented: Mountain bike"), "{v:?}");
    assert!(!v.evidence.elements.is_empty(), "{v:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fault_a_question_or_words_said_only_before_the_press_are_no_acknowledgement() {
    for (who, bike, criterion, record) in [
        // The page refuses: its answer says why.
        (
            "Rosa Parks",
            "Tandem",
            "A tandem bike has been rented to Rosa Parks",
            "none",
        ),
        // The page asks before it rents.
        (
            "Ida Wells",
            "City",
            "A city bike has been rented to Ida Wells",
            "none",
        ),
        // Rented, but not what the sentence says: "electric" is only in the page's old text.
        (
            "Rosa Parks",
            "City",
            "An electric bike has been rented to Rosa Parks",
            "City for Rosa Parks, 3h",
        ),
        // Rented, but the answer never says so: the pressed "Rent bike" only asked.
        (
            "Rosa Parks",
            "City",
            "A city bike has been rented to Rosa Parks",
            "City for Rosa Parks, 3h",
        ),
        // A negated sentence is checked, never acknowledged.
        (
            "Rosa Parks",
            "City",
            "No bike is rented to Ida Wells",
            "City for Rosa Parks, 3h",
        ),
    ] {
        let ran = rent(who, bike, criterion).await;
        assert_eq!(ran.record().await, record, "{criterion}");
        assert_ne!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.result.verification
        );
    }
}

/// A draft is never acknowledged: the run that only typed made no press for the page to
/// answer.
#[tokio::test(flavor = "multi_thread")]
async fn a_draft_is_never_acknowledged() {
    let ran = run_html(
        RENTAL,
        json!({
            "goal": "Type the customer's name into the rental form without submitting it",
            "inputs": {"customer": "Rosa Parks"},
            "verification": ["A bike has been rented to Rosa Parks"],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(ran.record().await, "none");
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
}

/// A terse "field = value" is said whole by the fields the commit sent: held once the
/// page answered the commit without a fault, and never when it refused it.
#[tokio::test(flavor = "multi_thread")]
async fn the_fields_a_commit_sent_say_a_terse_value_the_page_took() {
    let ran = rent("Rosa Parks", "City", "Hours = 3").await;
    assert_eq!(ran.record().await, "City for Rosa Parks, 3h");
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        ran.result.reason,
        ran.result.verification
    );
    let refused = rent("Rosa Parks", "Tandem", "Hours = 3").await;
    assert_eq!(refused.record().await, "none");
    assert_ne!(refused.result.status, TerminalKind::SubtaskComplete);
}

/// A story editor: "Save" says "Saved" 300 ms later; "Publish" only says it is working,
/// and the record never says published.
const STORY: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Stories</title></head><body>
<label>Story <textarea id="story"></textarea></label>
<button type="button" id="save">Save</button> <button type="button" id="publish">Publish</button>
<p id="status" role="status"></p><p id="work"></p>
<p id="record" hidden>nothing</p>
<script>
const $ = (s) => document.getElementById(s);
$('save').onclick = () => {
  $('record').textContent = 'saved';
  setTimeout(() => { $('status').textContent = 'Saved'; }, 300);
};
$('publish').onclick = () => { $('work').textContent = 'Publishing'; };
</script></body></html>"##;

/// Whatever the run presses, it never says done while the record says otherwise: the
/// "Saved" that answers the save shows only after the run pressed "Publish", and is no
/// answer to that press, though with the field it acknowledges every word of "Story =
/// …".
#[tokio::test(flavor = "multi_thread")]
async fn an_answer_to_an_earlier_press_is_no_answer_to_the_last() {
    let ran = run_html(
        STORY,
        json!({
            "goal": "Write the story, save it, then publish it",
            "inputs": {"story": "Once upon a time"},
            "verification": ["Story = Once upon a time"],
            "allowed_risks": ["send"],
            "max_actions": 8
        }),
    )
    .await;
    let record = ran.record().await;
    assert_eq!(
        ran.actions()[..3],
        ["TYPE_TEXT Story", "CLICK Save", "CLICK Publish"],
        "{:?}",
        ran.actions()
    );
    assert_eq!(record, "saved");
    assert_ne!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.verification
    );
}
