//! Chromium keeps its sandbox when the runtime is not root. `arc-cua mcp`, run as uid
//! 65534, launches Chromium without `--no-sandbox`, and its renderers run under
//! seccomp-bpf in a user namespace of their own: all read from /proc, while the page
//! answers `observe`. Where the sandbox cannot run (a user namespace that may not nest
//! another), the launch falls back to `--no-sandbox` once and says so.

use crate::procs::{browser_of, procs};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

const CANARY: &str = "Sandbox canary 7431";

/// A directory any user may write (the unprivileged runtime's HOME and TMPDIR), holding
/// the page.
fn shared_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let page = dir.path().join("page.html");
    std::fs::write(
        &page,
        format!("<!DOCTYPE html><title>Sandboxed</title><button>{CANARY}</button>"),
    )
    .unwrap();
    std::fs::set_permissions(&page, std::fs::Permissions::from_mode(0o644)).unwrap();
    dir
}

/// The command under test, killed (and so its browser, by the reaper) if the test fails.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A line-by-line MCP client over the command's stdin and stdout.
struct Client {
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    fn new(child: &mut Child) -> Client {
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take().unwrap(),
            lines,
        }
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
    }

    /// The reply to request `id` (other messages skipped), within a minute.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no reply to {method}: {e}"));
            let msg: Value = serde_json::from_str(&line).unwrap();
            if msg["id"] == id {
                return msg;
            }
        }
    }
}

fn status_field(pid: u32, field: &str) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .map(|v| v.trim().to_owned())
        .unwrap_or_default()
}

fn user_ns(pid: u32) -> String {
    std::fs::read_link(format!("/proc/{pid}/ns/user"))
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// The live `--type=renderer` processes descending from `browser` (through the zygote).
fn renderers_of(browser: u32) -> Vec<(u32, String)> {
    let table = procs();
    let parent: HashMap<u32, u32> = table.iter().map(|p| (p.0, p.1)).collect();
    let descends = |mut pid: u32| {
        while let Some(&ppid) = parent.get(&pid) {
            if ppid == browser {
                return true;
            }
            if ppid <= 1 {
                break;
            }
            pid = ppid;
        }
        false
    };
    table
        .into_iter()
        .filter(|p| p.3 != 'Z' && p.4.contains("--type=renderer") && descends(p.0))
        .map(|p| (p.0, p.4))
        .collect()
}

#[test]
fn as_a_user_chromium_runs_sandboxed_and_serves_the_page() {
    let dir = shared_dir();
    let mut child = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(assert_cmd::cargo::cargo_bin("arc-cua"))
        .arg("mcp")
        .arg("--url")
        .arg(dir.path().join("page.html"))
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("setpriv runs");
    let mut client = Client::new(&mut child);
    let mut running = Running(child);
    let browser = browser_of(&mut running.0);
    assert_eq!(
        status_field(browser, "Uid:").split_whitespace().nth(1),
        Some("65534"),
        "the browser runs as the unprivileged user"
    );

    // The page loaded: observe answers with its text.
    client.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "sandbox-test", "version": "0"}}),
    );
    client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let observed = client.request(2, "tools/call", json!({"name": "observe", "arguments": {}}));
    let text = observed["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains(CANARY), "{observed}");

    // What the process table says about the sandbox.
    let cmdline = procs()
        .into_iter()
        .find(|p| p.0 == browser)
        .map(|p| p.4)
        .unwrap_or_default();
    let no_sandbox = cmdline.split(' ').any(|a| a == "--no-sandbox");
    let browser_ns = user_ns(browser);
    let renderers: Vec<(u32, String, String)> = renderers_of(browser)
        .into_iter()
        .map(|(pid, _)| (pid, status_field(pid, "Seccomp:"), user_ns(pid)))
        .collect();
    let report = format!(
        "browser {browser} (user ns {browser_ns}) --no-sandbox: {no_sandbox}\n\
         renderers (pid, Seccomp, user ns): {renderers:?}\ncmdline: {cmdline}"
    );
    eprintln!("{report}");
    assert!(
        !no_sandbox,
        "the browser was launched unsandboxed:\n{report}"
    );
    assert!(!renderers.is_empty(), "no renderer:\n{report}");
    for (pid, seccomp, ns) in &renderers {
        assert_eq!(
            seccomp, "2",
            "renderer {pid} is not under seccomp-bpf:\n{report}"
        );
        assert_ne!(
            ns, &browser_ns,
            "renderer {pid} shares the browser's user namespace:\n{report}"
        );
    }

    // The client leaves; the server ends cleanly.
    let Running(child) = &mut running;
    drop(client.stdin);
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "arc-cua mcp exits when stdin closes"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
}

/// A script that enters user namespaces (root in each) while two more levels can be made,
/// then one as uid 1000, in which no further user namespace can be made, and runs its
/// arguments there: a non-root user whose kernel offers Chromium no sandbox.
const NEST: &str = r#"#!/bin/sh
if unshare --user --map-root-user unshare --user --map-root-user true 2>/dev/null; then
    exec unshare --user --map-root-user "$0" "$@"
fi
exec unshare --user --map-user=1000 --map-group=1000 "$@"
"#;

fn nested(dir: &Path) -> Command {
    let script = dir.join("nest.sh");
    std::fs::write(&script, NEST).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Command::new(script);
    command.env("HOME", dir).env("TMPDIR", dir);
    command
}

#[test]
fn where_the_sandbox_cannot_run_the_launch_falls_back_to_no_sandbox_and_warns() {
    let dir = shared_dir();
    // The setting is real: as uid 1000 there, no user namespace can be made.
    let probe = nested(dir.path())
        .args(["sh", "-c", "id -u; unshare --user true"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&probe.stdout).trim(), "1000");
    assert!(
        !probe.status.success(),
        "a user namespace could still be made: {}",
        String::from_utf8_lossy(&probe.stderr)
    );

    let out = nested(dir.path())
        .arg(assert_cmd::cargo::cargo_bin("arc-cua"))
        .arg("observe")
        .arg(dir.path().join("page.html"))
        .env("ARC_CUA_LOG", "arc_browser=warn")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stderr}", out.status);
    assert!(stdout.contains(CANARY), "{stdout}");
    assert!(
        stderr.contains("sandbox cannot run here; relaunching with --no-sandbox")
            && stderr.contains("No usable sandbox"),
        "{stderr}"
    );
}
