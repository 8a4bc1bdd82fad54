//! SIGINT, SIGTERM and SIGHUP, handled from the first instant of the process.
//!
//! A thread of its own (with a one-thread tokio runtime for `tokio::signal`) waits for
//! them, so a busy or wedged main runtime cannot delay the answer:
//! - SIGTERM, SIGHUP, a second SIGINT, or a SIGINT while no run is in progress: remove the
//!   host's socket files, kill every Chromium this process launched, remove their
//!   profiles, exit 143 / 129 / 130.
//! - The first SIGINT during a run cancels it: the run ends at its next bounded await and
//!   prints its result line (termination `cancelled`), and the process exits 130. If it
//!   has not ended within [`GRACE`] (an action that hangs), the process exits as above.

use arc_core::CancelHandle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;
use tokio::signal::unix::{signal, SignalKind};

/// How long a run may take to wind down after the first Ctrl-C.
const GRACE: Duration = Duration::from_secs(5);

/// The run a first Ctrl-C cancels, while one is in progress.
static RUN: Mutex<Option<CancelHandle>> = Mutex::new(None);
/// Set by the first SIGINT: the process then exits 130 whatever the run's status.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Set when the signal thread has begun killing the browsers and will exit the process:
/// the main thread, which then sees its browser vanish, must not exit first with
/// another code.
static DYING: AtomicBool = AtomicBool::new(false);

/// The conventional exit code of a process ended by a signal: 128 + its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalExit {
    Hangup = 129,
    Interrupt = 130,
    Terminate = 143,
}

/// Installs the handlers; returns once they are in place.
pub fn install() -> std::io::Result<()> {
    let (ready_tx, ready_rx) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("arc-cua-signals".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            runtime.block_on(listen(ready_tx));
        })?;
    ready_rx
        .recv()
        .map_err(|_| std::io::Error::other("the signal thread ended before installing"))?
}

async fn listen(ready: mpsc::SyncSender<std::io::Result<()>>) {
    let streams = (|| {
        Ok::<_, std::io::Error>((
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
            signal(SignalKind::hangup())?,
        ))
    })();
    let (mut int, mut term, mut hup) = match streams {
        Ok(s) => {
            let _ = ready.send(Ok(()));
            s
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let grace = tokio::time::sleep(GRACE);
    tokio::pin!(grace);
    let mut winding_down = false;
    loop {
        tokio::select! {
            _ = int.recv() => {
                if winding_down || !cancel_run() {
                    die(SignalExit::Interrupt);
                }
                winding_down = true;
                eprintln!("arc-cua: interrupted; ending the run (Ctrl-C again to quit at once)");
                grace.as_mut().reset(tokio::time::Instant::now() + GRACE);
            }
            _ = term.recv() => die(SignalExit::Terminate),
            _ = hup.recv() => die(SignalExit::Hangup),
            _ = &mut grace, if winding_down => die(SignalExit::Interrupt),
        }
    }
}

/// Cancels the run in progress, if any; marks the process interrupted either way.
fn cancel_run() -> bool {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let run = RUN.lock().unwrap_or_else(|e| e.into_inner());
    match run.as_ref() {
        Some(handle) => {
            handle.cancel();
            true
        }
        None => false,
    }
}

/// Removes the host's socket files (first: no client connects to a host on its way out),
/// kills every launched browser, removes its profile, and exits with `code`. Bounded: the
/// browser cleanup waits at most ≈2 s.
fn die(code: SignalExit) -> ! {
    DYING.store(true, Ordering::SeqCst);
    arc_host::transport::socket::remove_bound_sockets();
    arc_browser::kill_all_launched();
    std::process::exit(code as i32)
}

/// If the signal thread is ending the process, waits for it to (it is bounded: the
/// browser cleanup waits at most ≈2 s), so the exit code is the signal's.
pub fn await_death() {
    if DYING.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_secs(30));
    }
}

/// Whether a SIGINT arrived (the process then exits 130).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// While alive, a first Ctrl-C cancels `handle`'s run instead of exiting at once.
pub struct RunGuard(());

pub fn cancel_on_interrupt(handle: CancelHandle) -> RunGuard {
    if interrupted() {
        handle.cancel();
    }
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle);
    RunGuard(())
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        *RUN.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}
