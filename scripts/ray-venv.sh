#!/usr/bin/env bash
# Creates the Python venv holding Ray (PyPI, pinned) for scripts/eval-ray.py and its
# tests, and prints its python. Idempotent: does nothing when the venv already has the
# pinned version. Lives in a cache directory outside git.
#
#   ARC_CUA_RAY_VENV   venv directory (default $XDG_CACHE_HOME/arc-cua/ray-venv or
#                      ~/.cache/arc-cua/ray-venv)
set -euo pipefail

version="2.60.0" # wheels for CPython 3.11 on x86_64 Linux (python3 here is 3.11)
dir="${ARC_CUA_RAY_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/ray-venv}"
python="$dir/bin/python"
stamp="$dir/.arc-cua-ray-$version"

if [[ -x "$python" && -f "$stamp" ]]; then
  echo "$python"
  exit 0
fi

# A venv records its own path in its scripts, so it is built in place under a lock; the
# stamp written last tells a complete venv from an interrupted one.
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock -w 900 9
if [[ -x "$python" && -f "$stamp" ]]; then
  echo "$python"
  exit 0
fi
rm -rf "$dir"
"${PYTHON:-python3}" -m venv "$dir" >&2
"$python" -m pip install --quiet --disable-pip-version-check "ray==$version" >&2
"$python" -c 'import ray' >&2
touch "$stamp"
echo "$python"
