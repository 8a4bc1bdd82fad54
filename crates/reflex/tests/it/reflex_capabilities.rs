//! Generic capabilities of the reflex on pages of our own (issue 13's c, e, h), in real
//! headless Chromium; each outcome is read from the page's own record.

use crate::reflex_browser::{assert_complete, run};
use arc_core::TerminalKind;
use serde_json::json;

/// c. Two custom dropdowns drawn over the next field: a role=listbox that closes on pick,
/// and a list of plain clickable divs that stays open until its button is pressed again.
#[tokio::test(flavor = "multi_thread")]
async fn picks_in_custom_dropdowns_and_closes_a_list_a_pick_left_open() {
    let ran = run(
        "custom-dropdown.html",
        json!({
            "goal": "Fill in the shipping address: full name, country, city, delivery and delivery notes, then save the address",
            "inputs": {"full_name": "Ada Lovelace", "country": "Canada", "city": "Toronto",
                       "delivery": "Express", "delivery_notes": "Leave at the door"},
            "verification": ["The page shows \"Address saved for Ada Lovelace\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__submitted)").await,
        "[{\"fullname\":\"Ada Lovelace\",\"country\":\"Canada\",\"city\":\"Toronto\",\"speed\":\"Express\",\"notes\":\"Leave at the door\"}]"
    );
    // The delivery list was closed by its own button (opened, then closed: two presses),
    // not by a click that landed on something else.
    assert_eq!(
        ran.eval("window.__events.filter(e => e.type === 'click' && e.target === 'speed' && e.isTrusted).length")
            .await,
        2,
        "actions: {:?}",
        ran.actions()
    );
    assert_eq!(
        ran.eval("document.getElementById('speed-list').hidden")
            .await,
        true
    );
}

/// e. The goal names one row of 240 ("item 45", far below the fold; every row's field is
/// "Count for item N"): that row's field, found by scrolling, and no other.
#[tokio::test(flavor = "multi_thread")]
async fn sets_the_row_the_goal_names_far_below_the_fold() {
    let ran = run(
        "long-list.html",
        json!({
            "goal": "Set the count for item 45 to 9 and save the changes",
            "inputs": {"count": "9"},
            "verification": ["The page shows \"Saved 1 change(s)\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__submitted)").await,
        "[[\"item-45=9\"]]"
    );
    assert!(
        ran.eval("window.__events.filter(e => e.type === 'wheel').length")
            .await
            .as_u64()
            .unwrap_or(0)
            >= 1,
        "the row was reached by scrolling: {:?}",
        ran.actions()
    );
}

/// e. A row the list does not have: scrolling is bounded (it stops at the end of the
/// page) and the run hands back naming the row; no field was touched.
#[tokio::test(flavor = "multi_thread")]
async fn a_row_the_list_does_not_have_is_handed_back_after_scrolling_to_the_end() {
    let ran = run(
        "long-list.html",
        json!({
            "goal": "Set the count for item 999 to 9 and save the changes",
            "inputs": {"count": "9"},
            "verification": ["The page shows \"Saved 1 change(s)\""]
        }),
    )
    .await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.actions()
    );
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("\"999\""), "{reason}");
    assert_eq!(
        ran.eval("window.__events.filter(e => e.type === 'input').length")
            .await,
        0
    );
    assert_eq!(ran.eval("JSON.stringify(window.__submitted)").await, "[]");
}

/// h. Captions laid out beside their fields in another container (a column of captions
/// beside a column of fields; a row of captions over a row of fields), no <label>, no aria,
/// next to an ordinary labelled field.
#[tokio::test(flavor = "multi_thread")]
async fn grounds_fields_by_captions_laid_out_beside_or_above_them() {
    let ran = run(
        "grid-labels.html",
        json!({
            "goal": "Fill in the profile with the full name, email, company, city, postcode and website, then save the profile",
            "inputs": {"full_name": "Grace Hopper", "email": "grace@example.com", "company": "Navy",
                       "city": "Arlington", "postcode": "22201", "website": "grace.example.com"},
            "verification": ["The page shows \"Profile saved\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__submitted)").await,
        "[{\"name\":\"Grace Hopper\",\"email\":\"grace@example.com\",\"phone\":\"\",\"company\":\"Navy\",\"city\":\"Arlington\",\"postcode\":\"22201\",\"website\":\"grace.example.com\"}]"
    );
}

/// A search form whose year goes in a field captioned "Released Date" (a caption above
/// its field in another container), beside fields captioned by their own words; its
/// button says "Go!".
const RELEASE_FORM: &str = r##"<!doctype html><html><head><title>Films</title></head><body>
<script>window.__submitted = [];</script>
<div class="field"><div class="label">Genre</div><div><input id="g" type="text"></div></div>
<div class="field"><div class="label">Director</div><div><input id="d" type="text"></div></div>
<div class="field"><div class="label">Released Date</div><div><input id="y" type="text"></div></div>
<button id="go">Go!</button>
<script>
document.getElementById('go').addEventListener('click', () => {
  const v = (id) => document.getElementById(id).value;
  window.__submitted.push([v('g'), v('d'), v('y')].join('|'));
});
</script></body></html>"##;

/// A year names the one text field that holds a date when no field says "year", and the
/// search is committed by the form's lone "Go!".
#[tokio::test(flavor = "multi_thread")]
async fn a_year_goes_in_the_date_field_and_go_commits_the_search() {
    let ran = crate::reflex_browser::run_html(
        RELEASE_FORM,
        json!({
            "goal": "Search for drama movies directed by Harvey from year 2007.",
            "inputs": {"genre": "drama", "director": "Harvey", "year": "2007"},
            "verification": ["the genre field contains \"drama\"", "the director field contains \"Harvey\"",
                             "the year field contains \"2007\"", "the form has been submitted"]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__submitted)").await,
        "[\"drama|Harvey|2007\"]"
    );
}
