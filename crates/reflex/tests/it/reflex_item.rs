//! A control inside one item of a list (`reflex/item.rs`), in headless Chromium: the goal's
//! words pick the item, and an item no row shows is never guessed.

use crate::reflex_browser::{run_html, Ran};
use arc_core::TerminalKind;
use serde_json::json;

/// Three rows with the same two icon controls (CSS-drawn, named only by class); the second
/// row's subject mentions the third row's sender. Presses go to `window.__log`.
const ROWS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Mail</title>
<style>
.row { display: flex; gap: 12px; border-bottom: 1px solid #ccc; width: 380px; padding: 4px; }
.ico { display: inline-block; width: 14px; height: 14px; cursor: pointer;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='14' height='14'%3E%3Crect width='14' height='14' fill='%23888'/%3E%3C/svg%3E"); }
</style></head><body>
<div id="list"></div>
<script>
window.__log = [];
for (const [who, what] of [['Ada', 'Lunch'], ['Bo', 'Re: Cy'], ['Cy', 'Plans']]) {
  const row = document.createElement('div');
  row.className = 'row';
  row.innerHTML = '<div><div class="who"></div><div class="what"></div></div>' +
    '<span class="ico archive"></span><span class="ico pin"></span>';
  row.querySelector('.who').textContent = who;
  row.querySelector('.what').textContent = what;
  for (const s of row.querySelectorAll('.ico')) {
    s.addEventListener('click', () => window.__log.push(s.classList[1] + ':' + who));
  }
  document.getElementById('list').appendChild(row);
}
</script></body></html>"##;

async fn log(ran: &Ran) -> Vec<String> {
    serde_json::from_value(ran.eval("window.__log").await).expect("a list of strings")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_item_named_by_its_own_line_is_picked_over_one_that_mentions_it() {
    let ran = run_html(
        ROWS,
        json!({
            "goal": "Find the message by Cy and click the pin icon",
            "verification": [{"check": "clicked", "element": "pin", "within": {"text": "Cy"}}]
        }),
    )
    .await;
    assert_eq!(log(&ran).await, vec!["pin:Cy"], "{:?}", ran.result.reason);
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_item_no_row_shows_is_handed_back_and_nothing_is_pressed() {
    let ran = run_html(
        ROWS,
        json!({
            "goal": "Find the message by Dee and click the pin icon",
            "verification": [{"check": "clicked", "element": "pin", "within": {"text": "Dee"}}]
        }),
    )
    .await;
    assert_eq!(log(&ran).await, Vec::<String>::new());
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("dee"), "{reason}");
}

/// Three rows, each with a "more" icon whose menu (a list right after it) is hidden until
/// it is pressed; Bo's menu is open when the page loads. Presses go to `window.__log`.
const MENUS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Feed</title>
<style>
.row { position: relative; border-bottom: 1px solid #ccc; width: 380px; padding: 4px; }
.more { display: inline-block; width: 14px; height: 14px; cursor: pointer;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='14' height='14'%3E%3Ccircle cx='7' cy='7' r='3' fill='%23888'/%3E%3C/svg%3E"); }
.menu { list-style: none; margin: 0; padding: 0; }
.menu li { cursor: pointer; }
.hide { display: none; }
</style></head><body>
<div id="list"></div>
<script>
window.__log = [];
for (const who of ['Ada', 'Bo', 'Cy']) {
  const row = document.createElement('div');
  row.className = 'row';
  row.innerHTML = '<div class="who"></div><span class="more"></span>' +
    '<ul class="menu hide"><li class="copy">Copy link</li><li class="mute">Mute</li></ul>';
  row.querySelector('.who').textContent = who;
  const menu = row.querySelector('.menu');
  row.querySelector('.more').addEventListener('click', () => {
    for (const m of document.querySelectorAll('.menu')) if (m !== menu) m.classList.add('hide');
    menu.classList.toggle('hide');
  });
  for (const li of menu.querySelectorAll('li')) {
    li.addEventListener('click', () => window.__log.push(li.className + ':' + who));
  }
  if (who === 'Bo') menu.classList.remove('hide');
  document.getElementById('list').appendChild(row);
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn one_open_menu_among_rows_is_not_taken_for_the_named_rows_item() {
    // The only "Copy link" on the page is Bo's: the page itself shows "Ada", but it is no
    // item of hers.
    let ran = run_html(
        MENUS,
        json!({
            "goal": "For the user Ada, click on the \"Copy link\" button",
            "verification": [{"check": "clicked", "element": "Copy link", "role": "button", "within": {"text": "Ada"}}]
        }),
    )
    .await;
    // The one open menu is Bo's: Ada's own is opened, and its item pressed.
    assert_eq!(log(&ran).await, vec!["copy:Ada"], "{:?}", ran.result.reason);
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
}

/// A feed whose rows' "more" menus are drawn over the rows below (absolute, on top) and
/// whose items show a pointer only while the row's controls are hovered; the items repeat
/// the row's handle ("Mute @cy"), and two rows are by the same user. Presses go to
/// `window.__log` as "<item>:<handle>".
const HOVER_MENUS: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Feed</title>
<style>
.row { position: relative; border: 1px solid #ddd; width: 220px; height: 56px; padding: 4px; }
.controls { position: absolute; bottom: 2px; right: 8px; }
.wrap:hover { cursor: pointer; }
.more { display: inline-block; width: 14px; height: 14px;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='14' height='14'%3E%3Ccircle cx='7' cy='7' r='3' fill='%23888'/%3E%3C/svg%3E"); }
.menu { position: absolute; right: 0; list-style: none; margin: 0; padding: 0; background: #fff;
  border: 1px solid #aaa; z-index: 9; width: 120px; }
.menu li { padding: 3px; }
.hide { display: none; }
</style></head><body>
<div id="list"></div>
<script>
window.__log = [];
for (const [who, handle] of [['Ada', '@ada'], ['Bo', '@bo'], ['Cy', '@cy'], ['Bea', '@bo'], ['Eve', '@eve']]) {
  const row = document.createElement('div');
  row.className = 'row';
  row.innerHTML = '<div class="who"></div><div>A post.</div><div class="controls"><span class="wrap">' +
    '<span class="more"></span><ul class="menu hide"><li class="share">Share</li>' +
    '<li class="mute">Mute ' + handle + '</li><li class="report">Report</li></ul></span></div>';
  row.querySelector('.who').textContent = who + ' ' + handle;
  const menu = row.querySelector('.menu');
  row.querySelector('.more').addEventListener('click', () => {
    for (const m of document.querySelectorAll('.menu')) if (m !== menu) m.classList.add('hide');
    menu.classList.toggle('hide');
  });
  for (const li of menu.querySelectorAll('li')) {
    li.addEventListener('click', () => window.__log.push(li.className + ':' + handle));
  }
  document.getElementById('list').appendChild(row);
}
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_rows_hidden_menu_item_is_pressed_in_that_rows_menu() {
    for (user, item, want) in [("@cy", "Mute", "mute:@cy"), ("@bo", "Report", "report:@bo")] {
        let ran = run_html(
            HOVER_MENUS,
            json!({
                "goal": format!("For the user {user}, click on the \"{item}\" button."),
                "verification": [{"check": "clicked", "element": item, "role": "button", "within": {"text": user}}]
            }),
        )
        .await;
        assert_eq!(log(&ran).await, vec![want], "{:?}", ran.result.reason);
        assert_eq!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{:?}",
            ran.result.reason
        );
    }
}

/// One card per page behind a pager of symbols ("<", ">", each item listening around its
/// link): the run turns pages with ">" until the named card shows, presses its email (an
/// address built from the name is not the card's title), and completes on that press.
#[tokio::test(flavor = "multi_thread")]
async fn a_card_behind_a_symbol_pager_is_paged_to_and_its_link_pressed() {
    let ran = crate::reflex_browser::run(
        "contact-card.html",
        json!({
            "goal": "Find Greta in the contact book and click on their address",
            "verification": [{"check": "clicked", "element": "address", "within": {"text": "Greta"}}]
        }),
    )
    .await;
    crate::reflex_browser::assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        "page:2 page:3 address:Greta",
        "actions: {:?}",
        ran.actions()
    );
}
