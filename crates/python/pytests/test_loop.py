"""The loop with a backend and a policy written in Python: every way a run ends, the
exceptions the reference lets out, run_iter against run, and cancel from a thread."""

from __future__ import annotations

import threading
import time

import pytest

from arc_cua import (
    ActionKind,
    Decision,
    DesktopExecutor,
    InvalidDecision,
    RuntimeConfig,
    StaleDesktopState,
    Subtask,
    TerminalKind,
)
from arc_cua.policies import ScriptedPolicy

from conftest import CounterBackend

FAST = dict(settle_reaction_s=0.0, settle_quiet_s=0.0, settle_timeout_s=0.0, settle_poll_s=0.0)
INC = Decision(kind=ActionKind.CLICK, target_id="inc")
NOOP = Decision(kind=ActionKind.CLICK, target_id="noop")
DONE = Decision(terminal=TerminalKind.SUBTASK_COMPLETE)


def task(max_actions: int = 30) -> Subtask:
    return Subtask(goal="Count to two", verification=("Count 2",), max_actions=max_actions)


class ListPolicy:
    """A Python policy: hands out decisions, records what it was shown."""

    def __init__(self, decisions):
        self.decisions = list(decisions)
        self.seen: list[tuple[str, int]] = []

    def decide(self, *, subtask, snapshot, history):
        assert isinstance(subtask, Subtask)
        self.seen.append((snapshot.revision, len(history)))
        return self.decisions.pop(0)


class CountingPolicy:
    """Clicks Increment until the label says 2, then completes (reads the snapshot)."""

    def decide(self, *, subtask, snapshot, history):
        if snapshot.element("label").name == "Count 2":
            return DONE
        return INC


def run(backend, policy, **config):
    return DesktopExecutor(backend, policy, config=RuntimeConfig(**{**FAST, **config})).run(task())


def test_completes_on_the_policys_terminal_and_the_backend_saw_each_action():
    backend = CounterBackend()
    result = run(backend, CountingPolicy())
    assert result.status == TerminalKind.SUBTASK_COMPLETE
    assert result.termination == "terminal_decision"
    assert backend.state == {"count": 2} and backend.executed == ["inc", "inc"]
    assert [r.after_revision for r in result.history] == ["count=1", "count=2"]
    assert all(r.state_changed for r in result.history)
    assert result.final_snapshot.element("label").name == "Count 2"
    assert result.actions_taken == 2


def test_a_python_policy_sees_the_history_grow():
    policy = ListPolicy([INC, INC, DONE])
    run(CounterBackend(), policy)
    assert policy.seen == [("count=0", 0), ("count=1", 1), ("count=2", 2)]


def test_blocked_after_no_change_limit():
    backend = CounterBackend()
    result = run(backend, ListPolicy([NOOP] * 5), no_change_limit=3)
    assert result.status == TerminalKind.BLOCKED and result.termination == "no_change_limit"
    assert backend.executed == ["noop"] * 3


def test_needs_agent_when_the_budget_is_spent():
    backend = CounterBackend()
    ex = DesktopExecutor(backend, ListPolicy([INC] * 9), config=RuntimeConfig(**FAST))
    result = ex.run(task(max_actions=2))
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "budget_exhausted"
    assert backend.state["count"] == 2


def test_policy_blocked_and_needs_agent_pass_through():
    for terminal in (TerminalKind.BLOCKED, TerminalKind.NEEDS_AGENT):
        result = run(CounterBackend(), ListPolicy([Decision(terminal=terminal, reason="why")]))
        assert result.status == terminal and result.reason == "why"


def test_verify_rejects_completion():
    seen = []

    def verify(snapshot, subtask):
        seen.append((snapshot.revision, subtask.goal))
        return False

    ex = DesktopExecutor(CounterBackend(), ListPolicy([DONE]), config=RuntimeConfig(**FAST), verify=verify)
    result = ex.run(task())
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "verify_rejected"
    assert seen == [("count=0", "Count to two")]


def test_timeout_ends_the_run():
    class Slow(CounterBackend):
        def execute(self, snapshot, action):
            time.sleep(0.05)
            super().execute(snapshot, action)

    result = run(Slow(), ListPolicy([INC] * 50), timeout_s=0.2)
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "timeout"
    assert 1 <= len(result.history) < 10


def test_stale_retries_exhausted():
    class NeverFresh(CounterBackend):
        def is_fresh(self, snapshot, action):
            return False

    backend = NeverFresh()
    result = run(backend, ListPolicy([INC] * 20), stale_retries=2)
    assert result.status == TerminalKind.NEEDS_AGENT
    assert result.termination == "stale_retries_exhausted"
    assert backend.executed == []  # nothing ran on a stale target


def test_stale_from_execute_reobserves_and_asks_again():
    class StaleOnce(CounterBackend):
        raised = False

        def execute(self, snapshot, action):
            if not self.raised:
                self.raised = True
                raise StaleDesktopState("moved")
            super().execute(snapshot, action)

    backend = StaleOnce()
    policy = ListPolicy([INC, INC, DONE])
    result = run(backend, policy)
    assert result.status == TerminalKind.SUBTASK_COMPLETE
    assert backend.executed == ["inc"]  # the stale decision was dropped, not replayed
    assert len(policy.seen) == 3


def test_a_backend_that_raises_ends_with_needs_agent_naming_the_exception():
    class Broken(CounterBackend):
        def execute(self, snapshot, action):
            raise KeyError("socket gone")

    result = run(Broken(), ListPolicy([INC]))
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "backend_error"
    assert "Backend execution failed: KeyError" in result.reason


def test_invalid_decision_from_execute_propagates():
    class Refuses(CounterBackend):
        def execute(self, snapshot, action):
            raise InvalidDecision("not here")

    with pytest.raises(InvalidDecision, match="not here"):
        run(Refuses(), ListPolicy([INC]))


def test_observe_and_decide_exceptions_propagate():
    class Blind(CounterBackend):
        def observe(self):
            raise OSError("no display")

    with pytest.raises(OSError, match="no display"):
        run(Blind(), ListPolicy([DONE]))

    class Crashes:
        def decide(self, *, subtask, snapshot, history):
            raise ZeroDivisionError("policy bug")

    with pytest.raises(ZeroDivisionError, match="policy bug"):
        run(CounterBackend(), Crashes())


def test_scripted_policy_raises_when_exhausted():
    with pytest.raises(RuntimeError, match="ScriptedPolicy ran out of decisions"):
        run(CounterBackend(), ScriptedPolicy([INC]))


def test_an_illegal_decision_ends_the_run_without_acting():
    backend = CounterBackend()
    result = run(backend, ListPolicy([Decision(kind=ActionKind.TYPE_TEXT, target_id="inc", input_key="q")]))
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "invalid_decision"
    assert backend.executed == []


def test_run_iter_yields_the_events_run_records():
    ex = DesktopExecutor(CounterBackend(), CountingPolicy(), config=RuntimeConfig(**FAST))
    events = list(ex.run_iter(task()))
    assert [e.terminal for e in events] == [False, False, True]
    final = events[-1].result
    assert final.status == TerminalKind.SUBTASK_COMPLETE
    assert tuple(e.record for e in events[:-1]) == final.history
    assert [e.action.target_id for e in events[:-1]] == ["inc", "inc"]
    # Each acted step's decision is the one the policy made, as its record keeps it.
    assert [(e.decision.kind, e.decision.target_id) for e in events[:-1]] == [(INC.kind, "inc")] * 2
    assert [e.decision for e in events[:-1]] == [r.decision for r in final.history]
    assert events[-1].decision.terminal == TerminalKind.SUBTASK_COMPLETE
    again = run(CounterBackend(), CountingPolicy())
    strip = lambda rs: [(r.step, r.action, r.before_revision, r.after_revision, r.state_changed) for r in rs]
    assert strip(again.history) == strip(final.history)


def test_run_iter_raises_what_run_raises():
    ex = DesktopExecutor(CounterBackend(), ScriptedPolicy([INC]), config=RuntimeConfig(**FAST))
    it = ex.run_iter(task())
    first = next(it)
    assert first.record.step == 1
    with pytest.raises(RuntimeError, match="ran out of decisions"):
        next(it)


def test_cancel_from_another_thread_ends_within_one_step():
    started = threading.Event()

    class Slow(CounterBackend):
        def execute(self, snapshot, action):
            started.set()
            time.sleep(0.1)
            super().execute(snapshot, action)

    backend = Slow()
    ex = DesktopExecutor(backend, ListPolicy([INC] * 100), config=RuntimeConfig(**FAST))
    threading.Thread(target=lambda: (started.wait(5), ex.cancel())).start()
    result = ex.run(task(max_actions=100))
    assert result.status == TerminalKind.NEEDS_AGENT and result.termination == "cancelled"
    # The action in flight when cancel came is finished and recorded; nothing after it.
    assert backend.state["count"] == len(result.history) == 1
    # A cancel between runs does not poison the next run (as in the reference).
    ex.cancel()
    assert DesktopExecutor(CounterBackend(), CountingPolicy(), config=RuntimeConfig(**FAST)).run(task()).status == TerminalKind.SUBTASK_COMPLETE


def test_a_rust_part_serves_one_run_at_a_time():
    policy = ScriptedPolicy([INC, DONE])
    first = DesktopExecutor(CounterBackend(), policy, config=RuntimeConfig(**FAST))
    it = first.run_iter(task())
    next(it)  # the first run holds the policy now
    second = DesktopExecutor(CounterBackend(), policy, config=RuntimeConfig(**FAST))
    with pytest.raises(RuntimeError, match="in use by another run"):
        second.run(task())
    assert list(it)[-1].result.status == TerminalKind.SUBTASK_COMPLETE


def test_state_machine_backend_rereads_state_edited_between_runs():
    from arc_cua.backends import StateMachineBackend

    from conftest import counter_snapshot

    def transition(state, action):
        if action.target_id == "inc":
            state["count"] += 1

    initial = {"count": 0}
    backend = StateMachineBackend(initial, counter_snapshot, transition)
    assert backend.state == initial and backend.state is not initial  # a deep copy, as the reference
    first = DesktopExecutor(backend, CountingPolicy(), config=RuntimeConfig(**FAST)).run(task())
    assert first.status == TerminalKind.SUBTASK_COMPLETE and backend.state == {"count": 2}
    backend.state["count"] = 0  # edited from outside: the next run must see it
    again = DesktopExecutor(backend, CountingPolicy(), config=RuntimeConfig(**FAST)).run(task())
    assert [r.before_revision for r in again.history] == ["count=0", "count=1"]
    # The protocol methods work when called directly too.
    snap = backend.observe()
    assert snap.revision == "count=2" and backend.is_fresh(snap, _click("inc", snap))


def _click(target, snap):
    from arc_cua import ExecutableAction

    return ExecutableAction(kind=ActionKind.CLICK, target_id=target,
                            target_guard=snap.element(target).semantic_guard())
