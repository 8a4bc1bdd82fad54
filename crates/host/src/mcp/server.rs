//! The MCP tools over the server's host session: each tool is a thin call into the
//! session core ([`Connection`]) — the fence, grants, limits, journal and input FIFO are
//! the host's, never re-implemented here. The server starts on one tab (or window); a tab
//! its pages opened becomes a session of its own, with the same grants, when the client
//! switches to it (`switch_tab`), and the tools drive the current one.

use super::params::*;
use super::{action, reply, wire};
use crate::confine::Confinement;
use crate::grants::{Grants, BLANK};
use crate::limits::Limits;
use crate::protocol::{
    ActParams, Capability, ErrorCode, FindParams, HelloParams, HostAction, HostError,
    ObservationId, ObserveOptions, ObserveParams, OpenSessionParams, RunSubtaskParams, SessionAuth,
    SessionId, SubtaskParam, TargetId, TargetInfo, WaitCondition, WaitForParams, PROTOCOL_VERSION,
};
use crate::{Connection, Host};
use arc_browser::backend::AllowedOrigins;
use arc_core::ActionKind;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, Implementation, ProgressNotificationParam, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod tabs;

use tabs::{Tab, TabLine, Tabs};

const INSTRUCTIONS: &str = "Drive one browser tab (the page this server was started on, \
or a blank one: open loads a URL the server's grants allow) or one desktop window. \
tabs lists the tabs the page opened; switch_tab drives another of them. \
Call observe to get a snapshot id and the page as one line per visible element, each with \
its id: [e12] button \"Save\". Then act(snapshot, action, element, ...). Every action uses \
up its snapshot and its reply carries the next one: always cite the latest. If act returns \
status 'stale', the page changed under the snapshot and nothing was done: decide again from \
the fresh snapshot it returns. An error reply starts with a stable code (stale_observation, \
input_not_granted, unknown_element, ...) and says what to do. find searches the whole page, \
including what the view's token budget left out. For what elements do not cover (canvases, \
images), take a screenshot and use click_at, drag and scroll_at at viewport points, and \
type_text at the focused field. run_subtask hands a bounded subtask \
(goal, inputs, verification) to arc-cua's own executor and returns its result.";

/// The MCP server: one host connection holding a session on the page (or window) it was
/// started on, and one on each tab of that page's the client switched to.
#[derive(Clone)]
pub struct McpServer {
    inner: Arc<Inner>,
    tool_router: ToolRouter<Self>,
}

struct Inner {
    connection: Connection,
    grants: Grants,
    /// Where a tab must be for `switch_tab` to take it: the first tab's own origin and
    /// the granted ones (its confinement's).
    reach: AllowedOrigins,
    tabs: Mutex<Tabs>,
    /// One `switch_tab` at a time: a tab gets one session.
    switching: tokio::sync::Mutex<()>,
}

impl Inner {
    fn new(connection: Connection, grants: Grants, target: TargetInfo, auth: SessionAuth) -> Self {
        let reach = match &target {
            TargetInfo::Page { url, .. } => Confinement::new(&grants, url).allowed().clone(),
            TargetInfo::Window { .. } => AllowedOrigins::default(),
        };
        Inner {
            connection,
            grants,
            reach,
            tabs: Mutex::new(Tabs {
                list: vec![Tab { target, auth }],
                current: 0,
            }),
            switching: tokio::sync::Mutex::new(()),
        }
    }
}

#[derive(Serialize)]
struct Status<'a> {
    server: &'static str,
    version: &'static str,
    protocol_version: u32,
    target: &'a TargetInfo,
    grants: &'a Grants,
    limits: &'a Limits,
}

impl McpServer {
    /// Greets `host` and opens the one session every tool works on.
    pub async fn open(
        host: &Host,
        target: crate::protocol::TargetSpec,
        grants: Grants,
    ) -> Result<McpServer, HostError> {
        let (connection, _) = host.connect(&HelloParams {
            protocol_version: PROTOCOL_VERSION,
            client_name: "mcp".into(),
        })?;
        let opened = connection
            .open_session(OpenSessionParams { grants, target })
            .await?;
        Ok(McpServer {
            inner: Arc::new(Inner::new(
                connection,
                opened.grants,
                opened.target,
                opened.session,
            )),
            tool_router: Self::tool_router(),
        })
    }

    /// A server on a new connection of `host` whose one session does not exist, so every
    /// tool that reaches the session answers `unknown_session`: the message handling
    /// (framing, JSON-RPC, tool routing, argument parsing) without a page, for `arc-fuzz`.
    #[doc(hidden)]
    pub fn without_session(host: &Host) -> Result<McpServer, HostError> {
        let (connection, _) = host.connect(&HelloParams {
            protocol_version: PROTOCOL_VERSION,
            client_name: "mcp".into(),
        })?;
        let auth = SessionAuth {
            session_id: SessionId("none".into()),
            capability: Capability("none".into()),
        };
        let target = TargetInfo::Page {
            target_id: TargetId("none".into()),
            url: BLANK.into(),
            title: String::new(),
        };
        Ok(McpServer {
            inner: Arc::new(Inner::new(connection, Grants::default(), target, auth)),
            tool_router: Self::tool_router(),
        })
    }

    /// Serves MCP on stdin/stdout until the client closes it, then stops the session.
    pub async fn serve_stdio(self) -> Result<(), std::io::Error> {
        // Non-blocking pipes when the client launched us on pipes (as MCP clients do): no
        // hand-off to tokio's blocking pool per message; else the blocking handles.
        let (reader, writer) = rmcp::transport::stdio_pipes();
        self.serve_on(reader, writer).await
    }

    /// Serves MCP as JSON lines on `reader`/`writer` (`wire.rs`: every line bounded by the
    /// host's `frame_bytes`, malformed ones answered, at most `requests_in_flight`
    /// requests unanswered before no more are read) until the client closes it, then
    /// stops the session.
    pub async fn serve_on<R, W>(self, reader: R, writer: W) -> Result<(), std::io::Error>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        use rmcp::ServiceExt;
        let inner = Arc::clone(&self.inner);
        let limits = inner.connection.host().limits();
        let transport = wire::LineTransport::new(
            reader,
            writer,
            limits.frame_bytes,
            limits.requests_in_flight,
        );
        let served = match self.serve(transport).await {
            Ok(running) => running
                .waiting()
                .await
                .map(|_| ())
                .map_err(std::io::Error::other),
            Err(e) => Err(std::io::Error::other(e)),
        };
        inner.connection.close().await;
        served
    }

    async fn observe_with(&self, options: ObserveOptions) -> Result<CallToolResult, HostError> {
        let o = self
            .inner
            .connection
            .observe(ObserveParams {
                session: self.session(),
                options,
            })
            .await?;
        reply::observation(&o)
    }

    /// One act on the cited snapshot; the reply always carries the next snapshot.
    async fn act_with(
        &self,
        snapshot: String,
        action: HostAction,
        settle: Option<bool>,
    ) -> Result<CallToolResult, HostError> {
        let r = self
            .inner
            .connection
            .act(ActParams {
                session: self.session(),
                observation_id: ObservationId(snapshot),
                action,
                settle: settle.unwrap_or(true),
                observe_after: Some(view_options()),
            })
            .await?;
        reply::act(&r)
    }
}

/// What every observation the tools take asks for: the view within the reply's budget.
fn view_options() -> ObserveOptions {
    ObserveOptions {
        budget_tokens: Some(reply::VIEW_TOKENS),
        ..ObserveOptions::default()
    }
}

/// Seconds from a tool argument, checked: finite, 0–30.
fn seconds(field: &str, value: Option<f64>, default: f64) -> Result<Duration, HostError> {
    let s = value.unwrap_or(default);
    if !s.is_finite() || !(0.0..=30.0).contains(&s) {
        return Err(HostError::new(
            ErrorCode::InvalidParams,
            format!("{field} must be 0–30 seconds (got {s})"),
        ));
    }
    Ok(Duration::from_secs_f64(s))
}

/// `run_subtask`'s subtask through the one boundary every front door uses (`SubtaskParam`:
/// `Subtask::from_json`, as the host's `run_subtask` and the CLI read it), on the text the
/// client sent (`wire::RawArguments`): a key given twice is refused naming it, where the
/// JSON value rmcp made of the arguments kept one of them.
fn subtask_as_sent(
    context: &RequestContext<RoleServer>,
    args: &RunSubtaskArgs,
) -> Result<SubtaskParam, HostError> {
    #[derive(serde::Deserialize)]
    struct Sent {
        subtask: SubtaskParam,
    }
    let sent = match context.extensions.get::<wire::RawArguments>() {
        Some(raw) => serde_json::from_str::<Sent>(raw.0.get()).map(|s| s.subtask),
        // Served on another transport than `serve_on`: only the value is left.
        None => serde_json::from_value(serde_json::Value::Object(args.subtask.clone())),
    };
    sent.map_err(|e| {
        // serde's position is in the arguments' text, not the subtask's: the message
        // names the field inside the subtask already.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        HostError::new(ErrorCode::InvalidParams, format!("subtask: {message}"))
    })
}

/// A tool's outcome on the wire: a host error is a tool error with its code, never a
/// protocol error (the model sees it and can act on it).
fn answer(r: Result<CallToolResult, HostError>) -> Result<CallToolResult, ErrorData> {
    Ok(r.unwrap_or_else(|e| reply::error(&e)))
}

#[tool_router]
impl McpServer {
    #[tool(
        description = "What this server drives: arc-cua's version, the current tab (target id, url, title) or window, the grants it was started with (allow_input, allow_navigate with its origins, allowed_risks) and the limits on every input.",
        annotations(read_only_hint = true)
    )]
    async fn status(&self) -> Result<CallToolResult, ErrorData> {
        let target = self.current_target().await;
        let status = Status {
            server: crate::SERVER_NAME,
            version: env!("CARGO_PKG_VERSION"),
            protocol_version: PROTOCOL_VERSION,
            target: &target,
            grants: &self.inner.grants,
            limits: self.inner.connection.host().limits(),
        };
        answer(reply::json(&status).map(reply::text))
    }

    #[tool(
        description = "The browser's open pages (kind page: target id, url, title) and the desktop's application windows (kind window: target id, app, pid, window title), or why the desktop is out of reach. This server acts only on the target it was started on and the tabs that page opened (tabs, switch_tab); the list is for orientation.",
        annotations(read_only_hint = true)
    )]
    async fn targets(&self) -> Result<CallToolResult, ErrorData> {
        let listed = self.inner.connection.list_targets().await;
        answer(listed.and_then(|l| reply::json(&l).map(reply::text)))
    }

    #[tool(
        description = "Read the page: a snapshot id for act, then one line per visible element (id, role, name, value, state), indented by nesting, within 1,200 tokens; a last line says what was left out (find reaches it). query: instead, only the elements whose name or value contains it, over the whole page. screenshot: also a PNG. elements: also every element as JSON.",
        annotations(read_only_hint = true)
    )]
    async fn observe(
        &self,
        Parameters(args): Parameters<ObserveArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        if let Some(query) = args.query {
            let found = self
                .inner
                .connection
                .find(FindParams {
                    session: self.session(),
                    text: Some(query),
                    role: None,
                    limit: 50,
                })
                .await;
            return answer(found.map(|f| reply::found(&f)));
        }
        answer(
            self.observe_with(ObserveOptions {
                include_elements: args.elements,
                include_png: args.screenshot,
                ..view_options()
            })
            .await,
        )
    }

    #[tool(
        description = "Find elements anywhere on the page (also those the view's budget left out) by text in their name or value and/or by role. Returns a fresh snapshot id and one line per match with its id.",
        annotations(read_only_hint = true)
    )]
    async fn find(
        &self,
        Parameters(args): Parameters<FindArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let found = self
            .inner
            .connection
            .find(FindParams {
                session: self.session(),
                text: args.query,
                role: args.role.as_deref().map(arc_core::Role::parse),
                limit: args.limit.map_or(20, |n| n as usize),
            })
            .await;
        answer(found.map(|f| reply::found(&f)))
    }

    #[tool(
        description = "Perform one action on an element of the latest snapshot. Actions: CLICK, DOUBLE_CLICK, RIGHT_CLICK, HOVER, SELECT_TEXT (element; SELECT_TEXT highlights all its text; CLICK takes an optional modifier held during it: MOD or SHIFT); TYPE_TEXT, SET_VALUE, SELECT_OPTION (element, value; TYPE_TEXT takes an optional key pressed in the field right after: ENTER or TAB); PRESS_KEY (key: ENTER, TAB, ESCAPE, ARROW_DOWN...); HOTKEY (hotkey: MOD+A; MOD is Control); SCROLL (direction, optional element); DRAG_TO (element, destination); DRAG_BY (element, dx, dy); NAVIGATE (value: an http(s) URL the grants allow); WAIT. Returns status done (no visible change), changed, stale (the page changed under the snapshot: nothing was done) or refused (a risky press the grants do not allow: nothing was done), and the next snapshot. Needs the allow_input grant (NAVIGATE: allow_navigate)."
    )]
    async fn act(
        &self,
        Parameters(args): Parameters<ActArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = match action::host_action(&args) {
            Ok(a) => a,
            Err(e) => return answer(Err(e)),
        };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Press a key (ENTER, TAB, ESCAPE, ARROW_DOWN...) or a chord (MOD+S; MOD is Control) where the page has focus. Cites the latest snapshot; returns the next one. Needs allow_input."
    )]
    async fn press(
        &self,
        Parameters(args): Parameters<PressArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = match action::press_action(&args.keys) {
            Ok(a) => a,
            Err(e) => return answer(Err(e)),
        };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Click at x, y: CSS pixels from the page viewport's top-left corner (as in the screenshot). Prefer act on an element when one exists. button: left (default) or right; count: 1-3; modifiers: keys held during the click (shift, ctrl, alt, meta). On a desktop window the point is window-local and a point another window covers is status stale. A point outside the viewport is refused (limit_exceeded, limit viewport); a point on a risky control (Delete, Send, Buy...) the grants do not allow is refused and nothing is pressed. Cites the latest snapshot; returns the next one. Needs allow_input."
    )]
    async fn click_at(
        &self,
        Parameters(args): Parameters<ClickAtArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = HostAction::ClickAt {
            x: args.x,
            y: args.y,
            button: args.button.unwrap_or_default(),
            count: args.count.unwrap_or(1),
            modifiers: args.modifiers.unwrap_or_default(),
        };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Press at the first point, move through the others and release at the last (sliders, canvases, drag and drop). points: [[x, y], ...] in CSS pixels of the viewport, 2-64 points, each step at most the drag limit. Cites the latest snapshot; returns the next one. Needs allow_input."
    )]
    async fn drag(
        &self,
        Parameters(args): Parameters<DragArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = HostAction::DragPath {
            points: args.points,
        };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Scroll the content under x, y (CSS pixels of the viewport) by dx, dy pixels; positive dy shows what is above, negative what is below. Cites the latest snapshot; returns the next one. Needs allow_input."
    )]
    async fn scroll_at(
        &self,
        Parameters(args): Parameters<ScrollAtArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = HostAction::ScrollAt {
            x: args.x,
            y: args.y,
            dx: args.dx.unwrap_or(0.0),
            dy: args.dy.unwrap_or(0.0),
        };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Type text where the focus is: the focused element must be a text field (else refused with invalid_action: click it first). To fill a field by element, prefer act with TYPE_TEXT or SET_VALUE. Cites the latest snapshot; returns the next one. Needs allow_input."
    )]
    async fn type_text(
        &self,
        Parameters(args): Parameters<TypeTextArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = HostAction::TypeFocused { text: args.text };
        answer(self.act_with(args.snapshot, action, args.settle).await)
    }

    #[tool(
        description = "Wait until the page has finished reacting (network, DOM and layout quiet, bounded), then return a fresh snapshot with status changed or done. Cites the latest snapshot; use it when a page shows its result late.",
        annotations(read_only_hint = true)
    )]
    async fn settle(
        &self,
        Parameters(args): Parameters<SettleArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(
            self.act_with(args.snapshot, HostAction::Wait, Some(true))
                .await,
        )
    }

    #[tool(
        description = "Wait (at most timeout_s, default 1, up to 30) until: an element whose name or value contains `text` is present (optionally of `role`); or the element named `name` holds exactly `value`; or, with only `snapshot`, anything on the page differs from that snapshot. Returns met (true/false), the time waited and a fresh snapshot.",
        annotations(read_only_hint = true)
    )]
    async fn wait(
        &self,
        Parameters(args): Parameters<WaitArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let timeout = match seconds("timeout_s", args.timeout_s, 1.0) {
            Ok(t) => t,
            Err(e) => return answer(Err(e)),
        };
        let condition = match (args.text, args.name, args.value, args.snapshot) {
            (Some(text), None, None, _) => WaitCondition::ElementPresent {
                text: Some(text),
                role: args.role.as_deref().map(arc_core::Role::parse),
            },
            (None, Some(name), Some(value), _) => WaitCondition::ValueEquals { name, value },
            (None, None, None, Some(since)) => WaitCondition::Changed {
                since: ObservationId(since),
            },
            _ => {
                return answer(Err(HostError::new(
                    ErrorCode::InvalidParams,
                    "wait: give `text` (and optionally `role`), or `name` and `value`, or only `snapshot`",
                )))
            }
        };
        let waited = self
            .inner
            .connection
            .wait_for(WaitForParams {
                session: self.session(),
                condition,
                timeout_ms: timeout.as_millis() as u64,
            })
            .await;
        answer(waited.map(|w| reply::waited(&w)))
    }

    #[tool(
        name = "open",
        description = "Load an http(s) URL in the current tab (a server started without a page starts on a blank tab). Only the origins the server was started with are reachable: --allow-navigate ORIGIN, https://*.example.com for its subdomains, http://127.0.0.1:* for every port, or --allow-any-origin. Any other is refused with navigate_not_granted and nothing loads; a redirect to one is stopped (origin_not_allowed). Needs no snapshot (the current one is used up); returns status and the loaded page's snapshot. Needs allow_navigate."
    )]
    async fn open_url(
        &self,
        Parameters(args): Parameters<OpenArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        // The grants first: a refused URL touches nothing, not even the fence.
        let grants = &self.inner.grants;
        if let Err(e) = grants
            .check_kind(ActionKind::Navigate)
            .and_then(|()| grants.check_url(&args.url))
        {
            return answer(Err(e));
        }
        let observed = self
            .inner
            .connection
            .observe(ObserveParams {
                session: self.session(),
                options: ObserveOptions::default(),
            })
            .await;
        let snapshot = match observed {
            Ok(o) => o.observation_id.0,
            Err(e) => return answer(Err(e)),
        };
        let action = HostAction::Navigate { url: args.url };
        answer(self.act_with(snapshot, action, args.settle).await)
    }

    #[tool(
        description = "This server's tabs: the one it started on and every tab its pages opened (a link with target=_blank, window.open), each with its id (tab), url, title, whether it is the current one and the tab that opened it (opened_by). switch_tab takes an id.",
        annotations(read_only_hint = true)
    )]
    async fn tabs(&self) -> Result<CallToolResult, ErrorData> {
        #[derive(Serialize)]
        struct Tabs {
            tabs: Vec<TabLine>,
        }
        let family = self.family().await.map(|f| Tabs {
            tabs: f.into_iter().map(|t| t.line).collect(),
        });
        answer(family.and_then(|t| reply::json(&t).map(reply::text)))
    }

    #[tool(
        description = "The files the current tab's page downloaded and this server saved, oldest first: name, path (in the server's downloads directory), bytes and sha256. A download starts like any other click (act CLICK on the link or button).",
        annotations(read_only_hint = true)
    )]
    async fn downloads(&self) -> Result<CallToolResult, ErrorData> {
        let listed = self
            .inner
            .connection
            .downloads(crate::protocol::SessionParams {
                session: self.session(),
            })
            .await;
        answer(listed.and_then(|d| reply::json(&d).map(reply::text)))
    }

    #[tool(
        description = "Make another of this server's tabs (an id from tabs) the current one: every tool then drives it, with the server's grants. A tab on an origin the server may not reach is refused (origin_not_allowed). Returns a fresh snapshot of the tab."
    )]
    async fn switch_tab(
        &self,
        Parameters(args): Parameters<SwitchTabArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(self.switch_to(&args.tab).await)
    }

    #[tool(
        description = "The desktop's applications with windows on the accessibility bus (app name, pid, how many windows), or why the desktop is out of reach. For orientation: this server drives only its own target; an app's window is driven by a server started with --pid PID or --app NAME.",
        annotations(read_only_hint = true)
    )]
    async fn apps(&self) -> Result<CallToolResult, ErrorData> {
        #[derive(Serialize)]
        struct App {
            app: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            pid: Option<u32>,
            windows: usize,
        }
        #[derive(Serialize)]
        struct Apps {
            apps: Vec<App>,
            #[serde(skip_serializing_if = "Option::is_none")]
            desktop_unavailable: Option<String>,
        }
        let listed = self.inner.connection.list_targets().await.map(|l| {
            let mut apps: Vec<App> = Vec::new();
            for t in l.targets {
                let TargetInfo::Window { app, pid, .. } = t else {
                    continue;
                };
                match apps.iter_mut().find(|a| a.app == app && a.pid == pid) {
                    Some(a) => a.windows += 1,
                    None => apps.push(App {
                        app,
                        pid,
                        windows: 1,
                    }),
                }
            }
            Apps {
                apps,
                desktop_unavailable: l.desktop_unavailable,
            }
        });
        answer(listed.and_then(|a| reply::json(&a).map(reply::text)))
    }

    #[tool(
        description = "The top-level windows of the application with this pid (from apps): each window's target id and title. For orientation, as apps.",
        annotations(read_only_hint = true)
    )]
    async fn windows(
        &self,
        Parameters(args): Parameters<WindowsArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        #[derive(Serialize)]
        struct Window {
            target_id: TargetId,
            title: String,
        }
        #[derive(Serialize)]
        struct Windows {
            app: String,
            windows: Vec<Window>,
        }
        let listed = self.inner.connection.list_targets().await.and_then(|l| {
            let mut app = None;
            let mut windows = Vec::new();
            for t in l.targets {
                if let TargetInfo::Window {
                    target_id,
                    app: name,
                    pid: Some(pid),
                    window,
                } = t
                {
                    if pid == args.pid {
                        app.get_or_insert(name);
                        windows.push(Window {
                            target_id,
                            title: window,
                        });
                    }
                }
            }
            match app {
                Some(app) => Ok(Windows { app, windows }),
                None => Err(HostError::new(
                    ErrorCode::TargetNotFound,
                    match l.desktop_unavailable {
                        Some(why) => why,
                        None => format!(
                            "no application with pid {} has a window on the accessibility bus: apps lists them",
                            args.pid
                        ),
                    },
                )),
            }
        });
        answer(listed.and_then(|w| reply::json(&w).map(reply::text)))
    }

    #[tool(
        description = "A PNG of the page's viewport (image content) with a fresh snapshot id, for what the element lines do not show (canvases, images, layout).",
        annotations(read_only_hint = true)
    )]
    async fn screenshot(&self) -> Result<CallToolResult, ErrorData> {
        answer(
            self.observe_with(ObserveOptions {
                include_png: true,
                ..view_options()
            })
            .await,
        )
    }

    #[tool(
        description = "Hand a bounded subtask to arc-cua's executor on this page as it is (no reload): it observes, decides locally, acts and verifies until SUBTASK_COMPLETE, BLOCKED or NEEDS_AGENT. subtask: {\"goal\": \"...\", \"inputs\": {\"name\": \"value\"}, \"verification\": [\"The page shows ...\" or {\"check\": \"text_present\", \"text\": \"...\"}], \"max_actions\": 10}; the result says per criterion whether it held. Cites the latest snapshot; returns the result JSON and the snapshot to chain the next subtask on; each step is sent as a progress notification when the call has a progress token. Needs allow_input."
    )]
    async fn run_subtask(
        &self,
        Parameters(args): Parameters<RunSubtaskArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let timeout_ms = match args.timeout_s {
            Some(s) if !s.is_finite() || s <= 0.0 => {
                return answer(Err(HostError::new(
                    ErrorCode::InvalidParams,
                    format!("timeout_s must be a positive number of seconds (got {s})"),
                )))
            }
            Some(s) => Some((s * 1000.0).min(u64::MAX as f64) as u64),
            None => None,
        };
        let late_reaction_ms = match args.late_reaction_s {
            Some(s) if !s.is_finite() || s < 0.0 => {
                return answer(Err(HostError::new(
                    ErrorCode::InvalidParams,
                    format!("late_reaction_s must be a number of seconds >= 0 (got {s})"),
                )))
            }
            Some(s) => Some((s * 1000.0).min(u64::MAX as f64) as u64),
            None => None,
        };
        let subtask = match subtask_as_sent(&context, &args) {
            Ok(s) => s,
            Err(e) => return answer(Err(e)),
        };
        // Each step (redacted by the host) as a progress notification, when the client
        // asked for progress; sent before the result.
        let (steps, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let token = context.meta.get_progress_token();
        let peer = context.peer.clone();
        let forward = tokio::spawn(async move {
            let mut n = 0.0;
            while let Some(step) = rx.recv().await {
                n += 1.0;
                if let Some(token) = &token {
                    let note = ProgressNotificationParam::new(token.clone(), n).with_message(step);
                    let _ = peer.notify_progress(note).await;
                }
            }
        });
        let ran = self
            .inner
            .connection
            .run_subtask(
                RunSubtaskParams {
                    session: self.session(),
                    observation_id: ObservationId(args.snapshot),
                    subtask,
                    timeout_ms,
                    dry_run: args.dry_run.unwrap_or(false),
                    min_confidence: args.min_confidence,
                    min_margin: args.min_margin,
                    late_reaction_ms,
                },
                move |event| {
                    if let Ok(line) = serde_json::to_string(event) {
                        let _ = steps.send(line);
                    }
                },
            )
            .await;
        let _ = forward.await;
        answer(ran.and_then(|r| reply::ran(&r)))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                crate::SERVER_NAME,
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }
}
