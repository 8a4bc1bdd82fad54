//! The loop owns the monitors: a navigation to a page with the same DOM is a change, and
//! the monitors run once per step, their verdict reaching the next decision and the event.

use arc_core::{
    ActionKind, ControllerAction, Element, Executor, MilestoneSignal, Role, RuntimeConfig,
    Snapshot, StuckPattern,
};
use arc_sim::{ScriptedPolicy, StateMachineBackend};

/// Pages that all look the same; only the URL tells them apart. The app records every
/// click it receives and the page it is on.
#[derive(Default)]
struct Twins {
    page: u32,
    clicks: u32,
    /// The backend folds the URL into the revision (`Snapshot::set_url`), or only
    /// reports it beside the elements.
    url_in_revision: bool,
    /// "Next" moves to the next page; otherwise it does nothing at all.
    moves: bool,
}

fn twins(url_in_revision: bool, moves: bool) -> StateMachineBackend<Twins> {
    let render = |t: &Twins| {
        let mut next = Element::new("next", Role::Button, "Next");
        next.actions = [ActionKind::Click].into();
        let mut s = Snapshot::new("Site", "Twin pages", vec![next]);
        let url = format!("https://site.test/page-{}", t.page);
        if t.url_in_revision {
            s.set_url(url);
        } else {
            s.facts.url = Some(url);
        }
        s
    };
    let state = Twins {
        url_in_revision,
        moves,
        ..Twins::default()
    };
    StateMachineBackend::new(state, render, |t: &mut Twins, _| {
        t.clicks += 1;
        if t.moves {
            t.page += 1;
        }
        Ok(())
    })
}

fn next_clicks(n: usize) -> Vec<arc_core::Decision> {
    let click = arc_core::Decision::act(arc_core::Action::click("next"));
    let mut script = vec![click; n];
    script.push(arc_core::Decision::terminal(
        arc_core::TerminalKind::SubtaskComplete,
    ));
    script
}

#[rstest::rstest]
#[case::url_in_the_revision(true)]
#[case::url_beside_the_elements(false)]
#[tokio::test(start_paused = true)]
async fn a_click_that_navigates_to_a_page_with_the_same_dom_is_a_change(
    #[case] url_in_revision: bool,
) {
    let subtask = arc_core::Subtask::new("Go four pages on", "The page is \"/page-4\"");
    let mut exec = Executor::new(
        twins(url_in_revision, true),
        ScriptedPolicy::new(next_clicks(4)),
        RuntimeConfig::default(),
    );
    let mut events = Vec::new();
    let result = exec.run_with(&subtask, |e| events.push(e)).await;
    // Four clicks that change nothing but the URL are not "no change" (limit: 3).
    assert!(result.is_complete(), "{result:?}");
    assert_eq!(result.actions_taken, 4);
    let app = exec.backend_mut().state();
    assert_eq!((app.clicks, app.page), (4, 4), "the app's own record");
    assert!(result.history.iter().all(|r| r.state_changed));
    let verdicts: Vec<_> = events.iter().filter_map(|e| e.verdict.as_deref()).collect();
    assert_eq!(verdicts.len(), 4);
    for v in &verdicts {
        assert!(v.signal.url_changed && v.signal.state_changed, "{v:?}");
        assert_ne!(v.signal.before, v.signal.after);
        assert!(v.stuck.patterns.is_empty(), "{v:?}");
        assert_eq!(v.controller.action, ControllerAction::Continue);
    }
    // The goal's URL was reached on the last step, and only then.
    let reached: Vec<bool> = verdicts
        .iter()
        .map(|v| v.milestone.has(MilestoneSignal::TargetUrlReached))
        .collect();
    assert_eq!(reached, [false, false, false, true]);
}

#[tokio::test(start_paused = true)]
async fn a_click_that_changes_nothing_at_all_is_no_change() {
    // The control for the test above: same page, same URL, so the loop stops.
    let subtask = arc_core::Subtask::new("Go four pages on", "The page is \"/page-4\"");
    let mut exec = Executor::new(
        twins(true, false),
        ScriptedPolicy::new(next_clicks(4)),
        RuntimeConfig::default(),
    );
    let mut events = Vec::new();
    let result = exec.run_with(&subtask, |e| events.push(e)).await;
    assert_eq!(result.termination, arc_core::Termination::NoChangeLimit);
    let app = exec.backend_mut().state();
    assert_eq!((app.clicks, app.page), (3, 0), "the app's own record");
    let last = events
        .iter()
        .rev()
        .find_map(|e| e.verdict.as_deref())
        .unwrap();
    assert!(!last.signal.url_changed && !last.signal.state_changed);
    assert!(
        last.stuck.has(StuckPattern::ThreeConsecutiveUnchanged),
        "{last:?}"
    );
}

/// What a policy saw in its decide context, cycle by cycle.
#[derive(Debug, PartialEq)]
struct Seen {
    cycle: u32,
    /// The verdict's step count and whether that step went stale.
    verdict: Option<(u32, bool)>,
    recent: usize,
}

/// Wraps a policy and writes down the monitors' word it was handed.
struct Watching<P> {
    inner: P,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Seen>>>,
}

#[async_trait::async_trait]
impl<P: arc_core::Policy> arc_core::Policy for Watching<P> {
    fn name(&self) -> &'static str {
        "watching"
    }
    async fn decide(
        &mut self,
        ctx: arc_core::DecideContext<'_>,
    ) -> Result<arc_core::Decision, arc_core::PolicyError> {
        self.seen.lock().unwrap().push(Seen {
            cycle: ctx.cycle,
            verdict: ctx.verdict.map(|v| (v.step, v.stale())),
            recent: ctx.recent.len(),
        });
        self.inner.decide(ctx).await
    }
}

#[tokio::test(start_paused = true)]
async fn the_monitors_run_once_per_step_and_the_policy_sees_each_verdict() {
    // A stale cycle (the first click lands, then reports stale) and two clean ones.
    let backend = StateMachineBackend::new(
        (0u32, 0u32),
        |&(page, _): &(u32, u32)| {
            let mut next = Element::new("next", Role::Button, "Next");
            next.actions = [ActionKind::Click].into();
            let mut s = Snapshot::new("Site", "Pages", vec![next]);
            s.set_url(format!("https://site.test/{page}"));
            s
        },
        |(page, calls): &mut (u32, u32), a| {
            *calls += 1;
            *page += 1;
            if *calls == 1 {
                return Err(arc_core::BackendError::stale(a.target(), "moved"));
            }
            Ok(())
        },
    );
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let policy = Watching {
        inner: ScriptedPolicy::new(next_clicks(3)),
        seen: seen.clone(),
    };
    let mut exec = Executor::new(backend, policy, RuntimeConfig::default());
    let mut events = Vec::new();
    let subtask = arc_core::Subtask::new("Go on", "Done");
    let result = exec.run_with(&subtask, |e| events.push(e)).await;
    assert!(result.is_complete(), "{result:?}");
    assert_eq!(
        exec.backend_mut().state().1,
        3,
        "three clicks reached the app"
    );

    // One monitor step per acted or stale cycle: the count equals the cycle.
    let steps: Vec<(u32, u32)> = events
        .iter()
        .filter_map(|e| e.verdict.as_ref().map(|v| (e.cycle, v.step)))
        .collect();
    assert_eq!(steps, [(1, 1), (2, 2), (3, 3)]);
    assert!(matches!(
        events[0].outcome,
        arc_core::StepOutcome::Stale { .. }
    ));
    assert!(
        events[3].verdict.is_none(),
        "a terminal decision is no step"
    );

    // Each decision was handed the verdict on the step before it, and the window.
    let seen = seen.lock().unwrap();
    let expected = [
        Seen {
            cycle: 1,
            verdict: None,
            recent: 0,
        },
        Seen {
            cycle: 2,
            verdict: Some((1, true)),
            recent: 1,
        },
        Seen {
            cycle: 3,
            verdict: Some((2, false)),
            recent: 2,
        },
        Seen {
            cycle: 4,
            verdict: Some((3, false)),
            recent: 3,
        },
    ];
    assert_eq!(*seen, expected);
}
