//! MiniWoB++ in headless Chromium: rewards are read from the page, a wrong answer scores
//! ≤ 0, seeds reproduce their episodes, the harness's widgets stay out of observation, and
//! the runtime never claims a completion the page does not score.
//!
//! The pages come from PyPI on first use (`ensure_pages`, the same steps as
//! `scripts/fetch-miniwob.sh`), into the cache outside the repository.

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{
    Action, Backend, DecideContext, Decision, Policy, PolicyError, Role, Scalar, Subtask,
    TerminalKind,
};
use arc_eval::miniwob::run::{episode, episode_with};
use arc_eval::miniwob::*;
use arc_eval::{Mode, Stack};
use async_trait::async_trait;

/// The small set CI runs: click, form and selection tasks.
const SMALL_SET: [&str; 6] = [
    "click-test",
    "click-button",
    "enter-text",
    "click-checkboxes",
    "login-user",
    "click-link",
];

fn options(tasks: &[&str], seeds: u32) -> MiniwobOptions {
    MiniwobOptions {
        html_root: Some(ensure_pages().expect("fetch the MiniWoB++ pages")),
        tasks: tasks.iter().map(|t| TaskName::new(t).unwrap()).collect(),
        seeds,
        ..MiniwobOptions::default()
    }
}

/// Episode `seed` of `task`, as the only one of a run.
fn slot(task: &str, seed: u64) -> Slot {
    Slot {
        position: 0,
        task: TaskName::new(task).unwrap(),
        seed,
    }
}

async fn harness(opts: &MiniwobOptions) -> (MiniwobHost, BrowserBackend) {
    let root = opts.html_root.as_ref().unwrap();
    let host = MiniwobHost::start(root, opts.harness.clone())
        .await
        .unwrap();
    let backend = BrowserBackend::start(BrowserOptions::default(), "about:blank")
        .await
        .unwrap();
    (host, backend)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rewards_are_read_from_the_page_and_no_completion_is_false() {
    let opts = options(&SMALL_SET, 3);
    let run = run_miniwob(&opts).await.unwrap();
    let res = MiniwobResult::from_run(&run).unwrap();
    println!("{}", res.to_markdown());
    for r in &res.records {
        println!(
            "{} seed {}: {:?} {:?} raw {} done {} steps {} {} ms — {:?}",
            r.task,
            r.seed,
            r.status,
            r.termination,
            r.raw_reward,
            r.done,
            r.steps,
            r.wall_ms,
            r.reason
        );
    }
    assert_eq!(res.records.len(), 18);
    assert_eq!(res.tasks.len(), 6);
    for r in &res.records {
        assert_eq!(r.error, None, "{} seed {}", r.task, r.seed);
        assert!((-1.0..=1.0).contains(&r.raw_reward), "{r:?}");
        assert!((-1.0..=1.0).contains(&r.reward), "{r:?}");
        assert!(r.success == (r.done && r.raw_reward > 0.0), "{r:?}");
        if r.status == Some(TerminalKind::SubtaskComplete) {
            // A completed episode was scored by the page, and scored as a success.
            assert!(r.done, "{r:?}");
            assert!(!r.false_complete, "{r:?}");
        }
    }
    assert_eq!(res.false_completes, 0);
    let row = |t: &str| res.tasks.iter().find(|r| r.task.as_str() == t).unwrap();
    assert_eq!(row("click-test").successes, 3);
    assert_eq!(row("click-checkboxes").successes, 3);
    assert_eq!(row("login-user").successes, 3);
    assert!(res.success_rate > 0.0 && res.success_rate <= 1.0);
    let json = serde_json::to_value(&res).unwrap();
    assert!(json["success_rate"].is_number());
    assert_eq!(json["tasks"].as_array().unwrap().len(), 6);
}

/// Clicks the first button not named like the goal's first quoted string, then claims
/// completion: a deliberately wrong answer.
struct WrongButton;

#[async_trait]
impl Policy for WrongButton {
    fn name(&self) -> &'static str {
        "wrong-button"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if !ctx.history.is_empty() {
            return Ok(Decision::terminal(TerminalKind::SubtaskComplete));
        }
        let wanted = ctx.subtask.goal.split('"').nth(1).unwrap_or_default();
        let wrong = ctx
            .snapshot
            .elements
            .iter()
            .find(|e| e.visible && e.role == Role::Button && e.name.trim() != wanted);
        Ok(match wrong {
            Some(e) => Decision::act(Action::click(e.id.clone())),
            None => Decision::terminal(TerminalKind::NeedsAgent),
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_click_scores_at_most_zero_and_is_flagged() {
    let opts = options(&["click-button"], 3);
    let wrong = |_| Stack::Other(Box::new(WrongButton));
    let run = run_miniwob_with(&opts, "wrong-button", wrong, |_| {})
        .await
        .unwrap();
    let res = MiniwobResult::from_run(&run).unwrap();
    assert_eq!(res.policy, "wrong-button");
    for r in &res.records {
        assert_eq!(r.error, None);
        assert!(r.done, "the page ended the episode: {r:?}");
        assert!(r.raw_reward <= 0.0, "{r:?}");
        assert!(!r.success);
        assert!(
            r.false_complete,
            "a claimed completion scored ≤ 0 is flagged"
        );
    }
    assert_eq!(res.false_completes, 3);
    assert_eq!(res.successes, 0);
}

/// Types the subtask's first input into the first text field, clicks "Submit", and stops.
struct TypeThenSubmit;

#[async_trait]
impl Policy for TypeThenSubmit {
    fn name(&self) -> &'static str {
        "type-then-submit"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let find = |role: Role, name: &str| {
            ctx.snapshot
                .elements
                .iter()
                .find(|e| e.visible && e.role == role && e.name.trim() == name)
                .map(|e| e.id.clone())
        };
        let action = match ctx.history.len() {
            0 => find(Role::TextField, "").map(|target| {
                let input_key = ctx.subtask.inputs.keys().next().cloned();
                Action::type_text(target, input_key.unwrap_or_default())
            }),
            1 => find(Role::Button, "Submit").map(Action::click),
            _ => return Ok(Decision::terminal(TerminalKind::NeedsAgent)),
        };
        Ok(match action {
            Some(a) => Decision::act(a),
            None => Decision::terminal(TerminalKind::NeedsAgent),
        })
    }
}

/// The planner's subtask with its literal replaced by a wrong one.
fn wrong_literal(u: &Utterance) -> Result<Subtask, arc_core::ContractError> {
    let mut s = plan(u)?;
    for v in s.inputs.values_mut() {
        *v = Scalar::Text("definitely not the answer".into());
    }
    Ok(s)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_the_wrong_text_scores_at_most_zero() {
    let opts = options(&["enter-text"], 1);
    let (host, mut backend) = harness(&opts).await;
    let script = || Stack::Other(Box::new(TypeThenSubmit));
    for seed in 0..2 {
        let slot = slot("enter-text", seed);
        // The same scripted policy with the planner's literal: the page scores it.
        let right = episode(&host, &mut backend, &opts, &slot, script()).await;
        let right = EpisodeRecord::from_result(&right).unwrap();
        assert!(right.done && right.raw_reward > 0.0, "{right:?}");
        let wrong = episode_with(&host, &mut backend, &opts, &slot, wrong_literal, script()).await;
        let wrong = EpisodeRecord::from_result(&wrong).unwrap();
        assert_eq!(wrong.steps, 2, "{wrong:?}");
        assert!(wrong.done, "{wrong:?}");
        assert!(wrong.raw_reward <= 0.0, "{wrong:?}");
        assert!(!wrong.success);
    }
    backend.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeds_reproduce_their_episodes() {
    let opts = options(&["click-button"], 1);
    let (host, mut backend) = harness(&opts).await;
    for t in ["click-button", "enter-text", "click-checkboxes"] {
        let task = TaskName::new(t).unwrap();
        let mut seen = Vec::new();
        for seed in 0..4 {
            let a = host.begin(&mut backend, &task, seed).await.unwrap();
            let b = host.begin(&mut backend, &task, seed).await.unwrap();
            assert_eq!(a.utterance, b.utterance, "{t} seed {seed}");
            seen.push(a.utterance.text);
        }
        seen.dedup();
        assert!(seen.len() > 1, "{t}: every seed gave {:?}", seen[0]);
    }
    backend.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_harness_widgets_stay_out_of_observation() {
    let opts = options(&["click-test"], 1);
    let (host, mut backend) = harness(&opts).await;
    let task = TaskName::new("click-test").unwrap();
    let started = host.begin(&mut backend, &task, 0).await.unwrap();
    assert_eq!(started.hidden.len(), DEFAULT_HIDDEN_IDS.len());
    let widgets = [
        "START",
        "Last reward",
        "Time left",
        "Episodes done",
        "Click the button.",
    ];
    let names = |snapshot: &arc_core::Snapshot| -> Vec<String> {
        snapshot
            .elements
            .iter()
            .filter(|e| e.visible)
            .map(|e| e.name.clone())
            .collect()
    };
    let before = backend.observe().await.unwrap();
    for w in widgets {
        assert!(
            !names(&before).iter().any(|n| n.contains(w)),
            "{w} is observed"
        );
    }
    // After the episode the START cover is back over the task: still unobserved, and a
    // click it would intercept is refused by the backend's hit test, never pressed.
    let slot = slot("click-test", 0);
    let record = episode(&host, &mut backend, &opts, &slot, Stack::new(Mode::Reflex)).await;
    assert!(record.success, "{record:?}");
    // The shared runner's measurements: one timed decision per cycle, a traced step.
    assert_eq!(record.trace.len() as u32, record.steps);
    assert!(record.decision_latency_us.len() as u32 > record.steps);
    assert_eq!(record.step_latency_ms.len() as u32, record.steps);
    assert_eq!(record.id.as_str(), "click-test.s0");
    // Under the cascade the tiers are counted: every decision here is the reflex's.
    let cascade = episode(&host, &mut backend, &opts, &slot, Stack::new(Mode::Cascade)).await;
    assert!(cascade.success, "{cascade:?}");
    let tiers = cascade.tiers.expect("the cascade's counts");
    assert_eq!(tiers.reflex as usize, cascade.decision_latency_us.len());
    assert_eq!((cascade.escalations, cascade.model_calls), (0, 0));
    assert!(cascade
        .trace
        .iter()
        .all(|s| s.decided_by == Some(arc_core::Tier::Reflex)));
    let after = backend.observe().await.unwrap();
    assert!(!names(&after).iter().any(|n| n.contains("START")));
    backend.close().await;
}
