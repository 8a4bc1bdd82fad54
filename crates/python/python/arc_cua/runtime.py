"""`DesktopExecutor`: arc-core's loop (Rust) over any backend and policy."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace

from . import _native
from .models import ExecutionResult, StepEvent, Subtask, VerifyFn


@dataclass(slots=True)
class RuntimeConfig:
    """The reference's knobs and defaults. Settling: after an action, wait up to
    `settle_reaction_s` for a reaction, then until quiet for `settle_quiet_s`, never
    longer than `settle_timeout_s`, sampling every `settle_poll_s` (all 0: no wait).
    A NEEDS_AGENT or BLOCKED right after an action waits `late_reaction_s`, observes
    again and, if the desktop changed, asks the policy again (0: never)."""

    stale_retries: int = 8
    no_change_limit: int = 3
    post_action_settle_s: float = 0.03  # the reference's; arc-core settles by probe instead
    settle_reaction_s: float = 0.6
    settle_quiet_s: float = 0.15
    settle_timeout_s: float = 2.0
    settle_poll_s: float = 0.02
    late_reaction_s: float = 1.0
    timeout_s: float | None = None
    verify: VerifyFn | None = None
    min_confidence: float | None = None
    min_margin: float | None = None
    dry_run: bool = False

    def __post_init__(self) -> None:
        for name in ("min_confidence", "min_margin"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 1:
                raise ValueError(f"RuntimeConfig.{name} must be between 0 and 1")


class DesktopExecutor:
    """Runs subtasks with arc-core's loop.

    `backend` and `policy` may be this package's Rust classes (the fast path) or any
    Python objects with the reference's `observe`/`is_fresh`/`execute` and `decide`.
    """

    def __init__(
        self,
        backend: object,
        policy: object,
        config: RuntimeConfig | None = None,
        verify: VerifyFn | None = None,
    ) -> None:
        self.backend = backend
        self.policy = policy
        self.config = config or RuntimeConfig()
        if verify is not None:
            self.config = replace(self.config, verify=verify)
        self._engine = _native.Executor(backend, policy)

    def run(self, subtask: Subtask) -> ExecutionResult:
        return self._engine.run(subtask, self.config)

    def run_iter(self, subtask: Subtask) -> Generator[StepEvent, None, ExecutionResult]:
        """Yields a StepEvent per decision cycle; the last has `result` set (and is
        the generator's return value too)."""
        result = None
        for event in self._engine.run_iter(subtask, self.config):
            if event.result is not None:
                result = event.result
            yield event
        return result

    def cancel(self) -> None:
        """Thread-safe: the running subtask stops after its current action."""
        self._engine.cancel()
