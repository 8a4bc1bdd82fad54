//! Launching a private headless Chromium and making sure it never outlives its handle
//! nor the process.
//!
//! DevTools runs over `--remote-debugging-pipe` (fds 3 and 4 of the child, `cdp_fds.rs`):
//! no port, so no other local user can reach the browser. Chromium runs in its own
//! process group; dropping [`Chromium`] (also during a panic unwind) SIGKILLs the whole
//! group — browser, zygote, renderers, GPU/network helpers — and reaps the browser
//! process, then deletes the temporary profile (which also holds Chromium's TMPDIR, so no
//! `org.chromium.Chromium.*` is left in /tmp). When the process itself dies,
//! [`crate::reaper`] takes over.
//!
//! Chromium keeps its sandbox wherever it can run ([`Sandbox::Auto`]): renderers and
//! utilities in their own user namespace under seccomp-bpf. `--no-sandbox` is passed only
//! as root (Chromium refuses to start sandboxed there), or for one relaunch, with a
//! warning, after a sandboxed launch died saying the sandbox cannot run (no unprivileged
//! user namespaces, a misconfigured setuid helper).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

use crate::browser::Browser;
use crate::cdp::{methods, Connection, ConnectionOptions};
use crate::cdp_fds::CdpPipes;
use crate::error::{BrowserError, CdpError};
use crate::reaper;

/// Where Debian's `chromium` package puts the real binary (the `/usr/bin/chromium`
/// wrapper script adds flags and prints a harmless shell error).
pub const DEFAULT_CHROMIUM_PATH: &str = "/usr/lib/chromium/chromium";

/// Environment variable naming the Chromium executable; overrides the default path
/// (but not an explicit [`LaunchOptions::executable`]).
pub const CHROMIUM_PATH_ENV: &str = "ARC_CUA_CHROMIUM";

/// How many stderr lines are kept for error messages.
const STDERR_TAIL_LINES: usize = 30;

/// What Chromium prints on stderr, before exiting, when its sandbox cannot run.
const SANDBOX_UNUSABLE: [&str; 3] = [
    // Neither unprivileged user namespaces nor a setuid helper.
    "No usable sandbox",
    // A `chrome-sandbox` helper without its setuid bit or owner.
    "SUID sandbox helper binary was found, but is not configured correctly",
    // Chromium's own root check, should it see root where our effective uid did not.
    "Running as root without --no-sandbox is not supported",
];

/// Whether Chromium runs with its sandbox. It cannot run as root: Chromium refuses to
/// start sandboxed with effective uid 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sandbox {
    /// Sandboxed wherever the sandbox can run: `--no-sandbox` only as root, and for one
    /// relaunch (with a warning) after a sandboxed launch exited saying the sandbox
    /// cannot run here.
    #[default]
    Auto,
    /// Always `--no-sandbox`.
    Off,
}

impl Sandbox {
    /// Whether a launch by a process of effective uid `euid` passes `--no-sandbox`.
    pub fn disabled_for(self, euid: u32) -> bool {
        match self {
            Sandbox::Auto => euid == 0,
            Sandbox::Off => true,
        }
    }
}

/// This process's effective uid.
fn euid() -> u32 {
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// How to launch Chromium. `Default` gives a headless 1280×800 browser at scale 1.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// The executable; `None` → `$ARC_CUA_CHROMIUM` → [`DEFAULT_CHROMIUM_PATH`].
    pub executable: Option<PathBuf>,
    /// `--headless` (default true). Headful needs a display (e.g. Xvfb).
    pub headless: bool,
    /// `--window-size`, in CSS pixels (device scale factor is forced to 1).
    pub window_size: (u32, u32),
    /// Chromium's sandbox: kept wherever it can run (default), or off.
    pub sandbox: Sandbox,
    /// Extra command-line flags, appended after the defaults.
    pub extra_args: Vec<String>,
    /// Extra environment variables for the browser process.
    pub env: Vec<(OsString, OsString)>,
    /// How long to wait for the first DevTools answer on the pipe.
    pub launch_timeout: Duration,
    /// Options for the debugging-pipe connection.
    pub connection: ConnectionOptions,
    /// A profile kept across runs (`profile.rs`: created 0700, locked for the browser's
    /// life); `None`: a temporary one, deleted with the browser.
    pub profile: Option<PathBuf>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            executable: None,
            headless: true,
            window_size: (1280, 800),
            sandbox: Sandbox::Auto,
            extra_args: Vec::new(),
            env: Vec::new(),
            launch_timeout: Duration::from_secs(10),
            connection: ConnectionOptions::default(),
            profile: None,
        }
    }
}

impl LaunchOptions {
    /// The executable that [`Chromium::launch`] will run.
    pub fn resolved_executable(&self) -> PathBuf {
        resolve_executable(
            self.executable.as_deref(),
            std::env::var_os(CHROMIUM_PATH_ENV),
        )
    }

    /// The full argument list for a launch by this process with profile directory
    /// `user_data_dir`.
    pub fn args(&self, user_data_dir: &Path) -> Vec<OsString> {
        self.args_for(user_data_dir, euid())
    }

    /// Whether a launch by this process runs Chromium without its sandbox
    /// (`--no-sandbox` from [`LaunchOptions::sandbox`] or in `extra_args`).
    pub fn without_sandbox(&self) -> bool {
        self.sandbox.disabled_for(euid()) || self.extra_args.iter().any(|a| a == "--no-sandbox")
    }

    /// [`LaunchOptions::args`] for a process of effective uid `euid`.
    fn args_for(&self, user_data_dir: &Path, euid: u32) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        if self.headless {
            args.push("--headless".into());
        }
        if self.sandbox.disabled_for(euid) {
            args.push("--no-sandbox".into());
        }
        // The background/component/sync flags stop Chromium from flooding a closed
        // network with refused connections.
        for flag in [
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            // CDP over fds 3/4 (set up by `cdp_fds`), never a TCP port.
            "--remote-debugging-pipe",
            "--force-device-scale-factor=1",
            "--hide-scrollbars",
            "--mute-audio",
            "--disable-extensions",
        ] {
            args.push(flag.into());
        }
        let (w, h) = self.window_size;
        args.push(format!("--window-size={w},{h}").into());
        let mut dir = OsString::from("--user-data-dir=");
        dir.push(user_data_dir.as_os_str());
        args.push(dir);
        args.extend(self.extra_args.iter().map(OsString::from));
        args.push("about:blank".into());
        args
    }
}

/// Whether Chromium's stderr says its sandbox cannot run.
fn sandbox_unusable(stderr: &str) -> bool {
    SANDBOX_UNUSABLE
        .iter()
        .any(|marker| stderr.contains(marker))
}

/// Explicit path, else a non-empty `$ARC_CUA_CHROMIUM`, else the Debian default.
fn resolve_executable(explicit: Option<&Path>, env: Option<OsString>) -> PathBuf {
    match (explicit, env) {
        (Some(path), _) => path.to_path_buf(),
        (None, Some(path)) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(DEFAULT_CHROMIUM_PATH),
    }
}

type StderrTail = Arc<Mutex<VecDeque<String>>>;

/// A running Chromium process with a temporary profile. Dropping it kills the whole
/// process group and removes the profile; [`Chromium::close`] first asks politely.
pub struct Chromium {
    child: Child,
    pid: u32,
    /// The one DevTools connection (the pipe has no second end to connect to).
    conn: Connection,
    /// The launch's entry in the reaper's registry.
    reaper_id: u64,
    executable: PathBuf,
    stderr_tail: StderrTail,
    stderr_task: JoinHandle<()>,
    killed: bool,
    /// The kept profile's lock, released after the processes using it are killed.
    kept: Option<crate::profile::ClaimedProfile>,
    // Declared last: dropped after `Drop::drop` killed the processes using it.
    user_data_dir: tempfile::TempDir,
}

impl Chromium {
    /// Starts Chromium and waits until it answers DevTools on its pipe. With
    /// [`Sandbox::Auto`], a sandboxed launch that exits saying the sandbox cannot run
    /// here is retried once with `--no-sandbox`, with a warning.
    pub async fn launch(options: LaunchOptions) -> Result<Chromium, BrowserError> {
        let sandboxed = !options.without_sandbox();
        match Chromium::launch_once(&options).await {
            Err(BrowserError::LaunchExited { stderr, .. })
                if sandboxed && options.sandbox == Sandbox::Auto && sandbox_unusable(&stderr) =>
            {
                let reason = stderr
                    .lines()
                    .find(|line| sandbox_unusable(line))
                    .unwrap_or_default();
                tracing::warn!(
                    reason,
                    "Chromium's sandbox cannot run here; relaunching with --no-sandbox"
                );
                Chromium::launch_once(&LaunchOptions {
                    sandbox: Sandbox::Off,
                    ..options
                })
                .await
            }
            launched => launched,
        }
    }

    async fn launch_once(options: &LaunchOptions) -> Result<Chromium, BrowserError> {
        let executable = options.resolved_executable();
        let started = Instant::now();
        let pipes =
            CdpPipes::new().map_err(|e| BrowserError::io("cannot create the DevTools pipes", e))?;
        // A kept profile is claimed first: a second user of it is refused before any
        // process starts.
        let kept = options
            .profile
            .as_deref()
            .map(crate::profile::claim)
            .transpose()?;
        let build = |temporary: &Path, tmp: &Path| {
            let profile = kept.as_ref().map_or(temporary, |k| k.path());
            let mut command = Command::new(&executable);
            pipes.install(&mut command);
            command
                .args(options.args(profile))
                // Chromium's shared-memory files (/tmp with --disable-dev-shm-usage) go
                // inside the profile, which is removed with it.
                .env("TMPDIR", tmp)
                .envs(options.env.iter().map(|(k, v)| (k, v)))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                // Own group, so one kill(-pgid) reaches every helper process.
                .process_group(0)
                // Belt and braces: tokio kills the leader if the Child is dropped unreaped.
                .kill_on_drop(true);
            let parent = std::process::id() as libc::pid_t;
            // SAFETY: `die_with_parent` only makes async-signal-safe calls (prctl,
            // getppid) and allocates nothing, as a pre_exec hook must.
            unsafe {
                command.pre_exec(move || reaper::die_with_parent(parent));
            }
            command
        };
        let reaper::Launched {
            id: reaper_id,
            mut child,
            pid,
            profile: user_data_dir,
        } = reaper::launch(build, &executable)?;
        // Closes our copies of the child's ends, so Chromium's exit is an EOF here.
        let (from_browser, to_browser) = pipes.into_parent_ends();
        let stderr = child.stderr.take().expect("stderr is piped");

        let stderr_tail: StderrTail = Arc::default();
        let stderr_task = tokio::spawn(read_stderr(stderr, Arc::clone(&stderr_tail)));
        let conn = Connection::over_pipe(from_browser, to_browser, options.connection.clone());

        // From here on, any early return drops `chromium`, which kills the group.
        let mut chromium = Chromium {
            child,
            pid,
            conn: match conn {
                Ok(conn) => conn,
                Err(e) => {
                    // No handle owns the group yet: kill it before reporting.
                    // SAFETY: kill(2) has no memory-safety preconditions.
                    unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
                    stderr_task.abort();
                    reaper::release(reaper_id);
                    return Err(e.into());
                }
            },
            reaper_id,
            executable,
            stderr_tail,
            stderr_task,
            killed: false,
            kept,
            user_data_dir,
        };

        let first = chromium.conn.call_with_timeout(
            None,
            methods::browser::GetVersion {},
            options.launch_timeout,
        );
        match first.await {
            Ok(_) => {}
            Err(CdpError::Timeout { .. }) => {
                return Err(BrowserError::LaunchTimeout {
                    path: chromium.executable.clone(),
                    timeout: options.launch_timeout,
                    stderr: chromium.stderr_tail(),
                })
            }
            Err(CdpError::Closed { .. }) => {
                // The pipe closed: the browser is exiting or gone.
                let status =
                    match tokio::time::timeout(Duration::from_secs(2), chromium.child.wait()).await
                    {
                        Ok(Ok(status)) => status.to_string(),
                        _ => "closed stderr".to_owned(),
                    };
                // Its last words may still be in the pipe: let the reader drain it (a
                // helper that inherited stderr can hold it open, hence the bound).
                let _ = tokio::time::timeout(Duration::from_millis(500), &mut chromium.stderr_task)
                    .await;
                return Err(BrowserError::LaunchExited {
                    path: chromium.executable.clone(),
                    status,
                    stderr: chromium.stderr_tail(),
                });
            }
            Err(e) => return Err(e.into()),
        }
        // Downloads are staged inside the temporary profile: gone with it, also when the
        // reaper cleans up after a killed runtime.
        let staging = chromium.user_data_dir.path().join("arc-cua-downloads");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&staging)
            .map_err(|e| BrowserError::io("cannot create the downloads' staging directory", e))?;
        chromium.conn.set_download_staging(staging);
        tracing::debug!(
            pid,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "Chromium launched"
        );
        Ok(chromium)
    }

    /// The browser process id; also its process group id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The executable that was launched.
    pub fn executable(&self) -> &Path {
        &self.executable
    }

    /// The profile directory: the kept one, else the temporary one (deleted on drop).
    pub fn user_data_dir(&self) -> &Path {
        self.kept
            .as_ref()
            .map_or(self.user_data_dir.path(), |k| k.path())
    }

    /// The last lines Chromium wrote to stderr, newline-separated (for diagnostics).
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A [`Browser`] on this Chromium's DevTools pipe. Every handle shares the one
    /// connection (each subscribes to its own events).
    pub async fn connect(&self) -> Result<Browser, BrowserError> {
        if self.conn.is_closed() {
            return Err(CdpError::Closed {
                method: "connect".into(),
            }
            .into());
        }
        Ok(Browser::from_connection(self.conn.clone()))
    }

    /// Closes Chromium gracefully (`Browser.close`, up to 3 s to exit), then kills
    /// whatever is left of the process group. The processes are gone when this
    /// returns, whatever the result; an error only reports that the graceful part failed.
    pub async fn close(mut self) -> Result<(), BrowserError> {
        let graceful = self.close_gracefully().await;
        self.kill_group();
        graceful
    }

    async fn close_gracefully(&mut self) -> Result<(), BrowserError> {
        let timeout = Duration::from_secs(3);
        match self
            .conn
            .call_with_timeout(None, methods::browser::Close {}, timeout)
            .await
        {
            // Chromium may close the pipe before it answers.
            Ok(_) | Err(CdpError::Closed { .. }) => {}
            Err(e) => return Err(e.into()),
        }
        match tokio::time::timeout(timeout, self.child.wait()).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(BrowserError::io("waiting for Chromium to exit", e)),
            Err(_) => Err(CdpError::Timeout {
                method: "Browser.close (waiting for exit)".into(),
                timeout,
            }
            .into()),
        }
    }

    /// SIGKILLs the process group and reaps the browser process. Idempotent.
    fn kill_group(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        let pgid = self.pid as libc::pid_t;
        // SAFETY: kill(2) has no memory-safety preconditions. The id cannot name a
        // stranger's group: Linux does not reuse a pid while a group of that id has
        // members, and an emptied group (leader reaped by `close`) yields ESRCH.
        let rc = unsafe { libc::kill(-pgid, libc::SIGKILL) };
        if rc != 0 {
            let err = std::io::Error::last_os_error();
            // ESRCH: the group is already empty.
            if err.raw_os_error() != Some(libc::ESRCH) {
                tracing::warn!(pgid, error = %err, "cannot kill Chromium's process group");
            }
        }
        // Reap the leader synchronously (this can run in Drop, outside any runtime):
        // after SIGKILL it exits within milliseconds.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() >= deadline => {
                    tracing::warn!(pid = self.pid, "Chromium did not exit after SIGKILL");
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        self.stderr_task.abort();
        reaper::release(self.reaper_id);
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        self.kill_group();
    }
}

impl std::fmt::Debug for Chromium {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chromium")
            .field("pid", &self.pid)
            .field("executable", &self.executable)
            .field("user_data_dir", &self.user_data_dir.path())
            .finish()
    }
}

/// Drains stderr for the browser's whole life (a full pipe would block Chromium),
/// keeping a tail for error messages.
async fn read_stderr(stderr: tokio::process::ChildStderr, tail: StderrTail) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
        tracing::debug!(target: "arc_browser::chromium_stderr", "{line}");
        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        if tail.len() == STDERR_TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: Vec<OsString>) -> Vec<String> {
        args.into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn args_carry_the_platform_flags_and_profile() {
        let opts = LaunchOptions {
            extra_args: vec!["--lang=en-US".into()],
            ..Default::default()
        };
        let args = strings(opts.args(Path::new("/tmp/p")));
        for flag in [
            "--headless",
            "--remote-debugging-pipe",
            "--window-size=1280,800",
            "--user-data-dir=/tmp/p",
            "--lang=en-US",
        ] {
            assert!(args.iter().any(|a| a == flag), "{flag} missing in {args:?}");
        }
        assert_eq!(args.last().map(String::as_str), Some("about:blank"));
    }

    #[test]
    fn no_sandbox_only_as_root_or_when_asked() {
        let has = |opts: &LaunchOptions, euid: u32| {
            strings(opts.args_for(Path::new("/tmp/p"), euid))
                .iter()
                .any(|a| a == "--no-sandbox")
        };
        let auto = LaunchOptions::default();
        assert_eq!(auto.sandbox, Sandbox::Auto);
        assert!(has(&auto, 0), "root: Chromium refuses to start sandboxed");
        assert!(!has(&auto, 65534), "a user keeps the sandbox");
        assert!(!has(&auto, 1000));
        let off = LaunchOptions {
            sandbox: Sandbox::Off,
            ..Default::default()
        };
        assert!(has(&off, 0) && has(&off, 65534));
        // This process (the tests run as root here): what a launch really passes.
        // SAFETY: geteuid(2) has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let args = strings(auto.args(Path::new("/tmp/p")));
        assert_eq!(args.iter().any(|a| a == "--no-sandbox"), root, "{args:?}");
        assert_eq!(auto.without_sandbox(), root);
        // A `--no-sandbox` the caller adds is passed, and counts.
        let extra = LaunchOptions {
            extra_args: vec!["--no-sandbox".into()],
            ..Default::default()
        };
        assert!(extra.without_sandbox());
    }

    #[test]
    fn the_sandbox_failures_chromium_prints_are_recognized() {
        // Chromium 156 as uid 1000 in a user namespace that may not nest another.
        let no_userns = "[25553:25553:1207/010734.144021:ERROR:content/browser/zygote_host/\
            zygote_host_impl_linux.cc:130] No usable sandbox! If this is a Debian system, \
            please install the chromium-sandbox package to solve this problem.";
        assert!(sandbox_unusable(no_userns));
        assert!(!sandbox_unusable(
            "[1:1:ERROR:dbus/bus.cc:405] Failed to connect to the bus"
        ));
    }

    #[test]
    fn executable_resolution_order() {
        let env = || Some(OsString::from("/env/chrome"));
        assert_eq!(
            resolve_executable(Some(Path::new("/opt/x/chrome")), env()),
            PathBuf::from("/opt/x/chrome")
        );
        assert_eq!(
            resolve_executable(None, env()),
            PathBuf::from("/env/chrome")
        );
        assert_eq!(
            resolve_executable(None, Some(OsString::new())),
            PathBuf::from(DEFAULT_CHROMIUM_PATH)
        );
        assert_eq!(
            resolve_executable(None, None),
            PathBuf::from(DEFAULT_CHROMIUM_PATH)
        );
    }
}
