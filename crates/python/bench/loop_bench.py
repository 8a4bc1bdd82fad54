"""Per-step loop cost on the reference's scenario: a state machine whose snapshot factory
builds N elements, SCROLL steps, no settle wait. Runs on whichever `arc_cua` is importable
(ours or the reference 0.1.1), so the same file times both in one run (scripts/py-bench.sh).

Prints one JSON line: {"impl", "variant", "n", "steps", "us_per_step"}.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from arc_cua import ActionKind, Decision, DesktopElement, DesktopExecutor, DesktopSnapshot
from arc_cua import RuntimeConfig, Subtask, TerminalKind
from arc_cua.backends import StateMachineBackend
from arc_cua.policies import ScriptedPolicy


def make_factory(n: int):
    def snapshot(state):
        elements = tuple(
            DesktopElement(
                id=f"e{i}",
                role="button" if i % 10 == 0 else "text",
                name=f"Element number {i} at {state['offset']}",
                actions=(ActionKind.CLICK,) if i % 10 == 0 else (),
                source="bench",
            )
            for i in range(n)
        )
        return DesktopSnapshot(
            application="Bench", window="Main", revision=str(state["offset"]), elements=elements
        )

    return snapshot


def transition(state, action):
    if action.kind == ActionKind.SCROLL:
        state["offset"] += 1


def run_once(n: int, steps: int, variant: str) -> float:
    decisions = [Decision(kind=ActionKind.SCROLL, scroll_direction="DOWN")] * steps
    decisions.append(Decision(terminal=TerminalKind.SUBTASK_COMPLETE))
    policy = ScriptedPolicy(decisions)
    if variant == "python":
        backend = StateMachineBackend({"offset": 0}, make_factory(n), transition)
    else:
        from arc_cua._native import BenchMachine  # ours only: the same machine in Rust

        backend = BenchMachine(n)
    config = RuntimeConfig(post_action_settle_s=0.0)
    for name in ("settle_timeout_s", "settle_reaction_s", "settle_quiet_s", "late_reaction_s"):
        if hasattr(config, name):
            setattr(config, name, 0.0)
    executor = DesktopExecutor(backend, policy, config=config)
    task = Subtask(goal="Scroll", verification=("scrolled",), max_actions=steps + 1)
    started = time.perf_counter()
    result = executor.run(task)
    elapsed = time.perf_counter() - started
    assert result.status == TerminalKind.SUBTASK_COMPLETE, (result.status, result.reason)
    assert len(result.history) == steps
    return elapsed / (steps + 1) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variant", choices=("python", "rust"), default="python")
    args = parser.parse_args()
    import arc_cua

    impl = "ours" if hasattr(arc_cua, "_native") else "reference"
    best = min(run_once(args.n, args.steps, args.variant) for _ in range(args.repeat))
    print(json.dumps({
        "impl": impl, "python": sys.version.split()[0], "variant": args.variant,
        "n": args.n, "steps": args.steps, "us_per_step": round(best, 1),
    }))


if __name__ == "__main__":
    main()
