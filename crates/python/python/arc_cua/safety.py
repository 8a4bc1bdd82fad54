"""Risky controls, as the reference names them: `risks_of(label)` is arc-core's risk gate
(the one the loop refuses risky presses with) asked about one label."""

from __future__ import annotations

from . import _native


def risks_of(label: str) -> set[str]:
    """The risk categories whose words appear as whole words in a control's label."""
    return set(_native.risks_of(label))


__all__ = ["risks_of"]
