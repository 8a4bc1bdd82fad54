//! `arc-cua mcp` driven by a stock MCP client: the `mcp` package's stdio client (PyPI, in
//! the venv `scripts/mcp-venv.sh` makes) runs `mcp_drive.py` against the real binary,
//! attached to a real headless Chromium the test started itself. The client only speaks
//! MCP; what happened is judged by the page's own record (`window.__events`,
//! `window.__submitted`, the DOM), read over the test's own CDP connection, or, for a
//! server that launched its own browser, by the loopback origins' own request logs.

#[path = "../../../browser/tests/it/common/mod.rs"]
mod browser_common;
#[path = "../../../host/tests/it/common/origin.rs"]
mod origin;

use arc_browser::{Browser, PageSession, StaticServer};
use browser_common::PortChromium;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The client's whole conversation, generously: two cores, other suites beside us.
const DRIVE_BOUND: Duration = Duration::from_secs(180);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The venv's python (created on first use; never skipped when missing).
fn client_python() -> PathBuf {
    let out = Command::new("bash")
        .arg(repo().join("scripts/mcp-venv.sh"))
        .stderr(Stdio::inherit())
        .output()
        .expect("run scripts/mcp-venv.sh");
    assert!(out.status.success(), "scripts/mcp-venv.sh failed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Runs one scenario of the driver to its end and returns what the client saw.
fn drive(scenario: &str, ws_url: &str, target: &str) -> Value {
    drive_in(scenario, ws_url, target, &std::env::temp_dir())
}

/// [`drive`] with `TMPDIR` (where a launched Chromium keeps its profile) set to `tmp`.
fn drive_in(scenario: &str, ws_url: &str, target: &str, tmp: &Path) -> Value {
    drive_env(
        scenario,
        ws_url,
        target,
        &[("TMPDIR", tmp.to_str().unwrap())],
    )
}

/// [`drive`] with extra environment variables for the client (and so the server).
fn drive_env(scenario: &str, ws_url: &str, target: &str, envs: &[(&str, &str)]) -> Value {
    let mut child = Command::new(client_python())
        .envs(envs.iter().copied())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/mcp_drive.py"))
        .args([scenario, env!("CARGO_BIN_EXE_arc-cua"), ws_url, target])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the MCP client");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > DRIVE_BOUND {
            let _ = child.kill();
            panic!("the MCP client did not finish within {DRIVE_BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the MCP client failed:\n{stderr}");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("client output is not JSON ({e}):\n{stderr}"))
}

async fn open(browser: &Browser, server: &StaticServer, page: &str) -> PageSession {
    browser.new_page(&server.url(page)).await.unwrap()
}

async fn eval(page: &PageSession, expression: &str) -> Value {
    page.evaluate(expression).await.unwrap()
}

fn text(reply: &Value) -> String {
    reply["texts"][0].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stock_mcp_client_observes_acts_is_refused_on_a_used_snapshot_and_runs_a_subtask() {
    let server = StaticServer::start(browser_common::site_root())
        .await
        .unwrap();
    let chromium = PortChromium::start();
    let browser = Browser::connect(&chromium.ws_url).await.unwrap();
    let page = open(&browser, &server, "form.html").await;
    let target = page.target_id().0.clone();

    let seen = tokio::task::spawn_blocking({
        let ws = chromium.ws_url.clone();
        move || drive("granted", &ws, &target)
    })
    .await
    .unwrap();

    // The tools, with the reference's names and required arguments.
    let tools = seen["tools"].as_object().unwrap();
    let mut names: Vec<&str> = tools.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "act",
            "apps",
            "click_at",
            "downloads",
            "drag",
            "find",
            "observe",
            "open",
            "press",
            "run_subtask",
            "screenshot",
            "scroll_at",
            "settle",
            "status",
            "switch_tab",
            "tabs",
            "targets",
            "type_text",
            "wait",
            "windows"
        ]
    );
    let required = |tool: &str| -> Vec<String> {
        serde_json::from_value(tools[tool]["required"].clone()).unwrap()
    };
    assert_eq!(required("act"), ["action", "snapshot"]);
    assert_eq!(required("press"), ["keys", "snapshot"]);
    assert_eq!(required("settle"), ["snapshot"]);
    assert_eq!(required("run_subtask"), ["snapshot", "subtask"]);
    assert!(required("observe").is_empty() && required("find").is_empty());
    assert_eq!(required("click_at"), ["snapshot", "x", "y"]);
    assert_eq!(required("scroll_at"), ["snapshot", "x", "y"]);
    assert_eq!(required("drag"), ["points", "snapshot"]);
    assert_eq!(required("type_text"), ["snapshot", "text"]);
    assert_eq!(required("open"), ["url"]);
    assert_eq!(required("switch_tab"), ["tab"]);
    assert_eq!(required("windows"), ["pid"]);
    assert!(required("tabs").is_empty() && required("apps").is_empty());
    let properties = |tool: &str| -> Vec<String> {
        serde_json::from_value(tools[tool]["properties"].clone()).unwrap()
    };
    assert_eq!(
        properties("click_at"),
        [
            "button",
            "count",
            "modifiers",
            "settle",
            "snapshot",
            "x",
            "y"
        ]
    );
    assert_eq!(
        properties("scroll_at"),
        ["dx", "dy", "settle", "snapshot", "x", "y"]
    );
    for (name, tool) in tools {
        assert!(
            tool["description"].as_str().unwrap().len() > 60,
            "{name} has a description an LLM can use"
        );
    }
    assert_eq!(seen["server"]["name"], "arc-cua");

    // observe: a snapshot id and the compact view.
    let observed = text(&seen["observe"]);
    assert!(observed.starts_with("snapshot: "), "{observed}");
    assert!(observed.contains("text_field \"First name\""), "{observed}");

    // act: done or changed, with the next snapshot.
    let act = &seen["act"];
    assert_eq!(act["is_error"], false, "{act}");
    let acted = text(act);
    assert!(
        acted.starts_with("status: changed") || acted.starts_with("status: done"),
        "{acted}"
    );
    assert!(acted.contains("\nsnapshot: "), "{acted}");

    // The used snapshot: a tool error with the host's code.
    let stale = &seen["stale_act"];
    assert_eq!(stale["is_error"], true, "{stale}");
    assert_eq!(stale["structured"]["code"], "stale_observation", "{stale}");
    assert!(text(stale).starts_with("stale_observation: "), "{stale}");

    // click_at and type_text: replies with the next snapshot; outside the viewport a
    // tool error naming the limit.
    for tool in ["click_at", "type_text"] {
        assert_eq!(seen[tool]["is_error"], false, "{}", seen[tool]);
    }
    let outside = &seen["click_at_outside"];
    assert_eq!(outside["is_error"], true, "{outside}");
    assert_eq!(outside["structured"]["code"], "limit_exceeded", "{outside}");
    assert!(text(outside).contains("viewport"), "{outside}");

    // The second observe shows what the act typed.
    assert!(
        text(&seen["observe_again"]).contains("Grace"),
        "{}",
        seen["observe_again"]
    );

    // run_subtask: the executor's wire result, and a snapshot to chain on.
    let ran = text(&seen["run_subtask"]);
    assert_eq!(seen["run_subtask"]["is_error"], false, "{ran}");
    let result: Value =
        serde_json::from_str(ran.split_once("result: ").expect("a result line").1).unwrap();
    assert_eq!(result["status"], "SUBTASK_COMPLETE", "{result}");
    // Each step arrived first, as a progress notification carrying the step event.
    let steps = seen["steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "no progress notifications");
    for step in steps {
        let event: Value = serde_json::from_str(step.as_str().unwrap()).unwrap();
        assert!(event["cycle"].is_u64(), "{event}");
    }

    // The page's own record: the act's value arrived in the field; the refused click
    // never did (one submission only: the subtask's, with its values).
    let typed = eval(
        &page,
        "window.__events.filter(e => e.target === 'first' && e.type === 'input').map(e => e.value)",
    )
    .await;
    assert!(
        typed.as_array().unwrap().iter().any(|v| v == "Grace"),
        "the page received the act's value: {typed}"
    );
    // click_at: one trusted click, on the Last name field, at the point the client sent;
    // type_text: its text arrived in that field as trusted input.
    let point = seen["click_at_point"].as_array().unwrap().clone();
    let clicks = eval(
        &page,
        "window.__events.filter(e => e.type === 'click' && e.isTrusted && e.target === 'last')",
    )
    .await;
    let clicks = clicks.as_array().unwrap();
    assert_eq!(clicks.len(), 1, "{clicks:?}");
    for (axis, sent) in ["x", "y"].into_iter().zip(&point) {
        let landed = clicks[0][axis].as_f64().unwrap();
        assert!(
            (landed - sent.as_f64().unwrap()).abs() <= 1.0,
            "{axis}: {landed} vs {sent}"
        );
    }
    let typed_last = eval(
        &page,
        "window.__events.filter(e => e.target === 'last' && e.type === 'input' && e.isTrusted).map(e => e.value)",
    )
    .await;
    assert!(
        typed_last.as_array().unwrap().iter().any(|v| v == "Byron"),
        "type_text reached the focused field: {typed_last}"
    );
    let submitted = eval(&page, "window.__submitted").await;
    assert_eq!(
        submitted,
        serde_json::json!([{"first": "Ada", "last": "Lovelace", "message": "Hello over MCP"}]),
        "exactly the subtask's submission"
    );
    assert_eq!(
        eval(&page, "document.getElementById('status').textContent").await,
        "Thank you, Ada Lovelace"
    );
    // The server only attached: the browser and its page outlive it.
    assert!(browser.version().await.is_ok());
}

#[tokio::test(flavor = "multi_thread")]
async fn without_grants_an_act_is_a_tool_error_and_the_page_receives_nothing() {
    let server = StaticServer::start(browser_common::site_root())
        .await
        .unwrap();
    let chromium = PortChromium::start();
    let browser = Browser::connect(&chromium.ws_url).await.unwrap();
    let page = open(&browser, &server, "form.html").await;
    let target = page.target_id().0.clone();

    let seen = tokio::task::spawn_blocking({
        let ws = chromium.ws_url.clone();
        move || drive("ungranted", &ws, &target)
    })
    .await
    .unwrap();

    let act = &seen["act"];
    assert_eq!(act["is_error"], true, "{act}");
    assert_eq!(act["structured"]["code"], "input_not_granted", "{act}");
    assert!(text(act).contains("allow_input"), "says what to do: {act}");
    assert_eq!(
        eval(&page, "document.getElementById('first').value").await,
        ""
    );
    assert_eq!(
        eval(
            &page,
            "window.__events.filter(e => e.target === 'first').length"
        )
        .await,
        0,
        "no event reached the field"
    );
    // `wait` for any change on the quiet page: more polls than the host keeps
    // observations, and still an answer (met: false), not a forgotten snapshot.
    let quiet = &seen["wait_quiet"];
    assert_eq!(quiet["is_error"], false, "{quiet}");
    let quiet = text(quiet);
    assert!(quiet.starts_with("met: false\nwaited_ms: "), "{quiet}");
    let waited: u64 = quiet.lines().nth(1).unwrap()["waited_ms: ".len()..]
        .parse()
        .unwrap();
    assert!(waited >= 3_000, "{quiet}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_started_on_a_url_launches_chromium_and_takes_it_along_on_disconnect() {
    let server = StaticServer::start(browser_common::site_root())
        .await
        .unwrap();
    let url = server.url("form.html");
    let tmp = tempfile::tempdir().unwrap();
    let seen = tokio::task::spawn_blocking({
        let tmp = tmp.path().to_owned();
        move || drive_in("launched", "", &url, &tmp)
    })
    .await
    .unwrap();
    let observed = text(&seen["observe"]);
    assert!(observed.contains("button \"Submit\""), "{observed}");
    assert!(
        seen["alive_during"].as_u64().unwrap() > 0,
        "while connected, Chromium ran with its profile under our TMPDIR"
    );
    // The launched Chromium kept its profile under our TMPDIR: once the client is gone,
    // no process names that directory and nothing is left in it.
    let dir = tmp.path().to_string_lossy().into_owned();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left: Vec<String> = browser_common::processes()
            .into_iter()
            .filter(|p| p.cmdline.contains(&dir))
            .map(|p| format!("{} {}", p.pid, p.cmdline))
            .collect();
        let files = std::fs::read_dir(tmp.path()).unwrap().count();
        if left.is_empty() && files == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "left behind: {left:?}, {files} entries in {dir}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A desktop window over MCP: `arc-cua mcp --pid PID` on the GTK fixture (private Xvfb
/// and D-Bus); the stock client lists it among the targets, clicks Submit and clicks the
/// icon at a point with shift held — judged by the fixture's own JSON record.
#[tokio::test(flavor = "multi_thread")]
async fn a_stock_mcp_client_lists_and_drives_a_desktop_window() {
    let desk = crate::desktop::Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let pid = app.pid().to_string();
    let seen = tokio::task::spawn_blocking({
        let (display, bus) = (desk.display.clone(), desk.bus.clone());
        move || {
            drive_env(
                "desktop",
                "",
                &pid,
                &[("DISPLAY", &display), ("DBUS_SESSION_BUS_ADDRESS", &bus)],
            )
        }
    })
    .await
    .unwrap();
    let targets: Value = serde_json::from_str(&text(&seen["targets"])).expect("targets JSON");
    let window = targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "window" && t["pid"] == app.pid())
        .unwrap_or_else(|| panic!("the fixture's window is not listed: {targets}"));
    assert_eq!(window["window"], "Arc GTK form");
    // apps and windows: the same window, by its app's pid.
    let apps: Value = serde_json::from_str(&text(&seen["apps"])).expect("apps JSON");
    let listed = apps["apps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["pid"] == app.pid())
        .unwrap_or_else(|| panic!("the fixture's app is not listed: {apps}"));
    assert_eq!(listed["app"], window["app"], "{apps}");
    assert!(listed["windows"].as_u64() >= Some(1), "{apps}");
    let windows: Value = serde_json::from_str(&text(&seen["windows"])).expect("windows JSON");
    assert!(
        windows["windows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["title"] == "Arc GTK form" && w["target_id"] == window["target_id"]),
        "{windows}"
    );
    assert!(
        !seen["act"]["is_error"].as_bool().unwrap(),
        "{}",
        seen["act"]
    );
    assert!(
        !seen["click_at"]["is_error"].as_bool().unwrap(),
        "{}",
        seen["click_at"]
    );
    let record = app.read().expect("the fixture's record");
    assert!(
        record
            .events
            .iter()
            .any(|e| e.kind == "clicked" && e.widget == "submit"),
        "{:#?}",
        record.events
    );
    let icon = record
        .events
        .iter()
        .find(|e| e.widget == "icon")
        .unwrap_or_else(|| panic!("the icon was not pressed: {:#?}", record.events));
    assert_eq!(icon.modifiers.as_deref(), Some(&["shift".to_owned()][..]));
}

/// The README's one-line configuration, read from the README, no page named (`arc-cua mcp
/// --allow-input --allow-navigate http://127.0.0.1:*`). The stock client starts the binary
/// with its args and opens a page it chose on one loopback origin,
/// clicks its link to a new tab, lists and switches to that tab, and is refused a URL on
/// `localhost` (another site of the same server). The origins' own request logs say
/// what reached them: the page, the tab the click opened, and nothing of the refusal.
#[tokio::test(flavor = "multi_thread")]
async fn a_stock_client_starts_the_server_bare_opens_a_page_it_chose_and_is_refused_elsewhere() {
    let a = origin::Origin::start().await;
    let b = origin::Origin::start().await;
    let clicked = a.url("landed.html?via=click");
    let page = a.url(&format!("opener.html?tab={clicked}"));
    let forbidden = b
        .url("landed.html?via=open")
        .replacen("127.0.0.1", "localhost", 1);
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let config: Value = readme
        .lines()
        .find(|l| l.starts_with("{\"mcpServers\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .expect("the README's client configuration");
    let server = &config["mcpServers"]["arc-cua"];
    assert_eq!(server["command"], "arc-cua", "{config}");
    assert_eq!(
        server["args"],
        serde_json::json!([
            "mcp",
            "--allow-input",
            "--allow-navigate",
            "http://127.0.0.1:*"
        ]),
        "no site named, local origins granted"
    );
    let args = server["args"].to_string();
    let seen = tokio::task::spawn_blocking({
        let (page, forbidden) = (page.clone(), forbidden.clone());
        move || drive_env("bare", &forbidden, &page, &[("MCP_ARGS", &args)])
    })
    .await
    .unwrap();

    let status: Value = serde_json::from_str(&text(&seen["status"])).unwrap();
    assert_eq!(status["target"]["url"], "about:blank", "{status}");
    assert_eq!(
        status["grants"]["navigate_origins"],
        serde_json::json!(["http://127.0.0.1:*"])
    );
    let opened = text(&seen["open"]);
    assert!(opened.starts_with("status: changed\n"), "{opened}");
    // The header's URL is clipped to its token share: the page's own, from its start.
    assert!(
        opened.contains(&format!("\nurl: {}?tab=", a.url("opener.html"))),
        "{opened}"
    );
    assert_eq!(seen["act"]["is_error"], false, "{}", seen["act"]);
    let requests = a.requests();
    assert!(
        requests.iter().any(|t| t.starts_with("/opener.html?tab=")),
        "the page was asked for: {requests:?}"
    );
    assert!(
        requests.iter().any(|t| t == "/landed.html?via=click"),
        "the click opened its tab: {requests:?}"
    );

    let tabs = seen["tabs"].as_array().unwrap();
    assert_eq!(tabs.len(), 2, "{tabs:?}");
    let new = tabs.iter().find(|t| t["current"] == false).unwrap();
    assert_eq!(new["url"], clicked.as_str(), "{tabs:?}");
    let first = tabs.iter().find(|t| t["current"] == true).unwrap();
    assert_eq!(new["opened_by"], first["tab"], "{tabs:?}");
    let switched = text(&seen["switch_tab"]);
    assert!(switched.contains("Landed elsewhere"), "{switched}");

    let refused = &seen["refused"];
    assert_eq!(refused["is_error"], true, "{refused}");
    assert_eq!(
        refused["structured"]["code"], "navigate_not_granted",
        "{refused}"
    );
    assert_eq!(
        b.requests(),
        Vec::<String>::new(),
        "nothing reached localhost"
    );
}

/// Sign in once, save the session, and in a later server upload a file and fetch a
/// report without signing in again — all through a stock MCP client. The first server
/// writes the session when the client disconnects (`--save-storage-state`); the second
/// loads it (`--storage-state`), may upload only from the directory `--allow-files`
/// names, and saves downloads where `--downloads` says. The page's own record (its
/// localStorage, written out by the second server) has the upload's name, size and hash;
/// the downloaded file has the served bytes.
#[tokio::test(flavor = "multi_thread")]
async fn a_stock_client_signs_in_once_then_uploads_and_downloads_in_a_later_server() {
    let server = StaticServer::start(browser_common::site_root())
        .await
        .unwrap();
    let page = server.url("portal/index.html");
    let dir = tempfile::tempdir().unwrap();
    let uploads = dir.path().join("uploads");
    std::fs::create_dir(&uploads).unwrap();
    let receipt = uploads.join("receipt.pdf");
    let bytes: Vec<u8> = (0..2048u32).map(|i| (i * 13 % 256) as u8).collect();
    std::fs::write(&receipt, &bytes).unwrap();
    let outside = dir.path().join("notes.txt");
    std::fs::write(&outside, "never uploaded").unwrap();
    let state = dir.path().join("state.json");
    let after = dir.path().join("after.json");
    let downloads = dir.path().join("downloads");
    let p = |path: &Path| path.to_str().unwrap().to_owned();
    let grants = [
        "mcp",
        "--allow-input",
        "--allow-navigate",
        "http://127.0.0.1:*",
    ];

    let sign_in = serde_json::json!({
        "goal": "Sign in as ada@example.com",
        "inputs": {"email": "ada@example.com", "password": "orchid-42"},
        "secret_inputs": ["password"],
        "verification": ["The page says Signed in as ada@example.com"],
    });
    let mut first_args: Vec<String> = grants.iter().map(|s| s.to_string()).collect();
    first_args.extend(["--save-storage-state".into(), p(&state)]);
    let later = |subtask: Value, extra: Vec<String>| {
        let mut args: Vec<String> = grants.iter().map(|s| s.to_string()).collect();
        args.extend(extra);
        (args, subtask)
    };
    let upload = |file: &Path| {
        serde_json::json!({
            "goal": "Upload the receipt, then download the monthly report",
            "inputs": {"receipt": p(file)},
            "files": [p(file)],
            "verification": ["The receipt has been uploaded", "The monthly report has been downloaded"],
        })
    };
    let second_extra = vec![
        "--storage-state".into(),
        p(&state),
        "--allow-files".into(),
        p(&uploads),
        "--downloads".into(),
        p(&downloads),
        "--save-storage-state".into(),
        p(&after),
    ];
    let runs = vec![
        (first_args, sign_in),
        later(upload(&outside), second_extra.clone()),
        later(upload(&receipt), second_extra),
    ];
    let seen: Vec<Value> = tokio::task::spawn_blocking({
        let page = page.clone();
        move || {
            runs.into_iter()
                .map(|(args, subtask)| {
                    let args = serde_json::to_string(&args).unwrap();
                    let subtask = subtask.to_string();
                    drive_env(
                        "subtask",
                        "",
                        &page,
                        &[("MCP_ARGS", &args), ("MCP_SUBTASK", &subtask)],
                    )
                })
                .collect()
        }
    })
    .await
    .unwrap();

    let result = |seen: &Value| -> Value {
        let ran = text(&seen["run_subtask"]);
        match ran.split_once("result: ") {
            Some((_, json)) => serde_json::from_str(json).unwrap(),
            None => Value::Null,
        }
    };
    assert_eq!(
        result(&seen[0])["status"],
        "SUBTASK_COMPLETE",
        "{}",
        seen[0]
    );
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // A file outside the granted directory: refused before anything runs.
    assert_eq!(seen[1]["run_subtask"]["is_error"], true, "{}", seen[1]);
    assert!(
        text(&seen[1]["run_subtask"]).starts_with("file_not_granted"),
        "{}",
        seen[1]
    );

    let done = result(&seen[2]);
    assert_eq!(done["status"], "SUBTASK_COMPLETE", "{}", seen[2]);
    let typed: Vec<&Value> = done["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["action"].get("input_key"))
        .collect();
    assert_eq!(typed, ["receipt"], "signed in again: {done}");
    // The page's own record, as the second server saved it.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&after).unwrap()).unwrap();
    let record: Vec<Value> = saved["origins"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["localStorage"].as_array().unwrap().clone())
        .filter(|nv| nv["name"] == "portal.uploads")
        .map(|nv| serde_json::from_str(nv["value"].as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(record.len(), 1, "{saved}");
    let got = record[0].as_array().unwrap();
    assert_eq!(got.len(), 1, "one upload: {got:?}");
    assert_eq!(got[0]["name"], "receipt.pdf");
    assert_eq!(got[0]["size"], bytes.len());
    // The downloads tool lists what the run saved; the file holds the served bytes.
    let listed: Value = serde_json::from_str(&text(&seen[2]["downloads"])).unwrap();
    let d = &listed["downloads"][0];
    assert_eq!(d["name"], "monthly-report.csv", "{listed}");
    let served = std::fs::read(browser_common::site_root().join("portal/report.csv")).unwrap();
    assert_eq!(std::fs::read(d["path"].as_str().unwrap()).unwrap(), served);
    assert_eq!(d, &done["downloads"][0]);
}
