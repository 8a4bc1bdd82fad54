use crate::exit::{Exit, Failure};
use crate::target::{fixture_site, serve_file};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{
    Backend, ExecutionResult, Executor, Policy, Role, RuntimeConfig, Snapshot, StepEvent,
    StepOutcome, Subtask,
};
use arc_sim::{LabelledScript, ScriptedPolicy, SignupApp};
use clap::Args;
use std::sync::Arc;

#[derive(Args)]
pub struct DemoArgs {
    /// Print JSON lines (one per step, then the result) instead of the readable log.
    #[arg(long)]
    json: bool,
    /// Use the built-in simulated app even when Chromium is available.
    #[arg(long)]
    sim: bool,
}

/// The sign-up flow on the fixture page, by visible labels (ids are the browser's). The
/// page confirms 300 ms after submit from a timer, which no probe can see pending: the
/// script waits once, as a policy that checks its criteria would.
const SIGNUP_STEPS: &str = r#"[
  {"kind": "TYPE_TEXT", "target": {"role": "text_field", "name": "Email"}, "input_key": "email"},
  {"kind": "SELECT_OPTION", "target": {"role": "combobox", "name": "Plan"}, "input_key": "plan"},
  {"kind": "CLICK", "target": {"role": "checkbox", "name": "I accept the terms"}},
  {"kind": "CLICK", "target": {"role": "button", "name": "Sign up"}},
  {"kind": "WAIT"},
  {"terminal": "SUBTASK_COMPLETE", "reason": "the confirmation is shown"}
]"#;

pub async fn run(args: DemoArgs) -> Result<Exit, Failure> {
    let subtask = SignupApp::demo_subtask();
    // The verify callback reads the app's own confirmation, not the policy's claim.
    let verify = Arc::new(|snapshot: &Snapshot, _: &Subtask| {
        snapshot
            .elements
            .iter()
            .any(|e| e.role == Role::Status && e.name.starts_with("Welcome,"))
    });
    let config = RuntimeConfig {
        verify: Some(verify),
        ..Default::default()
    };
    let say = |text: &str| {
        if !args.json {
            let _ = crate::outln!("{text}");
        }
    };
    let browser = if args.sim {
        Err("--sim was given".to_owned())
    } else {
        open_signup_page().await
    };
    let result = match browser {
        Ok((backend, _served)) => {
            say("arc-cua demo: the fixture sign-up page in headless Chromium, driven by a labelled script");
            let policy =
                LabelledScript::from_json(SIGNUP_STEPS).map_err(|e| (Exit::Environment, e))?;
            run_demo(backend, policy, config, &subtask, args.json).await
        }
        Err(why) => {
            say(&format!(
                "arc-cua demo: the built-in simulated sign-up app (Chromium not used: {why})"
            ));
            let policy = ScriptedPolicy::new(SignupApp::demo_script());
            run_demo(SignupApp::backend(), policy, config, &subtask, args.json).await
        }
    };
    Ok(Exit::for_status(result.status))
}

async fn open_signup_page() -> Result<(BrowserBackend, crate::target::Served), String> {
    let page = fixture_site().join("signup.html");
    if !page.is_file() {
        return Err(format!(
            "{} not found (set ARC_CUA_FIXTURES)",
            page.display()
        ));
    }
    let served = serve_file(&page).await.map_err(|(_, e)| e)?;
    let backend = BrowserBackend::start(BrowserOptions::default(), &served.url)
        .await
        .map_err(|e| e.to_string())?;
    Ok((backend, served))
}

async fn run_demo<B: Backend, P: Policy>(
    backend: B,
    policy: P,
    config: RuntimeConfig,
    subtask: &Subtask,
    json: bool,
) -> ExecutionResult {
    if !json {
        let _ = crate::outln!("\ngoal:   {}", subtask.goal);
        let _ = crate::outln!(
            "verify: {}",
            subtask
                .verification
                .iter()
                .map(|c| c.text())
                .collect::<Vec<_>>()
                .join("; ")
        );
        let _ = crate::outln!(
            "inputs: {}\n",
            serde_json::to_string(&subtask.inputs).unwrap_or_default()
        );
    }
    let mut executor = Executor::new(backend, policy, config);
    let result = executor
        .run_with(subtask, |event| {
            if json {
                print_json(&event)
            } else {
                print_step(&event)
            }
        })
        .await;
    if json {
        if let Ok(line) = serde_json::to_string(&result) {
            let _ = crate::outln!("{line}");
        }
    } else {
        print_summary(&result);
    }
    result
}

fn print_step(event: &StepEvent) {
    match &event.outcome {
        StepOutcome::Acted { record } => {
            let a = &record.action;
            let target = a.target().map(|t| t.as_str()).unwrap_or("-");
            let name = record.target_name.as_deref().unwrap_or("");
            let literal = a
                .action
                .input_key()
                .map(|k| format!(" <- {k}"))
                .unwrap_or_default();
            let _ = crate::outln!(
                "  {:>2}  {:<13} {:<8} {:<26} {:<9} {:>6} ms  (settle: {:?} after {} ms)",
                record.step,
                a.kind().as_str(),
                target,
                format!("{name:?}{literal}"),
                if record.state_changed {
                    "changed"
                } else {
                    "no change"
                },
                record.elapsed_ms,
                record.settle.end,
                record.settle.elapsed_ms,
            );
        }
        StepOutcome::Stale { detail, .. } => {
            let _ = crate::outln!("      stale: {detail}; re-observing");
        }
        StepOutcome::Finished { .. } => {}
    }
}

fn print_summary(result: &ExecutionResult) {
    let _ = crate::outln!(
        "\n{} after {} actions in {} ms: {}",
        result.status,
        result.actions_taken,
        result.elapsed_ms,
        result.reason.as_deref().unwrap_or("")
    );
    if let Some(c) = result
        .final_snapshot
        .elements
        .iter()
        .find(|e| e.role == Role::Status && !e.name.is_empty())
    {
        let _ = crate::outln!("the app shows: {:?}", c.name);
    }
}

fn print_json(event: &StepEvent) {
    if !event.is_terminal() {
        if let Ok(line) = serde_json::to_string(event) {
            let _ = crate::outln!("{line}");
        }
    }
}
