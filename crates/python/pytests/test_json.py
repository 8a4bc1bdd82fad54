"""The JSON boundary: what `result_to_dict` returns is arc-core's result JSON, byte for
byte (the Rust side's run of the same scenario is the fixture, written by
`cargo test -p arc-cua-py` — tests/it/wire.rs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from arc_cua import (
    ActionKind,
    Decision,
    DesktopExecutor,
    RuntimeConfig,
    Subtask,
    TerminalKind,
    execute_payload,
    result_to_dict,
    subtask_from_dict,
)
from arc_cua.policies import ScriptedPolicy

from conftest import CounterBackend

FIXTURE = Path(__file__).parent / "fixtures" / "counter_result.json"
FAST = RuntimeConfig(settle_reaction_s=0, settle_quiet_s=0, settle_timeout_s=0, settle_poll_s=0)


def zero_timings(text: str) -> str:
    return re.sub(r'"elapsed_ms":\d+', '"elapsed_ms":0', text)


def script():
    return ScriptedPolicy([
        Decision(kind=ActionKind.CLICK, target_id="inc"),
        Decision(kind=ActionKind.CLICK, target_id="noop"),
        Decision(kind=ActionKind.CLICK, target_id="inc"),
        Decision(terminal=TerminalKind.SUBTASK_COMPLETE),
    ])


def test_result_json_is_the_rust_sides_byte_for_byte():
    task = Subtask(goal="Count to two", verification=("Count 2",), inputs={"who": "me"})
    result = DesktopExecutor(CounterBackend(), script(), config=FAST).run(task)
    expected = FIXTURE.read_text().strip()
    assert zero_timings(result._wire) == expected
    as_dict = result_to_dict(result)
    assert zero_timings(json.dumps(as_dict, separators=(",", ":"))) == expected
    assert list(as_dict)[:6] == [
        "status", "actions_taken", "reason", "observations", "history", "final_snapshot"]
    assert as_dict["actions_taken"] == 3 and as_dict["history"][1]["state_changed"] is False


def test_execute_payload_round_trip():
    payload = {
        "goal": "Count to two",
        "verification": ["Count 2"],
        "inputs": {"who": "me"},
        "max_actions": 15,
    }
    out = execute_payload(DesktopExecutor(CounterBackend(), script(), config=FAST), payload)
    assert zero_timings(json.dumps(out, separators=(",", ":"))) == FIXTURE.read_text().strip()
    task = subtask_from_dict(payload)
    assert (task.goal, task.verification, dict(task.inputs), task.max_actions) == (
        "Count to two", ("Count 2",), {"who": "me"}, 15)


def test_secret_inputs_never_leave():
    from conftest import counter_snapshot  # noqa: F401  (same app)
    from arc_cua import DesktopElement, DesktopSnapshot

    class Field(CounterBackend):
        def observe(self):
            return DesktopSnapshot(application="A", window="W", revision=f"len={len(self.state.get('v', ''))}",
                                   elements=(DesktopElement(id="pw", role="text_field", name="Password",
                                                            value=self.state.get("v", ""),
                                                            actions=(ActionKind.TYPE_TEXT,)),))

        def execute(self, snapshot, action):
            self.state["v"] = action.value

    task = Subtask(goal="Log in", verification=("typed",), inputs={"pw": "hunter2-secret"},
                   secret_inputs=("pw",))
    policy = ScriptedPolicy([Decision(kind=ActionKind.TYPE_TEXT, target_id="pw", input_key="pw"),
                             Decision(terminal=TerminalKind.SUBTASK_COMPLETE)])
    backend = Field()
    result = DesktopExecutor(backend, policy, config=FAST).run(task)
    assert backend.state["v"] == "hunter2-secret"  # the real value was entered
    assert "hunter2-secret" not in json.dumps(result_to_dict(result))


def test_a_stated_check_is_a_criterion_beside_sentences():
    check = {"check": "text_present", "text": "Count 2"}
    task = subtask_from_dict({"goal": "Count to two", "verification": ["Count 2", check]})
    assert task.verification == ("Count 2", check)
    assert hash(task) == hash(subtask_from_dict(
        {"goal": "Count to two", "verification": ["Count 2", dict(check)]}))
    try:
        subtask_from_dict({"goal": "g", "verification": [{"check": "text_present"}]})
    except ValueError as e:
        assert "verification[0]" in str(e)
    else:
        raise AssertionError("a check without its text was accepted")
