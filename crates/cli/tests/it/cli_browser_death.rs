//! A browser killed under `arc-cua run` or `arc-cua observe` is an environment failure:
//! exit 3, promptly, saying so — and a run still prints its result line. The browser is
//! found and killed through /proc, as an outside fault would.

use crate::procs::{browser_of, procs};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn arc() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("arc-cua"))
}

fn sigkill(pid: u32) {
    // SAFETY: kill(2) on the browser process the command under test launched.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
}

/// Waits (at most 15 s) for the command to exit, returning its code and how long after
/// `since` it exited.
fn exit_of(child: &mut Child, since: Instant) -> (Option<i32>, Duration) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), since.elapsed());
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("arc-cua did not exit within 15 s of the kill");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// No live process is left in the browser's group.
fn assert_group_gone(pgid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<_> = procs()
            .into_iter()
            .filter(|p| p.2 == pgid && p.3 != 'Z')
            .collect();
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "left behind: {left:#?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

const TICKING: &str = r#"<!DOCTYPE html><title>Ticking</title>
<p id="t">0</p><button>Nothing</button>
<script>let n = 0; setInterval(() => { document.getElementById('t').textContent = ++n; }, 300);</script>"#;

/// What the fault injector kills.
#[derive(Clone, Copy)]
enum Victim {
    Browser,
    Renderers,
}

#[test]
fn run_exits_3_promptly_with_its_result_when_the_browser_is_killed() {
    run_with_a_killed(Victim::Browser, "browser is gone");
}

#[test]
fn run_exits_3_promptly_with_its_result_when_the_renderer_is_killed() {
    run_with_a_killed(Victim::Renderers, "renderer crashed");
}

fn run_with_a_killed(victim: Victim, why: &str) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("ticking.html");
    std::fs::write(&page, TICKING).unwrap();
    let waits: Vec<&str> = vec![r#"{"kind": "WAIT"}"#; 30];
    let script = dir.path().join("script.json");
    std::fs::write(&script, format!("[{}]", waits.join(","))).unwrap();

    let mut child = arc()
        .args(["run", "--backend", "browser", "--url"])
        .arg(&page)
        .arg("--script")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"goal": "Wait on the page", "verification": ["The page shows Done"], "max_actions": 40}"#)
        .unwrap();
    let browser = browser_of(&mut child);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The run is under way once its first step is printed.
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let step: Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("{first}: {e}"));
    assert!(
        step.get("status").is_none(),
        "a step line, not the result: {first}"
    );

    let killed = Instant::now();
    match victim {
        Victim::Browser => sigkill(browser),
        Victim::Renderers => {
            let renderers: Vec<u32> = procs()
                .into_iter()
                .filter(|p| p.2 == browser && p.4.contains("--type=renderer") && p.3 != 'Z')
                .map(|p| p.0)
                .collect();
            assert!(!renderers.is_empty(), "no renderer in group {browser}");
            renderers.into_iter().for_each(sigkill);
        }
    }
    let (code, after) = exit_of(&mut child, killed);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(3), "stderr: {stderr}");
    assert!(
        after < Duration::from_secs(3),
        "exited {after:?} after the kill"
    );
    assert!(stderr.contains(why), "{stderr}");
    // The result is not lost: the last line says how the run ended.
    let result: Value = serde_json::from_str(rest.lines().last().unwrap()).unwrap();
    assert_eq!(result["status"], "NEEDS_AGENT", "{result}");
    assert_eq!(result["termination"], "backend_error", "{result}");
    assert!(result["reason"].as_str().unwrap().contains(why), "{result}");
    assert_group_gone(browser);
}

/// Serves one page that never finishes loading: the head and half a body, then silence.
fn never_loading_server() -> (String, std::sync::mpsc::Receiver<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<!DOCTYPE html><title>Slow</title><p>Loading",
            );
            let _ = tx.send(());
            held.push(stream);
        }
    });
    (url, rx)
}

#[test]
fn observe_exits_3_promptly_when_the_browser_is_killed() {
    let (url, requested) = never_loading_server();
    let mut child = arc()
        .args(["observe", &url])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let browser = browser_of(&mut child);
    requested
        .recv_timeout(Duration::from_secs(10))
        .expect("the browser asks for the page");
    let killed = Instant::now();
    sigkill(browser);
    let (code, after) = exit_of(&mut child, killed);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(3), "stderr: {stderr}");
    assert!(
        after < Duration::from_secs(3),
        "exited {after:?} after the kill"
    );
    assert!(stderr.contains("browser is gone"), "{stderr}");
    assert_group_gone(browser);
}
