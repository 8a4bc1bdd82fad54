//! The executor loop on the GTK fixture: a changed widget is stale and nothing is
//! pressed; a dialog that opens after a delay is waited for by settling on the app's own
//! events (its busy state, and its progress updates); the app exiting mid-run ends
//! NEEDS_AGENT with a reason.

use crate::common::{subtask, App, Desktop};
use arc_core::{
    Action, DecideContext, Decision, ElementId, Executor, Policy, PolicyError, RuntimeConfig,
    Snapshot, TerminalKind, Termination,
};
use async_trait::async_trait;

fn named(s: &Snapshot, role: &str, name: &str) -> Option<ElementId> {
    s.elements
        .iter()
        .find(|e| e.role.as_str() == role && e.name == name && e.visible)
        .map(|e| e.id.clone())
}

fn done() -> Decision {
    Decision::terminal(TerminalKind::SubtaskComplete)
}

fn give_up() -> Decision {
    Decision::terminal(TerminalKind::NeedsAgent)
}

/// Renames Submit (SIGUSR1) after seeing it, then clicks the Submit it saw.
struct RenameThenClick<'a> {
    app: &'a App,
    decided: u32,
}

#[async_trait]
impl Policy for RenameThenClick<'_> {
    fn name(&self) -> &'static str {
        "rename-then-click"
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        self.decided += 1;
        if self.decided > 1 {
            return Ok(give_up());
        }
        let target = named(ctx.snapshot, "button", "Submit").expect("Submit is shown");
        self.app.signal(libc::SIGUSR1);
        self.app.wait(
            |r| r.events.iter().any(|e| e.kind == "renamed"),
            "the rename",
        );
        Ok(Decision::act(Action::click(target)))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_widget_changed_between_observe_and_act_is_stale_and_nothing_is_clicked() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let backend = desk.backend(&app).await;
    let policy = RenameThenClick {
        app: &app,
        decided: 0,
    };
    let mut ex = Executor::new(backend, policy, RuntimeConfig::default());
    let result = ex.run(&subtask("{}")).await;
    assert_eq!(result.actions_taken, 0, "{result:#?}");
    assert!(
        result
            .observations
            .iter()
            .any(|o| o.contains("no longer matches its guard")),
        "{:#?}",
        result.observations
    );
    let record = app.read().expect("record");
    assert!(
        !record.events.iter().any(|e| e.kind == "clicked"),
        "nothing was clicked: {:#?}",
        record.events
    );
}

/// Opens the settings dialog once, then presses Apply as soon as a snapshot shows it.
/// It never waits itself: a snapshot without the dialog after the first press ends the
/// run NEEDS_AGENT, so only the runtime's settling can make this pass.
struct OpenThenApply {
    opened: bool,
}

#[async_trait]
impl Policy for OpenThenApply {
    fn name(&self) -> &'static str {
        "open-then-apply"
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let s = ctx.snapshot;
        if !ctx.history.is_empty() && named(s, "button", "Apply").is_none() && self.opened {
            // After Apply: complete once the dialog is gone.
            if ctx.history.len() >= 2 {
                return Ok(done());
            }
            return Ok(give_up());
        }
        if let Some(apply) = named(s, "button", "Apply") {
            return Ok(Decision::act(Action::click(apply)));
        }
        self.opened = true;
        let open = named(s, "button", "Open settings").expect("the settings button");
        Ok(Decision::act(Action::click(open)))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dialog_that_opens_later_is_waited_for_by_settling_on_progress_events() {
    dialog_after_delay(&[]).await;
}

/// No progress updates: only the window's `state-changed:busy` keeps the settle going.
#[tokio::test(flavor = "multi_thread")]
async fn a_dialog_that_opens_later_is_waited_for_while_the_app_says_busy() {
    dialog_after_delay(&["--no-progress"]).await;
}

async fn dialog_after_delay(extra: &[&str]) {
    let desk = Desktop::start();
    let mut args = vec!["--dialog-delay-ms", "700"];
    args.extend_from_slice(extra);
    let app = desk.launch(&args);
    let backend = desk.backend(&app).await;
    let mut ex = Executor::new(
        backend,
        OpenThenApply { opened: false },
        RuntimeConfig::default(),
    );
    let result = ex.run(&subtask("{}")).await;
    assert_eq!(result.status, TerminalKind::SubtaskComplete, "{result:#?}");
    assert_eq!(result.actions_taken, 2, "open, then apply: no extra steps");
    let record = app.read().expect("record");
    assert_eq!(
        record.state.dialog_answer.as_deref(),
        Some("apply"),
        "{record:#?}"
    );
    let open_step = &result.history[0];
    assert!(
        open_step.settle.elapsed_ms >= 500,
        "the settle after opening lasted until the dialog came: {:?}",
        open_step.settle
    );
}

/// Kills the app after the first observation, then asks to wait.
struct KillApp<'a> {
    app: &'a App,
}

#[async_trait]
impl Policy for KillApp<'_> {
    fn name(&self) -> &'static str {
        "kill-app"
    }
    async fn decide(&mut self, _ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        self.app.signal(libc::SIGKILL);
        Ok(Decision::act(Action::Wait))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_exiting_mid_run_ends_needs_agent_with_a_reason() {
    let desk = Desktop::start();
    let mut app = desk.launch(&[]);
    let backend = desk.backend(&app).await;
    let mut ex = Executor::new(backend, KillApp { app: &app }, RuntimeConfig::default());
    let result = ex.run(&subtask("{}")).await;
    drop(ex);
    assert_eq!(result.status, TerminalKind::NeedsAgent, "{result:#?}");
    assert_eq!(result.termination, Termination::BackendError, "{result:#?}");
    let reason = result.reason.unwrap_or_default();
    assert!(
        reason.contains("arc-gtk-form") && reason.contains("exited"),
        "the reason names the app and says it exited: {reason}"
    );
    assert!(
        app.has_exited(),
        "the process table agrees: the app is gone"
    );
}

/// Double-clicks a row (physical), then clicks Submit (background), then completes.
struct PhysicalThenBackground {
    step: u32,
}

#[async_trait]
impl Policy for PhysicalThenBackground {
    fn name(&self) -> &'static str {
        "physical-then-background"
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        self.step += 1;
        let s = ctx.snapshot;
        Ok(match self.step {
            1 => Decision::act(Action::DoubleClick {
                target: named(s, "listitem", "Item 1").expect("row 1"),
            }),
            2 => Decision::act(Action::click(named(s, "button", "Submit").expect("Submit"))),
            _ => done(),
        })
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_record_says_which_steps_used_physical_input() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let backend = desk.backend(&app).await;
    let mut ex = Executor::new(
        backend,
        PhysicalThenBackground { step: 0 },
        RuntimeConfig::default(),
    );
    let result = ex.run(&subtask("{}")).await;
    assert_eq!(result.status, TerminalKind::SubtaskComplete, "{result:#?}");
    let physical: Vec<bool> = result.history.iter().map(|r| r.physical_input).collect();
    assert_eq!(
        physical,
        [true, false],
        "double-click via XTest, click via Action"
    );
    let json = serde_json::to_value(&result.history).unwrap();
    assert_eq!(json[0]["physical_input"], true);
    assert!(
        json[1].get("physical_input").is_none(),
        "omitted when false"
    );
    let record = app.read().unwrap();
    assert!(record
        .events
        .iter()
        .any(|e| e.kind == "activated" && e.row == Some(1)));
    assert!(record
        .events
        .iter()
        .any(|e| e.kind == "clicked" && e.widget == "submit"));
}
