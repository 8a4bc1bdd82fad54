"""Every value type: names, defaults, validation (the field named), immutability, equality."""

from __future__ import annotations

import dataclasses
import math

import pytest

from arc_cua import (
    DEFAULT_HOTKEYS,
    DEFAULT_PRESS_KEYS,
    SCROLL_DIRECTIONS,
    ActionKind,
    Bounds,
    Decision,
    DesktopElement,
    DesktopSnapshot,
    ExecutableAction,
    RuntimeConfig,
    Subtask,
    TerminalKind,
    subtask_from_dict,
)


def sub(**over):
    fields = {"goal": "Do it", "verification": ("done",)}
    fields.update(over)
    return Subtask(**fields)


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"goal": ""}, "Subtask.goal"),
        ({"goal": "   "}, "Subtask.goal"),
        ({"goal": 5}, "Subtask.goal"),
        ({"verification": ()}, "Subtask.verification"),
        ({"verification": "done"}, "Subtask.verification"),
        ({"verification": ("ok", " ")}, "Subtask.verification[1]"),
        ({"constraints": ("",)}, "Subtask.constraints[0]"),
        ({"max_actions": 0}, "Subtask.max_actions"),
        ({"max_actions": -3}, "Subtask.max_actions"),
        ({"max_actions": 1.5}, "Subtask.max_actions"),
        ({"inputs": {"q": math.inf}}, "Subtask.inputs.q"),
        ({"inputs": {"q": math.nan}}, "Subtask.inputs.q"),
        ({"inputs": {"q": None}}, "Subtask.inputs.q"),
        ({"inputs": {"q": [1]}}, "Subtask.inputs.q"),
        ({"inputs": {"": "x"}}, "Subtask.inputs"),
        ({"inputs": {"q": "x"}, "secret_inputs": ("pw",)}, "Subtask.secret_inputs"),
        ({"allowed_risks": ("explode",)}, "Subtask.allowed_risks[0]"),
        ({"shortcuts": {"MOD+NOPE": "x"}}, "Subtask.shortcuts[0]"),
    ],
)
def test_subtask_rules_name_the_field(over, field):
    with pytest.raises(ValueError) as err:
        sub(**over)
    assert str(err.value).startswith(field + ":"), str(err.value)


def test_subtask_defaults_and_immutability():
    task = sub()
    assert task.inputs == {} and task.constraints == () and task.max_actions == 30
    assert task.metadata == {} and task.allowed_risks == () and task.secret_inputs == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.goal = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        task.inputs["x"] = 1  # type: ignore[index]
    assert sub(verification=["a", "b"]).verification == ("a", "b")
    assert sub() == sub() and hash(sub()) == hash(sub())


def test_subtask_from_dict_refuses_unknown_and_missing_fields():
    with pytest.raises(ValueError, match=r"^Subtask\.colour: Unknown subtask fields: `colour`"):
        subtask_from_dict({"goal": "g", "verification": ["v"], "colour": "red"})
    with pytest.raises(ValueError, match=r"^Subtask.*verification"):
        subtask_from_dict({"goal": "g"})
    with pytest.raises(ValueError, match="must be an object"):
        subtask_from_dict(["goal"])  # type: ignore[arg-type]
    task = subtask_from_dict(
        {"goal": "g", "verification": ["v"], "inputs": {"n": 3}, "max_actions": 4}
    )
    assert task == Subtask(goal="g", verification=("v",), inputs={"n": 3}, max_actions=4)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({}, "Decision.terminal"),
        ({"kind": "CLICK", "terminal": "BLOCKED", "target_id": "a"}, "Decision"),
        ({"kind": ActionKind.CLICK}, "Decision.target_id"),
        ({"kind": ActionKind.TYPE_TEXT, "target_id": "a"}, "Decision.input_key"),
        ({"kind": ActionKind.SCROLL}, "Decision.scroll_direction"),
        ({"kind": ActionKind.SCROLL, "scroll_direction": "SIDEWAYS"}, "Decision.scroll_direction"),
        ({"kind": ActionKind.PRESS_KEY, "key": "NOT_A_KEY"}, "Decision.key"),
        ({"kind": ActionKind.DRAG_BY, "target_id": "a", "drag_dx": 1.0}, "Decision.drag_dx"),
        ({"terminal": TerminalKind.BLOCKED, "confidence": 1.5}, "Decision.confidence"),
        ({"terminal": TerminalKind.BLOCKED, "margin": -0.1}, "Decision.margin"),
        ({"kind": "JUMP"}, "Decision.kind"),
        ({"terminal": "DONE"}, "Decision.terminal"),
    ],
)
def test_decision_rules_name_the_field(fields, field):
    with pytest.raises(ValueError) as err:
        Decision(**fields)
    assert str(err.value).startswith(field), str(err.value)


def test_a_click_modifier_and_a_key_after_typing_are_judged_when_materializing():
    from arc_cua.errors import InvalidDecision
    from arc_cua.validation import materialize_action

    snap = DesktopSnapshot(
        application="App",
        window="Main",
        revision="1",
        elements=(
            DesktopElement(id="row", role="row", name="Report", actions=(ActionKind.CLICK,)),
            DesktopElement(id="q", role="text_field", name="Search", actions=(ActionKind.TYPE_TEXT,)),
        ),
    )
    task = sub(inputs={"query": "Blur"})
    held = materialize_action(
        Decision(kind=ActionKind.CLICK, target_id="row", click_modifier="SHIFT"), snap, task
    )
    assert (held.kind, held.click_modifier, held.key) == (ActionKind.CLICK, "SHIFT", None)
    typed = materialize_action(
        Decision(kind=ActionKind.TYPE_TEXT, target_id="q", input_key="query", key="TAB"), snap, task
    )
    assert (typed.value, typed.key, typed.click_modifier) == ("Blur", "TAB", None)
    # Built as the reference builds them; refused, naming the field, when materialized.
    for decision, words in [
        (Decision(kind=ActionKind.CLICK, target_id="row", click_modifier="ALT"),
         "Decision.click_modifier: Unsupported click modifier ALT"),
        (Decision(kind=ActionKind.TYPE_TEXT, target_id="q", input_key="query", key="SPACE"),
         "Decision.key: TYPE_TEXT cannot be followed by key SPACE"),
    ]:
        with pytest.raises(InvalidDecision) as err:
            materialize_action(decision, snap, task)
        assert str(err.value).startswith(words), str(err.value)


def test_decision_values_are_frozen_equal_and_hashable():
    a = Decision(kind="CLICK", target_id="b")
    assert a.kind is ActionKind.CLICK  # strings are coerced to the enum
    assert a == Decision(kind=ActionKind.CLICK, target_id="b")
    assert hash(a) == hash(Decision(kind=ActionKind.CLICK, target_id="b"))
    assert len({a, Decision(terminal=TerminalKind.BLOCKED)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.target_id = "c"  # type: ignore[misc]


def test_bounds_element_snapshot_action():
    b = Bounds(10, 20, 30, 40)
    assert b.center == (25, 40) and hash(b) == hash(Bounds(10, 20, 30, 40))
    e = DesktopElement(id="x", role="button")
    assert (e.name, e.value, e.actions, e.enabled, e.visible, e.focused) == ("", None, (), True, True, False)
    assert (e.selected, e.expanded, e.parent_id, e.bounds, e.source, e.accepts_drop, e.guard) == (
        None, None, None, None, "unknown", False, "")
    with pytest.raises(AttributeError):
        e.name = "y"  # type: ignore[misc]
    assert e == DesktopElement(id="x", role="button") and e != DesktopElement(id="x", role="link")
    # The guard is arc-core's: it moves with what a person would notice, not with the id.
    assert e.semantic_guard() == DesktopElement(id="x", role="button").semantic_guard()
    assert e.semantic_guard() != DesktopElement(id="x", role="button", name="Other").semantic_guard()
    assert DesktopElement(id="x", role="button", guard="fixed").semantic_guard() == "fixed"
    hidden = DesktopElement(id="h", role="button", name="Hidden", visible=False)
    snap = DesktopSnapshot(application="A", window="W", revision="r1", elements=(e, hidden))
    assert snap.element("h") is hidden
    with pytest.raises(KeyError):
        snap.element("nope")
    compact = snap.compact()
    assert [el["id"] for el in compact["elements"]] == ["x"]  # visible elements only
    assert compact["revision"] == "r1"
    with pytest.raises(ValueError, match="DesktopElement.value"):
        DesktopElement(id="v", role="text", value=math.inf)
    with pytest.raises(ValueError, match="DesktopElement.actions"):
        DesktopElement(id="v", role="text", actions=("FLY",))
    with pytest.raises(TypeError, match="id"):
        DesktopElement(id=5, role="text")  # type: ignore[arg-type]
    # Attributes are what was given (the role keeps its spelling; arc-core reads "text_field").
    t = DesktopElement(id="t", role="text", value=3, actions=[ActionKind.TYPE_TEXT], metadata={"k": 1})
    assert (t.role, t.value, t.actions, t.metadata) == ("text", 3, [ActionKind.TYPE_TEXT], {"k": 1})
    act = ExecutableAction(kind="SCROLL", scroll_direction="DOWN")
    assert act.kind is ActionKind.SCROLL and hash(act) == hash(ExecutableAction(kind=ActionKind.SCROLL, scroll_direction="DOWN"))
    with pytest.raises(ValueError, match="ExecutableAction.kind"):
        ExecutableAction(kind="FLY")


def test_runtime_config_defaults_and_rules():
    c = RuntimeConfig()
    assert (c.stale_retries, c.no_change_limit, c.timeout_s, c.verify) == (8, 3, None, None)
    with pytest.raises(ValueError, match="RuntimeConfig.min_confidence"):
        RuntimeConfig(min_confidence=2)
    with pytest.raises(ValueError, match="RuntimeConfig.min_margin"):
        RuntimeConfig(min_margin=-1)


def test_constants_and_enums():
    assert DEFAULT_PRESS_KEYS[:3] == ("ENTER", "ESCAPE", "TAB")
    assert "MOD+SHIFT+Z" in DEFAULT_HOTKEYS
    assert SCROLL_DIRECTIONS == ("UP", "DOWN", "LEFT", "RIGHT")
    assert ActionKind.CLICK == "CLICK" and TerminalKind.NEEDS_AGENT == "NEEDS_AGENT"
    assert {k.value for k in ActionKind} >= {
        "CLICK", "DOUBLE_CLICK", "RIGHT_CLICK", "TYPE_TEXT", "SET_VALUE", "PRESS_KEY",
        "HOTKEY", "SCROLL", "DRAG_TO", "DRAG_BY", "WAIT"}
