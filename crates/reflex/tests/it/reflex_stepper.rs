//! A count between "−" and "+" takes a numeric input no field holds: the run presses
//! the button toward the literal, reading the count again after each press, on the line
//! the goal names. A "+" that moves nothing is not pressed on and on. Real Chromium;
//! judged by the page's own record.

use crate::reflex_browser::run_html;
use crate::reflex_run::assert_record;
use serde_json::json;

const CART: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Cart</title></head><body>
<div id="lines"></div><p id="record" hidden></p>
<script>
const lines = [{n: 'Paper cup', q: 1}, {n: 'Glass jar', q: 2}];
function render() {
  const root = document.getElementById('lines'); root.innerHTML = '';
  for (const l of lines) {
    const d = document.createElement('div');
    d.innerHTML = `<span>${l.n}</span><button aria-label="Decrease quantity of ${l.n}">−</button><span aria-label="Quantity of ${l.n}">${l.q}</span><button aria-label="Increase quantity of ${l.n}">+</button>`;
    d.querySelector('[aria-label^=Decrease]').onclick = () => { if (l.q > 0) l.q--; render(); };
    d.querySelector('[aria-label^=Increase]').onclick = () => { if (STEP) l.q++; render(); };
    root.append(d);
  }
  document.getElementById('record').textContent = lines.map((l) => l.n + ' x' + l.q).join(', ');
}
render();
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_count_is_stepped_to_the_literal_on_the_line_the_goal_names() {
    let ran = run_html(
        &CART.replace("STEP", "true"),
        json!({
            "goal": "Change the quantity of the paper cup to 3",
            "inputs": {"quantity": 3},
            "verification": ["The quantity of Paper cup shows 3"],
            "max_actions": 5
        }),
    )
    .await;
    assert_record(&ran, "Paper cup x3, Glass jar x2").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plus_that_moves_nothing_is_not_pressed_on() {
    let ran = run_html(
        &CART.replace("STEP", "false"),
        json!({
            "goal": "Change the quantity of the glass jar to 4",
            "inputs": {"quantity": 4},
            "verification": ["The quantity of Glass jar shows 4"],
            "max_actions": 8
        }),
    )
    .await;
    assert_record(&ran, "Paper cup x1, Glass jar x2").await;
    assert_ne!(ran.result.status, arc_core::TerminalKind::SubtaskComplete);
    assert!(ran.actions().len() <= 2, "{:?}", ran.actions());
}
