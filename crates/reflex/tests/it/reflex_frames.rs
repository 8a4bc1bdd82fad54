//! The reflex on forms the page's own script cannot reach — a coupon form in a frame of
//! another site (its own renderer) and a gift-card form in a closed shadow root
//! (`fixtures/site/frames/checkout.html`) — chained on one page as a planner chains them.
//! Judged by the page's own record (`window.__record`).

use crate::reflex_run::{assert_complete, run};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_form_in_a_cross_site_frame_then_one_in_a_closed_shadow_root() {
    let ran = run(
        "frames/checkout.html",
        json!({
            "goal": "Apply the coupon SAVE10",
            "inputs": {"coupon": "SAVE10"},
            "verification": ["The page shows 'Coupon SAVE10 applied'"],
            "max_actions": 4
        }),
    )
    .await;
    assert_complete(&ran);
    let ran = ran
        .then(json!({
            "goal": "Redeem the gift card GC-42",
            "inputs": {"card": "GC-42"},
            "verification": ["The page shows 'Gift card GC-42 redeemed'"],
            "max_actions": 4
        }))
        .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__record)").await,
        r#"[{"form":"coupon","value":"SAVE10","trusted":true},{"form":"gift card","value":"GC-42","trusted":true}]"#,
        "actions: {:?}",
        ran.actions()
    );
}
