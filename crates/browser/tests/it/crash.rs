//! A killed renderer or browser is noticed at once: pending calls fail with a typed
//! error naming the crash instead of waiting out their 30 s timeouts, and a run ends
//! within a couple of seconds saying why.

use crate::common;

use arc_browser::cdp::methods::runtime;
use arc_browser::{CdpError, Lost};
use arc_core::{
    Action, Backend, DecideContext, Decision, Executor, Policy, PolicyError, RuntimeConfig,
    Subtask, Termination,
};
use async_trait::async_trait;
use common::Fixture;
use std::time::{Duration, Instant};

/// The renderer processes of the launch (found in /proc, not asked of the runtime).
fn renderers(pgid: u32) -> Vec<u32> {
    common::launch_processes(pgid, "")
        .into_iter()
        .filter(|p| p.cmdline.contains("--type=renderer") && p.state != 'Z')
        .map(|p| p.pid)
        .collect()
}

fn sigkill(pids: &[u32]) {
    for &pid in pids {
        // SAFETY: kill(2) on a process of our own launch.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_renderer_fails_the_pending_call_at_once() {
    let mut f = Fixture::open("events.html").await;
    f.observe().await;
    let pgid = f.backend.chromium().unwrap().pid();
    let page = f.backend.page().clone();
    // A call that would only end in its 30 s timeout.
    let pending = tokio::spawn(async move {
        page.call(runtime::Evaluate::by_value("new Promise(() => {})"))
            .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let victims = renderers(pgid);
    assert!(!victims.is_empty(), "no renderer process found");
    let killed = Instant::now();
    sigkill(&victims);

    let result = tokio::time::timeout(Duration::from_secs(3), pending)
        .await
        .expect("the pending call ends within 3 s of the kill")
        .unwrap();
    let err = result.expect_err("the page cannot answer");
    assert!(matches!(err, CdpError::TargetCrashed { .. }), "{err:?}");
    assert_eq!(err.lost(), Some(Lost::Renderer));
    assert!(err.to_string().contains("renderer crashed"), "{err}");
    assert!(killed.elapsed() < Duration::from_secs(3));

    // Later calls fail without waiting, and the backend says what is gone.
    let started = Instant::now();
    let observed = f.backend.observe().await;
    assert!(observed.is_err());
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(f.backend.lost(), Some(Lost::Renderer));
}

/// Waits forever, one WAIT at a time.
struct Waiter;

#[async_trait]
impl Policy for Waiter {
    fn name(&self) -> &'static str {
        "waiter"
    }
    async fn decide(&mut self, _: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Ok(Decision::act(Action::Wait))
    }
}

fn long_run() -> RuntimeConfig {
    RuntimeConfig {
        no_change_limit: 1_000,
        wait: Duration::from_millis(200),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_ends_promptly_when_its_renderer_is_killed() {
    let f = Fixture::open("events.html").await;
    let pgid = f.backend.chromium().unwrap().pid();
    let mut executor = Executor::new(f.backend, Waiter, long_run());
    let subtask = Subtask::new("Wait on the page", "Never");
    let killer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let victims = renderers(pgid);
        sigkill(&victims);
        (victims, Instant::now())
    });
    let result = tokio::time::timeout(Duration::from_secs(20), executor.run(&subtask))
        .await
        .expect("the run ends");
    let (victims, killed) = killer.await.unwrap();
    assert!(!victims.is_empty(), "no renderer process found");
    let after_kill = killed.elapsed();
    assert!(
        after_kill < Duration::from_secs(3),
        "ended {after_kill:?} after the kill"
    );
    assert!(
        result.actions_taken > 0,
        "the run was under way: {result:?}"
    );
    assert_eq!(result.termination, Termination::BackendError, "{result:?}");
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or("")
            .contains("renderer crashed"),
        "{:?}",
        result.reason
    );
    let (backend, _) = executor.into_parts();
    assert_eq!(backend.lost(), Some(Lost::Renderer));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_ends_promptly_when_its_browser_is_killed() {
    let f = Fixture::open("events.html").await;
    let pgid = f.backend.chromium().unwrap().pid();
    let mut executor = Executor::new(f.backend, Waiter, long_run());
    let subtask = Subtask::new("Wait on the page", "Never");
    let killer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        sigkill(&[pgid]);
        Instant::now()
    });
    let result = tokio::time::timeout(Duration::from_secs(20), executor.run(&subtask))
        .await
        .expect("the run ends");
    let after_kill = killer.await.unwrap().elapsed();
    assert!(
        after_kill < Duration::from_secs(3),
        "ended {after_kill:?} after the kill"
    );
    assert_eq!(result.termination, Termination::BackendError, "{result:?}");
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or("")
            .contains("browser is gone"),
        "{:?}",
        result.reason
    );
    let (backend, _) = executor.into_parts();
    assert_eq!(backend.lost(), Some(Lost::Browser));
}
