"""The stubs: mypy understands the package (the README demo type-checks) and catches a
wrong use of it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from test_readme import DETERMINISTIC_DEMO

USE = '''
from arc_cua import DesktopExecutor, RuntimeConfig, result_to_dict
from arc_cua.backends import ChromeBackend
from arc_cua.policies import CascadePolicy, OpenAICompatiblePolicy, ReflexPolicy

out: dict = result_to_dict(result)
taken: int = result.actions_taken
label: str = result.final_snapshot.element("search").name
executor = DesktopExecutor(backend, CascadePolicy(), config=RuntimeConfig(timeout_s=3.0))
for event in executor.run_iter(task):
    step: int = event.step
wrong: int = result.final_snapshot.element("search").name
'''


def test_mypy_reads_the_stubs(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(DETERMINISTIC_DEMO + USE)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "c"), str(sample)],
        capture_output=True, text=True, timeout=300,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, run.stdout
    assert 'expression has type "str", variable has type "int"' in errors[0]
