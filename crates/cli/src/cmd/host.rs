//! `arc-cua host`: the long-lived host (issue 10) on stdio or a Unix socket. The
//! protocol, sessions and safety live in `arc-host`; this is only the process around it.

use crate::browser_args::BrowserArgs;
use crate::exit::{Exit, Failure};
use crate::policy_args::ModelArgs;
use crate::session_args::SessionArgs;
use arc_host::transport::endpoint::default_socket_path;
use arc_host::transport::socket::SocketServer;
use arc_host::transport::stdio::serve_stdio;
use arc_host::{Host, Limits};
use clap::{ArgGroup, Args};
use std::path::PathBuf;

/// Serve agents on live pages: sessions bound to one page each, an observation fence,
/// explicit grants. Send `{"method":"hello","params":{"protocol_version":1,
/// "client_name":"me"}}` first, then `manifest` lists every method, error code and limit.
#[derive(Args)]
#[command(group(ArgGroup::new("transport").required(true).args(["stdio", "socket"])))]
pub struct HostArgs {
    /// Serve one client on stdin/stdout: one JSON request per line, one JSON response per
    /// line (`run_subtask` streams event lines first). Ends when stdin closes.
    #[arg(long)]
    stdio: bool,
    /// Serve clients on a Unix socket, u32 big-endian length-prefixed JSON frames. PATH
    /// defaults to $XDG_RUNTIME_DIR/arc-cua-host-v1.sock when that directory is yours and
    /// 0700, else $TMPDIR/arc-cua-<uid>/ (created 0700); any other directory is refused.
    /// The socket file is 0600.
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "")]
    socket: Option<PathBuf>,
    #[command(flatten)]
    browser: BrowserArgs,
    #[command(flatten)]
    session: SessionArgs,
    /// Let sessions ask to upload files from this directory (their grants'
    /// `allow_files`, within it); repeatable. None: no session uploads.
    #[arg(long, value_name = "DIR")]
    allow_files: Vec<PathBuf>,
    /// The model every session's `run_subtask` escalates to and asks to judge what the
    /// reflex cannot read (the cascade); without one, `run_subtask` is the reflex alone.
    #[command(flatten)]
    model: ModelArgs,
}

pub async fn run(args: HostArgs) -> Result<Exit, Failure> {
    let mut options = args.browser.options();
    args.session.apply(&mut options)?;
    let host = Host::start(options.clone(), Limits::default())
        .await
        .map_err(|e| (Exit::Environment, format!("cannot start the browser: {e}")))?;
    super::mcp::set_model(&host, &args.model)?;
    host.set_upload_dirs(&args.allow_files)
        .map_err(|e| (Exit::BadInput, format!("--allow-files {e}")))?;
    if args.stdio {
        serve_stdio(host.clone()).await;
        return super::mcp::finish(&host, &args.session, &options).await;
    }
    let path = match args.socket.filter(|p| !p.as_os_str().is_empty()) {
        Some(path) => path,
        None => default_socket_path().map_err(|e| (Exit::Environment, e.to_string()))?,
    };
    let server = SocketServer::bind(host.clone(), &path)
        .map_err(|e| (Exit::Environment, format!("cannot serve the socket: {e}")))?;
    eprintln!("arc-cua host: serving on {}", server.path().display());
    // Until a signal ends the process (`signals.rs` kills the browser on the way out).
    server.wait().await;
    super::mcp::finish(&host, &args.session, &options).await
}
