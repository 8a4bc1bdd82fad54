"""The JSON boundary: the planner's payload in, the result out, as arc-core writes it."""

from __future__ import annotations

import json
from typing import Any, Mapping

from . import _native
from .models import ExecutionResult, Subtask
from .runtime import DesktopExecutor


def subtask_from_dict(payload: Mapping[str, Any]) -> Subtask:
    """Parse the planner's payload; ValueError names the field (unknown fields refused)."""
    # arc-core refuses any key that is not one of Subtask's fields: the payload is its kwargs.
    _native.check_payload(payload)
    return Subtask(**payload)


def result_to_dict(result: ExecutionResult) -> dict[str, Any]:
    """arc-core's result JSON (redacted), as a dict: what `arc-cua run` prints. A result
    made by hand is written by the same code (its history must come from a run)."""
    if result._wire is None:
        return json.loads(_native.result_json(result))
    return json.loads(result._wire)


def execute_payload(executor: DesktopExecutor, payload: Mapping[str, Any]) -> dict[str, Any]:
    return result_to_dict(executor.run(subtask_from_dict(payload)))
