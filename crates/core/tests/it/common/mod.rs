//! Test apps and fault-injecting wrappers for the loop tests.
#![allow(dead_code)]

use arc_core::{
    Action, ActionKind, ActionSet, Backend, BackendError, Decision, Element, ExecutableAction,
    Executed, Role, RuntimeConfig, SettleConfig, SettleSample, Snapshot, Source, TerminalKind,
};
use arc_sim::StateMachineBackend;
use async_trait::async_trait;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// A counter app: "Increment" adds one (shown in a status line), "Nothing" does
/// nothing, "Delete account" clears, "Locked" is disabled, "Query" is a text field.
#[derive(Default, Debug)]
pub struct Counter {
    pub count: u32,
    pub query: String,
    pub deleted: bool,
    /// Every action the app received, in order (the oracle).
    pub received: Vec<String>,
}

fn button(id: &str, name: &str) -> Element {
    let mut e = Element::new(id, Role::Button, name);
    e.actions = [ActionKind::Click].into();
    e.source = Source::Sim;
    e
}

pub fn counter_snapshot(s: &Counter) -> Snapshot {
    let mut query = Element::new("query", Role::TextField, "Query");
    query.actions = [
        ActionKind::Click,
        ActionKind::TypeText,
        ActionKind::SetValue,
    ]
    .into();
    query.value = Some(s.query.clone().into());
    let mut locked = button("locked", "Locked");
    locked.enabled = false;
    let mut hidden = button("hidden", "Hidden");
    hidden.visible = false;
    let status = Element::new("status", Role::Status, format!("Count: {}", s.count));
    Snapshot::new(
        "Counter",
        "Main",
        vec![
            button("inc", "Increment"),
            button("noop", "Nothing"),
            button("delete", "Delete account"),
            locked,
            hidden,
            query,
            status,
            Element {
                actions: ActionSet::EMPTY,
                ..Element::new("label", Role::StaticText, "Counter app")
            },
        ],
    )
}

pub fn counter_transition(s: &mut Counter, a: &ExecutableAction) -> Result<(), BackendError> {
    s.received.push(format!(
        "{} {}",
        a.kind(),
        a.target().map(|t| t.as_str()).unwrap_or("")
    ));
    match (&a.action, a.target().map(|t| t.as_str())) {
        (Action::Click { .. }, Some("inc")) => s.count += 1,
        (Action::Click { .. }, Some("delete")) => {
            s.deleted = true;
            s.count = 0
        }
        (Action::TypeText { .. } | Action::SetValue { .. }, Some("query")) => {
            s.query = a.text().into_owned()
        }
        (Action::Click { .. }, _) | (Action::PressKey { .. }, _) => {}
        _ => {
            return Err(BackendError::Unsupported {
                kind: a.kind(),
                backend: "counter",
            })
        }
    }
    Ok(())
}

pub fn counter() -> StateMachineBackend<Counter> {
    StateMachineBackend::new(Counter::default(), counter_snapshot, counter_transition)
}

pub fn fast_config() -> RuntimeConfig {
    RuntimeConfig {
        settle: SettleConfig::immediate(),
        ..Default::default()
    }
}

pub fn click(id: &str) -> Decision {
    Decision::act(Action::click(id))
}

pub fn complete() -> Decision {
    Decision::terminal(TerminalKind::SubtaskComplete)
}

/// How a [`Faulty`] backend misbehaves on execute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    None,
    /// Every execute reports stale without acting (the reference loops forever here).
    StaleAlways,
    /// The first execute acts, then reports stale (did it land? the loop cannot know).
    ActThenStaleOnce,
    /// Every execute fails.
    Fail,
    /// Every freshness check fails.
    NeverFresh,
    /// Observation fails.
    ObserveFails,
    /// Execute acts; every observation after the first execute fails.
    ObserveFailsAfterExecute,
}

/// Wraps a backend, counts executions that reached it, and injects a fault.
pub struct Faulty<B> {
    pub inner: B,
    pub fault: Fault,
    pub executions: Arc<AtomicU32>,
    pub stale_reports: u32,
}

impl<B> Faulty<B> {
    pub fn new(inner: B, fault: Fault) -> Self {
        Faulty {
            inner,
            fault,
            executions: Arc::new(AtomicU32::new(0)),
            stale_reports: 0,
        }
    }
}

#[async_trait]
impl<B: Backend> Backend for Faulty<B> {
    fn name(&self) -> &'static str {
        "faulty"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        let executed = self.executions.load(Ordering::SeqCst) > 0;
        if self.fault == Fault::ObserveFails
            || (self.fault == Fault::ObserveFailsAfterExecute && executed)
        {
            return Err(BackendError::failed("display went away"));
        }
        self.inner.observe().await
    }
    async fn is_fresh(&mut self, s: &Snapshot, a: &ExecutableAction) -> Result<bool, BackendError> {
        if self.fault == Fault::NeverFresh {
            return Ok(false);
        }
        self.inner.is_fresh(s, a).await
    }
    async fn execute(
        &mut self,
        s: &Snapshot,
        a: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        match self.fault {
            Fault::StaleAlways => {
                self.stale_reports += 1;
                Err(BackendError::stale(
                    a.target(),
                    "re-rendered under the pointer",
                ))
            }
            Fault::ActThenStaleOnce if self.stale_reports == 0 => {
                self.executions.fetch_add(1, Ordering::SeqCst);
                self.inner.execute(s, a).await?;
                self.stale_reports += 1;
                Err(BackendError::stale(a.target(), "moved during the click"))
            }
            Fault::Fail => Err(BackendError::failed("input device unplugged")),
            _ => {
                self.executions.fetch_add(1, Ordering::SeqCst);
                self.inner.execute(s, a).await
            }
        }
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.inner.settle_probe().await
    }
}
