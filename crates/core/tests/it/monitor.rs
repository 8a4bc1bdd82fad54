//! The stuck monitor's 7 patterns, the milestone monitor's signals and error invariant,
//! and every escalation controller outcome (DESIGN §4.4, seed §4.4–§4.6).

use arc_core::monitor::STUCK_WINDOW;
use arc_core::{
    ActionKind, ControllerAction, ControllerReason, Element, EscalationConfig,
    EscalationController, Executor, FailureSignature, MilestoneGoals, MilestoneMonitor,
    MilestoneReport, MilestoneSignal, MonitorSuite, Role, RuntimeConfig, Snapshot, StepFailure,
    StepSignal, StuckMonitor, StuckPattern, StuckReport,
};
use arc_sim::{ScriptedPolicy, SignupApp};

fn click(target: &str) -> StepSignal {
    StepSignal::new(ActionKind::Click, Some(target))
}

/// A click that left state `h` unchanged.
fn no_change(target: &str, h: u64) -> StepSignal {
    click(target).transition(h, h)
}

fn feed(m: &mut StuckMonitor, steps: &[StepSignal]) -> StuckReport {
    let mut last = StuckReport::clear();
    for s in steps {
        last = m.observe(s);
    }
    last
}

// ---- stuck monitor: one test per pattern ------------------------------------------

#[test]
fn pattern_1_repeated_action_with_no_state_change() {
    let mut m = StuckMonitor::new();
    let first = m.observe(&no_change("save", 7));
    assert!(!first.has(StuckPattern::RepeatedNoChangeAction));
    let second = m.observe(&no_change("save", 7));
    assert!(
        second.has(StuckPattern::RepeatedNoChangeAction),
        "{second:?}"
    );
    assert!(second.stuck);
    assert_eq!(second.signature, Some(FailureSignature::StateNotChanged));
}

#[test]
fn pattern_2_same_target_failing_twice() {
    let mut m = StuckMonitor::new();
    let stale = click("submit").with_failure(StepFailure::Stale);
    let r = feed(&mut m, &[stale.clone(), stale]);
    assert!(r.has(StuckPattern::SameTargetFailing), "{r:?}");
    assert!(r.stuck);
    assert_eq!(r.signature, Some(FailureSignature::LocatorNotFound));
    // Failures on two different targets are not "the same locator".
    let mut m = StuckMonitor::new();
    let r = feed(
        &mut m,
        &[
            click("a").with_failure(StepFailure::Stale),
            click("b").with_failure(StepFailure::Stale),
        ],
    );
    assert!(!r.has(StuckPattern::SameTargetFailing));
}

#[test]
fn pattern_3_cyclic_a_b_a_b_oscillation() {
    let mut m = StuckMonitor::new();
    let steps = [
        click("toggle").transition(1, 2),
        click("toggle").transition(2, 1),
        click("toggle").transition(1, 2),
    ];
    let r = feed(&mut m, &steps);
    assert!(!r.has(StuckPattern::CyclicOscillation), "needs four states");
    let r = m.observe(&click("toggle").transition(2, 1));
    assert!(r.has(StuckPattern::CyclicOscillation), "{r:?}");
    assert!(r.stuck);
    assert_eq!(r.signature, Some(FailureSignature::CyclicLoop));
    // A-B-C-D is progress, not a cycle.
    let mut m = StuckMonitor::new();
    let r = feed(
        &mut m,
        &[
            click("x").transition(1, 2),
            click("x").transition(2, 3),
            click("x").transition(3, 4),
            click("x").transition(4, 5),
        ],
    );
    assert!(!r.stuck, "{r:?}");
}

#[test]
fn pattern_4_repeated_readiness_timeouts() {
    let mut m = StuckMonitor::new();
    let slow = |b, a| {
        click("load")
            .transition(b, a)
            .with_failure(StepFailure::ReadinessTimeout)
    };
    let r = m.observe(&slow(1, 2));
    assert!(!r.has(StuckPattern::RepeatedReadinessTimeouts));
    let r = m.observe(&slow(2, 3));
    assert!(r.has(StuckPattern::RepeatedReadinessTimeouts), "{r:?}");
    assert!(r.stuck);
    assert_eq!(r.signature, Some(FailureSignature::ReadinessTimeout));
}

#[test]
fn pattern_5_repeated_action_exceptions() {
    let mut m = StuckMonitor::new();
    let r = feed(
        &mut m,
        &[
            click("a").with_failure(StepFailure::ActionException),
            click("b").with_failure(StepFailure::ActionException),
        ],
    );
    assert!(r.has(StuckPattern::RepeatedActionExceptions), "{r:?}");
    assert!(!r.has(StuckPattern::SameTargetFailing));
    assert!(r.stuck);
    assert_eq!(r.signature, Some(FailureSignature::ActionException));
}

#[test]
fn pattern_6_success_with_zero_delta_is_weak_alone() {
    let mut m = StuckMonitor::new();
    let r = m.observe(&no_change("field", 3));
    assert_eq!(r.patterns, vec![StuckPattern::SuccessZeroDelta]);
    assert!(!r.stuck, "one zero-delta click is not stuck: {r:?}");
    assert!(r.score > 0.0 && r.score < 0.5);
    // Neutral verbs and URL changes are not zero-delta successes.
    let mut m = StuckMonitor::new();
    let r = m.observe(&StepSignal::new(ActionKind::Wait, None).transition(3, 3));
    assert!(!r.has(StuckPattern::SuccessZeroDelta));
    let mut m = StuckMonitor::new();
    let r = m.observe(&no_change("link", 3).with_urls(Some("/a"), Some("/b")));
    assert!(!r.has(StuckPattern::SuccessZeroDelta));
}

#[test]
fn pattern_7_three_consecutive_unchanged() {
    let mut m = StuckMonitor::new();
    let r = feed(&mut m, &[no_change("a", 1), no_change("b", 1)]);
    assert!(!r.has(StuckPattern::ThreeConsecutiveUnchanged));
    let r = m.observe(&no_change("c", 1));
    assert!(r.has(StuckPattern::ThreeConsecutiveUnchanged), "{r:?}");
    assert_eq!(r.score, 1.0);
    assert!(r.stuck);
    assert_eq!(r.signature, Some(FailureSignature::StateNotChanged));
}

#[test]
fn old_failures_in_the_window_do_not_keep_a_clean_step_stuck() {
    let mut m = StuckMonitor::new();
    let stale = click("submit").with_failure(StepFailure::Stale);
    assert!(feed(&mut m, &[stale.clone(), stale]).stuck);
    let r = m.observe(&click("submit").transition(1, 2));
    assert!(!r.stuck, "{r:?}");
    assert!(r.patterns.is_empty());
}

#[test]
fn the_window_holds_five_steps() {
    assert_eq!(STUCK_WINDOW, 5);
    let mut m = StuckMonitor::new();
    // An identical no-change click five steps apart has left the window.
    m.observe(&no_change("save", 9));
    for i in 0..4 {
        m.observe(&click("other").transition(i * 2 + 10, i * 2 + 11));
    }
    let r = m.observe(&no_change("save", 9));
    assert!(!r.has(StuckPattern::RepeatedNoChangeAction), "{r:?}");
}

#[test]
fn wire_names_are_stable_screaming_snake() {
    let names: Vec<&str> = FailureSignature::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        names,
        [
            "CYCLIC_LOOP",
            "LOCATOR_NOT_FOUND",
            "STATE_NOT_CHANGED",
            "READINESS_TIMEOUT",
            "ACTION_EXCEPTION",
            "BACKEND_CRASHED",
            "ESCALATION_REQUIRED"
        ]
    );
    assert_eq!(
        serde_json::to_string(&FailureSignature::CyclicLoop).unwrap(),
        "\"CYCLIC_LOOP\""
    );
    assert_eq!(StuckPattern::ALL.len(), 7);
    assert_eq!(
        serde_json::to_string(&ControllerAction::RecoverLocally).unwrap(),
        "\"RECOVER_LOCALLY\""
    );
    let back: FailureSignature = serde_json::from_str("\"LOCATOR_NOT_FOUND\"").unwrap();
    assert_eq!(back, FailureSignature::LocatorNotFound);
    assert!(serde_json::from_str::<FailureSignature>("\"locator_not_found\"").is_err());
}

// ---- escalation controller: one test per outcome ---------------------------------

fn stuck(signature: FailureSignature) -> StuckReport {
    StuckReport {
        stuck: true,
        patterns: vec![StuckPattern::ThreeConsecutiveUnchanged],
        score: 1.0,
        signature: Some(signature),
    }
}

fn ok_step() -> StepSignal {
    click("x").transition(1, 2)
}

fn none() -> MilestoneReport {
    MilestoneReport::none()
}

#[test]
fn continue_on_healthy_steps() {
    let mut suite = MonitorSuite::default();
    for i in 0..10 {
        let out = suite.step(&click("next").transition(i, i + 1), None, None);
        assert_eq!(out.decision.action, ControllerAction::Continue);
        assert_eq!(out.decision.reason, ControllerReason::Healthy);
        assert_eq!(out.decision.signature, None);
    }
}

#[test]
fn a_single_stuck_tick_is_noise() {
    let mut c = EscalationController::default();
    let d = c.decide(&ok_step(), &stuck(FailureSignature::CyclicLoop), &none());
    assert_eq!(d.action, ControllerAction::Continue);
    assert_eq!(d.reason, ControllerReason::NoiseFiltered { ticks: 1 });
    assert_eq!(d.signature, Some(FailureSignature::CyclicLoop));
    // A clean step in between resets the streak: isolated ticks never escalate.
    for _ in 0..5 {
        let healthy = c.decide(&ok_step(), &StuckReport::clear(), &none());
        assert_eq!(healthy.action, ControllerAction::Continue);
        let tick = c.decide(&ok_step(), &stuck(FailureSignature::CyclicLoop), &none());
        assert_eq!(tick.action, ControllerAction::Continue);
    }
    assert_eq!(c.escalations_used(), 0);
}

#[test]
fn escalate_after_two_consecutive_stuck_ticks() {
    // Real monitors: the same target goes stale three times.
    let mut suite = MonitorSuite::default();
    let stale = click("submit").with_failure(StepFailure::Stale);
    let actions: Vec<_> = (0..3)
        .map(|_| suite.step(&stale, None, None).decision)
        .collect();
    assert_eq!(actions[0].action, ControllerAction::Continue);
    assert_eq!(actions[0].reason, ControllerReason::Healthy);
    assert_eq!(
        actions[1].reason,
        ControllerReason::NoiseFiltered { ticks: 1 }
    );
    assert_eq!(actions[2].action, ControllerAction::Escalate);
    assert_eq!(
        actions[2].reason,
        ControllerReason::PersistentStuck { ticks: 2 }
    );
    assert_eq!(
        actions[2].signature,
        Some(FailureSignature::LocatorNotFound)
    );
    assert_eq!(suite.controller.escalations_used(), 1);
}

#[test]
fn hard_failures_escalate_immediately() {
    for (failure, signature) in [
        (
            StepFailure::LocatorNotFound,
            FailureSignature::LocatorNotFound,
        ),
        (StepFailure::BackendLost, FailureSignature::BackendCrashed),
        (
            StepFailure::EscalationRequested,
            FailureSignature::EscalationRequired,
        ),
    ] {
        let mut c = EscalationController::default();
        let step = click("x").with_failure(failure);
        let d = c.decide(&step, &StuckReport::clear(), &none());
        assert_eq!(d.action, ControllerAction::Escalate, "{failure}");
        assert_eq!(d.reason, ControllerReason::HardFailure { failure });
        assert_eq!(d.signature, Some(signature));
    }
    // ... even during the cooldown after a recovery.
    let mut c = EscalationController::default();
    let hard = click("x").with_failure(StepFailure::BackendLost);
    c.decide(&hard, &StuckReport::clear(), &none());
    assert_eq!(c.cooldown_remaining(), 3);
    let d = c.decide(&hard, &StuckReport::clear(), &none());
    assert_eq!(d.action, ControllerAction::Escalate);
}

#[test]
fn recover_locally_before_escalating_when_a_settle_can_fix_it() {
    // Real monitors: the page keeps timing out while loading.
    let mut suite = MonitorSuite::default();
    let slow = |i: u64| {
        click("load")
            .transition(i, i + 1)
            .with_failure(StepFailure::ReadinessTimeout)
    };
    let d: Vec<_> = (0..3)
        .map(|i| suite.step(&slow(i), None, None).decision)
        .collect();
    assert_eq!(d[1].reason, ControllerReason::NoiseFiltered { ticks: 1 });
    assert_eq!(d[2].action, ControllerAction::RecoverLocally);
    assert_eq!(d[2].signature, Some(FailureSignature::ReadinessTimeout));
    assert_eq!(suite.controller.local_recoveries_used(), 1);
    assert_eq!(suite.controller.escalations_used(), 0);
    // A cyclic loop is not something waiting fixes: it escalates directly.
    let mut c = EscalationController::default();
    c.decide(&ok_step(), &stuck(FailureSignature::CyclicLoop), &none());
    let d = c.decide(&ok_step(), &stuck(FailureSignature::CyclicLoop), &none());
    assert_eq!(d.action, ControllerAction::Escalate);
    assert_eq!(c.local_recoveries_used(), 0);
}

#[test]
fn cooldown_suppresses_three_steps_after_a_recovery() {
    let mut c = EscalationController::default();
    let s = stuck(FailureSignature::StateNotChanged);
    c.decide(&ok_step(), &s, &none());
    assert_eq!(
        c.decide(&ok_step(), &s, &none()).action,
        ControllerAction::RecoverLocally
    );
    for remaining in [2, 1, 0] {
        let d = c.decide(&ok_step(), &s, &none());
        assert_eq!(d.action, ControllerAction::Continue);
        assert_eq!(d.reason, ControllerReason::Cooldown { remaining });
    }
    // After the cooldown, noise filtering starts over: one tick, then act.
    let d = c.decide(&ok_step(), &s, &none());
    assert_eq!(d.reason, ControllerReason::NoiseFiltered { ticks: 1 });
    let d = c.decide(&ok_step(), &s, &none());
    assert_eq!(d.action, ControllerAction::RecoverLocally);
    assert_eq!(c.local_recoveries_used(), 2);
}

#[test]
fn abort_when_the_budgets_are_spent() {
    // 2 local recoveries, then 3 escalations, then ABORT, which sticks.
    let mut c = EscalationController::new(EscalationConfig::default());
    let s = stuck(FailureSignature::ReadinessTimeout);
    let acted: Vec<_> = (0..40)
        .map(|_| c.decide(&ok_step(), &s, &none()))
        .filter(|d| d.action != ControllerAction::Continue)
        .take(7)
        .collect();
    let actions: Vec<_> = acted.iter().map(|d| d.action).collect();
    assert_eq!(
        actions,
        [
            ControllerAction::RecoverLocally,
            ControllerAction::RecoverLocally,
            ControllerAction::Escalate,
            ControllerAction::Escalate,
            ControllerAction::Escalate,
            ControllerAction::Abort,
            ControllerAction::Abort,
        ]
    );
    assert_eq!(acted[2].reason, ControllerReason::LocalBudgetSpent);
    assert_eq!(acted[5].reason, ControllerReason::BudgetsSpent);
    assert_eq!(acted[5].signature, Some(FailureSignature::ReadinessTimeout));
    assert_eq!(acted[6].reason, ControllerReason::AlreadyAborted);
    assert_eq!((c.local_recoveries_used(), c.escalations_used()), (2, 3));
    assert!(c.is_aborted());
    // Healthy steps do not revive an aborted controller.
    let d = c.decide(&ok_step(), &StuckReport::clear(), &none());
    assert_eq!(d.action, ControllerAction::Abort);

    // Hard failures spend the same escalation budget.
    let mut c = EscalationController::default();
    let hard = click("x").with_failure(StepFailure::LocatorNotFound);
    let actions: Vec<_> = (0..4)
        .map(|_| c.decide(&hard, &StuckReport::clear(), &none()).action)
        .collect();
    assert_eq!(
        actions,
        [
            ControllerAction::Escalate,
            ControllerAction::Escalate,
            ControllerAction::Escalate,
            ControllerAction::Abort
        ]
    );
}

#[test]
fn goal_progress_resets_the_stuck_streak() {
    let mut c = EscalationController::default();
    let s = stuck(FailureSignature::CyclicLoop);
    c.decide(&ok_step(), &s, &none());
    let progress = MilestoneReport {
        progressed: true,
        signals: vec![MilestoneSignal::TextAppeared],
        score: 0.9,
    };
    let d = c.decide(&ok_step(), &s, &progress);
    assert_eq!(d.reason, ControllerReason::GoalProgress);
    let d = c.decide(&ok_step(), &s, &none());
    assert_eq!(d.reason, ControllerReason::NoiseFiltered { ticks: 1 });
    // A mere state advance does not excuse an oscillation.
    let advance = MilestoneReport {
        progressed: true,
        signals: vec![MilestoneSignal::StateAdvanced],
        score: 0.3,
    };
    let d = c.decide(&ok_step(), &s, &advance);
    assert_eq!(d.action, ControllerAction::Escalate);
}

// ---- milestone monitor -----------------------------------------------------------

fn page(url: &str, extra: Vec<Element>) -> Snapshot {
    let mut field = Element::new("email", Role::TextField, "Email");
    field.actions = [ActionKind::TypeText].into();
    field.value = Some("".into());
    let mut terms = Element::new("terms", Role::CheckBox, "I accept");
    terms.actions = [ActionKind::Click].into();
    terms.selected = Some(false);
    let mut submit = Element::new("submit", Role::Button, "Sign up");
    submit.actions = [ActionKind::Click].into();
    let mut elements = vec![field, terms, submit];
    elements.extend(extra);
    let mut s = Snapshot::new("App", "Page", elements);
    s.facts.url = Some(url.into());
    s
}

fn with<F: FnOnce(&mut Vec<Element>)>(url: &str, f: F) -> Snapshot {
    let base = page(url, vec![]);
    let mut elements = base.elements.to_vec();
    f(&mut elements);
    let mut s = Snapshot::new("App", "Page", elements);
    s.facts.url = Some(url.into());
    s
}

fn step_between(
    kind: ActionKind,
    target: &str,
    name: &str,
    b: &Snapshot,
    a: &Snapshot,
) -> StepSignal {
    let mut s = StepSignal::new(kind, Some(target)).with_target_name(name);
    s.before = arc_core::monitor::StateHash::of_revision(&b.revision);
    s.after = arc_core::monitor::StateHash::of_revision(&a.revision);
    s.state_changed = b.revision != a.revision;
    s.with_urls(b.url(), a.url())
}

fn goals() -> MilestoneGoals {
    MilestoneGoals {
        urls: vec!["/welcome".into()],
        texts: vec!["Welcome aboard".into()],
    }
}

#[test]
fn milestone_signals() {
    let before = page("https://app.test/signup", vec![]);
    let mut m = MilestoneMonitor::new(goals());
    m.prime(&before);

    // 1. declared change: the typed value landed.
    let typed = with("https://app.test/signup", |e| {
        e[0].value = Some("ada@x.io".into())
    });
    let r = m.observe(
        &step_between(ActionKind::TypeText, "email", "Email", &before, &typed),
        Some(&before),
        Some(&typed),
    );
    assert!(r.has(MilestoneSignal::DeclaredStateChange), "{r:?}");
    assert!(r.has(MilestoneSignal::StateAdvanced));
    assert!(!r.goal_progress());

    // 4 + 2 + 3: a submit click moves to the welcome URL and shows the goal text.
    let done = page(
        "https://app.test/welcome",
        vec![Element::new("msg", Role::Status, "Welcome aboard, Ada")],
    );
    let r = m.observe(
        &step_between(ActionKind::Click, "submit", "Sign up", &typed, &done),
        Some(&typed),
        Some(&done),
    );
    for s in [
        MilestoneSignal::TargetUrlReached,
        MilestoneSignal::TextAppeared,
        MilestoneSignal::FormSubmitted,
        MilestoneSignal::StateAdvanced,
    ] {
        assert!(r.has(s), "{s} missing from {r:?}");
    }
    assert!(r.goal_progress());
    assert!(r.score > 0.9);

    // A text or URL that was already reached does not "appear" again.
    let again = page(
        "https://app.test/welcome",
        vec![Element::new("msg", Role::Status, "Welcome aboard, Ada (2)")],
    );
    let r = m.observe(
        &step_between(ActionKind::Click, "x", "Refresh", &done, &again),
        Some(&done),
        Some(&again),
    );
    assert!(!r.has(MilestoneSignal::TextAppeared));
    assert!(!r.has(MilestoneSignal::TargetUrlReached));
}

#[test]
fn an_error_indicator_is_not_progress() {
    let before = page("https://app.test/signup", vec![]);
    let after = page(
        "https://app.test/signup",
        vec![Element::new(
            "err",
            Role::Alert,
            "Enter a valid email address",
        )],
    );
    let mut m = MilestoneMonitor::new(goals());
    let r = m.observe(
        &step_between(ActionKind::Click, "submit", "Sign up", &before, &after),
        Some(&before),
        Some(&after),
    );
    assert!(!r.has(MilestoneSignal::FormSubmitted), "{r:?}");
    assert!(!r.has(MilestoneSignal::StateAdvanced));
}

#[test]
fn milestones_never_fire_on_an_errored_step() {
    let before = page("https://app.test/signup", vec![]);
    let after = page(
        "https://app.test/welcome",
        vec![Element::new("msg", Role::Status, "Welcome aboard")],
    );
    for failure in StepFailure::ALL {
        let mut m = MilestoneMonitor::new(goals());
        m.prime(&before);
        let step = step_between(ActionKind::Click, "submit", "Sign up", &before, &after)
            .with_failure(*failure);
        let r = m.observe(&step, Some(&before), Some(&after));
        assert_eq!(r, MilestoneReport::none(), "{failure}");
        // A later clean step does not claim credit for what the errored one showed.
        let next = page(
            "https://app.test/welcome",
            vec![
                Element::new("msg", Role::Status, "Welcome aboard"),
                Element::new("more", Role::StaticText, "Next steps"),
            ],
        );
        let later = step_between(ActionKind::Click, "x", "Other", &after, &next);
        let r = m.observe(&later, Some(&after), Some(&next));
        assert!(r.has(MilestoneSignal::StateAdvanced), "{failure}: {r:?}");
        assert!(!r.has(MilestoneSignal::TextAppeared), "{failure}: {r:?}");
    }
}

#[test]
fn goals_come_from_the_quoted_verification_strings() {
    let mut s = arc_core::Subtask::new("Sign up", "The page shows \"Welcome, Ada\"");
    s.verification
        .push("The URL is \u{201C}/done\u{201D}".into());
    let g = MilestoneGoals::from_subtask(&s);
    assert_eq!(g.texts, ["Welcome, Ada"]);
    assert_eq!(g.urls, ["/done"]);
}

// ---- the loop's events, end to end -------------------------------------------------

#[tokio::test(start_paused = true)]
async fn the_demo_run_is_healthy_and_its_confirmation_is_a_milestone() {
    let subtask = SignupApp::demo_subtask();
    let mut exec = Executor::new(
        SignupApp::backend(),
        ScriptedPolicy::new(SignupApp::demo_script()),
        RuntimeConfig::default(),
    );
    let mut events = Vec::new();
    let result = exec.run_with(&subtask, |e| events.push(e)).await;
    assert!(result.is_complete(), "{result:?}");

    // The loop ran the monitors itself: one verdict per step, on the step's event.
    let mut text_appeared_on = None;
    for e in &events {
        let Some(v) = &e.verdict else {
            assert!(e.is_terminal(), "every step carries a verdict: {e:?}");
            continue;
        };
        assert_eq!(v.controller.action, ControllerAction::Continue, "{v:?}");
        if v.milestone.has(MilestoneSignal::TextAppeared) {
            text_appeared_on = v.signal.target.clone();
        }
    }
    assert_eq!(
        text_appeared_on.as_ref().map(|t| t.as_str()),
        Some("submit")
    );
}
