use crate::browser_args::BrowserArgs;
use crate::exit::{Exit, Failure};
use crate::input::{read_subtask, read_text};
use crate::target::serve;
use arc_browser::backend::BrowserBackend;
use arc_core::{Backend, Executor, Policy, RuntimeConfig, StepEvent, StepOutcome, Subtask};
use arc_sim::{LabelledScript, SignupApp};
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
    /// The page to start on (browser backend): a URL or a local HTML file.
    #[arg(long, required_if_eq("backend", "browser"))]
    url: Option<String>,
    /// The steps to replay: a JSON array of decisions whose targets are ids
    /// (`"target_id": "e4"`) or labels (`"target": {"role": "button", "name": "Sign up"}`).
    /// Until the reflex and model policies land, a script is the only policy.
    #[arg(long)]
    script: PathBuf,
    /// Wall-clock bound on the whole run, in milliseconds.
    #[arg(long)]
    timeout_ms: Option<u64>,
    /// Print only the final result line, not one line per step.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    browser: BrowserArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendKind {
    /// The built-in simulated sign-up app.
    Sim,
    /// Headless Chromium (launched, or attached with --cdp).
    Browser,
}

pub async fn run(args: RunArgs) -> Result<Exit, Failure> {
    let subtask = read_subtask(args.file.as_deref())?;
    let script = read_text(Some(&args.script), "script")?;
    let policy = LabelledScript::from_json(&script).map_err(|e| (Exit::BadInput, e))?;
    let config = RuntimeConfig {
        timeout: args.timeout_ms.map(Duration::from_millis),
        ..Default::default()
    };
    match args.backend {
        BackendKind::Sim => {
            Ok(execute(SignupApp::backend(), policy, config, &subtask, args.quiet).await)
        }
        BackendKind::Browser => {
            let served = serve(args.url.as_deref().unwrap_or_default()).await?;
            let backend = BrowserBackend::start(args.browser.options(), &served.url)
                .await
                .map_err(|e| {
                    (
                        Exit::Environment,
                        format!("cannot open {} in Chromium: {e}", served.url),
                    )
                })?;
            Ok(execute(backend, policy, config, &subtask, args.quiet).await)
        }
    }
}

/// Runs to a terminal status, printing one JSON line per step and the result line;
/// Ctrl-C cancels the run (the action in flight finishes and is reported).
pub async fn execute<B: Backend, P: Policy>(
    backend: B,
    policy: P,
    config: RuntimeConfig,
    subtask: &Subtask,
    quiet: bool,
) -> Exit {
    let mut executor = Executor::new(backend, policy, config);
    let cancel = executor.cancel_handle();
    let watcher = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.cancel();
        }
    });
    let result = executor
        .run_with(subtask, |event: StepEvent| {
            if !quiet && !matches!(event.outcome, StepOutcome::Finished { .. }) {
                print_line(&event);
            }
        })
        .await;
    watcher.abort();
    print_line(&result);
    Exit::for_status(result.status)
}

fn print_line(value: &impl serde::Serialize) {
    match serde_json::to_string(value) {
        Ok(line) => println!("{line}"),
        Err(e) => eprintln!("arc-cua: cannot serialize output: {e}"),
    }
}
