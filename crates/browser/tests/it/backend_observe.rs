//! What observation shows: pruned and coalesced text, frames, dialogs, new tabs, stable
//! ids, the budgeted view of a huge page; and that a changed target is never clicked.

use crate::common;

use arc_core::{Action, Backend, BackendError, ObservationScope, Role, Subtask};
use arc_view::{render, ViewOptions};
use common::{find, settled_true, Fixture};

fn task() -> Subtask {
    Subtask::new("g", "v")
}

#[tokio::test(flavor = "multi_thread")]
async fn per_glyph_text_coalesces_into_sentences_in_reading_order() {
    for (page, sentence) in [
        (
            "glyphs-en.html",
            "The quick brown fox jumps over the lazy dog.",
        ),
        ("glyphs-ar.html", "مرحبا بالعالم هذا نص تجريبي"),
        ("glyphs-zh.html", "你好世界这是一个测试句子"),
    ] {
        let mut f = Fixture::open(page).await;
        let s = f.observe().await;
        // The sentence the page itself holds, read from the DOM, not from our runtime.
        let expected = f
            .eval("document.querySelector('[data-text]').dataset.text")
            .await;
        assert_eq!(expected, sentence);
        let texts: Vec<&str> = s
            .elements
            .iter()
            .filter(|e| e.name == sentence)
            .map(|e| e.role.as_str())
            .collect();
        assert_eq!(
            texts.len(),
            1,
            "{page}: one element carries the whole sentence: {:#?}",
            s.elements
        );
        let single_glyphs = s
            .elements
            .iter()
            .filter(|e| e.name.chars().count() == 1)
            .count();
        assert_eq!(single_glyphs, 0, "{page}: no letter-per-line elements");
        assert!(
            s.elements.len() < 10,
            "{page}: {} elements",
            s.elements.len()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn iframe_elements_are_observed_and_clickable() {
    let mut f = Fixture::open("iframe.html").await;
    let s = f.observe().await;
    let inner = find(&s, "button", "Inner button");
    let frame = s
        .elements
        .iter()
        .find(|e| e.role == Role::Iframe)
        .expect("the iframe");
    let button = s.element(inner.as_str()).unwrap();
    let (fb, bb) = (frame.bounds.unwrap(), button.bounds.unwrap());
    assert!(
        bb.x >= fb.x && bb.y >= fb.y,
        "inner bounds are in the top viewport: {bb:?} inside {fb:?}"
    );
    f.act(&s, Action::click(inner), &task()).await.unwrap();
    let frame_click = "window.__events.some(e => e.type === 'click' && e.frame === true && e.target === 'inner-button' && e.isTrusted)";
    let landed = settled_true(&f, frame_click).await;
    let events = f.events().await;
    assert_eq!(landed, true, "{events:#?}");
    let s = f.observe().await;
    assert!(
        s.elements.iter().any(|e| e.name.contains("Inner clicked")),
        "{:#?}",
        s.elements
    );
}

/// Mutates the page between the loop's observation and its action, then gives up.
struct MutatingPolicy {
    page: arc_browser::PageSession,
    decided: u32,
}

#[async_trait::async_trait]
impl arc_core::Policy for MutatingPolicy {
    fn name(&self) -> &'static str {
        "mutating"
    }
    async fn decide(
        &mut self,
        ctx: arc_core::DecideContext<'_>,
    ) -> Result<arc_core::Decision, arc_core::PolicyError> {
        self.decided += 1;
        if self.decided > 1 {
            return Ok(arc_core::Decision::terminal(
                arc_core::TerminalKind::NeedsAgent,
            ));
        }
        let target = find(ctx.snapshot, "button", "Target");
        self.page.evaluate("window.__mutate()").await.unwrap();
        Ok(arc_core::Decision::act(Action::click(target)))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_target_changed_between_observe_and_act_is_stale_and_nothing_is_clicked() {
    let f = Fixture::open("mutate.html").await;
    let policy = MutatingPolicy {
        page: f.backend.page().clone(),
        decided: 0,
    };
    let Fixture { server, backend } = f;
    let mut ex = arc_core::Executor::new(backend, policy, arc_core::RuntimeConfig::default());
    let result = ex.run(&task()).await;
    assert_eq!(result.actions_taken, 0);
    assert!(
        result
            .observations
            .iter()
            .any(|o| o.contains("no longer matches its guard")),
        "{result:#?}"
    );
    let (backend, _) = ex.into_parts();
    let f = Fixture { server, backend };
    assert_eq!(
        f.eval("window.__clicks").await,
        0,
        "the changed target was never clicked"
    );
    assert_eq!(
        f.eval("window.__events.filter(e => e.type === 'mousedown').length")
            .await,
        0
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_target_that_flees_the_pointer_is_not_clicked() {
    let mut f = Fixture::open("mutate.html").await;
    let s = f.observe().await;
    // mutate.html moves the button away on mouseover: the hit test after the pointer
    // arrives catches it before any press.
    let err = f
        .act(&s, Action::click(find(&s, "button", "Target")), &task())
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::Stale { .. }), "{err}");
    assert_eq!(f.eval("window.__clicks").await, 0);
    let presses = f
        .eval("window.__events.filter(e => e.type === 'mousedown').length")
        .await;
    assert_eq!(presses, 0, "no button was pressed anywhere");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_id_never_rebinds_after_the_dom_re_renders() {
    let mut f = Fixture::open("events.html").await;
    let s1 = f.observe().await;
    let old = find(&s1, "button", "Click me");
    let heading = find(&s1, "heading", "Event oracle");
    // Replace the button with an identical new node, as a framework re-render does.
    f.eval("(b => b.replaceWith(b.cloneNode(true)))(document.getElementById('btn'))")
        .await;
    let s2 = f.observe().await;
    let new = find(&s2, "button", "Click me");
    assert_ne!(new, old, "a new element gets a new id");
    assert!(
        s2.element(old.as_str()).is_none(),
        "the old id is gone, not moved"
    );
    assert_eq!(
        find(&s2, "heading", "Event oracle"),
        heading,
        "an untouched element keeps its id"
    );
    // Acting on the old id is stale, and nothing is clicked.
    let exec = arc_core::ExecutableAction::materialize(&Action::click(old), &s1, &task()).unwrap();
    assert!(!f.backend.is_fresh(&s1, &exec).await.unwrap());
    assert!(f.backend.execute(&s1, &exec).await.is_err());
    assert_eq!(
        f.eval("window.__events.filter(e => e.type === 'click').length")
            .await,
        0
    );
    // Every id present in both snapshots still names the same element.
    for e in s2.elements.iter() {
        if let Some(before) = s1.element(e.id.as_str()) {
            assert_eq!(
                (&before.role, &before.name),
                (&e.role, &e.name),
                "{} rebound",
                e.id
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_confirm_dialog_appears_in_the_next_snapshot_and_can_be_answered() {
    let mut f = Fixture::open("confirm.html").await;
    let s = f.observe().await;
    f.act(
        &s,
        Action::click(find(&s, "button", "Delete item")),
        &task().with_risk(),
    )
    .await
    .unwrap();
    let d = f.observe().await;
    let dialog = d
        .elements
        .iter()
        .find(|e| e.role == Role::Dialog)
        .expect("the dialog in the snapshot");
    assert_eq!(dialog.name, "confirm: Really delete?");
    let ok = find(&d, "button", "OK");
    find(&d, "button", "Cancel");
    f.act(&d, Action::click(ok), &task()).await.unwrap();
    let s = f.observe().await;
    assert!(s.elements.iter().all(|e| e.role != Role::Dialog));
    assert_eq!(
        settled_true(&f, "document.body.innerText.includes('Deleted')").await,
        true
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_prompt_is_answered_with_the_planner_literal() {
    let mut f = Fixture::open("confirm.html").await;
    let s = f.observe().await;
    f.act(&s, Action::click(find(&s, "button", "Ask name")), &task())
        .await
        .unwrap();
    let d = f.observe().await;
    let field = d
        .elements
        .iter()
        .find(|e| e.role == Role::TextField)
        .expect("the prompt field")
        .id
        .clone();
    let t = task().with_input("name", "Ada");
    f.act(&d, Action::type_text(field, "name"), &t)
        .await
        .unwrap();
    let d = f.observe().await;
    f.act(&d, Action::click(find(&d, "button", "OK")), &t)
        .await
        .unwrap();
    assert_eq!(
        settled_true(&f, "document.body.innerText.includes('Hi Ada')").await,
        true
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_tab_appears_in_the_next_snapshot_and_can_be_switched_to() {
    let mut f = Fixture::open("newtab.html").await;
    let s = f.observe().await;
    f.act(&s, Action::click(find(&s, "link", "Open help")), &task())
        .await
        .unwrap();
    let mut tab = None;
    for _ in 0..200 {
        let s = f.observe().await;
        if let Some(t) = s
            .elements
            .iter()
            .find(|e| e.role == Role::Tab && e.name.contains("help.html"))
        {
            tab = Some((s.clone(), t.id.clone()));
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (s, tab) = tab.expect("the new tab shows up");
    f.act(&s, Action::click(tab), &task()).await.unwrap();
    let s = f.observe().await;
    find(&s, "heading", "Help center");
    assert_eq!(f.eval("location.pathname").await, "/help.html");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_5000_row_page_stays_within_budget_and_keeps_the_dialog() {
    // A deliberate full observation: all 25,000 elements, then the budget decides.
    let options = arc_browser::backend::BrowserOptions {
        scope: arc_browser::backend::Scope::Full,
        ..Default::default()
    };
    let mut f = Fixture::open_with("table.html", options).await;
    let s = f.observe().await;
    assert_eq!(s.facts.scope, Some(ObservationScope::Full));
    let rows = f.eval("document.querySelectorAll('tbody tr').length").await;
    assert_eq!(rows, 5000);
    let view = render(&s, &ViewOptions::default());
    assert!(view.tokens <= 1200, "{} tokens", view.tokens);
    assert_eq!(
        arc_view::count_tokens(&view.text),
        view.tokens,
        "the count is the real tokenizer's"
    );
    for control in ["Export", "Cancel"] {
        let id = find(&s, "button", control);
        assert!(
            view.text.contains(&format!("[{id}] button \"{control}\"")),
            "{control} kept"
        );
    }
    let include = find(&s, "checkbox", "Include headers");
    assert!(view.text.contains(&format!("[{include}]")));
    let dialog = s.elements.iter().find(|e| e.role == Role::Dialog).unwrap();
    assert!(view.text.contains(&format!("[{}] dialog", dialog.id)));
    let notice = view.notice.expect("a truncation notice");
    assert!(view.truncated);
    let evicted: Vec<&str> = notice
        .evicted_roles
        .iter()
        .map(|(r, _)| r.as_str())
        .collect();
    assert!(
        evicted.contains(&"row") && evicted.contains(&"cell"),
        "{evicted:?}"
    );
    assert!(
        notice.dropped_node_count > 15_000,
        "{}",
        notice.dropped_node_count
    );
    assert!(view.text.contains("# truncated"));
}

#[tokio::test(flavor = "multi_thread")]
async fn hidden_and_zero_size_elements_are_not_offered() {
    let mut f = Fixture::open("hidden.html").await;
    let s = f.observe().await;
    let visible: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| e.visible && !e.actions.is_empty())
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(visible, vec!["Visible action"]);
    for gone in ["Hidden action", "Invisible", "Aria hidden"] {
        assert!(
            s.elements.iter().all(|e| e.name != gone),
            "{gone} must not appear"
        );
    }
}

trait WithRisk {
    fn with_risk(self) -> Self;
}

impl WithRisk for Subtask {
    fn with_risk(mut self) -> Self {
        self.allowed_risks.insert(arc_core::Risk::Delete);
        self
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_launched_chromium_is_gone_after_the_backend_is_dropped() {
    let f = Fixture::open("signup.html").await;
    let chromium = f.backend.chromium().expect("launched by the backend");
    let (pgid, profile) = (
        chromium.pid(),
        chromium.user_data_dir().display().to_string(),
    );
    assert!(
        !common::leftovers_after(pgid, &profile, std::time::Duration::ZERO).is_empty(),
        "it was running"
    );
    drop(f);
    let left = common::leftovers_after(pgid, &profile, std::time::Duration::from_secs(5));
    assert!(left.is_empty(), "processes left behind: {left:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_panic_mid_run_leaves_no_browser_behind() {
    let f = Fixture::open("slow.html").await;
    let chromium = f.backend.chromium().unwrap();
    let (pgid, profile) = (
        chromium.pid(),
        chromium.user_data_dir().display().to_string(),
    );
    let Fixture {
        server: _server,
        backend,
    } = f;
    // A task that owns the backend and panics mid-run: unwinding drops it.
    let handle = tokio::spawn(async move {
        let _owned = backend;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        panic!("simulated crash mid-run");
    });
    assert!(handle.await.unwrap_err().is_panic());
    let left = common::leftovers_after(pgid, &profile, std::time::Duration::from_secs(5));
    assert!(left.is_empty(), "processes left behind: {left:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn attaching_to_a_running_browser_works_and_leaves_it_running() {
    use arc_browser::backend::{BrowserBackend, BrowserOptions};
    use arc_browser::{Browser, StaticServer};
    let server = StaticServer::start(common::site_root()).await.unwrap();
    // Started by the test with a port, as a user would for `--cdp ws://…`.
    let chromium = common::PortChromium::start();
    let options = BrowserOptions {
        cdp_endpoint: Some(chromium.ws_url.clone()),
        ..Default::default()
    };
    let mut backend = BrowserBackend::start(options, &server.url("signup.html"))
        .await
        .unwrap();
    assert!(backend.chromium().is_none(), "nothing was launched");
    let s = backend.observe().await.unwrap();
    find(&s, "button", "Sign up");
    drop(backend);
    // The browser the backend did not launch is still there.
    let browser = Browser::connect(&chromium.ws_url).await.unwrap();
    assert!(browser.version().await.is_ok());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_huge_page_is_observed_by_viewport_and_still_keeps_the_dialog() {
    let mut f = Fixture::open("table.html").await;
    let s = f.observe().await;
    assert_eq!(
        s.facts.scope,
        Some(ObservationScope::Viewport),
        "25,000 elements are over the full-read threshold"
    );
    assert!(s.facts.left_out_elements.unwrap() > 20_000);
    assert!(s.elements.len() < 1_000, "{} elements", s.elements.len());
    let view = render(&s, &ViewOptions::default());
    assert!(view.tokens <= 1200);
    for control in ["Export", "Cancel"] {
        let id = find(&s, "button", control);
        assert!(
            view.text.contains(&format!("[{id}] button \"{control}\"")),
            "{control} kept"
        );
    }
    // And a scanned control is actionable: Cancel closes the dialog, by the page's own DOM.
    let cancel = find(&s, "button", "Cancel");
    f.act(&s, Action::click(cancel), &task()).await.unwrap();
    let closed = "!document.querySelector('[role=dialog]') || document.querySelector('[role=dialog]').hidden || getComputedStyle(document.querySelector('[role=dialog]')).display === 'none'";
    assert_eq!(settled_true(&f, closed).await, true);
}
