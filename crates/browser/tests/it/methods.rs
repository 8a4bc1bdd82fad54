//! Every typed method and event once against real Chromium: catches wrong field names,
//! wrong casing and reply shapes that do not parse.

use crate::common;

use std::time::Duration;

use arc_browser::cdp::events::*;
use arc_browser::cdp::methods::input::{
    DispatchKeyEvent, DispatchMouseEvent, InsertText, KeyEventType, MouseButton, MouseEventType,
};
use arc_browser::cdp::methods::{
    accessibility, dom, dom_snapshot, emulation, network, page, runtime, target,
};
use arc_browser::cdp::{BackendNodeId, EventType, SessionFilter};
use arc_browser::PageSession;
use serde_json::json;

/// A trusted left click at the centre of the node's content box.
async fn click(page: &PageSession, node: BackendNodeId) {
    let model = page
        .call(dom::GetBoxModel { node: node.into() })
        .await
        .unwrap()
        .model;
    let (x, y) = model.content.center().unwrap();
    for kind in [
        MouseEventType::MouseMoved,
        MouseEventType::MousePressed,
        MouseEventType::MouseReleased,
    ] {
        let mut event = DispatchMouseEvent::new(kind, x, y);
        if kind != MouseEventType::MouseMoved {
            event.button = Some(MouseButton::Left);
            event.click_count = Some(1);
        }
        page.call(event).await.unwrap();
    }
}

/// [`click`] in a task of its own.
fn spawn_click(page: &PageSession, node: &accessibility::AxNode) -> tokio::task::JoinHandle<()> {
    let page = page.clone();
    let node = node.backend_dom_node_id.unwrap();
    tokio::spawn(async move { click(&page, node).await })
}

/// The AX node with `role` and `name`.
fn find<'a>(
    nodes: &'a [accessibility::AxNode],
    role: &str,
    name: &str,
) -> &'a accessibility::AxNode {
    nodes
        .iter()
        .find(|n| n.role() == role && n.name() == name)
        .unwrap_or_else(|| panic!("no {role} {name:?} in the AX tree"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accessibility_dom_and_input_on_the_signup_form() {
    let server = common::fixture_server().await;
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page(&server.url("signup.html")).await.unwrap();
    page.call(accessibility::Enable {}).await.unwrap();
    page.call(dom::Enable {}).await.unwrap();

    // Accessibility: the whole tree, a partial tree and a query.
    let tree = page
        .call(accessibility::GetFullAxTree::default())
        .await
        .unwrap()
        .nodes;
    let email = find(&tree, "textbox", "Email").clone();
    let terms = find(&tree, "checkbox", "I accept the terms").clone();
    let submit = find(&tree, "button", "Sign up").clone();
    assert_eq!(terms.bool_property("checked"), Some(false));
    assert_eq!(email.bool_property("focusable"), Some(true));
    let root = &tree[0];
    assert_eq!(root.role(), "RootWebArea");
    assert!(root.child_ids.as_ref().is_some_and(|c| !c.is_empty()));
    let email_id = email.backend_dom_node_id.unwrap();

    let partial = page
        .call(accessibility::GetPartialAxTree {
            node: Some(email_id.into()),
            fetch_relatives: Some(true),
        })
        .await
        .unwrap();
    assert!(partial.nodes.iter().any(|n| n.name() == "Email"));

    let doc = page
        .call(dom::GetDocument {
            depth: Some(-1),
            pierce: Some(true),
        })
        .await
        .unwrap()
        .root;
    assert_eq!(doc.node_type, 9);
    assert!(doc
        .document_url
        .as_deref()
        .unwrap()
        .ends_with("signup.html"));
    let buttons = page
        .call(accessibility::QueryAxTree {
            node: doc.node_id.into(),
            accessible_name: None,
            role: Some("button".into()),
        })
        .await
        .unwrap();
    assert!(buttons.nodes.iter().any(|n| n.name() == "Sign up"));

    // DOM: describe, push to frontend, resolve + callFunctionOn, geometry.
    let described = page
        .call(dom::DescribeNode::new(email_id))
        .await
        .unwrap()
        .node;
    assert_eq!(described.local_name, "input");
    assert_eq!(described.attribute("id"), Some("email"));
    let pushed = page
        .call(dom::PushNodesByBackendIdsToFrontend {
            backend_node_ids: vec![email_id],
        })
        .await
        .unwrap();
    assert!(pushed.node_ids[0].0 > 0);
    let object = page
        .call(dom::ResolveNode::new(email_id))
        .await
        .unwrap()
        .object;
    assert_eq!(object.subtype.as_deref(), Some("node"));
    let id = page
        .call(runtime::CallFunctionOn {
            function_declaration: "function(suffix) { return this.id + suffix; }".into(),
            object_id: object.object_id.clone(),
            arguments: Some(vec![runtime::CallArgument::value(json!("!"))]),
            return_by_value: Some(true),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(id.result.value, Some(json!("email!")));
    let quads = page
        .call(dom::GetContentQuads {
            node: email_id.into(),
        })
        .await
        .unwrap()
        .quads;
    assert!(quads[0].area() > 0.0);
    let (cx, cy) = quads[0].center().unwrap();
    let at = page
        .call(dom::GetNodeForLocation {
            x: cx.round() as i64,
            y: cy.round() as i64,
            include_user_agent_shadow_dom: Some(false),
            ignore_pointer_events_none: Some(true),
        })
        .await
        .unwrap();
    assert_eq!(
        at.backend_node_id, email_id,
        "the node at the field's centre"
    );
    page.call(dom::ScrollIntoViewIfNeeded {
        node: submit.backend_dom_node_id.unwrap().into(),
        rect: None,
    })
    .await
    .unwrap();

    // Input: focus + insertText + a key press, a trusted click.
    page.call(dom::Focus {
        node: email_id.into(),
    })
    .await
    .unwrap();
    page.call(InsertText {
        text: "ada@example.com".into(),
    })
    .await
    .unwrap();
    let mut key = DispatchKeyEvent::new(KeyEventType::KeyDown);
    key.text = Some("!".into());
    key.key = Some("!".into());
    page.call(key).await.unwrap();
    page.call(DispatchKeyEvent::new(KeyEventType::KeyUp))
        .await
        .unwrap();
    assert_eq!(
        page.evaluate("document.getElementById('email').value")
            .await
            .unwrap(),
        "ada@example.com!"
    );
    click(&page, terms.backend_dom_node_id.unwrap()).await;
    assert_eq!(
        page.evaluate("document.getElementById('terms').checked")
            .await
            .unwrap(),
        true
    );
    click(&page, submit.backend_dom_node_id.unwrap()).await;
    common::eventually(&page, "window.__submitted.length", json!(1)).await;

    // DOMSnapshot: string table lookups and layout.
    let snapshot = page
        .call(dom_snapshot::CaptureSnapshot {
            computed_styles: vec!["display".into()],
            include_dom_rects: Some(true),
            ..Default::default()
        })
        .await
        .unwrap();
    let document = &snapshot.documents[0];
    assert!(snapshot
        .string(document.document_url)
        .unwrap()
        .ends_with("signup.html"));
    assert_eq!(
        document.nodes.parent_index.len(),
        document.nodes.backend_node_id.len()
    );
    assert!(document.layout.bounds.iter().all(|b| b.len() == 4));
    // One value per requested style, except on the document's own layout object.
    assert!(document.layout.styles.iter().skip(1).all(|s| s.len() == 1));
    assert!(document.layout.client_rects.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_domain_screenshots_metrics_worlds_and_reload() {
    let server = common::fixture_server().await;
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page(&server.url("signup.html")).await.unwrap();

    let metrics = page.call(page::GetLayoutMetrics {}).await.unwrap();
    assert_eq!(metrics.css_layout_viewport.client_width, 1280.0);
    assert!(metrics.css_content_size.height > 0.0);

    let png = page
        .call(page::CaptureScreenshot::default())
        .await
        .unwrap()
        .decode()
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let jpeg = page
        .call(page::CaptureScreenshot {
            format: Some(page::ImageFormat::Jpeg),
            quality: Some(50),
            clip: Some(page::Viewport {
                x: 0.0,
                y: 0.0,
                width: 200.0,
                height: 100.0,
                scale: 1.0,
            }),
            ..Default::default()
        })
        .await
        .unwrap()
        .decode()
        .unwrap();
    assert_eq!(&jpeg[..2], b"\xff\xd8");

    // An isolated world sees the DOM but not the page's globals.
    let frame_id = page
        .call(page::GetFrameTree {})
        .await
        .unwrap()
        .frame_tree
        .frame
        .id;
    let world = page
        .call(page::CreateIsolatedWorld {
            frame_id,
            world_name: Some("arc-probe".into()),
            grant_universal_access: None,
        })
        .await
        .unwrap();
    let seen = page
        .call(runtime::Evaluate {
            context_id: Some(world.execution_context_id),
            ..runtime::Evaluate::by_value("[document.title, typeof window.__submitted]")
        })
        .await
        .unwrap();
    assert_eq!(
        seen.result.value,
        Some(json!(["Create your account", "undefined"]))
    );

    // A new-document script runs on reload; Runtime and Network events come through.
    page.call(runtime::Enable {}).await.unwrap();
    page.call(network::Enable::default()).await.unwrap();
    page.call(page::AddScriptToEvaluateOnNewDocument {
        source: "window.__injected = 'yes';".into(),
        ..Default::default()
    })
    .await
    .unwrap();
    let mut events = page.subscribe();
    page.call(page::Reload::default()).await.unwrap();
    // Collect everything up to the load event, then look (events interleave).
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(event) = events.recv().await {
            let done = event.is::<LoadEventFired>();
            seen.push(event);
            if done {
                break;
            }
        }
    })
    .await
    .expect("load event after reload");
    let all = |name: &str| seen.iter().filter(|e| e.method == name).count();
    let request = seen
        .iter()
        .filter_map(|e| e.parse::<RequestWillBeSent>())
        .map(Result::unwrap)
        .find(|r| r.request.url.ends_with("signup.html"))
        .expect("the document request");
    assert_eq!(request.request.method, "GET");
    assert_eq!(request.kind.as_deref(), Some("Document"));
    assert!(seen
        .iter()
        .filter_map(|e| e.parse::<LoadingFinished>())
        .any(|f| f.unwrap().request_id == request.request_id));
    let context = seen
        .iter()
        .find_map(|e| e.parse::<ExecutionContextCreated>())
        .expect("a new execution context")
        .unwrap();
    assert!(
        context.context.origin.starts_with("http://127.0.0.1"),
        "{context:?}"
    );
    assert!(seen
        .iter()
        .filter_map(|e| e.parse::<FrameNavigated>())
        .any(|f| f.unwrap().frame.parent_id.is_none()));
    assert!(all(DomContentEventFired::NAME) >= 1);
    assert_eq!(page.evaluate("window.__injected").await.unwrap(), "yes");

    // A failed request.
    page.evaluate("fetch('http://127.0.0.1:9/x').catch(() => 0)")
        .await
        .unwrap();
    let failed = common::wait_for::<LoadingFailed>(&mut events, |_| true).await;
    assert!(!failed.error_text.is_empty());

    // Emulation changes the viewport the page sees.
    page.call(emulation::SetDeviceMetricsOverride::desktop(1000, 700))
        .await
        .unwrap();
    assert_eq!(
        page.evaluate("[innerWidth, innerHeight]").await.unwrap(),
        json!([1000, 700])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_dialogs_are_seen_and_answered() {
    let server = common::fixture_server().await;
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page(&server.url("confirm.html")).await.unwrap();
    let tree = page
        .call(accessibility::GetFullAxTree::default())
        .await
        .unwrap()
        .nodes;
    let mut events = page.subscribe();

    // confirm(): accept. The click's mouseReleased is not answered until the dialog is
    // handled (the renderer is blocked in confirm()), so it runs in its own task.
    let clicking = spawn_click(&page, find(&tree, "button", "Delete item"));
    let dialog = common::wait_for::<JavascriptDialogOpening>(&mut events, |_| true).await;
    assert_eq!(dialog.kind, page::DialogType::Confirm);
    assert_eq!(dialog.message, "Really delete?");
    page.call(page::HandleJavaScriptDialog {
        accept: true,
        prompt_text: None,
    })
    .await
    .unwrap();
    let closed = common::wait_for::<JavascriptDialogClosed>(&mut events, |_| true).await;
    assert!(closed.result);
    clicking.await.unwrap();
    common::eventually(
        &page,
        "document.getElementById('status').textContent",
        json!("Deleted"),
    )
    .await;

    // prompt(): answer with text.
    let clicking = spawn_click(&page, find(&tree, "button", "Ask name"));
    let dialog = common::wait_for::<JavascriptDialogOpening>(&mut events, |_| true).await;
    assert_eq!(dialog.kind, page::DialogType::Prompt);
    page.call(page::HandleJavaScriptDialog {
        accept: true,
        prompt_text: Some("Ada".into()),
    })
    .await
    .unwrap();
    let closed = common::wait_for::<JavascriptDialogClosed>(&mut events, |_| true).await;
    assert_eq!(closed.user_input, "Ada");
    clicking.await.unwrap();
    common::eventually(
        &page,
        "document.getElementById('status').textContent",
        json!("Hi Ada"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn target_domain_and_discovery_events() {
    let (_chromium, browser) = common::launch().await;
    let mut events = browser.connection().subscribe(SessionFilter::Browser);
    browser
        .call(target::SetDiscoverTargets {
            discover: true,
            filter: None,
        })
        .await
        .unwrap();

    let created = browser
        .call(target::CreateTarget::new("about:blank"))
        .await
        .unwrap();
    let seen = common::wait_for::<TargetCreated>(&mut events, |t| {
        t.target_info.target_id == created.target_id
    })
    .await;
    assert!(seen.target_info.is_page());

    let session = browser
        .call(target::AttachToTarget::flat(created.target_id.clone()))
        .await
        .unwrap()
        .session_id;
    let attached =
        common::wait_for::<AttachedToTarget>(&mut events, |a| a.session_id == session).await;
    assert_eq!(attached.target_info.target_id, created.target_id);

    browser
        .connection()
        .call(
            Some(&session),
            target::SetAutoAttach {
                auto_attach: true,
                wait_for_debugger_on_start: false,
                flatten: Some(true),
                filter: None,
            },
        )
        .await
        .unwrap();
    browser
        .call(target::ActivateTarget {
            target_id: created.target_id.clone(),
        })
        .await
        .unwrap();
    let listed = browser
        .call(target::GetTargets {
            filter: Some(vec![target::TargetFilterEntry {
                kind: Some("page".into()),
                exclude: None,
            }]),
        })
        .await
        .unwrap();
    assert!(listed
        .target_infos
        .iter()
        .any(|t| t.target_id == created.target_id && t.attached));

    browser
        .call(target::CloseTarget {
            target_id: created.target_id.clone(),
        })
        .await
        .unwrap();
    common::wait_for::<TargetDestroyed>(&mut events, |t| t.target_id == created.target_id).await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert!(browser
        .pages()
        .await
        .unwrap()
        .iter()
        .all(|t| t.target_id != created.target_id));
}

#[tokio::test(flavor = "multi_thread")]
async fn fetch_domain_pauses_a_document_request_and_answers_it() {
    use arc_browser::cdp::methods::fetch;
    let server = common::fixture_server().await;
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page(&server.url("signup.html")).await.unwrap();
    let mut events = page.subscribe();
    page.call(fetch::Enable {
        patterns: vec![fetch::RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: Some("Document".into()),
            request_stage: Some("Request".into()),
        }],
    })
    .await
    .unwrap();
    let mut answer = async |fail: bool| {
        let paused = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let e = events.recv().await.expect("events");
                if let Some(p) = e.parse::<RequestPaused>() {
                    return p.unwrap();
                }
            }
        })
        .await
        .expect("a paused request");
        assert_eq!(paused.resource_type, "Document");
        assert_eq!(paused.frame_id.0, page.target_id().0, "the main frame");
        assert_eq!(paused.request.method, "GET");
        let request_id = paused.request_id;
        if fail {
            page.call(fetch::FailRequest {
                request_id,
                error_reason: "Aborted".into(),
            })
            .await
            .unwrap();
        } else {
            page.call(fetch::ContinueRequest { request_id })
                .await
                .unwrap();
        }
        paused.request.url
    };
    // Let go: the page loads; failed as Aborted: the page stays where it was.
    let go = server.url("form.html");
    let nav = page.navigate(&go);
    let (url, loaded) = tokio::join!(answer(false), nav);
    assert_eq!(url, go);
    loaded.unwrap();
    let stay = server.url("help.html");
    let nav = page.navigate(&stay);
    let (url, stopped) = tokio::join!(answer(true), nav);
    assert_eq!(url, stay);
    assert!(stopped.is_err(), "the navigation reports its failure");
    assert_eq!(page.evaluate("location.href").await.unwrap(), json!(go));
    page.call(fetch::Disable {}).await.unwrap();
    page.navigate(&stay).await.unwrap();
}
