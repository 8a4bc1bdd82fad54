//! The reference README's deterministic demo, ported line for line.

use arc_core::{
    Action, ActionKind, Decision, Element, Executor, Role, RuntimeConfig, Snapshot, Subtask,
    TerminalKind,
};
use arc_sim::{ScriptedPolicy, StateMachineBackend};

#[derive(Default)]
struct State {
    q: String,
}

fn make_snapshot(state: &State) -> Snapshot {
    let mut search = Element::new("search", Role::parse("text_field"), "Search");
    search.value = Some(state.q.clone().into());
    search.actions = [ActionKind::TypeText].into();
    Snapshot::with_revision("App", "Main", state.q.clone(), vec![search])
}

#[tokio::test]
async fn the_reference_state_machine_demo_completes() {
    let backend = StateMachineBackend::new(
        State::default(),
        make_snapshot,
        |state: &mut State, action| {
            if action.kind() == ActionKind::TypeText {
                state.q = action.text().into_owned();
            }
            Ok(())
        },
    );
    let policy = ScriptedPolicy::new([
        Decision::act(Action::type_text("search", "query")),
        Decision::terminal(TerminalKind::SubtaskComplete),
    ]);
    let task =
        Subtask::new("Search for cats", "Search field contains cats").with_input("query", "cats");
    let mut executor = Executor::new(backend, policy, RuntimeConfig::default());
    let result = executor.run(&task).await;
    assert_eq!(result.status, TerminalKind::SubtaskComplete);
    assert_eq!(executor.backend_mut().state().q, "cats");
    assert_eq!(result.history[0].before_revision, "");
    assert_eq!(result.history[0].after_revision, "cats");
}
