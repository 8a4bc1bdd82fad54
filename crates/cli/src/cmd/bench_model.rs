//! `arc-cua bench model`: what one model step costs on a page — a decision (the legal
//! action space and the compact view) and a judgment (one criterion and the view), each
//! timed end to end with its prompt and completion tokens — beside the reflex deciding
//! on the same snapshot, in the same run.

use super::bench::percentile;
use crate::exit::{Exit, Failure};
use crate::policy_args::ModelArgs;
use crate::target::serve;
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{Backend, DecideContext, Policy, Question, Subtask};
use arc_policy::{ModelStatsSnapshot, OpenAiPolicy, ReflexPolicy};
use clap::Args;
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct ModelBench {
    /// The page (a URL, or a local HTML file served on 127.0.0.1).
    #[arg(long)]
    url: String,
    /// The subtask's goal the decision is asked for.
    #[arg(long, default_value = "Submit the form")]
    goal: String,
    /// The criterion the judgment is asked about.
    #[arg(long, default_value = "The form was submitted")]
    criterion: String,
    /// Calls of each kind.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Print the row as JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Serialize)]
struct Row {
    url: String,
    elements: usize,
    runs: usize,
    decision: Calls,
    judgment: Calls,
    /// The reflex's decision on the same snapshot (the peer), in microseconds.
    reflex_p50_us: f64,
    reflex_p95_us: f64,
    /// How the endpoint took the answer's schema.
    response_format: arc_policy::model::Dialect,
}

#[derive(Serialize, Default)]
struct Calls {
    p50_ms: f64,
    p95_ms: f64,
    failures: u64,
    prompt_tokens_per_call: f64,
    completion_tokens_per_call: f64,
    /// Why the last failed call failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_error: Option<String>,
}

fn env(e: impl std::fmt::Display) -> Failure {
    (Exit::Environment, e.to_string())
}

pub async fn run(args: ModelBench) -> Result<Exit, Failure> {
    if args.runs == 0 {
        return Err((Exit::BadInput, "--runs must be at least 1".into()));
    }
    let config = args
        .model
        .config()
        .map_err(|e| (Exit::BadInput, e.to_string()))?
        .ok_or((
            Exit::BadInput,
            "name the model: --model NAME (and --model-base-url URL), or ARC_CUA_MODEL".into(),
        ))?;
    let subtask = Subtask::from_value(serde_json::json!({
        "goal": args.goal,
        "verification": [args.criterion],
    }))
    .map_err(|e| (Exit::BadInput, e.to_string()))?;
    let served = serve(&args.url).await?;
    let mut backend = BrowserBackend::start(BrowserOptions::default(), &served.url)
        .await
        .map_err(env)?;
    let snapshot = Arc::new(backend.observe().await.map_err(env)?);
    let ctx = DecideContext {
        subtask: &subtask,
        snapshot: &snapshot,
        history: &[],
        cycle: 1,
        verdict: None,
        recent: &[],
    };
    let mut model = OpenAiPolicy::new(config).map_err(|e| (Exit::BadInput, e.to_string()))?;
    let stats = model.stats();
    let question = [Question {
        index: 0,
        criterion: args.criterion.clone(),
    }];
    let mut decide_ms = Vec::new();
    let mut judge_ms = Vec::new();
    let (mut decide_err, mut judge_err) = (None, None);
    let before = stats.snapshot();
    for _ in 0..args.runs {
        let t = Instant::now();
        match model.decide(ctx).await {
            Ok(_) => decide_ms.push(t.elapsed().as_secs_f64() * 1e3),
            Err(e) => decide_err = Some(e.to_string()),
        }
    }
    let decided = stats.snapshot();
    for _ in 0..args.runs {
        let t = Instant::now();
        match model.judge(ctx, &question).await {
            Some(Ok(_)) => judge_ms.push(t.elapsed().as_secs_f64() * 1e3),
            Some(Err(e)) => judge_err = Some(e.to_string()),
            None => judge_err = Some("the policy cannot judge".into()),
        }
    }
    let judged = stats.snapshot();
    let mut reflex_us = Vec::new();
    for _ in 0..args.runs.max(20) {
        let t = Instant::now();
        ReflexPolicy::new().decide_now(ctx);
        reflex_us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    reflex_us.sort_by(f64::total_cmp);
    let row = Row {
        url: args.url.clone(),
        elements: snapshot.elements.len(),
        runs: args.runs,
        decision: calls(&mut decide_ms, &before, &decided, decide_err),
        judgment: calls(&mut judge_ms, &decided, &judged, judge_err),
        reflex_p50_us: percentile(&reflex_us, 0.50),
        reflex_p95_us: percentile(&reflex_us, 0.95),
        response_format: judged.response_format,
    };
    for (kind, c) in [("decision", &row.decision), ("judgment", &row.judgment)] {
        if let Some(e) = &c.last_error {
            eprintln!("bench model: a {kind} failed: {e}");
        }
    }
    if args.json {
        crate::out::json_line(&row)?;
    } else {
        crate::outln!(
            "{} ({} elements, {} runs each): decision p50 {:.0} ms, p95 {:.0} ms, {:.0}+{:.0} tokens, {} failed; \
             judgment p50 {:.0} ms, p95 {:.0} ms, {:.0}+{:.0} tokens, {} failed; reflex p50 {:.0} µs, p95 {:.0} µs; {:?}",
            row.url,
            row.elements,
            row.runs,
            row.decision.p50_ms,
            row.decision.p95_ms,
            row.decision.prompt_tokens_per_call,
            row.decision.completion_tokens_per_call,
            row.decision.failures,
            row.judgment.p50_ms,
            row.judgment.p95_ms,
            row.judgment.prompt_tokens_per_call,
            row.judgment.completion_tokens_per_call,
            row.judgment.failures,
            row.reflex_p50_us,
            row.reflex_p95_us,
            row.response_format,
        )?;
    }
    drop(served);
    Ok(Exit::Ok)
}

/// Latencies of the calls that answered, and tokens per request between two counters.
fn calls(
    ms: &mut [f64],
    from: &ModelStatsSnapshot,
    to: &ModelStatsSnapshot,
    last_error: Option<String>,
) -> Calls {
    ms.sort_by(f64::total_cmp);
    let requests = (to.requests - from.requests).max(1) as f64;
    Calls {
        p50_ms: percentile(ms, 0.50),
        p95_ms: percentile(ms, 0.95),
        failures: to.failures - from.failures,
        prompt_tokens_per_call: (to.prompt_tokens - from.prompt_tokens) as f64 / requests,
        completion_tokens_per_call: (to.completion_tokens - from.completion_tokens) as f64
            / requests,
        last_error,
    }
}
