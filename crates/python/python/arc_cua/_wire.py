"""arc-core's JSON (what the Rust loop hands back) into the value types. Internal."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from .models import (
    ActionRecord,
    Bounds,
    Decision,
    DesktopSnapshot,
    ExecutableAction,
    ExecutionResult,
    Subtask,
    TerminalKind,
)

# The keys each type takes are its own fields (one home: the dataclass); arc-core's JSON
# also carries keys the reference's types do not have (provenance, input_key), left out.
_DECISION_KEYS = tuple(f.name for f in fields(Decision) if f.name != "raw")
_ACTION_KEYS = tuple(f.name for f in fields(ExecutableAction))


def _bounds(raw: dict[str, Any] | None) -> Bounds | None:
    if raw is None:
        return None
    return Bounds(raw["x"], raw["y"], raw["width"], raw["height"])


def decision_from(raw: dict[str, Any]) -> Decision:
    values = {k: raw[k] for k in _DECISION_KEYS if k in raw}
    return Decision(**values, raw=raw.get("raw") or {})


def decision(text: str) -> Decision:
    return decision_from(json.loads(text))


def action_from(raw: dict[str, Any]) -> ExecutableAction:
    return ExecutableAction(**{k: raw[k] for k in _ACTION_KEYS if k in raw})


def action(text: str) -> ExecutableAction:
    return action_from(json.loads(text))


def record_from(raw: dict[str, Any]) -> ActionRecord:
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
        _wire=json.dumps(raw),
    )


def record(text: str) -> ActionRecord:
    return record_from(json.loads(text))


def result(text: str, subtask: Subtask, final_snapshot: DesktopSnapshot) -> ExecutionResult:
    raw = json.loads(text)
    return ExecutionResult(
        status=TerminalKind(raw["status"]),
        subtask=subtask,
        final_snapshot=final_snapshot,
        history=tuple(record_from(r) for r in raw["history"]),
        observations=tuple(raw["observations"]),
        reason=raw.get("reason"),
        termination=raw.get("termination"),
        verification=tuple(raw.get("verification", ())),
        downloads=tuple(raw.get("downloads", ())),
        planned_action=raw.get("planned_action"),
        needs_input=raw.get("needs_input"),
        needs_human=raw.get("needs_human"),
        _wire=text,
    )
