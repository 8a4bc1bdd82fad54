//! One MiniWoB++ episode in a page the runtime drives: open the task page, start a seeded
//! episode, hide the harness's own widgets from observation, read the utterance, and
//! afterwards read (and freeze) the page's reward.
//!
//! Everything here talks to the page's main world through `PageSession::evaluate`, the
//! harness's side channel. The runtime only ever observes the page through its backend,
//! and the policy only ever gets the Subtask: neither learns the task's name.

use super::error::MiniwobError;
use super::tasks::TaskName;
use super::utterance::Utterance;
use arc_browser::backend::BrowserBackend;
use arc_browser::cdp::methods::page::Viewport;
use arc_browser::{PageSession, StaticServer};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// What MiniWoB++'s own `core.getDOMInfo` leaves out of an agent's view: the reward HUD
/// (with its countdown), the START cover, the click visualizer, and the query (handed to
/// the runtime as the goal; left on the page, its words would "show" whatever the goal
/// quotes).
pub const DEFAULT_HIDDEN_IDS: [&str; 4] =
    ["reward-display", "sync-task-cover", "click-canvas", "query"];

/// How the harness prepares each episode's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HarnessOptions {
    /// DOM ids marked `aria-hidden="true"` after the episode starts, so that both
    /// observation paths (the AX tree and the viewport scan) skip them. Hit-testing still
    /// sees them: a click the START cover intercepts is stale, never pressed.
    pub hide_ids: Vec<String>,
    /// Overrides `core.EPISODE_MAX_TIME` (the page's own time limit, after which it scores
    /// −1); `None` keeps the task's limit (10 s by default, up to 30 s).
    pub episode_max_time: Option<Duration>,
    /// Stops the HUD countdown's repaint (once a second, in the hidden HUD): the settle
    /// probe counts DOM mutations, and a tick is not the UI answering an action. The
    /// episode's real timer is untouched.
    pub stop_hud_countdown: bool,
}

impl Default for HarnessOptions {
    fn default() -> Self {
        HarnessOptions {
            hide_ids: DEFAULT_HIDDEN_IDS.iter().map(|s| s.to_string()).collect(),
            episode_max_time: None,
            stop_hud_countdown: true,
        }
    }
}

/// The page's score for an episode, read from its globals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reward {
    /// `WOB_DONE_GLOBAL`: the page ended the episode.
    pub done: bool,
    /// `WOB_REWARD_GLOBAL`: raw reward decayed by the time taken.
    pub reward: f64,
    /// `WOB_RAW_REWARD_GLOBAL`: in [−1, 1]; > 0 is a success.
    pub raw: f64,
    /// `WOB_REWARD_REASON`, when the page gave one.
    pub reason: Option<String>,
}

impl Reward {
    pub fn success(&self) -> bool {
        self.done && self.raw > 0.0
    }
}

/// What starting an episode returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Started {
    pub utterance: Utterance,
    /// The page's episode time limit in effect.
    pub max_time: Duration,
    /// The ids of `hide_ids` found (and hidden) on the page.
    pub hidden: Vec<String>,
}

/// Serves the html root on loopback and prepares episodes on it.
pub struct MiniwobHost {
    server: StaticServer,
    options: HarnessOptions,
}

impl MiniwobHost {
    /// Serves `html_root` (the directory holding `miniwob/` and `core/`).
    pub async fn start(html_root: &Path, options: HarnessOptions) -> Result<Self, MiniwobError> {
        let server =
            StaticServer::start(html_root)
                .await
                .map_err(|source| MiniwobError::Serve {
                    root: html_root.to_owned(),
                    source,
                })?;
        Ok(MiniwobHost { server, options })
    }

    pub fn root(&self) -> &Path {
        self.server.root()
    }

    pub fn options(&self) -> &HarnessOptions {
        &self.options
    }

    /// The task page's loopback URL.
    pub fn url(&self, task: &TaskName) -> String {
        self.server.url(&task.page_path())
    }

    /// Loads the task page afresh (killing any earlier episode's timers with the old
    /// document) and starts the episode seeded with `seed`.
    pub async fn begin(
        &self,
        backend: &mut BrowserBackend,
        task: &TaskName,
        seed: u64,
    ) -> Result<Started, MiniwobError> {
        task.check_exists(self.root())?;
        backend.goto(&self.url(task)).await?;
        self.start_episode(backend.page(), task, seed).await
    }

    /// Starts a seeded episode on an already loaded task page.
    pub async fn start_episode(
        &self,
        page: &PageSession,
        task: &TaskName,
        seed: u64,
    ) -> Result<Started, MiniwobError> {
        let page_error = |detail: String| MiniwobError::Page {
            task: task.to_string(),
            seed,
            detail,
        };
        let value = page.evaluate(&self.start_script(seed)).await?;
        if let Some(err) = value.get("error").and_then(|e| e.as_str()) {
            return Err(page_error(err.to_owned()));
        }
        let utterance = value
            .get("utterance")
            .and_then(Utterance::from_value)
            .filter(|u| !u.text.trim().is_empty())
            .ok_or_else(|| page_error(format!("no utterance in {value}")))?;
        let max_time = value
            .get("max_time")
            .and_then(|v| v.as_f64())
            .filter(|ms| ms.is_finite() && *ms > 0.0)
            .map(|ms| Duration::from_millis(ms as u64))
            .ok_or_else(|| page_error(format!("no episode time limit in {value}")))?;
        let hidden = value
            .get("hidden")
            .and_then(|h| serde_json::from_value(h.clone()).ok())
            .unwrap_or_default();
        Ok(Started {
            utterance,
            max_time,
            hidden,
        })
    }

    fn start_script(&self, seed: u64) -> String {
        let ids = serde_json::to_string(&self.options.hide_ids).unwrap_or_else(|_| "[]".into());
        let max = self
            .options
            .episode_max_time
            .map(|d| d.as_millis().to_string())
            .unwrap_or_else(|| "null".into());
        format!(
            r#"(() => {{
  if (typeof core === 'undefined' || typeof core.startEpisodeReal !== 'function'
      || typeof Math.seedrandom !== 'function') {{
    return {{ error: 'not a MiniWoB++ task page (no core.startEpisodeReal / Math.seedrandom)' }};
  }}
  if (core.cover_div == null) core.startEpisode();
  const max = {max};
  if (max !== null) core.EPISODE_MAX_TIME = max;
  Math.seedrandom('{seed}');
  core.startEpisodeReal();
  const hidden = [];
  for (const id of {ids}) {{
    const el = document.getElementById(id);
    if (el) {{ el.setAttribute('aria-hidden', 'true'); hidden.push(id); }}
  }}
  if ({stop}) clearInterval(core.CD_TIMER);
  return {{ utterance: core.getUtterance(), max_time: core.EPISODE_MAX_TIME, hidden }};
}})()"#,
            stop = self.options.stop_hud_countdown,
        )
    }
}

/// The task's own area (`#wrap`: the query and the task), at twice its size, for
/// screenshots: the rest of the viewport is empty page. None when the page has no `#wrap`.
pub async fn task_area(page: &PageSession) -> Option<Viewport> {
    #[derive(Deserialize)]
    struct Rect {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    }
    let rect: Option<Rect> = page
        .evaluate_as(
            "(() => { const w = document.getElementById('wrap'); if (!w) return null; \
               const r = w.getBoundingClientRect(); \
               return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })()",
        )
        .await
        .ok()?;
    let r = rect.filter(|r| r.width >= 1.0 && r.height >= 1.0)?;
    Some(Viewport {
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
        scale: 2.0,
    })
}

/// Reads the page's reward globals.
pub async fn read_reward(page: &PageSession) -> Result<Reward, MiniwobError> {
    #[derive(Deserialize)]
    struct Wire {
        done: bool,
        reward: f64,
        raw: f64,
        reason: serde_json::Value,
    }
    let w: Wire = page
        .evaluate_as(
            "({done: WOB_DONE_GLOBAL === true, reward: Number(WOB_REWARD_GLOBAL), \
              raw: Number(WOB_RAW_REWARD_GLOBAL), \
              reason: (typeof WOB_REWARD_REASON === 'undefined') ? null : WOB_REWARD_REASON})",
        )
        .await?;
    let reason = match w.reason {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s),
        other => Some(other.to_string()),
    };
    Ok(Reward {
        done: w.done,
        reward: w.reward,
        raw: w.raw,
        reason,
    })
}

/// Freezes the episode: its end-of-episode timer is cleared, so an unfinished episode
/// cannot score later (it stays `done: false`). Returns whether it was still running.
pub async fn stop_episode(page: &PageSession) -> Result<bool, MiniwobError> {
    let running = page
        .evaluate(
            "(() => { const running = core.EP_TIMER !== null; \
               if (running) { clearTimeout(core.EP_TIMER); core.EP_TIMER = null; } \
               clearInterval(core.CD_TIMER); return running; })()",
        )
        .await?;
    Ok(running.as_bool().unwrap_or(false))
}
