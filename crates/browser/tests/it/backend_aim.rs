//! Aiming: a control whose centre another one covers is clicked on a part of it that is
//! free (hit-tested like the centre); a control covered everywhere stays stale and nothing
//! is pressed. Checked through the page's own record (`window.__clicked`).

use crate::common;

use arc_core::{Action, BackendError, Subtask};
use common::{find, Fixture};
use serde_json::json;

fn task() -> Subtask {
    Subtask::new("Click One", "One was clicked")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_half_under_another_is_clicked_where_it_is_free() {
    let mut f = Fixture::open("overlap.html").await;
    let s = f.observe().await;
    let one = find(&s, "button", "One");
    f.act(&s, Action::click(one), &task()).await.unwrap();
    assert_eq!(f.eval("window.__clicked").await, json!(["one"]));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_covered_everywhere_is_stale_and_nothing_is_pressed() {
    let mut f = Fixture::open("overlap.html").await;
    let s = f.observe().await;
    let three = find(&s, "button", "Three");
    let err = f.act(&s, Action::click(three), &task()).await.unwrap_err();
    assert!(matches!(err, BackendError::Stale { .. }), "{err}");
    assert!(err.to_string().contains("covered"), "{err}");
    assert_eq!(f.eval("window.__clicked").await, json!([]));
    assert_eq!(
        f.eval("window.__events.filter(e => e.type === 'mousedown').length")
            .await,
        json!(0)
    );
}
