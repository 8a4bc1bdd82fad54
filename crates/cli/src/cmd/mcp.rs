//! `arc-cua mcp`: one page (a blank tab when none is named) or desktop window as MCP tools over stdio (the host's session core behind them).

use crate::desktop_args::DesktopArgs;
use crate::exit::{Exit, Failure};
use crate::policy_args::ModelArgs;
use crate::session_args::SessionArgs;
use crate::target::serve;
use arc_browser::backend::BrowserOptions;
use arc_core::Risk;
use arc_desktop::AppSelector;
use arc_host::mcp::McpServer;
use arc_host::protocol::{TargetId, TargetInfo, TargetSpec};
use arc_host::{Grants, Host, Limits};
use clap::Args;
use std::path::PathBuf;

/// `arc-cua mcp --help`: what the server serves, its safety defaults, a client's config.
pub const LONG_ABOUT: &str = "\
Serve a browser tab or a desktop window to an MCP client (Claude Desktop, Claude Code,
Codex, your own agent) over stdin/stdout: tools status, targets, open, tabs, switch_tab,
observe, find, act, press, click_at, drag, scroll_at, type_text, settle, wait, screenshot,
run_subtask, downloads, apps and windows (docs/MCP.md). Logs go to stderr.

The target: with none named, a headless Chromium this command launches (and kills when
the client disconnects) on a blank tab, where the client's open tool loads the pages the
grants allow. --url (a URL, or a local HTML file served on 127.0.0.1) starts that tab on
it; --cdp ws://... attaches to a running browser's page as it is (--target ID names it;
default: its only page). --app NAME or --pid PID serves a desktop application's first
window instead (over the session's accessibility bus; XTest for point input on the X
display). tabs and switch_tab reach the tabs the page opens, on the grants' origins only.

Safe by default: without grants a client can observe, find, wait and take screenshots,
nothing else. --allow-input lets it act (click, type, keys, scroll, drag, run_subtask);
--allow-navigate ORIGIN lets open and NAVIGATE go to that origin (repeatable; patterns:
https://*.example.com for its subdomains, http://127.0.0.1:* for every port), and
--allow-any-origin to every http(s) origin; a link, form, script or redirect to any
other is stopped. --allow-risk lets presses on delete/send/purchase/close controls
through. --allow-files DIR lets a file input take files from DIR only. Every action must
cite the latest snapshot id (else stale_observation).

Sessions: --profile DIR keeps the browser's profile across servers; --storage-state FILE
loads a Playwright storage state before the first page and --save-storage-state FILE
writes one when the client disconnects (sign in once, start signed in next time);
--downloads DIR is where the page's downloads are saved.

Client configuration (Claude Desktop's claude_desktop_config.json, or any mcpServers):
  {\"mcpServers\": {\"arc-cua\": {\"command\": \"arc-cua\", \"args\": [\"mcp\", \"--allow-input\", \"--allow-navigate\", \"http://127.0.0.1:*\"]}}}";

#[derive(Args)]
pub struct McpArgs {
    /// Open this page (a URL, or a local HTML file served on 127.0.0.1) in a headless
    /// Chromium launched for this server. Without --url, --cdp, --app or --pid: a blank
    /// tab, for the `open` tool.
    #[arg(long, conflicts_with = "cdp")]
    url: Option<String>,
    /// With --cdp: the page target to drive (ids: `arc-cua mcp`'s `targets` tool, or the
    /// browser's /json/list). Default: the browser's only page.
    #[arg(long, value_name = "ID", requires = "cdp")]
    target: Option<String>,
    /// Let the client act on the page: click, type, keys, scroll, drag, run_subtask.
    #[arg(long)]
    allow_input: bool,
    /// Let `open` and NAVIGATE go to this origin (http(s)://host[:port]), or to those a
    /// pattern of it matches: https://*.example.com (its subdomains), http://127.0.0.1:*
    /// (every port); repeatable.
    #[arg(long, value_name = "ORIGIN", value_parser = parse_origin)]
    allow_navigate: Vec<String>,
    /// Let `open` and NAVIGATE go to every http(s) origin (a bare `*` is no origin).
    #[arg(long)]
    allow_any_origin: bool,
    /// Let presses on controls of this risk through the risk gate; repeatable.
    #[arg(long, value_name = "RISK", value_parser = parse_risk)]
    allow_risk: Vec<Risk>,
    /// Attach to a running browser's DevTools endpoint (ws://… or http://host:port).
    #[arg(long, value_name = "URL")]
    cdp: Option<String>,
    /// Chromium to launch for --url or the blank tab (default: $ARC_CUA_CHROMIUM, then
    /// /usr/lib/chromium/chromium).
    #[arg(long, value_name = "PATH")]
    chromium: Option<PathBuf>,
    /// Instead of a page: a desktop application's main window (--app NAME or --pid PID,
    /// on the session's accessibility bus); no browser is launched.
    #[command(flatten)]
    desktop: DesktopArgs,
    #[command(flatten)]
    session: SessionArgs,
    /// Let the client upload files from this directory (`act` SET_VALUE on a file input,
    /// `run_subtask`'s `files`), links followed; repeatable. None: no upload.
    #[arg(long, value_name = "DIR")]
    allow_files: Vec<PathBuf>,
    /// The model `run_subtask` escalates to and asks to judge what the reflex cannot
    /// read (the cascade); without one, `run_subtask` is the reflex alone.
    #[command(flatten)]
    model: ModelArgs,
}

/// `--allow-navigate`: an origin as the host compares it, refused at the command line.
fn parse_origin(raw: &str) -> Result<String, String> {
    arc_host::grants::parse_origin(raw).map_err(|e| e.message)
}

fn parse_risk(raw: &str) -> Result<Risk, String> {
    Risk::ALL
        .into_iter()
        .find(|r| r.as_str() == raw)
        .ok_or_else(|| {
            let all: Vec<&str> = Risk::ALL.iter().map(|r| r.as_str()).collect();
            format!("{raw:?} is not a risk (one of {})", all.join(", "))
        })
}

pub async fn run(args: McpArgs) -> Result<Exit, Failure> {
    let desktop = args.desktop.selector();
    if desktop.is_some() && (args.url.is_some() || args.cdp.is_some()) {
        return Err((
            Exit::BadInput,
            "give one target: a page (--url, --cdp) or a desktop app (--app, --pid)".into(),
        ));
    }
    let mut grants = Grants {
        allow_input: args.allow_input,
        allow_navigate: !args.allow_navigate.is_empty() || args.allow_any_origin,
        navigate_origins: args.allow_navigate.clone(),
        navigate_any_origin: args.allow_any_origin,
        allowed_risks: args.allow_risk.iter().copied().collect(),
        allow_files: args.allow_files.clone(),
        ..Grants::default()
    };
    if let Some(selector) = desktop {
        let host = Host::without_browser(Limits::default());
        set_model(&host, &args.model)?;
        let target = TargetSpec {
            target_id: Some(main_window(&host, &selector).await?),
            url: None,
        };
        return serve_mcp(&host, target, grants).await;
    }
    // Keep the local file server (if any) alive as long as the page.
    let served = match &args.url {
        Some(url) => Some(serve(url).await?),
        None => None,
    };
    let mut options = BrowserOptions::default();
    options.launch.executable = args.chromium.clone();
    options.cdp_endpoint = args.cdp.clone();
    args.session.apply(&mut options)?;
    let host = Host::start(options.clone(), Limits::default())
        .await
        .map_err(|e| (Exit::Environment, format!("cannot start the browser: {e}")))?;
    set_model(&host, &args.model)?;
    host.set_upload_dirs(&args.allow_files)
        .map_err(|e| (Exit::BadInput, format!("--allow-files {e}")))?;
    let target = match (&served, &args.target) {
        (Some(served), _) => {
            // The operator chose this page: the session opens it in a new tab.
            grants.allow_launch = true;
            TargetSpec {
                target_id: None,
                url: Some(served.url.clone()),
            }
        }
        (None, Some(id)) => TargetSpec {
            target_id: Some(TargetId(id.clone())),
            url: None,
        },
        (None, None) if args.cdp.is_some() => TargetSpec {
            target_id: Some(only_page(&host).await?),
            url: None,
        },
        (None, None) => {
            // No target named: a blank tab of our own, for `open` to load what the grants
            // allow.
            grants.allow_launch = true;
            TargetSpec {
                target_id: None,
                url: Some(arc_host::grants::BLANK.into()),
            }
        }
    };
    let outcome = serve_mcp(&host, target, grants).await;
    let finished = finish(&host, &args.session, &options).await;
    drop(served);
    outcome.and(finished)
}

/// The client is gone, the browser not yet: the session is saved (`--save-storage-state`)
/// and the host shut down.
pub(crate) async fn finish(
    host: &Host,
    session: &SessionArgs,
    options: &BrowserOptions,
) -> Result<Exit, Failure> {
    let saved = match host.live_browser() {
        Some(browser) => session.save(&browser, options).await,
        None if session.save_storage_state.is_some() => Err((
            Exit::Environment,
            "cannot save the session: the browser is gone".into(),
        )),
        None => Ok(()),
    };
    host.shutdown().await;
    saved.map(|()| Exit::Ok)
}

/// `--model …`: the host's `run_subtask` runs the cascade with it.
pub(crate) fn set_model(host: &Host, model: &ModelArgs) -> Result<(), Failure> {
    let bad = |e: arc_core::PolicyError| (Exit::BadInput, e.to_string());
    host.set_model(model.config().map_err(bad)?).map_err(bad)
}

async fn serve_mcp(host: &Host, target: TargetSpec, grants: Grants) -> Result<Exit, Failure> {
    let server = McpServer::open(host, target, grants)
        .await
        .map_err(|e| (Exit::Environment, format!("cannot open the target: {e}")))?;
    server
        .serve_stdio()
        .await
        .map(|()| Exit::Ok)
        .map_err(|e| (Exit::Environment, format!("MCP over stdio failed: {e}")))
}

/// How long to wait for the desktop app's window to appear on the bus.
const WINDOW_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The first window the accessibility bus lists for the app (waiting for a just-started
/// app to register).
async fn main_window(host: &Host, selector: &AppSelector) -> Result<TargetId, Failure> {
    let started = std::time::Instant::now();
    loop {
        let list = host
            .list_targets()
            .await
            .map_err(|e| (Exit::Environment, format!("cannot list the windows: {e}")))?;
        let hit = list.targets.iter().find_map(|t| match (t, selector) {
            (TargetInfo::Window { target_id, pid, .. }, AppSelector::Pid(p))
                if *pid == Some(*p) =>
            {
                Some(target_id.clone())
            }
            (TargetInfo::Window { target_id, app, .. }, AppSelector::Name(n))
                if app.eq_ignore_ascii_case(n) =>
            {
                Some(target_id.clone())
            }
            _ => None,
        });
        if let Some(id) = hit {
            return Ok(id);
        }
        if started.elapsed() >= WINDOW_WAIT {
            let why = list.desktop_unavailable.unwrap_or_else(|| {
                format!(
                    "no window of the application {selector} appeared within {} s",
                    WINDOW_WAIT.as_secs()
                )
            });
            return Err((Exit::Environment, why));
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The attached browser's one page; several is an error that lists them.
async fn only_page(host: &Host) -> Result<TargetId, Failure> {
    let list = host
        .list_targets()
        .await
        .map_err(|e| (Exit::Environment, format!("cannot list the pages: {e}")))?;
    let pages: Vec<(&TargetId, &str)> = list
        .targets
        .iter()
        .filter_map(|t| match t {
            TargetInfo::Page { target_id, url, .. } => Some((target_id, url.as_str())),
            TargetInfo::Window { .. } => None,
        })
        .collect();
    match pages.as_slice() {
        [(one, _)] => Ok((*one).clone()),
        [] => Err((Exit::Environment, "the browser has no page to drive".into())),
        many => {
            let ids: Vec<String> = many
                .iter()
                .map(|(id, url)| format!("{} ({url})", id.0))
                .collect();
            Err((
                Exit::BadInput,
                format!(
                    "the browser has {} pages; name one with --target: {}",
                    many.len(),
                    ids.join(", ")
                ),
            ))
        }
    }
}
