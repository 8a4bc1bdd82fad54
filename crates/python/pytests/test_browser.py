"""The browser backend and the reflex on the fixture site, end to end: real headless
Chromium, checked by the page's own record (`window.__submitted`, the fields' values)."""

from __future__ import annotations

import os
import subprocess
import time

from arc_cua import DesktopExecutor, Subtask, TerminalKind, execute_payload
from arc_cua.backends import ChromeBackend
from arc_cua.policies import CascadePolicy, ReflexPolicy


def group_alive_after(pid: int, seconds: float = 5.0) -> bool:
    """Whether any process of Chromium's process group is still there after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        alive = subprocess.run(["pgrep", "-g", str(pid)], capture_output=True).returncode == 0
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def test_reflex_fills_and_submits_the_contact_form(site_url):
    task = Subtask(
        goal="Fill in the contact form with the first name, last name and message, then submit it",
        inputs={"first_name": "Ada", "last_name": "Lovelace", "message": "Hello from Python"},
        verification=('The page shows "Thank you, Ada Lovelace"',),
        max_actions=8,
    )
    with ChromeBackend.launch(f"{site_url}/form.html") as backend:
        pid = backend.pid
        assert pid is not None and os.path.exists(f"/proc/{pid}")
        events = list(DesktopExecutor(backend, ReflexPolicy()).run_iter(task))
        result = events[-1].result
        assert result.status == TerminalKind.SUBTASK_COMPLETE, (result.reason, result.termination)
        # The page's own record, read by evaluating in the page, not the runtime's claim.
        submitted = backend.evaluate("window.__submitted")
        assert submitted == [{"first": "Ada", "last": "Lovelace", "message": "Hello from Python"}]
        assert backend.evaluate("document.getElementById('status').textContent") == "Thank you, Ada Lovelace"
        kinds = [e.action.kind.value for e in events if e.action is not None]
        assert kinds.count("TYPE_TEXT") == 3 and len(result.history) == len(kinds)
        names = {e.id: e.name for e in result.final_snapshot.elements}
        assert "Thank you, Ada Lovelace" in " ".join(names.values())
    # close() (the context manager) took Chromium's whole process group down.
    assert not group_alive_after(pid)


def test_cascade_on_a_payload(site_url):
    with ChromeBackend.launch(f"{site_url}/form.html") as backend:
        out = execute_payload(DesktopExecutor(backend, CascadePolicy()), {
            "goal": "Fill in the contact form with the first name, last name and message, then submit it",
            "inputs": {"first_name": "Grace", "last_name": "Hopper", "message": "Hi"},
            "verification": ['The page shows "Thank you, Grace Hopper"'],
            "max_actions": 8,
        })
        assert out["status"] == "SUBTASK_COMPLETE", out["reason"]
        assert backend.evaluate("window.__submitted.map(s => s.first + ' ' + s.last)") == ["Grace Hopper"]
        assert out["history"][0]["decision"]["provenance"]["tier"] in ("reflex", "cache")
