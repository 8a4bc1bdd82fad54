"""arc-core's JSON (what the Rust loop hands back) into the value types. Internal."""

from __future__ import annotations

import json
from typing import Any

from .models import (
    ActionKind,
    ActionRecord,
    Bounds,
    Decision,
    DesktopSnapshot,
    ExecutableAction,
)

_DECISION_KEYS = (
    "kind", "terminal", "target_id", "secondary_target_id", "input_key", "key", "hotkey",
    "scroll_direction", "drag_dx", "drag_dy", "confidence", "margin", "latency_ms", "reason",
)


def _bounds(raw: dict[str, Any] | None) -> Bounds | None:
    if raw is None:
        return None
    return Bounds(raw["x"], raw["y"], raw["width"], raw["height"])


def decision_from(raw: dict[str, Any]) -> Decision:
    fields = {k: raw[k] for k in _DECISION_KEYS if k in raw}
    return Decision(**fields, raw=raw.get("raw") or {})


def decision(text: str) -> Decision:
    return decision_from(json.loads(text))


def action_from(raw: dict[str, Any]) -> ExecutableAction:
    return ExecutableAction(
        kind=ActionKind(raw["kind"]),
        target_id=raw.get("target_id"),
        target_guard=raw.get("target_guard"),
        secondary_target_id=raw.get("secondary_target_id"),
        secondary_target_guard=raw.get("secondary_target_guard"),
        value=raw.get("value"),
        key=raw.get("key"),
        hotkey=raw.get("hotkey"),
        scroll_direction=raw.get("scroll_direction"),
        drag_dx=raw.get("drag_dx"),
        drag_dy=raw.get("drag_dy"),
    )


def action(text: str) -> ExecutableAction:
    return action_from(json.loads(text))


def record_from(raw: dict[str, Any], text: str | None = None) -> ActionRecord:
    return ActionRecord(
        step=raw["step"],
        decision=decision_from(raw["decision"]),
        action=action_from(raw["action"]),
        before_revision=raw["before_revision"],
        after_revision=raw["after_revision"],
        state_changed=raw["state_changed"],
        elapsed_ms=raw["elapsed_ms"],
        target_name=raw.get("target_name"),
        target_source=raw.get("target_source"),
        target_bounds=_bounds(raw.get("target_bounds")),
        _wire=text if text is not None else json.dumps(raw),
    )


def record(text: str) -> ActionRecord:
    return record_from(json.loads(text), text)


def result(text: str, subtask: Any, final_snapshot: DesktopSnapshot) -> Any:
    from .models import ExecutionResult, TerminalKind

    raw = json.loads(text)
    return ExecutionResult(
        status=TerminalKind(raw["status"]),
        subtask=subtask,
        final_snapshot=final_snapshot,
        history=tuple(record_from(r) for r in raw["history"]),
        observations=tuple(raw["observations"]),
        reason=raw.get("reason"),
        termination=raw.get("termination"),
        _wire=text,
    )
