"""Shared fixtures: a loopback HTTP server for the fixture site, and small scenarios."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from arc_cua import ActionKind, DesktopElement, DesktopSnapshot

REPO = Path(__file__).resolve().parents[3]
SITE = REPO / "fixtures" / "site"


@pytest.fixture(scope="session")
def site_url():
    """The fixture site served on 127.0.0.1 (a real HTTP server), as a base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # the test output is for failures
            pass

    handler = functools.partial(Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def counter_snapshot(state: dict) -> DesktopSnapshot:
    """A counter app: a button that increments, a label that shows the count."""
    return DesktopSnapshot(
        application="Counter",
        window="Main",
        revision=f"count={state['count']}",
        elements=(
            DesktopElement(id="inc", role="button", name="Increment", actions=(ActionKind.CLICK,)),
            DesktopElement(id="noop", role="button", name="Nothing", actions=(ActionKind.CLICK,)),
            DesktopElement(id="label", role="text", name=f"Count {state['count']}"),
        ),
    )


class CounterBackend:
    """A state machine written in Python against the reference's protocol only."""

    def __init__(self) -> None:
        self.state = {"count": 0}
        self.executed: list[str] = []

    def observe(self) -> DesktopSnapshot:
        return counter_snapshot(self.state)

    def is_fresh(self, snapshot, action) -> bool:
        if action.target_id:
            return self.observe().element(action.target_id).semantic_guard() == action.target_guard
        return True

    def execute(self, snapshot, action) -> None:
        self.executed.append(action.target_id or action.kind.value)
        if action.target_id == "inc":
            self.state["count"] += 1
