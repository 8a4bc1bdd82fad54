//! `arc-cua mcp` started with no page, in process: the server's blank tab loads pages
//! through its `open` tool only where its grants reach (an exact origin, every port of a
//! host, every subdomain of a name), and drives the tabs its page opened through `tabs`
//! and `switch_tab` within the same reach. What happened is judged by each loopback
//! origin's own request log (`common::origin`: a refused origin receives nothing) and the
//! page's own record (`window.__events`, `location.href`), read over the test's own
//! DevTools session, never through the server.

use crate::common::mcp::Mcp;
use crate::common::origin::Origin;
use crate::common::Rig;
use serde_json::{json, Value};
use std::time::Duration;

const PIPE: usize = 1 << 22;

/// What `arc-cua mcp --allow-input --allow-navigate O…` opens its blank tab with.
fn granting(origins: &[&str]) -> Value {
    json!({"allow_launch": true, "allow_input": true,
           "allow_navigate": !origins.is_empty(), "navigate_origins": origins})
}

async fn bare(rig: &Rig, grants: Value) -> Mcp {
    Mcp::start_with(rig, "about:blank", grants, PIPE).await
}

/// `origin`'s URL for `path` under another host name for the same server (`localhost`,
/// `a.localhost`): another site.
fn on_host(origin: &Origin, host: &str, path: &str) -> String {
    origin.url(path).replacen("127.0.0.1", host, 1)
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A reply's tool-error code (it must be one).
fn refused(r: &Value) -> String {
    assert_eq!(r["result"]["isError"], true, "a tool error: {r}");
    r["result"]["structuredContent"]["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn header(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key} line in {text}"))
        .to_owned()
}

/// The latest snapshot and the id of the element `role` `name` in it.
async fn element(mcp: &mut Mcp, role: &str, name: &str) -> (String, String) {
    let observed = mcp.tool("observe", json!({"elements": true})).await;
    let snapshot = header(&text(&observed), "snapshot");
    let elements: Vec<Value> =
        serde_json::from_str(observed["content"][1]["text"].as_str().unwrap()).unwrap();
    let id = elements
        .iter()
        .find(|e| e["role"] == role && e["name"] == name)
        .unwrap_or_else(|| panic!("no {role} {name:?} in {elements:?}"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (snapshot, id)
}

/// `status`'s target (the current tab).
async fn current(mcp: &mut Mcp) -> Value {
    let status = mcp.tool("status", json!({})).await;
    serde_json::from_str::<Value>(&text(&status)).unwrap()["target"].clone()
}

fn asked(origin: &Origin, target: &str) -> bool {
    origin.requests().iter().any(|t| t == target)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_server_opens_a_granted_page_acts_on_it_and_is_refused_elsewhere() {
    let rig = Rig::start().await;
    let a = Origin::start().await;
    let mut mcp = bare(&rig, granting(&["http://127.0.0.1:*"])).await;
    let blank = current(&mut mcp).await;
    assert_eq!(blank["url"], "about:blank", "{blank}");
    let tab = blank["target_id"].as_str().unwrap().to_owned();

    let opened = mcp.tool("open", json!({"url": a.url("events.html")})).await;
    let opened = text(&opened);
    assert!(opened.starts_with("status: changed\n"), "{opened}");
    assert_eq!(header(&opened, "url"), a.url("events.html"));
    assert!(asked(&a, "/events.html"), "{:?}", a.requests());

    // It acts on the page it opened: one trusted click in the page's own record.
    let (snapshot, button) = element(&mut mcp, "button", "Click me").await;
    let clicked = mcp
        .tool(
            "act",
            json!({"snapshot": snapshot, "action": "CLICK", "element": button}),
        )
        .await;
    let next = header(&text(&clicked), "snapshot");
    let clicks = "window.__events.filter(e => e.type === 'click' && e.isTrusted && e.target === 'btn').length";
    assert_eq!(rig.eval(&tab, clicks).await, json!(1));

    // Another site is refused before anything moves: its server is never asked, the page
    // stays where it is, and the client's snapshot is still the latest.
    let elsewhere = on_host(&a, "localhost", "landed.html?via=open");
    let r = mcp.call("open", json!({"url": elsewhere})).await;
    assert_eq!(refused(&r), "navigate_not_granted", "{r}");
    assert!(
        text(&r["result"]).contains("not in the session's navigate_origins"),
        "{r}"
    );
    assert!(!asked(&a, "/landed.html?via=open"), "{:?}", a.requests());
    for url in ["file:///etc/passwd", "javascript:alert(1)"] {
        let r = mcp.call("open", json!({"url": url})).await;
        assert_eq!(refused(&r), "forbidden_scheme", "{r}");
    }
    assert_eq!(
        rig.eval(&tab, "location.href").await,
        json!(a.url("events.html"))
    );
    mcp.tool(
        "act",
        json!({"snapshot": next, "action": "CLICK", "element": button}),
    )
    .await;
    assert_eq!(rig.eval(&tab, clicks).await, json!(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_navigate_grant_open_loads_nothing() {
    let rig = Rig::start().await;
    let a = Origin::start().await;
    let mut mcp = bare(&rig, granting(&[])).await;
    let tab = current(&mut mcp).await["target_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = mcp.call("open", json!({"url": a.url("events.html")})).await;
    assert_eq!(refused(&r), "navigate_not_granted", "{r}");
    assert!(text(&r["result"]).contains("allow_navigate"), "{r}");
    // NAVIGATE through `act` is refused alike.
    let observed = mcp.tool("observe", json!({})).await;
    let r = mcp
        .call(
            "act",
            json!({"snapshot": header(&text(&observed), "snapshot"), "action": "NAVIGATE",
                   "value": a.url("events.html")}),
        )
        .await;
    assert_eq!(refused(&r), "navigate_not_granted", "{r}");
    assert_eq!(a.requests(), Vec::<String>::new(), "nothing reached a");
    assert_eq!(rig.eval(&tab, "location.href").await, json!("about:blank"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_wildcard_admits_every_port_of_its_host_and_nothing_else() {
    let rig = Rig::start().await;
    let (a, b) = (Origin::start().await, Origin::start().await);
    let mut mcp = bare(&rig, granting(&["http://127.0.0.1:*"])).await;
    let tab = current(&mut mcp).await["target_id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (origin, path) in [(&a, "landed.html?via=a"), (&b, "landed.html?via=b")] {
        mcp.tool("open", json!({"url": origin.url(path)})).await;
        assert!(
            asked(origin, &format!("/{path}")),
            "{:?}",
            origin.requests()
        );
    }
    // The same server named otherwise is another site.
    let r = mcp
        .call(
            "open",
            json!({"url": on_host(&b, "localhost", "landed.html?via=localhost")}),
        )
        .await;
    assert_eq!(refused(&r), "navigate_not_granted", "{r}");
    // A redirect from a granted port to it is stopped on its way.
    let via_a = a.url(&format!(
        "redirect?to={}",
        on_host(&b, "localhost", "landed.html?via=redirect")
    ));
    let r = mcp.call("open", json!({"url": via_a})).await;
    assert_eq!(refused(&r), "origin_not_allowed", "{r}");
    assert!(
        a.requests().iter().any(|t| t.starts_with("/redirect")),
        "a was asked and redirected: {:?}",
        a.requests()
    );
    // And so is a link to it on a granted page.
    let leave = a.url(&format!(
        "leave.html?to={}",
        on_host(&b, "localhost", "landed.html?via=link")
    ));
    mcp.tool("open", json!({"url": leave})).await;
    let (snapshot, link) = element(&mut mcp, "link", "Other site").await;
    let r = mcp
        .tool(
            "act",
            json!({"snapshot": snapshot, "action": "CLICK", "element": link}),
        )
        .await;
    assert!(text(&r).contains("stopped"), "the act says so: {r}");
    for via in ["localhost", "redirect", "link"] {
        assert!(
            !asked(&b, &format!("/landed.html?via={via}")),
            "{via}: {:?}",
            b.requests()
        );
    }
    assert_eq!(rig.eval(&tab, "location.href").await, json!(leave));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subdomain_wildcard_admits_the_names_below_it_and_not_the_name() {
    let rig = Rig::start().await;
    let b = Origin::start().await;
    let port = b.origin.rsplit(':').next().unwrap().to_owned();
    let pattern = format!("http://*.localhost:{port}");
    let mut mcp = bare(&rig, granting(&[&pattern])).await;
    for (host, via) in [("a.localhost", "sub"), ("x.y.localhost", "deeper")] {
        let url = on_host(&b, host, &format!("landed.html?via={via}"));
        let opened = mcp.tool("open", json!({"url": url})).await;
        assert_eq!(header(&text(&opened), "url"), url);
        assert!(
            asked(&b, &format!("/landed.html?via={via}")),
            "{:?}",
            b.requests()
        );
    }
    for url in [
        on_host(&b, "localhost", "landed.html?via=apex"),
        b.url("landed.html?via=address"),
        on_host(&b, "a.localhost", "landed.html?via=port").replace(&port, "1"),
    ] {
        let r = mcp.call("open", json!({"url": url})).await;
        assert_eq!(refused(&r), "navigate_not_granted", "{url}: {r}");
    }
    // A link from a granted subdomain to the name itself is stopped.
    let leave = on_host(
        &b,
        "a.localhost",
        &format!(
            "leave.html?to={}",
            on_host(&b, "localhost", "landed.html?via=link")
        ),
    );
    mcp.tool("open", json!({"url": leave})).await;
    let (snapshot, link) = element(&mut mcp, "link", "Other site").await;
    mcp.tool(
        "act",
        json!({"snapshot": snapshot, "action": "CLICK", "element": link}),
    )
    .await;
    for via in ["apex", "address", "port", "link"] {
        assert!(
            !asked(&b, &format!("/landed.html?via={via}")),
            "{via}: {:?}",
            b.requests()
        );
    }
    assert_eq!(
        header(&text(&mcp.tool("observe", json!({})).await), "url"),
        leave
    );
}

/// Polls `tabs` (bounded) until it lists `n` tabs; the list.
async fn tabs_until(mcp: &mut Mcp, n: usize) -> Vec<Value> {
    for _ in 0..100 {
        let listed: Value =
            serde_json::from_str(&text(&mcp.tool("tabs", json!({})).await)).unwrap();
        let tabs = listed["tabs"].as_array().unwrap().clone();
        if tabs.len() >= n {
            return tabs;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("tabs never listed {n} tabs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tabs_its_page_opened_are_switched_to_within_the_grants_only() {
    let rig = Rig::start().await;
    let (a, b) = (Origin::start().await, Origin::start().await);
    let mut mcp = bare(&rig, granting(&["http://127.0.0.1:*"])).await;
    let first = current(&mut mcp).await["target_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = a.url(&format!(
        "opener.html?tab={}&win={}",
        a.url("events.html"),
        on_host(&b, "localhost", "landed.html?via=window")
    ));
    mcp.tool("open", json!({"url": page})).await;
    assert_eq!(tabs_until(&mut mcp, 1).await.len(), 1, "no tab opened yet");
    for (role, name) in [("link", "Open in a new tab"), ("button", "Open window")] {
        let (snapshot, id) = element(&mut mcp, role, name).await;
        mcp.tool(
            "act",
            json!({"snapshot": snapshot, "action": "CLICK", "element": id}),
        )
        .await;
    }
    let tabs = tabs_until(&mut mcp, 3).await;
    assert_eq!(tabs.len(), 3, "{tabs:?}");
    assert_eq!(tabs[0]["tab"], first.as_str());
    assert_eq!(tabs[0]["current"], true);
    let by_url = |url: &str| {
        tabs.iter()
            .find(|t| t["url"] == url)
            .unwrap_or_else(|| panic!("no tab at {url}: {tabs:?}"))
            .clone()
    };
    let near = by_url(&a.url("events.html"));
    let far = by_url(&on_host(&b, "localhost", "landed.html?via=window"));
    for t in [&near, &far] {
        assert_eq!(t["opened_by"], first.as_str(), "{t}");
        assert_eq!(t["current"], false, "{t}");
    }
    let near_id = near["tab"].as_str().unwrap().to_owned();

    // A tab on a granted origin: switched to, observed and acted on.
    let switched = mcp.tool("switch_tab", json!({"tab": near_id})).await;
    assert!(text(&switched).contains("Event oracle"), "{switched}");
    assert_eq!(current(&mut mcp).await["url"], a.url("events.html"));
    let (snapshot, button) = element(&mut mcp, "button", "Click me").await;
    mcp.tool(
        "act",
        json!({"snapshot": snapshot, "action": "CLICK", "element": button}),
    )
    .await;
    let clicks = "window.__events.filter(e => e.type === 'click' && e.isTrusted && e.target === 'btn').length";
    assert_eq!(rig.eval(&near_id, clicks).await, json!(1));

    // A tab off the grants, and one that is no tab of ours: out of reach, the current
    // tab unchanged.
    let r = mcp
        .call("switch_tab", json!({"tab": far["tab"].clone()}))
        .await;
    assert_eq!(refused(&r), "origin_not_allowed", "{r}");
    assert!(text(&r["result"]).contains("localhost"), "{r}");
    let r = mcp.call("switch_tab", json!({"tab": "no-such-tab"})).await;
    assert_eq!(refused(&r), "target_out_of_scope", "{r}");
    assert_eq!(current(&mut mcp).await["target_id"], near_id.as_str());

    // Back to the first tab: the tools drive it again.
    let back = mcp.tool("switch_tab", json!({"tab": first})).await;
    assert!(text(&back).contains("Open window"), "{back}");
    let tabs = tabs_until(&mut mcp, 3).await;
    let currents: Vec<&Value> = tabs.iter().filter(|t| t["current"] == true).collect();
    assert_eq!(currents.len(), 1, "{tabs:?}");
    assert_eq!(currents[0]["tab"], first.as_str());
    let opened = rig.eval(&first, "window.__opened.length").await;
    assert_eq!(opened, json!(2), "the page's own record of what it opened");
}
