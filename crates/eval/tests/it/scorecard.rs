//! The scorecard over hand-made MiniWoB++ episodes: per-task groups, latency percentiles,
//! stale retries, escalations and cost are what the episodes add up to. No browser.

use arc_core::TerminalKind;
use arc_eval::miniwob::{Episode, RunSpec, TaskName};
use arc_eval::result::Tokens;
use arc_eval::stats::Percentiles;
use arc_eval::task::{Category, Expectation, TaskId};
use arc_eval::{Mode, Pricing, Scorecard, SuiteKind, SuiteResult, TaskResult};

fn episode(task: &str, seed: u64, raw: f64, steps_ms: &[u64], decisions_us: &[u64]) -> TaskResult {
    let success = raw > 0.0;
    TaskResult {
        verification: Vec::new(),
        id: TaskId::try_from(format!("{task}.s{seed}")).unwrap(),
        category: Category::Other(format!("miniwob/{task}")),
        position: 0,
        expected: Expectation::default(),
        status: Some(if success {
            TerminalKind::SubtaskComplete
        } else {
            TerminalKind::NeedsAgent
        }),
        termination: None,
        reason: None,
        error: None,
        status_ok: success,
        assertions: Vec::new(),
        success,
        reward: raw,
        steps: steps_ms.len() as u32,
        reference_steps: None,
        step_latency_ms: steps_ms.to_vec(),
        decision_latency_us: decisions_us.to_vec(),
        stale_retries: 1,
        escalations: 0,
        local_recoveries: 0,
        model_calls: 0,
        tokens: Tokens::default(),
        tiers: None,
        run_ms: steps_ms.iter().sum(),
        wall_ms: 1_000,
        trace: Vec::new(),
        start_screenshot: None,
        episode: Some(Episode {
            task: TaskName::new(task).unwrap(),
            seed,
            utterance: format!("Do <{task}> & \"go\""),
            input_keys: Vec::new(),
            verification: Vec::new(),
            done: true,
            decayed_reward: raw * 0.9,
            reward_reason: None,
        }),
    }
}

fn run(tasks: Vec<TaskResult>, mode: Mode) -> SuiteResult {
    SuiteResult {
        kind: SuiteKind::Miniwob(RunSpec {
            tasks: TaskName::parse_list("a,b").unwrap(),
            seeds: 2,
            seed_base: 0,
            policy: mode.as_str().into(),
        }),
        mode,
        suite_size: tasks.len(),
        shard: None,
        tasks,
        wall_ms: 4_000,
    }
}

#[test]
fn episodes_add_up_per_task_and_overall() {
    let episodes = vec![
        episode("a", 0, 1.0, &[100, 300], &[10, 20, 30]),
        episode("a", 1, -1.0, &[200], &[40, 50]),
        episode("b", 0, 0.5, &[], &[60]),
        episode("b", 1, 1.0, &[400, 500, 600], &[70, 80, 90, 1000]),
    ];
    let card = Scorecard::compare(&[run(episodes, Mode::Reflex)], Pricing::default());
    let r = &card.runs[0];
    let s = &r.summary;
    assert_eq!((s.tasks, s.passed, s.success_rate), (4, 3, 0.75));
    assert_eq!(s.mean_reward, 0.375);
    assert_eq!(s.mean_steps, 1.5);
    assert_eq!(s.step_efficiency, None, "MiniWoB++ has no reference steps");
    // Six step latencies: nearest rank p50 = 3rd = 300, p95 = p99 = 6th = 600.
    let steps = s.step_latency_ms.unwrap();
    assert_eq!(
        (steps.count, steps.p50, steps.p95, steps.p99),
        (6, 300, 600, 600)
    );
    // Ten decision latencies: p50 = 5th = 50, p95 = p99 = 10th = 1000.
    let decisions = s.decision_latency_us.unwrap();
    assert_eq!(
        (decisions.p50, decisions.p95, decisions.max),
        (50, 1000, 1000)
    );
    assert_eq!(s.stale_retries, 4);
    assert_eq!(s.cost_usd, 0.0, "reflex costs nothing");
    // Runs of 400, 200, 0, 1500 ms: the lower median is 200.
    assert_eq!(s.median_run_ms, 200);

    assert_eq!(r.groups.len(), 2);
    let a = &r.group(&TaskName::new("a").unwrap()).unwrap().summary;
    assert_eq!((a.tasks, a.passed, a.mean_reward), (2, 1, 0.0));
    assert_eq!(
        a.step_latency_ms,
        Some(Percentiles {
            count: 3,
            p50: 200,
            p95: 300,
            p99: 300,
            max: 300
        })
    );
    let b = &r.groups[1].summary;
    assert_eq!((b.passed, b.stale_retries, b.median_run_ms), (2, 2, 0));
}

#[test]
fn tokens_and_runtime_are_priced_per_episode_and_summed() {
    let mut episodes = vec![
        episode("a", 0, 1.0, &[100], &[10]),
        episode("b", 0, 1.0, &[100], &[10]),
    ];
    episodes[0].tokens = Tokens {
        input: 1_000_000,
        output: 100_000,
    };
    episodes[0].model_calls = 2;
    episodes[0].escalations = 1;
    let pricing = Pricing {
        input_usd_per_million_tokens: 3.0,
        output_usd_per_million_tokens: 15.0,
        runtime_usd_per_hour: 0.0,
    };
    let card = Scorecard::compare(&[run(episodes, Mode::Cascade)], pricing);
    let r = &card.runs[0];
    // 3.00 for a million input tokens, 1.50 for 100,000 output tokens.
    assert!((r.tasks[0].cost_usd - 4.5).abs() < 1e-9);
    assert_eq!(r.tasks[1].cost_usd, 0.0);
    assert!((r.summary.cost_usd - 4.5).abs() < 1e-9);
    assert_eq!((r.summary.model_calls, r.summary.escalations), (2, 1));
    assert_eq!(r.summary.tokens.input, 1_000_000);
    assert!((r.groups[0].summary.cost_usd - 4.5).abs() < 1e-9);
    // Runtime priced by the hour of wall time: two episodes of 1 s at $36/h = $0.02.
    let hourly = Pricing {
        runtime_usd_per_hour: 36.0,
        ..Pricing::default()
    };
    let card = Scorecard::compare(
        &[run(
            vec![
                episode("a", 0, 1.0, &[], &[]),
                episode("a", 1, 1.0, &[], &[]),
            ],
            Mode::Reflex,
        )],
        hourly,
    );
    assert!((card.runs[0].summary.cost_usd - 0.02).abs() < 1e-9);
    // Page text reaches the reports escaped.
    let html = arc_eval::report::render_html(&card);
    assert!(html.contains("Do &lt;a&gt; &amp; &quot;go&quot;"));
    assert!(!html.contains("<a>"));
}

/// A task's card is its result, whole, plus what the card derives: every per-task figure
/// the run records (here `tiers` and `local_recoveries`, which the card never listed
/// before) reaches the scorecard JSON, read back through the file's own keys.
#[test]
fn a_task_card_holds_its_result_and_only_adds_what_it_derives() {
    let mut result = episode("a", 0, 1.0, &[100, 300], &[10, 20, 30]);
    result.reference_steps = Some(1);
    result.local_recoveries = 2;
    result.tiers = Some(arc_eval::result::TierTally {
        reflex: 3,
        ..Default::default()
    });
    result.tokens = Tokens {
        input: 1_000_000,
        output: 0,
    };
    let pricing = Pricing {
        input_usd_per_million_tokens: 2.0,
        ..Pricing::default()
    };
    let card = Scorecard::compare(&[run(vec![result.clone()], Mode::Reflex)], pricing);
    let json: serde_json::Value = serde_json::to_value(&card).unwrap();
    let task = &json["runs"][0]["tasks"][0];
    let mut keys: Vec<&str> = task
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "cost_usd",
            "decision_latency_us",
            "result",
            "step_efficiency",
            "step_latency_ms"
        ]
    );
    assert_eq!(task["result"], serde_json::to_value(&result).unwrap());
    assert_eq!(task["result"]["local_recoveries"], 2);
    assert_eq!(task["result"]["tiers"]["reflex"], 3);
    assert_eq!(task["step_efficiency"], 2.0);
    assert_eq!(task["cost_usd"], 2.0);
    assert_eq!(task["step_latency_ms"]["p50"], 100);
    // The card's boundary still refuses what it does not know, naming it.
    let mut bad = json.clone();
    bad["runs"][0]["tasks"][0]["success"] = true.into();
    let err = serde_json::from_value::<Scorecard>(bad).unwrap_err();
    assert!(err.to_string().contains("unknown field `success`"), "{err}");
}

/// The HTML report shows the runtime's verdict per criterion with its evidence, escaped
/// like all page text.
#[test]
fn the_report_shows_each_criterion_with_its_evidence() {
    let mut t = episode("a", 0, 1.0, &[50], &[10]);
    t.verification = vec![arc_core::Verdict {
        criterion: "The page shows <b>Saved</b>".into(),
        check: "text \"saved\" shown outside fields".into(),
        holds: true,
        evidence: arc_core::Evidence {
            elements: vec!["e7".into()],
            text: "e7 status \"<i>Saved</i>\"".into(),
        },
        unread: false,
    }];
    let card = Scorecard::compare(&[run(vec![t], Mode::Reflex)], Pricing::default());
    let html = arc_eval::report::render_html(&card);
    assert!(html.contains("✓ holds"), "no verdict in the report");
    assert!(html.contains("The page shows &lt;b&gt;Saved&lt;/b&gt;"));
    assert!(html.contains("e7 status &quot;&lt;i&gt;Saved&lt;/i&gt;&quot;"));
    assert!(!html.contains("<i>Saved</i>"));
}
