//! `arc-cua host --stdio` and `arc-cua run --cdp` without `--url`, as a user runs them.

use arc_browser::{Browser, StaticServer};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn arc() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("arc-cua"))
}

fn site() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site")
}

/// Process group of every live process whose parent is `pid` (the host's Chromium).
fn child_groups(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let f: Vec<&str> = after.split_whitespace().collect();
        if f[0] != "Z" && f[1].parse::<u32>().ok() == Some(pid) {
            out.push(f[2].parse().unwrap_or(0));
        }
    }
    out
}

fn alive_in_group(group: u32) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            let f: Vec<&str> = stat[stat.rfind(')').unwrap() + 1..]
                .split_whitespace()
                .collect();
            f[0] != "Z" && f[2].parse::<u32>().ok() == Some(group)
        })
        .count()
}

struct HostProc {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl HostProc {
    fn call(&mut self, id: &str, method: &str, params: Value) -> Value {
        let line = json!({"request_id": id, "method": method, "params": params}).to_string();
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        loop {
            let mut reply = String::new();
            assert!(
                self.out.read_line(&mut reply).unwrap() > 0,
                "the host answered"
            );
            let v: Value = serde_json::from_str(&reply).expect("one JSON object per line");
            if v.get("event").is_none() {
                assert_eq!(v["request_id"], id);
                return v;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_stdio_serves_a_session_and_exits_with_its_browser_when_stdin_closes() {
    let server = StaticServer::start(site()).await.unwrap();
    let mut child = arc()
        .args(["host", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut h = HostProc { child, out };
    assert_eq!(
        h.call("0", "ping", json!({}))["error"]["code"],
        "hello_required"
    );
    let hello = h.call(
        "1",
        "hello",
        json!({"protocol_version": 1, "client_name": "cli-test"}),
    );
    assert_eq!(hello["ok"], true, "{hello}");
    let opened = h.call(
        "2",
        "open_session",
        json!({"grants": {"allow_launch": true, "allow_input": true}, "target": {"url": server.url("events.html")}}),
    );
    let session = opened["result"]["session"].clone();
    let found = h.call(
        "3",
        "find",
        json!({"session": session, "text": "Click me", "role": "button"}),
    );
    let btn = found["result"]["hits"][0]["id"].clone();
    let obs = found["result"]["observation_id"].clone();
    let acted = h.call(
        "4",
        "act",
        json!({"session": session, "observation_id": obs, "action": {"kind": "CLICK", "target_id": btn}, "observe_after": {}}),
    );
    assert_eq!(acted["result"]["outcome"], "changed", "{acted}");
    assert!(acted["result"]["observation"]["view"]
        .as_str()
        .unwrap()
        .contains("clicked 1 time"));
    let groups = child_groups(h.child.id());
    assert!(!groups.is_empty(), "the host launched its browser");
    // Closing stdin ends the host, and its browser with it.
    drop(h.child.stdin.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = h.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the host exits when stdin closes"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let start = Instant::now();
    while groups.iter().any(|g| alive_in_group(*g) > 0) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the host's Chromium is gone"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A Chromium with a DevTools port (what `--cdp` attaches to), killed on drop.
struct PortChromium {
    child: Child,
    ws_url: String,
    _profile: tempfile::TempDir,
}

impl PortChromium {
    fn launch() -> PortChromium {
        use std::os::unix::process::CommandExt;
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new("/usr/lib/chromium/chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("Chromium starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(url.trim().to_owned());
                    }
                }
            }
        });
        let ws_url = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("a DevTools address");
        PortChromium {
            child,
            ws_url,
            _profile: profile,
        }
    }
}

impl Drop for PortChromium {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group this test started.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Runs `arc-cua run --backend browser --policy reflex --cdp WS [extra…]` on `subtask`.
async fn run_cdp(ws: &str, extra: &[&str], subtask: Value) -> std::process::Output {
    let mut args: Vec<String> = [
        "run",
        "--backend",
        "browser",
        "--policy",
        "reflex",
        "--quiet",
        "--cdp",
        ws,
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    tokio::task::spawn_blocking(move || {
        let mut child = arc()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(subtask.to_string().as_bytes()).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_with_cdp_and_no_url_runs_on_the_page_as_it_is() {
    let server = StaticServer::start(site()).await.unwrap();
    let chromium = PortChromium::launch();
    let browser = Browser::connect(&chromium.ws_url).await.unwrap();
    let page = browser.new_page(&server.url("events.html")).await.unwrap();
    // State the page has before the run: typed text and a mark a reload would lose.
    page.evaluate(
        "document.getElementById('text').value = 'typed before'; window.__mark = 'kept'; 1",
    )
    .await
    .unwrap();
    let target = page.target_id().0.clone();
    let clicks = "window.__events.filter(e => e.type === 'click' && e.target === 'btn').length";
    let subtask = json!({"goal": "Click \"Click me\"", "verification": ["The page shows \"clicked 1 time\""]});
    let output = run_cdp(&chromium.ws_url, &["--target", &target], subtask.clone()).await;
    let result: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("a result line: {}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(result["status"], "SUBTASK_COMPLETE", "{result}");
    assert!(output.status.success());
    assert_eq!(
        page.evaluate("window.__mark").await.unwrap(),
        "kept",
        "no reload"
    );
    assert_eq!(
        page.evaluate("document.getElementById('text').value")
            .await
            .unwrap(),
        "typed before"
    );
    assert_eq!(page.evaluate(clicks).await.unwrap(), 1);
    // Two pages and no --target: refused naming the pages, and nothing runs.
    let _second = browser.new_page("about:blank").await.unwrap();
    let output = run_cdp(&chromium.ws_url, &[], subtask).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("pages open") && stderr.contains(&page.target_id().0),
        "{stderr}"
    );
    assert_eq!(page.evaluate(clicks).await.unwrap(), 1, "nothing ran");
}
