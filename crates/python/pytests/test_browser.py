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


def test_attach_drives_a_running_chrome_page_as_it_is(site_url, tmp_path):
    """A Chromium someone else started (with a DevTools port): `attach` takes its page as
    it is — what was typed stays — and `connect` opens a tab of its own."""
    profile = tmp_path / "profile"
    chrome = subprocess.Popen(
        ["/usr/lib/chromium/chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--no-first-run", "--disable-dev-shm-usage", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", f"{site_url}/form.html"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 20
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.monotonic() < deadline, "Chromium wrote no DevToolsActivePort"
            time.sleep(0.05)
        endpoint = f"http://127.0.0.1:{port_file.read_text().split()[0]}"
        page = ChromeBackend.attach(endpoint)
        assert page.pid is None  # not ours to kill
        # The browser was started with the URL: its page may still be loading.
        while not page.evaluate("document.readyState === 'complete' && !!document.getElementById('first')"):
            assert time.monotonic() < deadline, "the form never loaded"
            time.sleep(0.05)
        page.evaluate("document.getElementById('first').value = 'Kept'")
        first = [e for e in page.observe().elements if e.name == "First name"]
        assert first and first[0].value == "Kept"
        page.close()
        again = ChromeBackend.attach(endpoint)  # still the same page, as it was
        assert again.evaluate("document.getElementById('first').value") == "Kept"
        again.close()
        tab = ChromeBackend.connect(endpoint, f"{site_url}/form.html")
        assert tab.evaluate("document.getElementById('first').value") == ""
        tab.close()  # closes the tab it opened, so the browser has its one page again
        assert chrome.poll() is None  # closing our handles left their browser running
        last = ChromeBackend.attach(endpoint)
        assert last.evaluate("document.getElementById('first').value") == "Kept"
        last.close()
    finally:
        os.killpg(chrome.pid, 9)
        chrome.wait(10)


def test_a_saved_session_uploads_and_downloads_in_a_later_browser(site_url, tmp_path):
    """Sign in, save the session; a later browser loads it, uploads a listed file and
    downloads the report, never given the password. The page's record (its localStorage)
    and the bytes on disk decide."""
    import hashlib
    import json
    import pathlib

    state = tmp_path / "state.json"
    with ChromeBackend.launch(f"{site_url}/portal/index.html") as backend:
        result = DesktopExecutor(backend, ReflexPolicy()).run(Subtask(
            goal="Sign in as ada@example.com",
            inputs={"email": "ada@example.com", "password": "orchid-42"},
            secret_inputs=("password",),
            verification=("The page says Signed in as ada@example.com",),
        ))
        assert result.status == TerminalKind.SUBTASK_COMPLETE, result.reason
        backend.save_storage_state(str(state))
    assert state.stat().st_mode & 0o777 == 0o600

    receipt = tmp_path / "receipt.pdf"
    receipt.write_bytes(bytes(range(256)) * 4)
    with ChromeBackend.launch(
        f"{site_url}/portal/index.html", storage_state=str(state), downloads=str(tmp_path / "dl")
    ) as backend:
        out = execute_payload(DesktopExecutor(backend, ReflexPolicy()), {
            "goal": "Upload the receipt, then download the monthly report",
            "inputs": {"receipt": str(receipt)},
            "files": [str(receipt)],
            "verification": ["The receipt has been uploaded", "The monthly report has been downloaded"],
        })
        assert out["status"] == "SUBTASK_COMPLETE", out["reason"]
        uploads = json.loads(backend.evaluate("localStorage.getItem('portal.uploads')"))
        assert uploads == [{
            "name": "receipt.pdf",
            "size": 1024,
            "sha256": hashlib.sha256(receipt.read_bytes()).hexdigest(),
        }]
        [saved] = backend.downloads()
        assert saved == out["downloads"][0]
        served = (pathlib.Path(__file__).parents[3] / "fixtures/site/portal/report.csv").read_bytes()
        assert pathlib.Path(saved["path"]).read_bytes() == served
        assert saved["sha256"] == hashlib.sha256(served).hexdigest()


def test_a_storage_state_others_can_read_is_refused(site_url, tmp_path):
    import pytest

    state = tmp_path / "state.json"
    state.write_text('{"cookies": [], "origins": []}')
    state.chmod(0o644)
    with pytest.raises(ValueError, match="chmod 600"):
        ChromeBackend.launch(f"{site_url}/portal/index.html", storage_state=str(state))
