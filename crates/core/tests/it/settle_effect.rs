//! Effect-aware settling on paused time: a known effect on the page, nothing in flight and
//! a short quiet window end settling; a request in flight is still waited for; an unknown
//! or unseen effect settles exactly as before. And the effect each action expects.

use arc_core::settle::{effect_quiet, settle_for, still, EFFECT_QUIET};
use arc_core::{
    Action, Backend, BackendError, Decision, EffectSample, Element, ExecutableAction, Executed,
    Expect, ExpectedEffect, Role, Scalar, SettleConfig, SettleEnd, SettleSample, Snapshot,
};
use async_trait::async_trait;
use std::time::Duration;
use tokio::time::Instant;

/// A page whose probe changes once at `changes_at`, is busy (a request in flight) until
/// `busy_until`, and shows the expected effect from `lands_at` (never when `None`).
struct Page {
    start: Instant,
    changes_at: Duration,
    busy_until: Duration,
    lands_at: Option<Duration>,
    /// A cosmetic animation until then: the fingerprint changes on every sample, the
    /// steady one does not.
    animates_until: Duration,
    /// Whether the animation is one the backend counts as steady-relevant (it moves the
    /// target): then the steady fingerprint changes too.
    animation_moves_target: bool,
}

impl Page {
    fn sample(&self) -> SettleSample {
        let t = self.start.elapsed();
        let frame = if t < self.animates_until {
            2 + t.as_millis() as u64
        } else {
            0
        };
        SettleSample {
            fingerprint: u64::from(t >= self.changes_at) + frame,
            busy: t < self.busy_until,
        }
    }

    fn steady(&self) -> u64 {
        if self.animation_moves_target {
            return self.sample().fingerprint;
        }
        u64::from(self.start.elapsed() >= self.changes_at)
    }
}

#[async_trait]
impl Backend for Page {
    fn name(&self) -> &'static str {
        "page"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        Ok(Snapshot::new("app", "w", vec![]))
    }
    async fn is_fresh(&mut self, _: &Snapshot, _: &ExecutableAction) -> Result<bool, BackendError> {
        Ok(true)
    }
    async fn execute(
        &mut self,
        _: &Snapshot,
        _: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        Ok(Executed::default())
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(self.sample())
    }
    async fn settle_probe_for(&mut self, _: &ExpectedEffect) -> Result<EffectSample, BackendError> {
        let landed = self.lands_at.is_some_and(|at| self.start.elapsed() >= at);
        Ok(EffectSample {
            sample: self.sample(),
            landed,
            steady: self.steady(),
        })
    }
}

fn checked() -> ExpectedEffect {
    ExpectedEffect::Checked {
        target: "box".into(),
        checked: true,
    }
}

async fn run(page: Page, effect: ExpectedEffect) -> (SettleEnd, Duration) {
    run_with(page, effect, SettleConfig::default()).await
}

async fn run_with(page: Page, effect: ExpectedEffect, cfg: SettleConfig) -> (SettleEnd, Duration) {
    let mut page = page;
    let before = SettleSample {
        fingerprint: 0,
        busy: false,
    };
    let start = Instant::now();
    let report = settle_for(
        &mut page,
        before,
        &effect,
        &cfg,
        cfg.cap,
        std::future::pending(),
    )
    .await
    .unwrap();
    (report.end, start.elapsed())
}

fn page(changes_at: u64, busy_until: u64, lands_at: Option<u64>) -> Page {
    Page {
        start: Instant::now(),
        changes_at: Duration::from_millis(changes_at),
        busy_until: Duration::from_millis(busy_until),
        lands_at: lands_at.map(Duration::from_millis),
        animates_until: Duration::ZERO,
        animation_moves_target: false,
    }
}

fn animating(until: u64, moves_target: bool) -> Page {
    Page {
        animates_until: Duration::from_millis(until),
        animation_moves_target: moves_target,
        ..page(0, 0, Some(0))
    }
}

#[tokio::test(start_paused = true)]
async fn a_cosmetic_animation_does_not_hold_a_landed_effect() {
    // Expanded at once; another element animates for 1 s.
    let (end, took) = run(animating(1000, false), checked()).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(took < Duration::from_millis(100), "{took:?}");
    // Without the effect the animation is waited out (then the quiet window).
    let (end, took) = run(animating(1000, false), ExpectedEffect::Unknown).await;
    assert_eq!(end, SettleEnd::Quiet);
    assert!(took >= Duration::from_millis(1150), "{took:?}");
}

fn reaction() -> ExpectedEffect {
    ExpectedEffect::Reaction {
        target: "go".into(),
    }
}

#[tokio::test(start_paused = true)]
async fn a_reaction_lands_only_once_the_page_moved() {
    // The page answers the commit at 10 ms and animates another element for 1 s.
    let (end, took) = run(
        Page {
            changes_at: Duration::from_millis(10),
            ..animating(1000, false)
        },
        reaction(),
    )
    .await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(
        took >= Duration::from_millis(10) + EFFECT_QUIET && took < Duration::from_millis(100),
        "{took:?}"
    );
    // No answer at all: the reaction window, as before (the backend's verdict alone is
    // not a landing).
    let (end, took) = run(page(10_000, 0, Some(0)), reaction()).await;
    assert_eq!(end, SettleEnd::NoReaction);
    assert!(took >= Duration::from_millis(600), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn an_animation_that_moves_the_target_is_waited_for() {
    let (end, took) = run(animating(500, true), checked()).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(
        took >= Duration::from_millis(500) + EFFECT_QUIET,
        "{took:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_landed_effect_ends_settling_after_the_short_window() {
    // A checkbox: checked at once, no DOM mutation, nothing in flight.
    let (end, took) = run(page(10_000, 0, Some(0)), checked()).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(
        took >= EFFECT_QUIET && took < Duration::from_millis(100),
        "{took:?}"
    );
    // The same page without the effect check waits for a reaction that never comes.
    let (end, took) = run(page(10_000, 0, Some(0)), ExpectedEffect::Unknown).await;
    assert_eq!(end, SettleEnd::NoReaction);
    assert!(took >= Duration::from_millis(600), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn the_effect_window_is_two_polls_at_most_the_default() {
    let fast = SettleConfig {
        poll: Duration::from_millis(10),
        quiet: Duration::from_millis(60),
        ..SettleConfig::default()
    };
    assert_eq!(effect_quiet(&fast), Duration::from_millis(20));
    assert_eq!(effect_quiet(&SettleConfig::default()), EFFECT_QUIET);
    let (end, took) = run_with(page(10_000, 0, Some(0)), checked(), fast).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(
        took >= Duration::from_millis(20) && took < EFFECT_QUIET,
        "{took:?}"
    );
    // A request still holds it: the short window counts from when the page went idle.
    let (end, took) = run_with(page(300, 300, Some(0)), checked(), fast).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(took >= Duration::from_millis(320), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_refused_press_is_retried_once_the_page_is_still() {
    // A panel slides for 400 ms (the fingerprint moves on every sample): `still` waits it
    // out, then the effect window; a still page costs only that window.
    let cfg = SettleConfig::default();
    let mut sliding = animating(400, true);
    let start = Instant::now();
    let report = still(&mut sliding, &cfg, cfg.cap, std::future::pending())
        .await
        .unwrap();
    assert_eq!(report.end, SettleEnd::Quiet);
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(400) + EFFECT_QUIET,
        "{took:?}"
    );
    assert!(took < Duration::from_millis(500), "{took:?}");
    let mut quiet = page(10_000, 0, None);
    let start = Instant::now();
    let report = still(&mut quiet, &cfg, cfg.cap, std::future::pending())
        .await
        .unwrap();
    assert_eq!(report.end, SettleEnd::Quiet);
    assert_eq!(start.elapsed(), EFFECT_QUIET);
    // A page that never stops is bounded by the cap.
    let mut forever = animating(60_000, true);
    let report = still(
        &mut forever,
        &cfg,
        Duration::from_secs(1),
        std::future::pending(),
    )
    .await
    .unwrap();
    assert_eq!(report.end, SettleEnd::Cap);
}

#[tokio::test(start_paused = true)]
async fn a_request_in_flight_is_waited_for_even_with_the_effect_on_the_page() {
    // The value is set at once, but the page's validation request answers at 300 ms and
    // its message changes the page then.
    let (end, took) = run(page(300, 300, Some(0)), checked()).await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(
        took >= Duration::from_millis(300) + EFFECT_QUIET,
        "{took:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_effect_not_on_the_page_settles_as_before() {
    // Reacted at 10 ms, quiet after: the full 150 ms quiet window.
    let (end, took) = run(page(10, 0, None), checked()).await;
    assert_eq!(end, SettleEnd::Quiet);
    assert!(took >= Duration::from_millis(160), "{took:?}");
}

fn exec(action: Action, value: Option<&str>) -> ExecutableAction {
    ExecutableAction {
        action,
        target_guard: None,
        secondary_target_guard: None,
        value: value.map(|v| Scalar::Text(v.into())),
    }
}

#[test]
fn each_action_expects_the_effect_of_its_kind_and_target() {
    let mut unticked = Element::new("box", Role::CheckBox, "Agree");
    unticked.selected = Some(false);
    let snap = Snapshot::new(
        "app",
        "w",
        vec![
            unticked,
            Element::new("email", Role::TextField, "Email"),
            Element::new("go", Role::Button, "Go"),
            Element::new("r", Role::Radio, "Small"),
        ],
    );
    let of = |a: Action, v: Option<&str>| ExpectedEffect::of(&exec(a, v), &snap);
    assert_eq!(of(Action::click("box"), None), checked());
    assert_eq!(
        of(Action::click("r"), None),
        ExpectedEffect::Checked {
            target: "r".into(),
            checked: true
        }
    );
    assert_eq!(
        of(Action::type_text("email", "e"), Some("a@b.c")),
        ExpectedEffect::ValueSet {
            target: "email".into(),
            value: "a@b.c".into()
        }
    );
    assert_eq!(
        of(Action::click("email"), None),
        ExpectedEffect::FocusMoved {
            target: "email".into()
        }
    );
    // A button's click can do anything: nothing to check.
    assert_eq!(of(Action::click("go"), None), ExpectedEffect::Unknown);
    assert_eq!(
        of(
            Action::Navigate {
                input_key: "u".into()
            },
            Some("http://x/")
        ),
        ExpectedEffect::Navigated {
            url: "http://x/".into()
        }
    );
}

#[test]
fn a_click_expects_what_its_target_states_or_what_the_policy_said() {
    let mut header = Element::new("h", Role::Button, "Section 2");
    header.expanded = Some(false);
    let mut tab = Element::new("t", Role::Tab, "Prices");
    tab.selected = Some(false);
    let snap = Snapshot::new(
        "app",
        "w",
        vec![header, tab, Element::new("x", Role::Button, "Close")],
    );
    let click = |t: &str| exec(Action::click(t), None);
    assert_eq!(
        ExpectedEffect::of(&click("h"), &snap),
        ExpectedEffect::Expanded {
            target: "h".into(),
            expanded: true
        }
    );
    assert_eq!(
        ExpectedEffect::of(&click("t"), &snap),
        ExpectedEffect::Selected { target: "t".into() }
    );
    // The close button states nothing; the policy that clicks it to dismiss a popup
    // expects it gone.
    let plain = Decision::act(Action::click("x"));
    assert_eq!(
        ExpectedEffect::decided(&plain, &click("x"), &snap),
        ExpectedEffect::Unknown
    );
    let dismiss = plain.clone().expecting(Some(Expect::Hidden));
    assert_eq!(
        ExpectedEffect::decided(&dismiss, &click("x"), &snap),
        ExpectedEffect::Hidden { target: "x".into() }
    );
    // A commit expects the page to answer; a tab it clicks says more.
    let commit = plain.clone().expecting(Some(Expect::Reaction));
    assert_eq!(
        ExpectedEffect::decided(&commit, &click("x"), &snap),
        ExpectedEffect::Reaction { target: "x".into() }
    );
    assert_eq!(
        ExpectedEffect::decided(&commit, &click("t"), &snap),
        ExpectedEffect::Selected { target: "t".into() }
    );
    // An expectation the target cannot show (a date field clicked to open its calendar
    // states no expansion) gives way to what it does state, else to a reaction: a
    // check that can never pass would hold settling for the whole quiet window.
    let date = Element::new("d", Role::TextField, "Date");
    let snap = Snapshot::new(
        "app",
        "w",
        vec![date, Element::new("x", Role::Button, "Menu")],
    );
    let open = plain.clone().expecting(Some(Expect::Expanded(true)));
    assert_eq!(
        ExpectedEffect::decided(&open, &click("d"), &snap),
        ExpectedEffect::FocusMoved { target: "d".into() }
    );
    assert_eq!(
        ExpectedEffect::decided(&open, &click("x"), &snap),
        ExpectedEffect::Reaction { target: "x".into() }
    );
    let pick = plain.clone().expecting(Some(Expect::Selected));
    assert_eq!(
        ExpectedEffect::decided(&pick, &click("x"), &snap),
        ExpectedEffect::Reaction { target: "x".into() }
    );
    // The expectation is runtime-internal: the wire form carries none.
    let back = Decision::from_json(&serde_json::to_string(&dismiss).unwrap()).unwrap();
    assert_eq!(back.expect, None);
}
