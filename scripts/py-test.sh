#!/usr/bin/env bash
# The Python package's tests: builds and installs crates/python into the test venv
# (scripts/py-venv.sh, a dev-profile build) and runs its pytest suite, which drives real
# headless Chromium on fixtures/site for the browser tests. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python="$(scripts/py-venv.sh)"
cd crates/python
exec "$python" -m pytest -q pytests "$@"
