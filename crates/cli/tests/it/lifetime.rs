//! Chromium dies with `arc-cua` however `arc-cua` dies, and `--timeout-ms` bounds the
//! whole command. Real processes, real signals, a real loopback HTTP server; what is
//! left behind is read from /proc and the file system, never from the runtime.
//!
//! Each run gets its own TMPDIR, so its profile (and Chromium's own temp files, which
//! the launcher puts inside the profile) can only be there: "nothing left" is "that
//! directory is empty and no process's command line names it".

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous bounds: the machine has two cores and other test suites run beside us.
const LAUNCH_BOUND: Duration = Duration::from_secs(30);
/// From the signal to: exited, no process of the run left, its directory empty.
const DEATH_BOUND: Duration = Duration::from_secs(5);

const PAYLOAD: &str =
    r#"{"goal": "Click the Go button", "verification": ["The page says All done"]}"#;

/// A page whose Go button, once its click is reported to the server, freezes the page
/// for good: the action's follow-up calls then never answer.
const FREEZING_PAGE: &str = r#"<!doctype html><title>freeze</title>
<button onclick="fetch('/clicked').then(() => { navigator.sendBeacon('/frozen'); for (;;) {} })">Go</button>"#;

/// A loopback HTTP server: `/never` is accepted and never answered, `/page` is
/// [`FREEZING_PAGE`] (it calls `/clicked`, then beacons `/frozen` as it freezes), `/v1/…`
/// (a model endpoint) never answers, anything else is 204.
/// Records every request path.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let log = Arc::clone(&log);
                // A thread per connection: Chromium opens idle preconnections.
                std::thread::spawn(move || {
                    let path = request_path(&stream);
                    log.lock().unwrap().push(path.clone());
                    if path == "/never" || path.starts_with("/v1/") {
                        // Open and unanswered for the test's whole life.
                        std::thread::sleep(Duration::from_secs(600));
                    } else if path == "/page" {
                        respond(stream, "200 OK", FREEZING_PAGE);
                    } else {
                        respond(stream, "204 No Content", "");
                    }
                });
            }
        });
        Server { port, seen }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn saw(&self, path: &str) -> bool {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.starts_with(path))
    }
}

/// Reads the request head; returns its path.
fn request_path(stream: &TcpStream) -> String {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream);
    let mut first = String::new();
    let _ = reader.read_line(&mut first);
    let mut line = String::new();
    let mut length = 0;
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        line.clear();
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    first.split_whitespace().nth(1).unwrap_or("").to_owned()
}

fn respond(mut stream: TcpStream, status: &str, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// A process of the run, as /proc shows it.
#[derive(Debug)]
#[allow(dead_code)] // read through Debug in failure messages
struct Proc {
    pid: u32,
    state: char,
    cmdline: String,
}

/// Live (not zombie) processes whose command line mentions `needle`.
fn processes_naming(needle: &str) -> Vec<Proc> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
        if !cmdline.contains(needle) {
            continue;
        }
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(") ").and_then(|(_, r)| r.chars().next()))
            .unwrap_or('?');
        if state != 'Z' && state != 'X' {
            found.push(Proc {
                pid,
                state,
                cmdline: cmdline.chars().take(160).collect(),
            });
        }
    }
    found
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    all.sort();
    all
}

/// One `arc-cua run --backend browser` with its own TMPDIR.
struct Run {
    child: Child,
    tmp: tempfile::TempDir,
    _payload: tempfile::NamedTempFile,
    output: Arc<Mutex<HashMap<&'static str, String>>>,
}

impl Run {
    /// `arc-cua run --backend browser --url URL --file PAYLOAD EXTRA…`.
    fn start(url: &str, extra: &[&str]) -> Run {
        let mut payload = tempfile::NamedTempFile::new().unwrap();
        payload.write_all(PAYLOAD.as_bytes()).unwrap();
        let path = payload.path().display().to_string();
        let mut args = vec!["run", "--backend", "browser", "--url", url, "--file", &path];
        args.extend(extra);
        Run::spawn(&args, payload)
    }

    /// `arc-cua ARGS…` with a TMPDIR of its own (`keep` lives as long as the run).
    fn spawn(args: &[&str], keep: tempfile::NamedTempFile) -> Run {
        Run::spawn_in(tempfile::tempdir().unwrap(), args, keep)
    }

    /// `arc-cua ARGS…` with `tmp` as its TMPDIR.
    fn spawn_in(tmp: tempfile::TempDir, args: &[&str], keep: tempfile::NamedTempFile) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arc-cua"))
            .args(args)
            .env("TMPDIR", tmp.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let output: Arc<Mutex<HashMap<&'static str, String>>> = Arc::default();
        for (name, mut pipe) in [
            (
                "stdout",
                Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            ),
            ("stderr", Box::new(child.stderr.take().unwrap())),
        ] {
            let output = Arc::clone(&output);
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = pipe.read_to_string(&mut text);
                output.lock().unwrap().insert(name, text);
            });
        }
        Run {
            child,
            tmp,
            _payload: keep,
            output,
        }
    }

    fn dir(&self) -> String {
        self.tmp.path().display().to_string()
    }

    fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Waits until `ready` holds and Chromium (a process naming our TMPDIR) runs.
    fn wait_until(&mut self, what: &str, ready: impl Fn() -> bool) {
        let deadline = Instant::now() + LAUNCH_BOUND;
        while !ready() || processes_naming(&self.dir()).is_empty() {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "arc-cua ended ({status}) before {what}: {:?}",
                    self.output()
                );
            }
            assert!(Instant::now() < deadline, "never saw {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn signal(&self, signal: libc::c_int) {
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(self.pid(), signal) }, 0);
    }

    /// Waits (bounded) for the exit; returns the status and how long it took.
    fn wait_exit(&mut self, bound: Duration) -> (ExitStatus, Duration) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, started.elapsed());
            }
            if started.elapsed() > bound {
                let _ = self.child.kill();
                panic!("arc-cua still running {bound:?} later");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Asserts that within `bound` no process names this run's TMPDIR and the
    /// directory is empty (no profile, no `org.chromium.Chromium.*`).
    fn assert_nothing_left(&self, bound: Duration) {
        let deadline = Instant::now() + bound;
        loop {
            let procs = processes_naming(&self.dir());
            let files = entries(self.tmp.path());
            if procs.is_empty() && files.is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "left behind after {bound:?}: processes {procs:#?}, files {files:#?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stdout and stderr (after the exit; the readers finish with the pipes).
    fn output(&self) -> (String, String) {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let out = self.output.lock().unwrap();
            if out.len() == 2 || Instant::now() > deadline {
                let get = |k| out.get(k).cloned().unwrap_or_default();
                return (get("stdout"), get("stderr"));
            }
            drop(out);
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The exit a signal should produce: the conventional code, or death by SIGKILL.
fn assert_exit(status: ExitStatus, signal: libc::c_int, run: &Run) {
    if signal == libc::SIGKILL {
        assert_eq!(status.signal(), Some(libc::SIGKILL), "{status}");
    } else {
        assert_eq!(
            status.code(),
            Some(128 + signal),
            "{status}; output {:?}",
            run.output()
        );
    }
}

/// Signals `arc-cua` while Chromium is still loading the first page (a server that
/// accepts and never answers): Chromium and the profile must go with it.
fn during_the_first_load(signal: libc::c_int) {
    let server = Server::start();
    let mut run = Run::start(&server.url("/never"), &["--policy", "reflex"]);
    run.wait_until("the first request", || server.saw("/never"));
    let sent = Instant::now();
    run.signal(signal);
    let (status, _) = run.wait_exit(DEATH_BOUND);
    assert_exit(status, signal, &run);
    run.assert_nothing_left(DEATH_BOUND.saturating_sub(sent.elapsed()));
}

#[test]
fn sigterm_during_the_first_load_leaves_nothing() {
    during_the_first_load(libc::SIGTERM);
}

#[test]
fn sighup_during_the_first_load_leaves_nothing() {
    during_the_first_load(libc::SIGHUP);
}

#[test]
fn sigint_during_the_first_load_leaves_nothing() {
    during_the_first_load(libc::SIGINT);
}

#[test]
fn sigkill_during_the_first_load_leaves_nothing() {
    during_the_first_load(libc::SIGKILL);
}

/// Signals `arc-cua` while its run waits for a model that never answers.
fn during_the_run(signal: libc::c_int) -> Run {
    let server = Server::start();
    let model = server.url("/v1");
    let mut run = Run::start(
        &server.url("/page"),
        &[
            "--policy",
            "model",
            "--model",
            "test-model",
            "--model-base-url",
            &model,
            "--model-api-key",
            "k",
        ],
    );
    run.wait_until("the model request", || server.saw("/v1/"));
    let sent = Instant::now();
    run.signal(signal);
    let (status, _) = run.wait_exit(DEATH_BOUND);
    assert_exit(status, signal, &run);
    run.assert_nothing_left(DEATH_BOUND.saturating_sub(sent.elapsed()));
    run
}

#[test]
fn sigterm_during_the_run_leaves_nothing() {
    during_the_run(libc::SIGTERM);
}

#[test]
fn sighup_during_the_run_leaves_nothing() {
    during_the_run(libc::SIGHUP);
}

#[test]
fn sigkill_during_the_run_leaves_nothing() {
    during_the_run(libc::SIGKILL);
}

#[test]
fn sigint_during_the_run_ends_it_with_its_result_line() {
    let run = during_the_run(libc::SIGINT);
    let (stdout, _) = run.output();
    let result: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
    assert_eq!(result["status"], "NEEDS_AGENT", "{result}");
    assert_eq!(result["termination"], "cancelled", "{result}");
}

#[test]
fn chromium_keeps_its_temp_files_inside_the_profile() {
    let server = Server::start();
    let mut run = Run::start(&server.url("/never"), &["--policy", "reflex"]);
    run.wait_until("the first request", || server.saw("/never"));
    // Chromium's shared-memory directory (it uses TMPDIR for it with
    // --disable-dev-shm-usage) appears under <profile>/tmp, not beside the profile.
    let deadline = Instant::now() + LAUNCH_BOUND;
    let inside = loop {
        let found: Vec<PathBuf> = entries(run.tmp.path())
            .iter()
            .flat_map(|profile| entries(&profile.join("tmp")))
            .filter(|p| p.to_string_lossy().contains("org.chromium.Chromium."))
            .collect();
        if !found.is_empty() || Instant::now() > deadline {
            break found;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!inside.is_empty(), "{:#?}", entries(run.tmp.path()));
    let beside: Vec<PathBuf> = entries(run.tmp.path())
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("arc-cua-chromium-"))
        .collect();
    assert!(beside.is_empty(), "{beside:#?}");
    run.signal(libc::SIGTERM);
    let (status, _) = run.wait_exit(DEATH_BOUND);
    assert_exit(status, libc::SIGTERM, &run);
    run.assert_nothing_left(DEATH_BOUND);
}

#[test]
fn a_second_sigint_quits_at_once() {
    let server = Server::start();
    let mut run = Run::start(&server.url("/page"), &["--policy", "reflex"]);
    // The click landed and the page froze: the action's follow-up cannot finish. The
    // beacon leaves as the loop starts; "/clicked" alone came too early on a loaded
    // machine, while the page still answered and the run wound down at once.
    run.wait_until("the freeze", || server.saw("/frozen"));
    run.signal(libc::SIGINT);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        run.child.try_wait().unwrap().is_none(),
        "the first Ctrl-C lets the run wind down (up to its grace) rather than quitting"
    );
    let sent = Instant::now();
    run.signal(libc::SIGINT);
    // Well inside the remaining grace (≈4.5 s): this is the second Ctrl-C's doing.
    let (status, took) = run.wait_exit(Duration::from_secs(10));
    assert!(took < Duration::from_millis(2500), "took {took:?}");
    assert_exit(status, libc::SIGINT, &run);
    run.assert_nothing_left(DEATH_BOUND.saturating_sub(sent.elapsed()));
}

#[test]
fn timeout_bounds_a_page_that_never_loads() {
    let server = Server::start();
    let started = Instant::now();
    let mut run = Run::start(
        &server.url("/never"),
        &["--policy", "reflex", "--timeout-ms", "10000"],
    );
    let (status, _) = run.wait_exit(Duration::from_secs(30));
    let took = started.elapsed();
    // 10 s (so that even a launch on a crowded machine reaches the page) plus process
    // start, teardown and slack; without the bound this took 30 s (the navigation
    // timeout) plus the launch.
    assert!(took < Duration::from_secs(16), "took {took:?}");
    assert!(server.saw("/never"), "Chromium was loading the page");
    assert_eq!(status.code(), Some(3), "{status}");
    let (stdout, stderr) = run.output();
    assert!(stdout.is_empty(), "no run, no result line: {stdout}");
    assert!(
        stderr.contains("--timeout-ms 10000") && stderr.contains("before the run started"),
        "{stderr}"
    );
    run.assert_nothing_left(DEATH_BOUND);
}

#[test]
fn timeout_bounds_an_action_on_a_page_that_freezes() {
    let server = Server::start();
    let started = Instant::now();
    // Long enough for the launch on a loaded machine, so the run starts and clicks.
    let mut run = Run::start(
        &server.url("/page"),
        &["--policy", "reflex", "--timeout-ms", "12000"],
    );
    let (status, _) = run.wait_exit(Duration::from_secs(60));
    let took = started.elapsed();
    // Without the bound the frozen page held the run for the 30 s action timeout; the
    // slack past 12 s is for a crowded machine (load averages of 50+ seen here).
    assert!(took < Duration::from_secs(18), "took {took:?}");
    assert!(server.saw("/clicked"), "the run clicked Go");
    assert_eq!(status.code(), Some(1), "{status}");
    let (stdout, _) = run.output();
    let result: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
    assert_eq!(result["status"], "NEEDS_AGENT", "{result}");
    assert_eq!(result["termination"], "timeout", "{result}");
    run.assert_nothing_left(DEATH_BOUND);
}

#[test]
fn timeout_bounds_observe_on_a_page_that_never_loads() {
    let server = Server::start();
    let started = Instant::now();
    let url = server.url("/never");
    let mut run = Run::spawn(
        &["observe", &url, "--timeout-ms", "10000"],
        tempfile::NamedTempFile::new().unwrap(),
    );
    let (status, _) = run.wait_exit(Duration::from_secs(30));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(16), "took {took:?}");
    assert!(server.saw("/never"), "Chromium was loading the page");
    assert_eq!(status.code(), Some(3), "{status}");
    let (stdout, stderr) = run.output();
    assert!(stdout.is_empty(), "no view: {stdout}");
    assert!(stderr.contains("--timeout-ms 10000"), "{stderr}");
    run.assert_nothing_left(DEATH_BOUND);
}

/// `arc-cua host --socket` in its TMPDIR, ended by `signal` once it serves: it exits
/// with the signal's code, its socket file is gone (the TMPDIR is empty) and no Chromium
/// it launched remains (/proc).
fn host_socket_ended_by(signal: libc::c_int) {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    // The host serves only in a private directory.
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let socket = tmp.path().join("host.sock");
    let arg = socket.display().to_string();
    let keep = tempfile::NamedTempFile::new().unwrap();
    let mut run = Run::spawn_in(tmp, &["host", "--socket", &arg], keep);
    run.wait_until("the host serving on its socket", || {
        std::os::unix::net::UnixStream::connect(&socket).is_ok()
    });
    run.signal(signal);
    let (status, _) = run.wait_exit(Duration::from_secs(20));
    assert_exit(status, signal, &run);
    assert!(
        !socket.exists(),
        "the socket file is removed on the way out"
    );
    run.assert_nothing_left(Duration::from_secs(5));
}

#[test]
fn sigterm_to_a_socket_host_removes_its_socket_and_leaves_nothing() {
    host_socket_ended_by(libc::SIGTERM);
}

#[test]
fn sigint_to_a_socket_host_removes_its_socket_and_leaves_nothing() {
    host_socket_ended_by(libc::SIGINT);
}
