//! No Chromium process outlives its `Chromium` handle: not after drop, not after a
//! panic, not after close.

use crate::common;

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arc_browser::{Chromium, LaunchOptions};

/// What identifies a launch's processes.
#[derive(Debug, Clone)]
struct Launch {
    pgid: u32,
    profile: PathBuf,
}

impl Launch {
    fn of(chromium: &Chromium) -> Launch {
        Launch {
            pgid: chromium.pid(),
            profile: chromium.user_data_dir().to_path_buf(),
        }
    }

    fn profile_str(&self) -> String {
        self.profile.display().to_string()
    }

    /// Asserts the launch left nothing behind: no live process, no profile directory.
    fn assert_gone(&self) {
        let left = common::leftovers_after(self.pgid, &self.profile_str(), Duration::from_secs(5));
        assert!(left.is_empty(), "processes left behind: {left:#?}");
        assert!(
            !self.profile.exists(),
            "profile {} left behind",
            self.profile.display()
        );
    }
}

/// Launches Chromium with a live page (so renderer and helper processes exist).
async fn launch_with_page() -> (Chromium, Launch) {
    let chromium = Chromium::launch(LaunchOptions::default()).await.unwrap();
    let launch = Launch::of(&chromium);
    let browser = chromium.connect().await.unwrap();
    let page = browser
        .new_page("data:text/html,<title>x</title><p>hello</p>")
        .await
        .unwrap();
    assert_eq!(page.evaluate("document.title").await.unwrap(), "x");
    let procs = common::launch_processes(launch.pgid, &launch.profile_str());
    assert!(
        procs.len() >= 3,
        "expected a browser plus helper processes, saw {procs:#?}"
    );
    // Every helper is in the browser's process group: one kill reaches them all.
    assert!(procs.iter().all(|p| p.pgrp == launch.pgid), "{procs:#?}");
    (chromium, launch)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_chromium_kills_every_process_of_the_launch() {
    let (chromium, launch) = launch_with_page().await;
    drop(chromium);
    launch.assert_gone();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_is_graceful_then_complete() {
    let (chromium, launch) = launch_with_page().await;
    chromium.close().await.unwrap();
    launch.assert_gone();
}

#[test]
fn a_panic_inside_catch_unwind_leaves_no_process() {
    let seen: Arc<Mutex<Option<Launch>>> = Arc::default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        runtime.block_on(async {
            let (_chromium, launch) = launch_with_page().await;
            *seen.lock().unwrap() = Some(launch);
            panic!("test scope fails while Chromium is running");
        })
    }));
    assert!(result.is_err(), "the scope panicked");
    let launch = seen
        .lock()
        .unwrap()
        .clone()
        .expect("launched before panicking");
    launch.assert_gone();
    drop(runtime);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_task_leaves_no_process() {
    let seen: Arc<Mutex<Option<Launch>>> = Arc::default();
    let task = {
        let seen = Arc::clone(&seen);
        tokio::spawn(async move {
            let (_chromium, launch) = launch_with_page().await;
            *seen.lock().unwrap() = Some(launch);
            panic!("task fails while Chromium is running");
        })
    };
    let err = task.await.unwrap_err();
    assert!(err.is_panic());
    let launch = seen.lock().unwrap().clone().unwrap();
    launch.assert_gone();
}

/// Chromium gets SIGKILL when the thread that forked it ends (PR_SET_PDEATHSIG follows
/// the thread). Launches fork on a thread that lives as long as the process, so a
/// browser launched from a short-lived thread (a tokio worker that retires, here a
/// thread with its own runtime) keeps running, and is still cleaned up by its handle.
#[test]
fn a_browser_outlives_the_thread_that_launched_it() {
    // The runtime outlives the launching thread: the DevTools pipe is served by its tasks,
    // and Chromium exits when that pipe closes. What must not end the browser is the
    // launching thread itself (the parent-death signal follows the forking thread).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let handle = runtime.handle().clone();
    let (chromium, launch) = std::thread::spawn(move || {
        let chromium = handle
            .block_on(Chromium::launch(LaunchOptions::default()))
            .unwrap();
        let launch = Launch::of(&chromium);
        (chromium, launch)
    })
    .join()
    .unwrap();
    // Give a death signal time to land, then look for the browser process itself.
    std::thread::sleep(Duration::from_millis(500));
    let alive = common::processes()
        .into_iter()
        .any(|p| p.pid == launch.pgid && p.state != 'Z' && p.state != 'X');
    assert!(alive, "Chromium died with the thread that launched it");
    drop(chromium);
    launch.assert_gone();
}
