//! The counter scenario of `pytests/conftest.py` run by arc-core directly: its result JSON
//! is the fixture `pytests/test_json.py` compares the Python package's `result_to_dict`
//! with, byte for byte (timings zeroed). `UPDATE_FIXTURES=1` rewrites it.

use arc_core::{
    Action, ActionKind, Backend, BackendError, Decision, Element, ExecutableAction, Executed,
    Executor, Role, RuntimeConfig, ScriptedPolicy, SettleConfig, Snapshot, Subtask, TerminalKind,
};
use async_trait::async_trait;
use std::path::PathBuf;

struct Counter(u32);

fn counter(count: u32) -> Snapshot {
    let mut inc = Element::new("inc", Role::parse("button"), "Increment");
    inc.actions = [ActionKind::Click].into_iter().collect();
    let mut noop = Element::new("noop", Role::parse("button"), "Nothing");
    noop.actions = [ActionKind::Click].into_iter().collect();
    let label = Element::new("label", Role::parse("text"), format!("Count {count}"));
    Snapshot::with_revision(
        "Counter",
        "Main",
        format!("count={count}"),
        vec![inc, noop, label],
    )
}

#[async_trait]
impl Backend for Counter {
    fn name(&self) -> &'static str {
        "counter"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        Ok(counter(self.0))
    }
    async fn is_fresh(&mut self, _: &Snapshot, a: &ExecutableAction) -> Result<bool, BackendError> {
        Ok(match a.target() {
            Some(id) => counter(self.0)
                .element(id.as_str())
                .is_some_and(|e| Some(e.effective_guard()) == a.target_guard),
            None => true,
        })
    }
    async fn execute(
        &mut self,
        _: &Snapshot,
        a: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        if a.target().is_some_and(|t| t.as_str() == "inc") {
            self.0 += 1;
        }
        Ok(Executed::default())
    }
}

/// `"elapsed_ms":123` → `"elapsed_ms":0`: the one thing two runs may not share.
pub fn zero_timings(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    const KEY: &str = "\"elapsed_ms\":";
    while let Some(i) = rest.find(KEY) {
        out.push_str(&rest[..i + KEY.len()]);
        out.push('0');
        rest = rest[i + KEY.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

#[test]
fn counter_result_matches_the_python_fixture() {
    let click = |id: &str| Decision::act(Action::click(id));
    let policy = ScriptedPolicy::new([
        click("inc"),
        click("noop"),
        click("inc"),
        Decision::terminal(TerminalKind::SubtaskComplete),
    ]);
    let config = RuntimeConfig {
        settle: SettleConfig::immediate(),
        ..RuntimeConfig::default()
    };
    let mut executor = Executor::new(Counter(0), policy, config);
    let subtask = Subtask::new("Count to two", "Count 2").with_input("who", "me");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let result = rt.block_on(executor.run(&subtask));
    assert_eq!(result.status, TerminalKind::SubtaskComplete);
    let text = zero_timings(&serde_json::to_string(&result).unwrap());
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pytests/fixtures/counter_result.json");
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, format!("{text}\n")).unwrap();
    }
    let fixture =
        std::fs::read_to_string(&path).expect("the fixture (UPDATE_FIXTURES=1 writes it)");
    assert_eq!(fixture.trim_end(), text);
}
