//! "Create a new recipe …" on an editor that holds the open record: the page's "New
//! recipe" is pressed before anything is typed, so the existing record is kept and a new
//! one is made. Real Chromium; judged by the page's own record.

use crate::reflex_acknowledged::RECIPES;
use crate::reflex_browser::{assert_complete, run_html};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_new_record_starts_at_the_pages_new_control_and_the_open_one_is_kept() {
    let ran = run_html(
        RECIPES,
        json!({
            "goal": "Create a new recipe named 'Pancakes' with the ingredients 'flour, milk, eggs' and save it",
            "inputs": {"name": "Pancakes", "ingredients": "flour, milk, eggs"},
            "verification": ["Recipe saved"],
            "max_actions": 8
        }),
    )
    .await;
    assert_eq!(
        ran.record().await,
        "Omelette=eggs, butter | Pancakes=flour, milk, eggs",
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_eq!(ran.actions()[0], "CLICK New recipe", "{:?}", ran.actions());
    assert_complete(&ran);
}
