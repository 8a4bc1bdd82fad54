"""Policies: the reference's `ScriptedPolicy`, `TypeSafeJevPolicy` and `ChoicePolicy`,
and this runtime's reflex, OpenAI-compatible and cascade policies (all in Rust)."""

from ._native import (
    CascadePolicy,
    ChoicePolicy,
    OpenAICompatiblePolicy,
    ReflexPolicy,
    ScriptedPolicy,
    TypeSafeJevPolicy,
)

JevPolicy = TypeSafeJevPolicy

__all__ = [
    "CascadePolicy",
    "ChoicePolicy",
    "JevPolicy",
    "OpenAICompatiblePolicy",
    "ReflexPolicy",
    "ScriptedPolicy",
    "TypeSafeJevPolicy",
]
