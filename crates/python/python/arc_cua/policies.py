"""Policies: the reference's `ScriptedPolicy` and `TypeSafeJevPolicy`, and this
runtime's reflex, OpenAI-compatible and cascade policies (all in Rust)."""

from ._native import (
    CascadePolicy,
    OpenAICompatiblePolicy,
    ReflexPolicy,
    ScriptedPolicy,
    TypeSafeJevPolicy,
)

JevPolicy = TypeSafeJevPolicy

__all__ = [
    "CascadePolicy",
    "JevPolicy",
    "OpenAICompatiblePolicy",
    "ReflexPolicy",
    "ScriptedPolicy",
    "TypeSafeJevPolicy",
]
