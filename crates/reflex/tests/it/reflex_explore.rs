//! The reflex looking for a target the page does not show, in real headless Chromium:
//! behind an unselected tab, inside nested collapsed tree items, or nowhere. Each page
//! keeps its own record of clicks (`window.__events`); the assertions read it, never the
//! runtime's claim.

use crate::reflex_browser::{run_html, Ran};
use arc_core::TerminalKind;
use serde_json::{json, Value};

/// Tabs whose hidden panels hold links; the selected tab's panel alone is shown.
const TABS: &str = r##"<!doctype html><html><head><title>Tabs</title></head><body>
<script>window.__events = [];</script>
<div role="tablist">
  <button role="tab" id="t1" aria-selected="true" aria-expanded="true" aria-controls="p1">Overview</button>
  <button role="tab" id="t2" aria-selected="false" aria-expanded="false" aria-controls="p2">Archive</button>
  <button role="tab" id="t3" aria-selected="false" aria-expanded="false" aria-controls="p3">Reports</button>
</div>
<div role="tabpanel" id="p1">Welcome back. <a href="#" class="rec">Start here</a></div>
<div role="tabpanel" id="p2" hidden>Older items: <a href="#" class="rec">Annual summary</a></div>
<div role="tabpanel" id="p3" hidden>Latest: <a href="#" class="rec">Quarterly report</a>
  and <a href="#" class="rec">Weekly digest</a></div>
<script>
document.querySelectorAll('[role=tab]').forEach(t => t.addEventListener('click', () => {
  window.__events.push('tab:' + t.textContent);
  document.querySelectorAll('[role=tab]').forEach(o => {
    const on = o === t;
    o.setAttribute('aria-selected', on);
    o.setAttribute('aria-expanded', on);
    document.getElementById(o.getAttribute('aria-controls')).hidden = !on;
  });
}));
document.querySelectorAll('a.rec').forEach(a => a.addEventListener('click', e => {
  e.preventDefault();
  window.__events.push('link:' + a.textContent);
}));
</script></body></html>"##;

/// A tree of folders, all collapsed; the file sits two folders deep.
const TREE: &str = r##"<!doctype html><html><head><title>Files</title></head><body>
<script>window.__events = [];</script>
<ul role="tree">
  <li role="treeitem" aria-expanded="false" aria-selected="false" aria-labelledby="l-docs">
    <span id="l-docs">Documents</span>
    <ul role="group" hidden>
      <li role="treeitem" aria-expanded="false" aria-selected="false" aria-labelledby="l-fin">
        <span id="l-fin">Finance</span>
        <ul role="group" hidden>
          <li role="treeitem" aria-selected="false" aria-labelledby="l-bud"><span id="l-bud">Budget.xlsx</span></li>
          <li role="treeitem" aria-selected="false" aria-labelledby="l-tax"><span id="l-tax">Taxes.pdf</span></li>
        </ul>
      </li>
      <li role="treeitem" aria-selected="false" aria-labelledby="l-cv"><span id="l-cv">Resume.doc</span></li>
    </ul>
  </li>
  <li role="treeitem" aria-expanded="false" aria-selected="false" aria-labelledby="l-pho">
    <span id="l-pho">Photos</span>
    <ul role="group" hidden>
      <li role="treeitem" aria-selected="false" aria-labelledby="l-sum"><span id="l-sum">Summer.jpg</span></li>
    </ul>
  </li>
</ul>
<script>
document.querySelectorAll('[role=treeitem]').forEach(li => li.addEventListener('click', e => {
  if (e.target.closest('[role=treeitem]') !== li) return;
  const name = li.querySelector('span').textContent;
  const group = li.querySelector(':scope > [role=group]');
  if (group) {
    window.__events.push('expand:' + name);
    group.hidden = false;
    li.setAttribute('aria-expanded', 'true');
  } else {
    window.__events.push('open:' + name);
    document.querySelectorAll('[role=treeitem]').forEach(o => o.setAttribute('aria-selected', o === li));
  }
}));
</script></body></html>"##;

/// Fifteen collapsed sections, none holding the target.
const SECTIONS: &str = r##"<!doctype html><html><head><title>Sections</title></head><body>
<script>window.__events = [];</script>
<div id="list"></div>
<script>
const list = document.getElementById('list');
for (let i = 1; i <= 15; i++) {
  const b = document.createElement('button');
  b.textContent = 'Section ' + i;
  b.setAttribute('aria-expanded', 'false');
  const body = document.createElement('p');
  body.textContent = 'Body of section ' + i;
  body.hidden = true;
  b.addEventListener('click', () => {
    window.__events.push('open:' + b.textContent);
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', open);
    body.hidden = !open;
  });
  list.append(b, body);
}
</script></body></html>"##;

/// The page's own record of clicks.
async fn clicks(ran: &Ran) -> Vec<String> {
    serde_json::from_value(ran.eval("window.__events").await).expect("a list of strings")
}

/// The reflex's step tag and target of each action, in order.
fn steps(ran: &Ran) -> Vec<String> {
    ran.result
        .history
        .iter()
        .map(|r| {
            let step = r
                .decision
                .raw
                .as_ref()
                .and_then(|v| v.pointer("/reflex/step"))
                .and_then(Value::as_str)
                .unwrap_or("?");
            format!("{step} {}", r.target_name.as_deref().unwrap_or(""))
        })
        .collect()
}

fn no_repeats(events: &[String]) {
    for (k, e) in events.iter().enumerate() {
        assert!(!events[..k].contains(e), "{e} happened twice: {events:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn switches_tabs_until_the_link_shows_and_clicks_it() {
    let ran = run_html(
        TABS,
        json!({
            "goal": "Click on the link \"Quarterly report\".",
            "verification": ["the \"Quarterly report\" link has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}\nsteps: {:?}\nevents: {events:?}",
        ran.result.reason,
        steps(&ran)
    );
    // The tab sharing a word with the goal first ("Reports" for "Quarterly report"):
    // Archive, before it in document order, is never opened.
    assert_eq!(events, vec!["tab:Reports", "link:Quarterly report"]);
    assert_eq!(
        steps(&ran),
        vec!["explore Reports", "click Quarterly report"]
    );
    let explore = &ran.result.history[0].decision;
    assert_eq!(explore.confidence, Some(0.6));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_visible_target_is_clicked_without_exploring() {
    let ran = run_html(
        TABS,
        json!({
            "goal": "Click on the link \"Start here\".",
            "verification": ["the \"Start here\" link has been clicked"]
        }),
    )
    .await;
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
    assert_eq!(clicks(&ran).await, vec!["link:Start here"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn expands_nested_folders_breadth_first_until_the_file_shows() {
    let ran = run_html(
        TREE,
        json!({
            "goal": "Find and click on the file named \"Budget.xlsx\".",
            "verification": ["\"Budget.xlsx\" has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}\nsteps: {:?}\nevents: {events:?}",
        ran.result.reason,
        steps(&ran)
    );
    // The top level first (Documents, Photos), then one level down (Finance).
    assert_eq!(
        events,
        vec![
            "expand:Documents",
            "expand:Photos",
            "expand:Finance",
            "open:Budget.xlsx"
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_target_that_is_nowhere_needs_an_agent_after_opening_each_place_once() {
    let ran = run_html(
        TREE,
        json!({
            "goal": "Click on the file named \"Invoice.pdf\".",
            "verification": ["\"Invoice.pdf\" has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.result.reason
    );
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(
        reason.contains("no element matches \"Invoice.pdf\"") && reason.contains("opening 3"),
        "{reason}"
    );
    no_repeats(&events);
    assert_eq!(
        events,
        vec!["expand:Documents", "expand:Photos", "expand:Finance"]
    );

    // Tabs: every other tab once; the first one's panel was seen, so it is not reopened.
    let ran = run_html(
        TABS,
        json!({
            "goal": "Click on the link \"Monthly figures\".",
            "verification": ["the \"Monthly figures\" link has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    no_repeats(&events);
    assert_eq!(events, vec!["tab:Archive", "tab:Reports"]);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("opening 2"), "{reason}");
}

#[tokio::test(flavor = "multi_thread")]
async fn exploration_stops_at_its_bound() {
    let ran = run_html(
        SECTIONS,
        json!({
            "goal": "Click the \"Appendix\" link.",
            "verification": ["the \"Appendix\" link has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(
        reason.contains("bound of 12") && reason.contains("\"Appendix\""),
        "{reason}"
    );
    no_repeats(&events);
    assert_eq!(events.len(), 12, "{events:?}");
    assert_eq!(events[0], "open:Section 1");
}

/// A menu behind a "Menu" button; its "Media" item holds a submenu (a `role=menu` list
/// right after its label, not rendered, no aria-expanded) that opens 300 ms after the
/// pointer enters the item and closes when it leaves, never on a click.
const TIMED_SUBMENU: &str = r##"<!doctype html><html><head><title>Menu</title>
<style>
ul { list-style: none; margin: 0; padding: 0; width: 8rem; background: #eee; cursor: pointer; }
li { position: relative; padding: 2px; }
#sub { position: absolute; left: 8rem; top: 0; display: none; }
</style></head><body>
<script>window.__events = [];</script>
<button id="open">Menu</button>
<ul role="menu" id="menu" style="display: none">
  <li><div role="menuitem">Save</div></li>
  <li id="media"><div role="menuitem">Media</div>
    <ul role="menu" id="sub">
      <li><div role="menuitem">Rewind</div></li>
      <li><div role="menuitem">Pause</div></li>
    </ul>
  </li>
  <li><div role="menuitem">Print</div></li>
</ul>
<script>
document.getElementById('open').addEventListener('click', () => {
  window.__events.push('open:Menu');
  const m = document.getElementById('menu');
  m.style.display = m.style.display === 'none' ? 'block' : 'none';
});
const media = document.getElementById('media');
let timer = null;
media.addEventListener('mouseenter', () => {
  timer = setTimeout(() => { document.getElementById('sub').style.display = 'block'; }, 300);
});
media.addEventListener('mouseleave', () => {
  clearTimeout(timer);
  document.getElementById('sub').style.display = 'none';
});
document.querySelectorAll('[role=menuitem]').forEach(i => i.addEventListener('click', (e) => {
  e.stopPropagation();
  window.__events.push('item:' + i.textContent);
}));
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_submenu_that_opens_on_a_timer_is_waited_for_and_its_item_clicked() {
    let ran = run_html(
        TIMED_SUBMENU,
        json!({
            "goal": "Click the \"Menu\" button, and then find and click on the item labeled \"Rewind\".",
            "verification": ["the \"Rewind\" item has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(
        events,
        vec!["open:Menu", "item:Media", "item:Rewind"],
        "{:?}",
        ran.result.reason
    );
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
}

/// A file tree drawn as jQuery's treeview draws it: each row a list item holding a toggle
/// icon, its name in a span, and its (hidden) child list; the whole tree listens for
/// clicks. "Empty" is a folder with no children, so nothing states it closed and its name
/// is plain text inside its row; the file row after it is no row of its.
const TOGGLE_TREE: &str = r##"<!doctype html><html><head><title>Files</title>
<style>
ul { list-style: none; padding-left: 16px; cursor: pointer; }
.hit { display: inline-block; width: 12px; height: 12px;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12' height='12'%3E%3Crect width='12' height='12' fill='%23888'/%3E%3C/svg%3E"); }
</style></head><body>
<script>window.__events = [];</script>
<ul id="tree">
  <li><div class="hit"></div><span>Archive</span>
    <ul style="display: none">
      <li><div class="hit"></div><span>Empty</span><ul></ul></li>
      <li><span>notes.txt</span></li>
    </ul>
  </li>
  <li><span>readme.md</span></li>
</ul>
<script>
document.getElementById('tree').addEventListener('click', (e) => {
  const li = e.target.closest('li');
  window.__events.push(li.querySelector(':scope > span').textContent);
  const sub = li.querySelector(':scope > ul');
  if (sub) sub.style.display = sub.style.display === 'none' ? 'block' : 'none';
});
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_row_whose_name_is_plain_text_beside_its_toggle_is_clicked_as_the_row() {
    let ran = run_html(
        TOGGLE_TREE,
        json!({
            "goal": "Find and click on the folder or file named \"Empty\".",
            "verification": ["\"Empty\" has been clicked"]
        }),
    )
    .await;
    let events = clicks(&ran).await;
    assert_eq!(events, vec!["Archive", "Empty"], "{:?}", ran.result.reason);
    assert_eq!(ran.result.status, TerminalKind::SubtaskComplete);
}
