"""The model policies' configuration is checked when constructed, naming the setting;
a Rust policy serves one owner (a cascade takes its model)."""

from __future__ import annotations

import pytest

from arc_cua.policies import CascadePolicy, JevPolicy, OpenAICompatiblePolicy, TypeSafeJevPolicy


def test_openai_compatible_settings_are_checked(monkeypatch):
    for var in ("ARC_CUA_MODEL_BASE_URL", "ARC_CUA_MODEL", "ARC_CUA_MODEL_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match="base_url"):
        OpenAICompatiblePolicy(base_url="ftp://127.0.0.1/v1", model="m")
    with pytest.raises(ValueError, match="timeout_s"):
        OpenAICompatiblePolicy(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=0)
    OpenAICompatiblePolicy(base_url="http://127.0.0.1:9/v1", model="m")  # no key needed locally
    monkeypatch.setenv("ARC_CUA_MODEL_BASE_URL", "gopher://x")
    with pytest.raises(ValueError, match="base_url"):
        OpenAICompatiblePolicy(model="m")  # the environment is read when an argument is unset


def test_jev_needs_its_key_and_reads_the_references_variables(monkeypatch):
    for var in ("TYPESAFE_API_KEY", "TYPESAFE_MODEL", "TYPESAFE_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match="TYPESAFE_API_KEY"):
        TypeSafeJevPolicy()
    monkeypatch.setenv("TYPESAFE_API_KEY", "k")
    assert JevPolicy is TypeSafeJevPolicy
    TypeSafeJevPolicy(base_url="http://127.0.0.1:9/jev")


def test_a_cascade_takes_its_model():
    model = OpenAICompatiblePolicy(base_url="http://127.0.0.1:9/v1", model="m")
    CascadePolicy(model=model)
    with pytest.raises(RuntimeError, match="in use"):
        CascadePolicy(model=model)
