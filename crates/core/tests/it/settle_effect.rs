//! Effect-aware settling on paused time: a known effect on the page, nothing in flight and
//! a short quiet window end settling; a request in flight is still waited for; an unknown
//! or unseen effect settles exactly as before. And the effect each action expects.

use arc_core::settle::{settle_for, EFFECT_QUIET};
use arc_core::{
    Action, Backend, BackendError, EffectSample, Element, ExecutableAction, ExpectedEffect, Role,
    Scalar, SettleConfig, SettleEnd, SettleSample, Snapshot,
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
}

impl Page {
    fn sample(&self) -> SettleSample {
        let t = self.start.elapsed();
        SettleSample {
            fingerprint: u64::from(t >= self.changes_at),
            busy: t < self.busy_until,
        }
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
    async fn execute(&mut self, _: &Snapshot, _: &ExecutableAction) -> Result<(), BackendError> {
        Ok(())
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(self.sample())
    }
    async fn settle_probe_for(&mut self, _: &ExpectedEffect) -> Result<EffectSample, BackendError> {
        let landed = self.lands_at.is_some_and(|at| self.start.elapsed() >= at);
        Ok(EffectSample {
            sample: self.sample(),
            landed,
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
    let mut page = page;
    let before = SettleSample {
        fingerprint: 0,
        busy: false,
    };
    let start = Instant::now();
    let cfg = SettleConfig::default();
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
    }
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
    assert_eq!(
        of(
            Action::Click {
                target: "box".into()
            },
            None
        ),
        checked()
    );
    assert_eq!(
        of(Action::Click { target: "r".into() }, None),
        ExpectedEffect::Checked {
            target: "r".into(),
            checked: true
        }
    );
    assert_eq!(
        of(
            Action::TypeText {
                target: "email".into(),
                input_key: "e".into()
            },
            Some("a@b.c")
        ),
        ExpectedEffect::ValueSet {
            target: "email".into(),
            value: "a@b.c".into()
        }
    );
    assert_eq!(
        of(
            Action::Click {
                target: "email".into()
            },
            None
        ),
        ExpectedEffect::FocusMoved {
            target: "email".into()
        }
    );
    // A button's click can do anything: nothing to check.
    assert_eq!(
        of(
            Action::Click {
                target: "go".into()
            },
            None
        ),
        ExpectedEffect::Unknown
    );
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
