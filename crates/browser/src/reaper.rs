//! Chromium dies with the runtime, however the runtime dies.
//!
//! No single mechanism covers every death, so there are three:
//! - [`die_with_parent`], run in the child before exec: `PR_SET_PDEATHSIG = SIGKILL`. The
//!   signal fires when the *thread* that forked the child ends, so every launch forks on
//!   one thread that lives as long as the process ([`spawn_lasting`]), never on a tokio
//!   worker (those can exit). Chromium's own helpers (zygote, renderers, utilities) exit
//!   by themselves within ≈0.5 s of the browser process (measured with SIGKILL).
//! - A registry of live launches (process group, profile). A caller about to exit on a
//!   signal empties it with [`kill_all_launched`]: the CLI's SIGINT/SIGTERM/SIGHUP path.
//! - A watchdog per launch (`/bin/sh`, its own process group, deaf to HUP/INT/TERM) that
//!   blocks reading a pipe only this process holds. End of file without a `closed` line
//!   means the process died uncatchably (SIGKILL, OOM): the watchdog SIGKILLs the group
//!   at once (its members are still alive then, so the group id is still theirs) and
//!   removes the profile, which also holds Chromium's TMPDIR.

use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};
use tokio::runtime::Handle;

use crate::error::BrowserError;

/// Makes the calling (freshly forked) child receive SIGKILL when the thread that forked
/// it ends, and fails if that already happened (the parent died between fork and here).
///
/// For `pre_exec`: only async-signal-safe calls, no allocation.
pub(crate) fn die_with_parent(parent: libc::pid_t) -> io::Result<()> {
    // SAFETY: prctl(PR_SET_PDEATHSIG) and getppid have no memory-safety preconditions
    // and are async-signal-safe.
    let rc = unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::getppid() } != parent {
        return Err(io::Error::from_raw_os_error(libc::ESRCH));
    }
    Ok(())
}

type SpawnJob = (Command, Handle, mpsc::SyncSender<io::Result<Child>>);

/// Spawns `command` on the process-long spawner thread (see the module docs), in the
/// runtime of the caller. Blocks for the fork and exec, as `Command::spawn` does.
pub(crate) fn spawn_lasting(command: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnJob>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnJob>();
        let started = std::thread::Builder::new()
            .name("arc-browser-spawner".into())
            .spawn(move || {
                // Never returns while the process lives: the sender is in a static.
                while let Ok((mut command, handle, reply)) = rx.recv() {
                    let _runtime = handle.enter();
                    let _ = reply.send(command.spawn());
                }
            });
        if let Err(e) = started {
            tracing::warn!(error = %e, "cannot start the spawner thread");
        }
        Mutex::new(tx)
    });
    let (reply, result) = mpsc::sync_channel(1);
    let handle = Handle::try_current().map_err(io::Error::other)?;
    lock(spawner)
        .send((command, handle, reply))
        .map_err(|_| io::Error::other("the spawner thread is gone"))?;
    result
        .recv()
        .map_err(|_| io::Error::other("the spawner thread dropped the launch"))?
}

/// A launch in the registry.
struct Live {
    id: u64,
    pgid: libc::pid_t,
    profile: PathBuf,
    /// The write end of the watchdog's pipe (none if the watchdog could not start).
    watchdog: Option<OwnedFd>,
}

struct Registry {
    /// Set by [`kill_all_launched`]: the process is exiting, nothing more is launched.
    closing: bool,
    next_id: u64,
    live: Vec<Live>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    closing: false,
    next_id: 0,
    live: Vec::new(),
});

/// A poisoned lock still guards consistent data here (every critical section is a push
/// or a take); cleanup must work after a panic too.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A launched, registered browser.
pub(crate) struct Launched {
    pub id: u64,
    pub child: Child,
    pub pid: u32,
    pub profile: tempfile::TempDir,
}

/// Creates a temporary profile (with a `tmp/` inside for Chromium's TMPDIR), builds the
/// command with `build(profile, tmpdir)`, spawns it on the lasting thread and registers
/// it with a watchdog, all under the registry lock: a signal's cleanup either sees the
/// whole launch or runs before it starts (and then nothing is launched).
pub(crate) fn launch(
    build: impl FnOnce(&Path, &Path) -> Command,
    executable: &Path,
) -> Result<Launched, BrowserError> {
    let mut registry = lock(&REGISTRY);
    if registry.closing {
        return Err(BrowserError::ShuttingDown);
    }
    // The profile holds cookies, storage and history: owner-only (0700), set here rather
    // than left to the umask, and so is the `tmp/` Chromium writes shared memory into.
    let profile = tempfile::Builder::new()
        .prefix("arc-cua-chromium-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map_err(|e| BrowserError::io("cannot create a temporary Chromium profile", e))?;
    let tmp = profile.path().join("tmp");
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&tmp)
        .map_err(|e| BrowserError::io("cannot create Chromium's temp directory", e))?;
    let child =
        spawn_lasting(build(profile.path(), &tmp)).map_err(|source| BrowserError::Spawn {
            path: executable.to_path_buf(),
            source,
        })?;
    let pid = child.id().ok_or_else(|| BrowserError::LaunchExited {
        path: executable.to_path_buf(),
        status: "exited immediately".into(),
        stderr: String::new(),
    })?;
    let watchdog = match start_watchdog(pid, profile.path()) {
        Ok(fd) => Some(fd),
        Err(e) => {
            tracing::warn!(error = %e, "no watchdog: a SIGKILLed runtime would leave this profile");
            None
        }
    };
    let id = registry.next_id;
    registry.next_id += 1;
    registry.live.push(Live {
        id,
        pgid: pid as libc::pid_t,
        profile: profile.path().to_path_buf(),
        watchdog,
    });
    Ok(Launched {
        id,
        child,
        pid,
        profile,
    })
}

/// Forgets launch `id` (its owner killed and reaped it) and stands its watchdog down.
pub(crate) fn release(id: u64) {
    let live = {
        let mut registry = lock(&REGISTRY);
        let at = registry.live.iter().position(|l| l.id == id);
        at.map(|i| registry.live.swap_remove(i))
    };
    if let Some(live) = live {
        stand_down(live.watchdog);
    }
}

/// SIGKILLs every live launch's process group, waits (bounded) for the browser processes
/// to die, removes their profiles, and refuses any later launch. For a process about to
/// exit on a signal; safe from any thread. Returns how many launches it ended.
pub fn kill_all_launched() -> usize {
    let live = {
        let mut registry = lock(&REGISTRY);
        registry.closing = true;
        std::mem::take(&mut registry.live)
    };
    let ended = live.len();
    for l in &live {
        // SAFETY: kill(2) has no memory-safety preconditions; the group is ours (its
        // leader is our unreaped child or the group still has members).
        unsafe { libc::kill(-l.pgid, libc::SIGKILL) };
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    for l in &live {
        reap(l.pgid, deadline);
    }
    for l in live {
        remove_profile(&l.profile);
        stand_down(l.watchdog);
    }
    ended
}

/// Waits for our child `pid` to exit (reaping it), until `deadline`. Another reaper
/// (tokio) may win the race: then waitpid says ECHILD, which also means it is gone.
fn reap(pid: libc::pid_t, deadline: Instant) {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let rc = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if rc != 0 || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Removes a profile; once more after a moment if a dying helper was still writing.
fn remove_profile(path: &Path) {
    if std::fs::remove_dir_all(path).is_err() && path.exists() {
        std::thread::sleep(Duration::from_millis(50));
        if let Err(e) = std::fs::remove_dir_all(path) {
            tracing::warn!(path = %path.display(), error = %e, "cannot remove a Chromium profile");
        }
    }
}

/// Tells a watchdog the launch was cleaned up by us: it exits without killing anything.
fn stand_down(watchdog: Option<OwnedFd>) {
    if let Some(fd) = watchdog {
        let mut pipe = std::fs::File::from(fd);
        let _ = pipe.write_all(b"closed\n");
    }
}

/// The watchdog: waits for a line or end of file on stdin. `closed` → exit. Anything
/// else (we died) → SIGKILL the group, give its members a moment to die, remove the
/// profile (twice, in case a dying helper was still writing). Its arguments carry no
/// path, so it never looks like one of the launch's own processes.
const WATCHDOG: &str = r#"trap '' HUP INT TERM
read -r why
[ "$why" = closed ] && exit 0
kill -s KILL -- "-$ARC_CUA_WATCH_PGID" 2>/dev/null
sleep 0.2
rm -rf -- "$ARC_CUA_WATCH_PROFILE"
sleep 0.3
rm -rf -- "$ARC_CUA_WATCH_PROFILE""#;

/// Starts the watchdog for process group `pgid` and `profile`; returns its pipe's write
/// end, which only this process holds (close-on-exec).
fn start_watchdog(pgid: u32, profile: &Path) -> io::Result<OwnedFd> {
    let mut child = Command::new("/bin/sh")
        .args(["-c", WATCHDOG, "arc-cua-watchdog"])
        .env("ARC_CUA_WATCH_PGID", pgid.to_string())
        .env("ARC_CUA_WATCH_PROFILE", profile)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Out of the terminal's foreground group: a Ctrl-C must not reach it.
        .process_group(0)
        .spawn()?;
    let stdin = child.stdin.take().expect("stdin is piped");
    // Dropping the Child leaves the watchdog running; tokio reaps it when it exits.
    drop(child);
    stdin.into_owned_fd()
}
