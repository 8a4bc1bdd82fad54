//! Each method's typed params and result. Every params struct denies unknown fields.

use super::action::HostAction;
use super::envelope::Method;
use super::error::ErrorCode;
use crate::grants::Grants;
use crate::limits::Limits;
use arc_core::{Element, ElementId, ExecutionResult, Role, Subtask};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// A session's public id (connection-scoped).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(pub String);

/// The secret that proves a request comes from the session's opener. Compared in
/// constant time; never printed by `Debug`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Capability(pub String);

impl fmt::Debug for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Capability(…)")
    }
}

/// The auth fields every session request carries, as one object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionAuth {
    pub session_id: SessionId,
    pub capability: Capability,
}

/// An observation's id: `<session>/o<n>`, so one session's id never names another's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObservationId(pub String);

/// A target's id: a page's is Chromium's `targetId`; a desktop window's is
/// `atspi:<app's unique bus name><window's object path>` (stable while the app runs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TargetId(pub String);

/// What a target id names, parsed once at the boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetRef {
    /// A browser page (Chromium's target id).
    Page(String),
    /// A top-level window of an application on the accessibility bus.
    Window { bus: String, path: String },
}

const WINDOW_PREFIX: &str = "atspi:";

impl TargetId {
    pub fn window(bus: &str, path: &str) -> TargetId {
        TargetId(format!("{WINDOW_PREFIX}{bus}{path}"))
    }

    /// What the id names; a malformed window id is an error naming it.
    pub fn parse(&self) -> Result<TargetRef, super::HostError> {
        let Some(rest) = self.0.strip_prefix(WINDOW_PREFIX) else {
            return Ok(TargetRef::Page(self.0.clone()));
        };
        match rest.find('/') {
            Some(i) if i > 0 && rest[i..].len() > 1 => Ok(TargetRef::Window {
                bus: rest[..i].to_owned(),
                path: rest[i..].to_owned(),
            }),
            _ => Err(super::HostError::new(
                ErrorCode::InvalidParams,
                format!(
                    "target_id {:?} is not a window id (atspi:<bus name><object path>); list_targets shows them",
                    arc_core::clip(&self.0, 120)
                ),
            )),
        }
    }
}

// ---- hello, ping, manifest -------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloParams {
    pub protocol_version: u32,
    /// Who is calling (logs, and later the safety banner): 1–80 characters.
    pub client_name: String,
}

/// What this build offers beyond the core methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// `observe` with `since` returns only what changed.
    ObserveDelta,
    /// `observe` with `include_png`.
    Screenshot,
    /// `run_subtask` streams step events before its result.
    SubtaskEvents,
    /// Requests on one connection are served concurrently, answered by `request_id`.
    PipelinedRequests,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloResult {
    pub protocol_version: u32,
    pub server: String,
    pub server_version: String,
    pub capabilities: Vec<Feature>,
    pub limits: Limits,
}

/// Params of methods that take none: `{}` (or absent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pong {
    pub pong: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub protocol_version: u32,
    pub server: String,
    pub server_version: String,
    pub methods: Vec<Method>,
    pub error_codes: Vec<ErrorCode>,
    pub capabilities: Vec<Feature>,
    pub limits: Limits,
    /// `stdio` (JSON lines) and `socket` (u32 big-endian length-prefixed JSON frames).
    pub transports: Vec<String>,
    /// The socket path, when this host serves one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
}

// ---- targets and sessions --------------------------------------------------------

/// One target a session can bind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TargetInfo {
    /// A browser page.
    Page {
        target_id: TargetId,
        url: String,
        title: String,
    },
    /// A top-level window of a desktop application (AT-SPI).
    Window {
        target_id: TargetId,
        /// The application's accessible name (GTK: its program name).
        app: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pid: Option<u32>,
        /// The window's accessible name (its title).
        window: String,
    },
}

impl TargetInfo {
    pub fn target_id(&self) -> &TargetId {
        match self {
            TargetInfo::Page { target_id, .. } | TargetInfo::Window { target_id, .. } => target_id,
        }
    }

    /// What the target shows of itself (a page's URL and title, a window's names) with
    /// `redactor`'s secrets redacted: a title may echo a password.
    pub(crate) fn redact(&mut self, redactor: &arc_core::Redactor) {
        match self {
            TargetInfo::Page { url, title, .. } => {
                redactor.redact_string(url);
                redactor.redact_string(title);
            }
            TargetInfo::Window { app, window, .. } => {
                redactor.redact_string(app);
                redactor.redact_string(window);
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetList {
    pub targets: Vec<TargetInfo>,
    /// Why no desktop windows are listed, when the accessibility bus is out of reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desktop_unavailable: Option<String>,
}

/// The one target a session is bound to: an existing page or desktop window
/// (`target_id`, from `list_targets`) or a new tab opened at `url` (needs
/// `allow_launch`). Exactly one of the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<TargetId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSessionParams {
    #[serde(default)]
    pub grants: Grants,
    pub target: TargetSpec,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenedSession {
    pub session: SessionAuth,
    pub target: TargetInfo,
    pub grants: Grants,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionParams {
    pub session: SessionAuth,
}

/// The files a session's page downloaded, oldest first: name, path, size, SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Downloads {
    pub downloads: Vec<arc_core::Download>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stopped {
    pub stopped: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interrupted {
    /// Sessions stopped, on every connection.
    pub stopped_sessions: usize,
    /// The host's stop generation after this interrupt.
    pub generation: u64,
}

// ---- observe ---------------------------------------------------------------------

/// What an observation returns besides its id and compact view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObserveOptions {
    /// Every element (password values redacted), not just the view.
    #[serde(default)]
    pub include_elements: bool,
    /// A PNG of the viewport, base64.
    #[serde(default)]
    pub include_png: bool,
    /// Only what changed since this earlier observation of the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<ObservationId>,
    /// The view's token budget (default 1,200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObserveParams {
    pub session: SessionAuth,
    #[serde(default)]
    pub options: ObserveOptions,
}

/// Elements added, removed or changed between two observations of one session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delta {
    pub since: ObservationId,
    pub added: Vec<Element>,
    pub removed: Vec<ElementId>,
    pub changed: Vec<Element>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    /// Cite it in the next mutation (once).
    pub observation_id: ObservationId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub title: String,
    /// The compact view: one visible element per line, id first.
    pub view: String,
    pub tokens: usize,
    /// Some visible element is not in `view` (`find` reaches it).
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<Vec<Element>>,
    /// base64 PNG of the viewport.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub png_base64: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<Delta>,
}

// ---- find ------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindParams {
    pub session: SessionAuth,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(default = "default_find_limit")]
    pub limit: usize,
}

fn default_find_limit() -> usize {
    20
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindHit {
    pub id: ElementId,
    pub line: String,
    pub context: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Found {
    /// The fresh observation the hits come from (now the session's latest).
    pub observation_id: ObservationId,
    pub hits: Vec<FindHit>,
}

// ---- act -------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActParams {
    pub session: SessionAuth,
    /// The session's latest observation; used up by this act.
    pub observation_id: ObservationId,
    pub action: HostAction,
    /// Wait for the page to settle before answering (default true).
    #[serde(default = "yes")]
    pub settle: bool,
    /// Return a fresh observation (the next one to cite) with the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observe_after: Option<ObserveOptions>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActOutcome {
    /// Dispatched; the page showed no change.
    Done,
    /// Dispatched; the page changed.
    Changed,
    /// The target changed since the observation: nothing was dispatched.
    Stale,
    /// The risk gate refused it (`reason` says which word): nothing was dispatched.
    Refused,
    /// Dispatched, and the page says the press landed on another element than the one
    /// aimed at (an overlay took it): `reason` names it, and its risk when it carries one
    /// the session does not allow. It was pressed.
    LandedElsewhere,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActResult {
    pub outcome: ActOutcome,
    /// Why it was stale or refused; on done or changed, a navigation the act started that
    /// the session's origins stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The action's entry in the session's journal (0 when nothing was planned: refused,
    /// or stale before dispatch).
    pub journal_seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Observation>,
}

// ---- wait_for --------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum WaitCondition {
    /// An element whose name or value contains `text` (and of `role`, when given).
    ElementPresent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
    },
    /// Some visible element's name or value contains `text`.
    TextContains { text: String },
    /// An element named `name` holds exactly `value`.
    ValueEquals { name: String, value: String },
    /// Anything an agent reads differs from this session's observation `since`: an
    /// element added or removed, or its role, name, value or state changed (boxes
    /// aside). The result's observation carries the delta.
    Changed { since: ObservationId },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitForParams {
    pub session: SessionAuth,
    pub condition: WaitCondition,
    pub timeout_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitResult {
    pub met: bool,
    pub waited_ms: u64,
    /// The last observation taken (now the session's latest).
    pub observation: Observation,
}

// ---- run_subtask -----------------------------------------------------------------

/// A subtask checked by the contract's own parser (`Subtask::from_json`): its error
/// names the field inside the subtask.
#[derive(Clone, Debug, PartialEq)]
pub struct SubtaskParam(pub Subtask);

impl<'de> Deserialize<'de> for SubtaskParam {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
        Subtask::from_json(raw.get())
            .map(SubtaskParam)
            .map_err(|e| serde::de::Error::custom(format!("{} ({})", e, e.code.as_str())))
    }
}

impl Serialize for SubtaskParam {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSubtaskParams {
    pub session: SessionAuth,
    /// The session's latest observation; used up by the run.
    pub observation_id: ObservationId,
    pub subtask: SubtaskParam,
    /// Wall-clock bound on the run (default and ceiling: the host's `subtask_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Decide and check the next action, then end DRY_RUN with it as `planned_action`;
    /// nothing is acted on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
    /// A decision whose confidence (0..=1) is below this ends the run NEEDS_AGENT without
    /// acting; unscored decisions are not gated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_confidence: Option<f64>,
    /// As `min_confidence`, for the gap between a decision's best and second choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_margin: Option<f64>,
    /// A give-up right after an action waits this long, looks again and decides again if
    /// the page changed (default 1000, 0 never, at most 30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_reaction_ms: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSubtaskResult {
    /// The executor's result, redacted.
    pub result: ExecutionResult,
    /// The page after the run (now the session's latest): chain the next subtask on it.
    pub observation_id: ObservationId,
}
