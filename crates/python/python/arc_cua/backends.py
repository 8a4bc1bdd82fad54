"""Backends: the reference's `StateMachineBackend` and this runtime's browser."""

from ._native import ChromeBackend, StateMachineBackend

__all__ = ["ChromeBackend", "StateMachineBackend"]
