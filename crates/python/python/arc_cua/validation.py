"""`materialize_action`: a decision validated against a snapshot by arc-core's rules (the
ones the loop applies before acting), its literal resolved from the subtask's inputs."""

from __future__ import annotations

from . import _native
from .models import Decision, DesktopSnapshot, ExecutableAction, Subtask


def materialize_action(
    decision: Decision, snapshot: DesktopSnapshot, subtask: Subtask
) -> ExecutableAction:
    """Raises `arc_cua.errors.InvalidDecision` naming the field when the snapshot does not
    allow the decision (unknown or disabled target, an action it does not offer, …)."""
    return _native.materialize(decision, snapshot, subtask)


__all__ = ["materialize_action"]
