use crate::bound::{within, Bound};
use crate::browser_args::BrowserArgs;
use crate::desktop_args::DesktopArgs;
use crate::exit::{warn, Exit, Failure};
use crate::input::read_subtask;
use crate::ocr_args::OcrArgs;
use crate::out;
use crate::policy_args::{Chosen, PolicyArgs};
use crate::run_args::RunOptionArgs;
use crate::session_args::SessionArgs;
use crate::signals;
use crate::target::{serve, Served};
use arc_browser::backend::BrowserBackend;
use arc_browser::Lost;
use arc_core::{Backend, Executor, RuntimeConfig, StepEvent, StepOutcome, Subtask};
use arc_policy::trajectory::{RunInfo, TrajectoryLog};
use arc_sim::SignupApp;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Args)]
pub struct RunArgs {
    /// Read the subtask payload from this file instead of stdin.
    #[arg(long, short)]
    file: Option<PathBuf>,
    /// Where the subtask runs. Default: `browser` with --url or --cdp, `desktop` with
    /// --app or --pid, else `sim`.
    #[arg(long, value_enum)]
    backend: Option<BackendKind>,
    /// The page to start on (browser backend): a URL or a local HTML file. Without it,
    /// `--cdp` attaches to a page of that browser as it is (no navigation, no reload).
    #[arg(long)]
    url: Option<String>,
    /// With `--cdp` and no `--url`: the page target to attach to (its DevTools target
    /// id); needed only when the browser has more than one page.
    #[arg(long, value_name = "ID", requires = "cdp")]
    target: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    options: RunOptionArgs,
    /// Write one JSONL record per step here (secrets and credentials redacted first).
    #[arg(long, value_name = "FILE")]
    trajectory: Option<PathBuf>,
    /// Wall-clock bound on the whole command, in milliseconds: launching Chromium and the
    /// first load count against it (running out then exits 3); running out during the
    /// run ends it NEEDS_AGENT with termination `timeout`, its result line printed.
    #[arg(long)]
    timeout_ms: Option<u64>,
    /// Print only the final result line, not one line per step.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    browser: BrowserArgs,
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    desktop: DesktopArgs,
    #[command(flatten)]
    ocr: OcrArgs,
}

impl RunArgs {
    /// The backend asked for, or the one the target flags name; a target the chosen
    /// backend would ignore is an error, never silently dropped.
    fn backend_kind(&self) -> Result<BackendKind, Failure> {
        let page = self.url.is_some() || self.browser.cdp.is_some();
        let app = self.desktop.app.is_some() || self.desktop.pid.is_some();
        match (self.backend, page, app) {
            (None, true, true) => Err((
                Exit::BadInput,
                "--url/--cdp name a page and --app/--pid an application: give --backend browser or --backend desktop".into(),
            )),
            (None, true, false) => Ok(BackendKind::Browser),
            (None, false, true) => Ok(BackendKind::Desktop),
            (None, false, false) => Ok(BackendKind::Sim),
            (Some(BackendKind::Sim), true, _) => Err((
                Exit::BadInput,
                "--backend sim runs the built-in sign-up app: --url and --cdp need --backend browser".into(),
            )),
            (Some(kind), _, _) => Ok(kind),
        }
    }
}

impl BackendKind {
    fn name(self) -> &'static str {
        match self {
            BackendKind::Sim => "sim",
            BackendKind::Browser => "cdp",
            BackendKind::Desktop => "atspi",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendKind {
    /// The built-in simulated sign-up app.
    Sim,
    /// Headless Chromium (launched, or attached with --cdp).
    Browser,
    /// A desktop application on the accessibility bus (--app NAME or --pid PID).
    Desktop,
}

pub async fn run(args: RunArgs) -> Result<Exit, Failure> {
    // The timeout bounds the whole command: launch and the first load count against it.
    let bound = Bound::from_ms(args.timeout_ms);
    let subtask = read_subtask(args.file.as_deref())?;
    // The files an upload may take are checked before anything starts.
    arc_browser::upload::check_files(&subtask.files).map_err(|e| (Exit::BadInput, e))?;
    for secret in subtask.secret_literals() {
        crate::log::redactor().add(&secret);
    }
    let kind = args.backend_kind()?;
    let policy = args.policy.build()?;
    let log = Log {
        path: args.trajectory.clone(),
        backend: kind.name(),
    };
    let mut config = args.options.apply(RuntimeConfig::default())?;
    match kind {
        BackendKind::Sim => {
            config.timeout = bound.map(|b| b.remaining());
            execute(
                SignupApp::backend(),
                policy,
                config,
                &subtask,
                args.quiet,
                &log,
                |_| None,
            )
            .await
            .map(|(exit, _)| exit)
        }
        BackendKind::Browser => {
            let (served, backend) = match (&args.url, &args.browser.cdp) {
                (Some(url), _) => {
                    let doing = format!("before the run started (launching Chromium and loading {url})");
                    let (served, backend) = within(bound, &doing, open(&args, url)).await??;
                    (Some(served), backend)
                }
                (None, Some(endpoint)) => {
                    let doing = format!("before the run started (attaching to {endpoint})");
                    (None, within(bound, &doing, attach(&args, endpoint)).await??)
                }
                (None, None) => {
                    return Err((
                        Exit::BadInput,
                        "--backend browser needs --url, or --cdp to run on a page of a running browser as it is".into(),
                    ))
                }
            };
            let _served = served;
            config.timeout = bound.map(|b| b.remaining());
            let (exit, backend) = execute(
                backend,
                policy,
                config,
                &subtask,
                args.quiet,
                &log,
                BrowserBackend::lost,
            )
            .await?;
            // The browser is still up: its session is read before it closes.
            if exit != Exit::Environment {
                let options = browser_options(&args)?;
                args.session.save(backend.browser(), &options).await?;
            }
            // Closed, not killed: a kept profile's storage reaches the disk.
            backend.close().await;
            Ok(exit)
        }
        BackendKind::Desktop => {
            let doing = "before the run started (binding the desktop application)";
            let backend = within(bound, doing, args.desktop.open(args.ocr.mode)).await??;
            config.timeout = bound.map(|b| b.remaining());
            execute(backend, policy, config, &subtask, args.quiet, &log, |_| {
                None
            })
            .await
            .map(|(exit, _)| exit)
        }
    }
}

/// Attaches to one page of a running browser, as it is.
async fn attach(args: &RunArgs, endpoint: &str) -> Result<BrowserBackend, Failure> {
    let browser = arc_browser::Browser::connect(endpoint).await.map_err(|e| {
        (
            Exit::Environment,
            format!("cannot attach to {endpoint}: {e}"),
        )
    })?;
    let target = args.target.clone().map(arc_browser::cdp::TargetId);
    BrowserBackend::attach(browser, target, browser_options(args)?)
        .await
        .map_err(|e| match e {
            arc_browser::BrowserError::NoSuchTarget { detail } => (Exit::BadInput, detail),
            e => (
                Exit::Environment,
                format!("cannot attach to a page of {endpoint}: {e}"),
            ),
        })
}

/// Serves the target and opens it in Chromium (launched, or attached with --cdp).
async fn open(args: &RunArgs, url: &str) -> Result<(Served, BrowserBackend), Failure> {
    let served = serve(url).await?;
    let backend = BrowserBackend::start(browser_options(args)?, &served.url)
        .await
        .map_err(|e| match e {
            // A profile or storage state the user named cannot be used as it is.
            e @ arc_browser::BrowserError::SessionFile { .. } => (Exit::BadInput, e.to_string()),
            e => (
                Exit::Environment,
                format!("cannot open {} in Chromium: {e}", served.url),
            ),
        })?;
    Ok((served, backend))
}

fn browser_options(args: &RunArgs) -> Result<arc_browser::backend::BrowserOptions, Failure> {
    let mut options = args.browser.options();
    options.ocr = args.ocr.mode;
    args.session.apply(&mut options)?;
    Ok(options)
}

/// Where the trajectory goes, if anywhere.
pub struct Log {
    pub path: Option<PathBuf>,
    pub backend: &'static str,
}

/// Runs to a terminal status, printing one JSON line per step and the result line;
/// a first Ctrl-C cancels the run (see `signals`). `lost` says whether the backend's
/// environment is gone (a killed browser, a crashed renderer): the result is still
/// printed, and the exit is 3. The backend comes back still open, for what the caller
/// reads after the run (the session it saves).
pub async fn execute<B: Backend>(
    backend: B,
    policy: Chosen,
    config: RuntimeConfig,
    subtask: &Subtask,
    quiet: bool,
    log: &Log,
    lost: fn(&B) -> Option<Lost>,
) -> Result<(Exit, B), Failure> {
    let mut trajectory = match &log.path {
        Some(path) => {
            let info = RunInfo {
                run_id: format!("run-{}", std::process::id()),
                task_id: String::new(),
                integration_mode: log.backend.to_owned(),
            };
            let redactor = crate::log::redactor().clone();
            let file = TrajectoryLog::create_with(path, info, subtask, redactor).map_err(|e| {
                (
                    Exit::Environment,
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            Some(file)
        }
        None => None,
    };
    let mut executor =
        Executor::new(backend, policy, config).with_redactor(crate::log::redactor().clone());
    let interrupt = signals::cancel_on_interrupt(executor.cancel_handle());
    let on_close = executor.cancel_handle();
    let result = executor
        .run_with(subtask, |event: StepEvent| {
            if let Some(t) = trajectory.as_mut() {
                t.on_event(&event);
            }
            // Nobody reads the steps any more: stop acting on their behalf.
            if !quiet
                && !matches!(event.outcome, StepOutcome::Finished { .. })
                && out::json_line(&event).is_err()
            {
                on_close.cancel();
            }
        })
        .await;
    drop(interrupt);
    // The cascade stored a completed run in its cache itself (`Policy::finish`).
    let (backend, policy) = executor.into_parts();
    let lost = lost(&backend);
    if let Chosen::Cascade(cascade) = policy {
        if let Some(Err(e)) = cascade.learned() {
            warn(&crate::log::redactor().redact(&e.to_string()));
        }
    }
    // The result line comes first: a trajectory that could not be written must not
    // cost the planner its result.
    let printed = out::json_line(&result);
    if let (Some(t), Some(path)) = (trajectory, &log.path) {
        t.finish().map_err(|e| {
            (
                Exit::Environment,
                format!("cannot write the trajectory {}: {e}", path.display()),
            )
        })?;
    }
    printed?;
    if let Some(lost) = lost {
        warn(&lost.to_string());
    }
    Ok((Exit::for_run(result.status, lost), backend))
}
