"""The value types, with the reference's names, fields and defaults.

Validation that arc-core already owns (the subtask contract, a decision's shape) is
asked of arc-core through `_native`, so a Python payload and a JSON payload are judged by
the same code; its errors become ValueError naming the field (`Subtask.goal: ...`).
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Mapping

from . import _native
from ._native import DesktopElement
from .errors import DecisionRefused


class ActionKind(StrEnum):
    CLICK = "CLICK"
    DOUBLE_CLICK = "DOUBLE_CLICK"
    RIGHT_CLICK = "RIGHT_CLICK"
    TYPE_TEXT = "TYPE_TEXT"
    PRESS_KEY = "PRESS_KEY"
    HOTKEY = "HOTKEY"
    SCROLL = "SCROLL"
    DRAG_TO = "DRAG_TO"
    DRAG_BY = "DRAG_BY"
    SET_VALUE = "SET_VALUE"
    WAIT = "WAIT"
    # This runtime's additions (browser): choose an option, open a URL input, hover,
    # highlight an element's text.
    SELECT_OPTION = "SELECT_OPTION"
    NAVIGATE = "NAVIGATE"
    HOVER = "HOVER"
    SELECT_TEXT = "SELECT_TEXT"


class TerminalKind(StrEnum):
    SUBTASK_COMPLETE = "SUBTASK_COMPLETE"
    BLOCKED = "BLOCKED"
    NEEDS_AGENT = "NEEDS_AGENT"
    NEEDS_INPUT = "NEEDS_INPUT"
    DRY_RUN = "DRY_RUN"


def _enum(cls: type[StrEnum], value: Any, where: str) -> Any:
    if value is None or isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(m.value for m in cls)
        raise ValueError(f"{where} must be one of {allowed}, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class Bounds:
    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


# DesktopElement is in Rust (arc_cua._native): frozen, equal by value, the reference's
# fields and defaults; built once into arc-core's element, which the loop then uses
# without reading it back.


@dataclass(frozen=True, slots=True)
class DesktopSnapshot:
    application: str
    window: str
    revision: str
    elements: tuple[DesktopElement, ...]
    context: Mapping[str, Any] = field(default_factory=dict)
    captured_at_ms: int | None = None
    _index: dict[str, DesktopElement] | None = field(
        default=None, init=False, repr=False, compare=False, hash=False
    )

    def element(self, element_id: str) -> DesktopElement:
        """O(1) lookup by id (the index is built on first use). Raises KeyError."""
        index = self._index
        if index is None:
            index = {e.id: e for e in self.elements}
            object.__setattr__(self, "_index", index)
        return index[element_id]

    def compact(self) -> dict[str, Any]:
        """The planner-facing summary arc-core writes: visible elements only."""
        return _native.snapshot_compact(self)


@dataclass(frozen=True, slots=True)
class Subtask:
    """The planner's contract; checked by arc-core's rules when constructed."""

    goal: str
    # Sentences, or check objects ({"check": "text_present", "text": "Saved"}; `arc-cua
    # schema subtask` lists them).
    verification: tuple[str | Mapping[str, Any], ...]
    inputs: Mapping[str, str | int | float | bool] = field(default_factory=dict)
    constraints: tuple[str, ...] = ()
    max_actions: int = 30
    metadata: Mapping[str, Any] = field(default_factory=dict)
    shortcuts: Mapping[str, str] = field(default_factory=dict)
    allowed_risks: tuple[str, ...] = ()
    secret_inputs: tuple[str, ...] = ()
    # Absolute paths a file input may be given (through an input whose value is one).
    files: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _native.check_subtask(self)
        for name in ("verification", "constraints", "allowed_risks", "secret_inputs", "files"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name in ("inputs", "metadata", "shortcuts"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def __hash__(self) -> int:
        criteria = tuple(
            c if isinstance(c, str) else json.dumps(dict(c), sort_keys=True)
            for c in self.verification
        )
        return hash((self.goal, criteria, tuple(self.inputs.items()), self.constraints))

    @property
    def secret_values(self) -> tuple[str, ...]:
        values = {str(self.inputs[k]) for k in self.secret_inputs if str(self.inputs[k])}
        return tuple(sorted(values, key=len, reverse=True))

    def compact(self) -> dict[str, Any]:
        """The model-facing subtask: secret input values replaced by a placeholder."""
        return {
            "goal": self.goal,
            "verification": list(self.verification),
            "inputs": {
                k: "[secret]" if k in self.secret_inputs else v for k, v in self.inputs.items()
            },
            "constraints": list(self.constraints),
            "metadata": dict(self.metadata),
            "shortcuts": dict(self.shortcuts),
            "allowed_risks": list(self.allowed_risks),
            "files": list(self.files),
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: an action (`kind`) or a terminal status (`terminal`), never both.

    arc-core checks it on construction: a kind's required parameters, known keys and
    chords, confidence and margin within 0..1.
    """

    kind: ActionKind | None = None
    terminal: TerminalKind | None = None
    target_id: str | None = None
    secondary_target_id: str | None = None
    input_key: str | None = None
    key: str | None = None
    hotkey: str | None = None
    scroll_direction: str | None = None
    drag_dx: float | None = None
    drag_dy: float | None = None
    click_modifier: str | None = None
    confidence: float | None = None
    margin: float | None = None
    latency_ms: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, hash=False)
    reason: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _enum(ActionKind, self.kind, "Decision.kind"))
        object.__setattr__(
            self, "terminal", _enum(TerminalKind, self.terminal, "Decision.terminal")
        )
        try:
            _native.check_decision(self)
        except ValueError as e:
            raise DecisionRefused(str(e)) from None


@dataclass(frozen=True, slots=True)
class ExecutableAction:
    kind: ActionKind
    target_id: str | None = None
    target_guard: str | None = None
    secondary_target_id: str | None = None
    secondary_target_guard: str | None = None
    value: str | int | float | bool | None = None
    key: str | None = None
    hotkey: str | None = None
    scroll_direction: str | None = None
    drag_dx: float | None = None
    drag_dy: float | None = None
    click_modifier: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _enum(ActionKind, self.kind, "ExecutableAction.kind"))


@dataclass(frozen=True, slots=True)
class ActionRecord:
    step: int
    decision: Decision
    action: ExecutableAction
    before_revision: str
    after_revision: str
    state_changed: bool
    elapsed_ms: int
    target_name: str | None = None
    target_source: str | None = None
    target_bounds: Bounds | None = None
    # arc-core's record as JSON: how a policy's `decide` reads the history back.
    _wire: str | None = field(default=None, repr=False, compare=False, hash=False)

    def compact(self) -> dict[str, Any]:
        bounds = None
        if self.target_bounds is not None:
            b = self.target_bounds
            bounds = {k: round(getattr(b, k), 1) for k in ("x", "y", "width", "height")}
        return {
            "step": self.step,
            "action": self.action.kind.value,
            "key": self.action.key,
            "hotkey": self.action.hotkey,
            "click_modifier": self.action.click_modifier,
            "scroll_direction": self.action.scroll_direction,
            "target": self.action.target_id,
            "target_name": self.target_name,
            "target_source": self.target_source,
            "target_bounds": bounds,
            "secondary_target": self.action.secondary_target_id,
            "value": self.action.value,
            "before_revision": self.before_revision,
            "after_revision": self.after_revision,
            "state_changed": self.state_changed,
            "jev_latency_ms": self.decision.latency_ms,
            "elapsed_ms": self.elapsed_ms,
        }


@dataclass(frozen=True, slots=True)
class ExecutionResult:
    status: TerminalKind
    subtask: Subtask
    final_snapshot: DesktopSnapshot
    history: tuple[ActionRecord, ...]
    observations: tuple[str, ...] = ()
    reason: str | None = None
    needs_input: Mapping[str, Any] | None = None
    planned_action: Mapping[str, Any] | None = None
    # arc-core's stable code for why the run ended (`terminal_decision`, `no_change_limit`, …).
    termination: str | None = None
    # Each criterion as judged when the run ended: {criterion, check, holds, evidence}.
    verification: tuple[Mapping[str, Any], ...] = ()
    # Files the page downloaded and the backend saved: {name, path, bytes, sha256}.
    downloads: tuple[Mapping[str, Any], ...] = ()
    # On termination `needs_human`: {need, element_id, role, name} a person must answer.
    needs_human: Mapping[str, Any] | None = None
    # arc-core's result as JSON: what `result_to_dict` returns, byte for byte.
    _wire: str | None = field(default=None, repr=False, compare=False, hash=False)

    @property
    def actions_taken(self) -> int:
        return len(self.history)


DEFAULT_PRESS_KEYS: tuple[str, ...] = (
    "ENTER", "ESCAPE", "TAB", "SPACE", "BACKSPACE", "DELETE",
    "ARROW_UP", "ARROW_DOWN", "ARROW_LEFT", "ARROW_RIGHT",
)
DEFAULT_HOTKEYS: tuple[str, ...] = ("MOD+A", "MOD+C", "MOD+V", "MOD+Z", "MOD+SHIFT+Z", "MOD+F")
SCROLL_DIRECTIONS: tuple[str, ...] = ("UP", "DOWN", "LEFT", "RIGHT")
TYPE_TEXT_SUBMIT_KEYS: tuple[str, ...] = ("ENTER", "TAB")
CLICK_MODIFIERS: tuple[str, ...] = ("MOD", "SHIFT")


class StepEvent:
    """Emitted by `run_iter()` after each decision cycle; the last has `result` set."""

    __slots__ = ("step", "snapshot", "decision", "action", "record", "result")

    def __init__(
        self,
        *,
        step: int,
        snapshot: DesktopSnapshot,
        decision: Decision,
        action: ExecutableAction | None = None,
        record: ActionRecord | None = None,
        result: ExecutionResult | None = None,
    ) -> None:
        self.step = step
        self.snapshot = snapshot
        self.decision = decision
        self.action = action
        self.record = record
        self.result = result

    @property
    def terminal(self) -> bool:
        return self.result is not None

    def __repr__(self) -> str:
        what = self.result.status if self.result else (self.action.kind if self.action else None)
        return f"StepEvent(step={self.step}, {what})"


VerifyFn = Callable[[DesktopSnapshot, Subtask], bool]
