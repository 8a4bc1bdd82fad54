"""arc-cua: the reference's Python API on the Rust runtime."""

from . import _native
from .api import execute_payload, result_to_dict, subtask_from_dict
from .errors import InvalidDecision, StaleDesktopState, UnsupportedDesktopAction
from .models import (
    DEFAULT_HOTKEYS,
    DEFAULT_PRESS_KEYS,
    SCROLL_DIRECTIONS,
    ActionKind,
    ActionRecord,
    Bounds,
    Decision,
    DesktopElement,
    DesktopSnapshot,
    ExecutableAction,
    ExecutionResult,
    StepEvent,
    Subtask,
    TerminalKind,
    VerifyFn,
)
from .runtime import DesktopExecutor, RuntimeConfig

__all__ = [
    "DEFAULT_HOTKEYS",
    "DEFAULT_PRESS_KEYS",
    "SCROLL_DIRECTIONS",
    "ActionKind",
    "ActionRecord",
    "Bounds",
    "Decision",
    "DesktopElement",
    "DesktopExecutor",
    "DesktopSnapshot",
    "ExecutableAction",
    "ExecutionResult",
    "InvalidDecision",
    "RuntimeConfig",
    "StaleDesktopState",
    "StepEvent",
    "Subtask",
    "TerminalKind",
    "UnsupportedDesktopAction",
    "VerifyFn",
    "execute_payload",
    "result_to_dict",
    "subtask_from_dict",
]
