use crate::exit::{Exit, Failure};
use arc_core::{
    ExecutionResult, Executor, Role, RuntimeConfig, Snapshot, StepEvent, StepOutcome, Subtask,
};
use arc_sim::{ScriptedPolicy, SignupApp};
use clap::Args;
use std::sync::Arc;

#[derive(Args)]
pub struct DemoArgs {
    /// Print JSON lines (one per step, then the result) instead of the readable log.
    #[arg(long)]
    json: bool,
}

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
    let mut executor = Executor::new(
        SignupApp::backend(),
        ScriptedPolicy::new(SignupApp::demo_script()),
        config,
    );
    if !args.json {
        println!("arc-cua demo: the built-in simulated sign-up app with a scripted policy");
        println!(
            "(headless Chromium and the reflex policy replace these as their backends land)\n"
        );
        println!("goal:   {}", subtask.goal);
        println!("verify: {}", subtask.verification.join("; "));
        println!(
            "inputs: {}\n",
            serde_json::to_string(&subtask.inputs).unwrap_or_default()
        );
    }
    let json = args.json;
    let result = executor
        .run_with(&subtask, |event| {
            if json {
                print_json(&event)
            } else {
                print_step(&event)
            }
        })
        .await;
    if json {
        print_json_result(&result);
    } else {
        print_summary(&result);
    }
    Ok(Exit::for_status(result.status))
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
            println!(
                "  {:>2}  {:<11} {:<10} {:<22} {:<9} {:>6} ms  (settle: {:?} after {} ms)",
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
        StepOutcome::Stale { detail, .. } => println!("      stale: {detail}; re-observing"),
        StepOutcome::Finished { .. } => {}
    }
}

fn print_summary(result: &ExecutionResult) {
    println!(
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
        .find(|e| e.role == Role::Status)
    {
        println!("the app shows: {:?}", c.name);
    }
}

fn print_json(event: &StepEvent) {
    if !event.is_terminal() {
        if let Ok(line) = serde_json::to_string(event) {
            println!("{line}");
        }
    }
}

fn print_json_result(result: &ExecutionResult) {
    if let Ok(line) = serde_json::to_string(result) {
        println!("{line}");
    }
}
