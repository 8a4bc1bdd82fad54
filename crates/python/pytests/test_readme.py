"""The reference's README examples, verbatim (../shared/seeds: arc-cua-reference.txt and
arc-cua-readme.txt), run on this package. Only the macOS backends' example cannot run
here (no macOS); everything else is pasted as published."""

from __future__ import annotations

import json
import textwrap

from arc_cua import RuntimeConfig

DETERMINISTIC_DEMO = '''
from arc_cua import (
    ActionKind, Decision, DesktopElement, DesktopExecutor,
    DesktopSnapshot, Subtask, TerminalKind,
)
from arc_cua.backends import StateMachineBackend
from arc_cua.policies import ScriptedPolicy

def make_snapshot(state):
    elements = [
        DesktopElement(id="search", role="text_field", name="Search",
                       value=state["q"], actions=(ActionKind.TYPE_TEXT,), source="demo"),
    ]
    return DesktopSnapshot(
        application="App", window="Main",
        revision=state["q"], elements=tuple(elements),
    )

def transition(state, action):
    if action.kind == ActionKind.TYPE_TEXT:
        state["q"] = action.value

backend = StateMachineBackend({"q": ""}, make_snapshot, transition)
policy = ScriptedPolicy([
    Decision(kind=ActionKind.TYPE_TEXT, target_id="search", input_key="query"),
    Decision(terminal=TerminalKind.SUBTASK_COMPLETE),
])
task = Subtask(
    goal="Search for cats",
    verification=("Search field contains cats",),
    inputs={"query": "cats"},
)

result = DesktopExecutor(backend, policy).run(task)
assert result.status == TerminalKind.SUBTASK_COMPLETE
'''

TOP_LEVEL_IMPORTS = '''
from arc_cua import (
    ActionKind, Bounds, Decision, DesktopElement, DesktopExecutor,
    DesktopSnapshot, ExecutableAction, ExecutionResult, RuntimeConfig,
    StepEvent, Subtask, TerminalKind, VerifyFn,
    execute_payload, result_to_dict, subtask_from_dict,
)
'''

SCRIPTED_POLICY = '''
from arc_cua.policies import ScriptedPolicy

policy = ScriptedPolicy([
    Decision(kind=ActionKind.CLICK, target_id="btn"),
    Decision(terminal=TerminalKind.SUBTASK_COMPLETE),
])
'''

README_SUBTASK = '''
Subtask(
    goal="Play Get Lucky by Daft Punk in Spotify",
    inputs={
        "search_query": "Get Lucky Daft Punk",
    },
    verification=(
        "Spotify shows Get Lucky by Daft Punk as the current track",
    ),
    constraints=(
        "Do not modify the user's library",
    ),
)
'''

README_PAYLOAD = '''{
  "goal": "Open Effects and search for Gaussian Blur",
  "verification": [
    "The Effects search field contains Gaussian Blur"
  ],
  "inputs": {
    "effect_name": "Gaussian Blur"
  },
  "constraints": [
    "Do not modify another clip"
  ],
  "max_actions": 15
}'''

README_EXECUTE = '''
from arc_cua import execute_payload
result = execute_payload(executor, payload)
'''


def run(code: str, namespace: dict | None = None) -> dict:
    namespace = namespace if namespace is not None else {}
    exec(compile(textwrap.dedent(code), "<readme>", "exec"), namespace)
    return namespace


def test_deterministic_demo():
    ns = run(DETERMINISTIC_DEMO)
    assert ns["backend"].state == {"q": "cats"}  # the transition really ran
    assert ns["result"].history[0].action.value == "cats"


def test_top_level_imports_and_scripted_policy():
    ns = run(TOP_LEVEL_IMPORTS)
    run(SCRIPTED_POLICY, ns)
    assert len(ns["policy"]) == 2  # both decisions were taken in, none yet handed out


def test_readme_subtask_and_payload_through_execute_payload():
    from arc_cua import ActionKind, Decision, DesktopElement, DesktopExecutor, DesktopSnapshot, Subtask, TerminalKind
    from arc_cua.backends import StateMachineBackend
    from arc_cua.policies import ScriptedPolicy

    run(README_SUBTASK, {"Subtask": Subtask})

    def snapshot(state):
        return DesktopSnapshot(
            application="Editor", window="Effects", revision=state["search"],
            elements=(DesktopElement(id="effects_search", role="text_field", name="Search Effects",
                                     value=state["search"], actions=(ActionKind.TYPE_TEXT,)),),
        )

    def transition(state, action):
        state["search"] = action.value

    backend = StateMachineBackend({"search": ""}, snapshot, transition)
    executor = DesktopExecutor(backend, ScriptedPolicy([
        Decision(kind=ActionKind.TYPE_TEXT, target_id="effects_search", input_key="effect_name"),
        Decision(terminal=TerminalKind.SUBTASK_COMPLETE),
    ]), config=RuntimeConfig(settle_reaction_s=0, settle_quiet_s=0, settle_timeout_s=0))
    ns = run(README_EXECUTE, {"executor": executor, "payload": json.loads(README_PAYLOAD)})
    assert backend.state["search"] == "Gaussian Blur"
    assert ns["result"]["status"] == "SUBTASK_COMPLETE" and ns["result"]["actions_taken"] == 1
