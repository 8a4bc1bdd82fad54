//! Helpers shared by the integration tests (which all run real headless Chromium).

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The project's fixture site.
pub fn site_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site")
}

/// A process seen in /proc.
#[derive(Debug, Clone)]
pub struct Proc {
    pub pid: u32,
    pub state: char,
    pub pgrp: u32,
    pub cmdline: String,
}

/// Every process currently visible in /proc.
pub fn processes() -> Vec<Proc> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`; comm may contain spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        let (Some(state), Some(pgrp)) = (
            fields.first().and_then(|s| s.chars().next()),
            fields.get(2).and_then(|s| s.parse().ok()),
        ) else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        out.push(Proc {
            pid,
            state,
            pgrp,
            cmdline,
        });
    }
    out
}

/// Processes of the launch: in process group `pgid` or naming `profile_dir` on their
/// command line (every Chromium helper carries `--user-data-dir`... or the group).
pub fn launch_processes(pgid: u32, profile_dir: &str) -> Vec<Proc> {
    processes()
        .into_iter()
        .filter(|p| p.pgrp == pgid || (!profile_dir.is_empty() && p.cmdline.contains(profile_dir)))
        .collect()
}

/// Waits (briefly: helpers die asynchronously after SIGKILL of the group) until no
/// live process of the launch is left, returning the leftovers otherwise.
///
/// Zombies (state `Z`) count as gone: they have exited and hold nothing but a pid;
/// the helpers' zombies are re-parented to init, which reaps them (here within ≈ 1 s),
/// and no process but their parent can.
pub fn leftovers_after(pgid: u32, profile_dir: &str, timeout: Duration) -> Vec<Proc> {
    let deadline = Instant::now() + timeout;
    loop {
        let mut left = launch_processes(pgid, profile_dir);
        left.retain(|p| p.state != 'Z' && p.state != 'X');
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Launches a headless Chromium and connects to it.
pub async fn launch() -> (arc_browser::Chromium, arc_browser::Browser) {
    let chromium = arc_browser::Chromium::launch(arc_browser::LaunchOptions::default())
        .await
        .expect("Chromium launches (it is installed at /usr/lib/chromium/chromium)");
    let browser = chromium.connect().await.expect("connects to Chromium");
    (chromium, browser)
}

/// Serves the fixture site.
pub async fn fixture_server() -> arc_browser::StaticServer {
    arc_browser::StaticServer::start(site_root())
        .await
        .expect("serves fixtures/site")
}

/// Waits for the first `E` event on `events` that satisfies `pred`.
pub async fn wait_for<E: arc_browser::cdp::EventType>(
    events: &mut tokio::sync::mpsc::UnboundedReceiver<arc_browser::cdp::Event>,
    pred: impl Fn(&E) -> bool,
) -> E {
    let wait = async {
        while let Some(event) = events.recv().await {
            if let Some(parsed) = event.parse::<E>() {
                let parsed = parsed.expect("event parses");
                if pred(&parsed) {
                    return parsed;
                }
            }
        }
        panic!("event stream ended before {}", E::NAME);
    };
    tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .unwrap_or_else(|_| panic!("no {} within 10 s", E::NAME))
}

/// Polls a JS expression until it returns `expected` (10 s at most).
pub async fn eventually(
    page: &arc_browser::PageSession,
    expression: &str,
    expected: serde_json::Value,
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let value = page.evaluate(expression).await.unwrap();
        if value == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "`{expression}` is {value}, expected {expected}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A fixture page in a fresh headless Chromium driven through the arc-core backend.
pub struct Fixture {
    pub server: arc_browser::StaticServer,
    pub backend: arc_browser::backend::BrowserBackend,
}

impl Fixture {
    pub async fn open(page: &str) -> Fixture {
        Fixture::open_with(page, arc_browser::backend::BrowserOptions::default()).await
    }

    pub async fn open_with(page: &str, options: arc_browser::backend::BrowserOptions) -> Fixture {
        let server = arc_browser::StaticServer::start(site_root())
            .await
            .expect("static server");
        let backend = arc_browser::backend::BrowserBackend::start(options, &server.url(page))
            .await
            .expect("browser backend");
        Fixture { server, backend }
    }

    pub async fn observe(&mut self) -> arc_core::Snapshot {
        use arc_core::Backend;
        self.backend.observe().await.expect("observe")
    }

    /// Materializes and executes one action on `snapshot`, as the loop would.
    pub async fn act(
        &mut self,
        snapshot: &arc_core::Snapshot,
        action: arc_core::Action,
        subtask: &arc_core::Subtask,
    ) -> Result<arc_core::Executed, arc_core::BackendError> {
        use arc_core::Backend;
        let exec = arc_core::ExecutableAction::materialize(&action, snapshot, subtask)
            .expect("a legal action");
        if !self.backend.is_fresh(snapshot, &exec).await? {
            return Err(arc_core::BackendError::stale(exec.target(), "not fresh"));
        }
        self.backend.execute(snapshot, &exec).await
    }

    /// Evaluates in the page (the page's own record, independent of the runtime).
    pub async fn eval(&self, expression: &str) -> serde_json::Value {
        self.backend
            .page()
            .evaluate(expression)
            .await
            .expect("evaluate")
    }

    /// The page's own record of the input events it received.
    pub async fn events(&self) -> Vec<serde_json::Value> {
        serde_json::from_value(self.eval("window.__events").await).unwrap_or_default()
    }
}

/// A count the backend keeps of its observations (`reused_observations`,
/// `unasked_observations`).
pub type Counted = fn(&arc_browser::backend::BrowserBackend) -> u64;

/// Observes until one observation raises `counted` by one (at most 40 tries, `pause`
/// apart): the page was quiet long enough for the fast path `counted` counts.
pub async fn observe_until_counted(
    f: &mut Fixture,
    counted: Counted,
    pause: Duration,
) -> arc_core::Snapshot {
    for _ in 0..40 {
        let before = counted(&f.backend);
        let s = f.observe().await;
        if counted(&f.backend) == before + 1 {
            return s;
        }
        tokio::time::sleep(pause).await;
    }
    panic!("a quiet page never took the fast path");
}

/// The next observation, which must not be counted by `counted`: `why` says what then went wrong.
pub async fn observe_uncounted(f: &mut Fixture, counted: Counted, why: &str) -> arc_core::Snapshot {
    let before = counted(&f.backend);
    let s = f.observe().await;
    assert_eq!(counted(&f.backend), before, "{why}");
    s
}

/// The id of the first element with this role and exact name.
pub fn find(snapshot: &arc_core::Snapshot, role: &str, name: &str) -> arc_core::ElementId {
    let role = arc_core::Role::parse(role);
    snapshot
        .elements
        .iter()
        .find(|e| e.role == role && e.name == name)
        .unwrap_or_else(|| {
            let have: Vec<String> = snapshot
                .elements
                .iter()
                .map(|e| format!("{} {:?}", e.role, e.name))
                .collect();
            panic!("no {role} {name:?} in {have:#?}")
        })
        .id
        .clone()
}

/// Waits up to 10 s for `check` to hold on the page's own state.
pub async fn settled_true(fixture: &Fixture, expression: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let v = fixture.eval(expression).await;
        if v.as_bool() == Some(true) || Instant::now() > deadline {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A Chromium the test starts itself with a DevTools *port* (as a user would for
/// `--cdp ws://…`), in its own process group, killed with its profile on drop.
pub struct PortChromium {
    pub child: std::process::Child,
    pub ws_url: String,
    pub profile: tempfile::TempDir,
}

impl PortChromium {
    pub fn start() -> PortChromium {
        use std::io::BufRead;
        use std::os::unix::process::CommandExt;
        let profile = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(arc_browser::DEFAULT_CHROMIUM_PATH)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("Chromium starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        // Keep draining stderr so Chromium never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(url.trim().to_owned());
                    }
                }
            }
        });
        let ws_url = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("Chromium prints its DevTools address");
        PortChromium {
            child,
            ws_url,
            profile,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for PortChromium {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the group this child leads.
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.child.wait();
        let _ = leftovers_after(self.child.id(), "", Duration::from_secs(5));
    }
}

/// The inodes of every TCP socket in LISTEN state (IPv4 and IPv6) in this namespace.
pub fn listening_tcp_inodes() -> std::collections::HashSet<u64> {
    let mut out = std::collections::HashSet::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
            if f.get(3) == Some(&"0A") {
                if let Some(inode) = f.get(9).and_then(|i| i.parse().ok()) {
                    out.insert(inode);
                }
            }
        }
    }
    out
}

/// The listening TCP sockets held open by any process of group `pgid`, as
/// `(pid, inode)`: read from each process's own fd table, not from the runtime.
pub fn listening_sockets_of_group(pgid: u32) -> Vec<(u32, u64)> {
    let listening = listening_tcp_inodes();
    let mut out = Vec::new();
    for p in processes().into_iter().filter(|p| p.pgrp == pgid) {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{}/fd", p.pid)) else {
            continue;
        };
        for fd in fds.flatten() {
            let Ok(target) = std::fs::read_link(fd.path()) else {
                continue;
            };
            let target = target.to_string_lossy();
            if let Some(inode) = target
                .strip_prefix("socket:[")
                .and_then(|s| s.strip_suffix(']'))
                .and_then(|s| s.parse::<u64>().ok())
            {
                if listening.contains(&inode) {
                    out.push((p.pid, inode));
                }
            }
        }
    }
    out
}
