use crate::exit::{Exit, Failure};
use crate::input::{read_subtask, read_text};
use arc_core::{Executor, RuntimeConfig, StepEvent, StepOutcome};
use arc_sim::{ScriptedPolicy, SignupApp};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct RunArgs {
    /// Read the subtask payload from this file instead of stdin.
    #[arg(long, short)]
    file: Option<PathBuf>,
    /// Where the subtask runs.
    #[arg(long, value_enum, default_value_t = BackendKind::Sim)]
    backend: BackendKind,
    /// Decisions to replay (a JSON array in the reference Decision format). Until the
    /// reflex and model policies land, a scripted policy is the only one.
    #[arg(long)]
    script: PathBuf,
    /// Wall-clock bound on the whole run, in milliseconds.
    #[arg(long)]
    timeout_ms: Option<u64>,
    /// Print only the final result line, not one line per step.
    #[arg(long)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum BackendKind {
    /// The built-in simulated sign-up app.
    Sim,
}

pub async fn run(args: RunArgs) -> Result<Exit, Failure> {
    let subtask = read_subtask(args.file.as_deref())?;
    let script = read_text(Some(&args.script), "script")?;
    let policy = ScriptedPolicy::from_json(&script).map_err(|e| (Exit::BadInput, e))?;
    let config = RuntimeConfig {
        timeout: args.timeout_ms.map(Duration::from_millis),
        ..Default::default()
    };
    let backend = match args.backend {
        BackendKind::Sim => SignupApp::backend(),
    };
    let mut executor = Executor::new(backend, policy, config);
    let cancel = executor.cancel_handle();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.cancel();
        }
    });
    let quiet = args.quiet;
    let result = executor
        .run_with(&subtask, |event: StepEvent| {
            if !quiet && !matches!(event.outcome, StepOutcome::Finished { .. }) {
                print_line(&event);
            }
        })
        .await;
    print_line(&result);
    Ok(Exit::for_status(result.status))
}

fn print_line(value: &impl serde::Serialize) {
    match serde_json::to_string(value) {
        Ok(line) => println!("{line}"),
        Err(e) => eprintln!("arc-cua: cannot serialize output: {e}"),
    }
}
