"""The reference's error types. The loop raises them where the reference raises them."""


class JevDesktopError(RuntimeError):
    code = "desktop_error"  # stable and machine-readable


class StaleDesktopState(JevDesktopError):
    """The chosen target no longer means what it meant when observed."""

    code = "stale"


class InvalidDecision(JevDesktopError):
    """The policy returned an action that is not legal in the current snapshot."""

    code = "invalid_decision"


class DecisionRefused(InvalidDecision, ValueError):
    """A `Decision` arc-core refuses on construction (PRESS_KEY without a key, …): the
    reference's `InvalidDecision` (it refuses them when materializing) and the ValueError
    every value type raises."""


class UnsupportedDesktopAction(JevDesktopError):
    """The backend cannot perform this kind of action."""

    code = "unsupported_action"


class TargetUnavailable(JevDesktopError):
    """The target app or page is gone."""

    code = "target_unavailable"


__all__ = [
    "DecisionRefused",
    "InvalidDecision",
    "JevDesktopError",
    "StaleDesktopState",
    "TargetUnavailable",
    "UnsupportedDesktopAction",
]
