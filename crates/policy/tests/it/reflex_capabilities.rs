//! Generic capabilities of the reflex on pages of our own (issue 13's c, e, h), in real
//! headless Chromium; each outcome is read from the page's own record.

use crate::reflex_browser::{assert_complete, run};
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
