//! A private desktop per test: its own Xvfb display and D-Bus session (the AT-SPI bus and
//! registry start from it by D-Bus activation), the GTK fixture on them, and its JSON
//! record as the oracle. Everything runs in process groups killed on drop: nothing leaks.

#![allow(dead_code)]

use arc_desktop::{AppSelector, DesktopBackend, DesktopOptions};
use serde::Deserialize;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const START_TIMEOUT: Duration = Duration::from_secs(20);

pub struct Desktop {
    xvfb: Child,
    dbus: Child,
    pub display: String,
    pub bus: String,
    pub dir: tempfile::TempDir,
}

fn group_kill(child: &mut Child) {
    // SAFETY: plain syscalls on a pid/pgid we spawned; failures (already gone) are fine.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The first line `child` prints on stdout, within the start timeout.
fn first_line(child: &mut Child, what: &str) -> String {
    let out = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(START_TIMEOUT)
        .unwrap_or_else(|_| panic!("{what} printed nothing within {START_TIMEOUT:?}"));
    assert!(!line.trim().is_empty(), "{what} exited without printing");
    line.trim().to_owned()
}

impl Desktop {
    pub fn start() -> Desktop {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut xvfb = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("Xvfb (scripts/setup-system.sh installs xvfb)");
        let display = format!(":{}", first_line(&mut xvfb, "Xvfb"));
        let mut dbus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .arg(format!("--address=unix:dir={}", dir.path().display()))
            .env("DISPLAY", &display)
            .env_remove("NO_AT_BRIDGE")
            .env_remove("GTK_A11Y")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("dbus-daemon (scripts/setup-system.sh installs dbus)");
        let bus = first_line(&mut dbus, "dbus-daemon");
        Desktop {
            xvfb,
            dbus,
            display,
            bus,
            dir,
        }
    }

    /// Starts the GTK fixture and waits for it to say it is ready.
    pub fn launch(&self, extra: &[&str]) -> App {
        self.launch_fixture("gtk_form.py", extra)
    }

    /// Starts `fixtures/desktop/SCRIPT` (which takes `--record PATH` and notes a `ready`
    /// event) and waits for it to say it is ready.
    pub fn launch_fixture(&self, script: &str, extra: &[&str]) -> App {
        self.launch_script(script, "record.json", extra)
    }

    /// A second (third, …) GTK fixture app, recording into its own file.
    pub fn launch_recording(&self, record: &str, extra: &[&str]) -> App {
        self.launch_script("gtk_form.py", record, extra)
    }

    fn launch_script(&self, script: &str, record: &str, extra: &[&str]) -> App {
        let record = self.dir.path().join(record);
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/desktop")
            .join(script);
        let child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg("--record")
            .arg(&record)
            .args(extra)
            .env("DISPLAY", &self.display)
            .env("DBUS_SESSION_BUS_ADDRESS", &self.bus)
            .env_remove("NO_AT_BRIDGE")
            .env_remove("GTK_A11Y")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("/usr/bin/python3 with python3-gi");
        let app = App { child, record };
        app.wait_for(
            |r: &Started| r.events.iter().any(|e| e.kind == "ready"),
            "the fixture to start",
        );
        app
    }

    pub fn options(&self, app: &App) -> DesktopOptions {
        let mut o = DesktopOptions::new(AppSelector::Pid(app.pid()));
        o.session_bus = Some(self.bus.clone());
        o.display = Some(self.display.clone());
        o
    }

    pub async fn backend(&self, app: &App) -> DesktopBackend {
        DesktopBackend::connect(self.options(app))
            .await
            .expect("desktop backend")
    }

    /// Where the X pointer is, read straight from the X server (not through the backend).
    pub fn pointer(&self) -> (i32, i32) {
        use x11rb::connection::Connection;
        use x11rb::protocol::xproto::ConnectionExt;
        let (conn, screen) = x11rb::connect(Some(&self.display)).expect("X display");
        let root = conn.setup().roots[screen].root;
        let r = conn.query_pointer(root).unwrap().reply().unwrap();
        (r.root_x as i32, r.root_y as i32)
    }

    /// Parks the pointer (a warp, not the backend's XTest path).
    pub fn park_pointer(&self, x: i16, y: i16) {
        use x11rb::connection::Connection;
        use x11rb::protocol::xproto::ConnectionExt;
        let (conn, screen) = x11rb::connect(Some(&self.display)).expect("X display");
        let root = conn.setup().roots[screen].root;
        conn.warp_pointer(x11rb::NONE, root, 0, 0, 0, 0, x, y)
            .unwrap();
        conn.get_input_focus().unwrap().reply().unwrap();
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        group_kill(&mut self.dbus);
        group_kill(&mut self.xvfb);
    }
}

pub struct App {
    child: Child,
    pub record: PathBuf,
}

/// What every fixture's record has: its events, each with a kind.
#[derive(Debug, Deserialize)]
pub struct Started {
    pub events: Vec<Kind>,
}

#[derive(Debug, Deserialize)]
pub struct Kind {
    pub kind: String,
}

#[derive(Debug, Deserialize)]
pub struct Record {
    pub pid: u32,
    pub events: Vec<Event>,
    pub state: State,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct Event {
    pub kind: String,
    pub widget: String,
    #[serde(default)]
    pub value: serde_json::Value,
    #[serde(default)]
    pub row: Option<i64>,
    #[serde(default)]
    pub key: Option<String>,
    /// Modifiers held during a pointer press (the icon's record).
    #[serde(default)]
    pub modifiers: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
pub struct State {
    pub name: String,
    pub subscribe: bool,
    pub color: Option<String>,
    pub selected_row: Option<i64>,
    pub volume: f64,
    pub dialog_open: bool,
    pub dialog_answer: Option<String>,
}

impl App {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn read(&self) -> Option<Record> {
        let text = std::fs::read_to_string(&self.record).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Polls the app's own record until `pred` holds (bounded: panics after 10 s).
    pub fn wait(&self, pred: impl Fn(&Record) -> bool, what: &str) -> Record {
        self.wait_for(pred, what)
    }

    /// The record read as `T` (another fixture's shape).
    pub fn read_as<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        let text = std::fs::read_to_string(&self.record).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Polls the app's own record, read as `T`, until `pred` holds (panics after 10 s).
    pub fn wait_for<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        &self,
        pred: impl Fn(&T) -> bool,
        what: &str,
    ) -> T {
        let started = Instant::now();
        loop {
            if let Some(r) = self.read_as::<T>() {
                if pred(&r) {
                    return r;
                }
            }
            if started.elapsed() > Duration::from_secs(10) {
                panic!(
                    "timed out waiting for {what}; record: {:#?}",
                    std::fs::read_to_string(&self.record)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn signal(&self, sig: i32) {
        // SAFETY: a signal to the fixture we spawned.
        unsafe {
            libc::kill(self.child.id() as i32, sig);
        }
    }

    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

impl Drop for App {
    fn drop(&mut self) {
        group_kill(&mut self.child);
    }
}

/// The element with this role and name (panics listing what there is).
pub fn find(snapshot: &arc_core::Snapshot, role: &str, name: &str) -> arc_core::ElementId {
    snapshot
        .elements
        .iter()
        .find(|e| e.role.as_str() == role && e.name == name)
        .map(|e| e.id.clone())
        .unwrap_or_else(|| {
            let have: Vec<String> = snapshot
                .elements
                .iter()
                .map(|e| format!("{} {:?}", e.role, e.name))
                .collect();
            panic!("no {role} {name:?} in {have:#?}")
        })
}

pub fn subtask(inputs: &str) -> arc_core::Subtask {
    arc_core::Subtask::from_json(&format!(
        r#"{{"goal": "Fill the form", "inputs": {inputs}, "verification": ["the form is filled"]}}"#
    ))
    .expect("subtask")
}
