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
    """arc-core's result JSON (redacted), as a dict: what `arc-cua run` prints."""
    if result._wire is None:
        raise ValueError(
            "ExecutionResult: only a result a DesktopExecutor returned can be serialized"
        )
    return json.loads(result._wire)


def execute_payload(executor: DesktopExecutor, payload: Mapping[str, Any]) -> dict[str, Any]:
    return result_to_dict(executor.run(subtask_from_dict(payload)))
