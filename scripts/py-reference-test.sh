#!/usr/bin/env bash
# The reference package's own tests (arc-cua 0.1.1's test_api, test_runtime, test_safety,
# test_validation), unmodified, against this package: builds and installs crates/python
# (scripts/py-venv.sh) and runs them from a scratch directory, so `import arc_cua` finds
# the installed package, never the reference's source. The sdist comes from
# scripts/fetch-reference.sh (cached). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

files=(test_api.py test_runtime.py test_safety.py test_validation.py)
reference="$(scripts/fetch-reference.sh)"
python="$(scripts/py-venv.sh)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for f in "${files[@]}"; do
  cp "$reference/tests/$f" "$work/$f"
done
cd "$work"
# -p no:cacheprovider: nothing is written beside the copies; rootdir is the scratch dir;
# a file that does not import is an error, and the other files still run.
"$python" -m pytest -q -p no:cacheprovider --continue-on-collection-errors --rootdir "$work" \
  "${files[@]}" "$@"
