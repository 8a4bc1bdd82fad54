#!/usr/bin/env bash
# Creates the venv the Python package's tests run in (maturin, pytest, mypy), installs
# crates/python into it from this checkout, and prints its python. Re-runnable: the venv
# and its tools are made once; the package is rebuilt and reinstalled every time (cargo
# recompiles only what changed).
#
#   ARC_CUA_PY_VENV     venv directory (default $XDG_CACHE_HOME/arc-cua/py-venv or
#                       ~/.cache/arc-cua/py-venv)
#   ARC_CUA_PY_PROFILE  cargo profile of the extension (default dev: the tests' build is
#                       then ~1 crate on top of what `cargo build` compiled; the benchmark
#                       passes release)
set -euo pipefail
cd "$(dirname "$0")/.."

maturin="1.16.0"
pytest="8.4.2"
mypy="2.4.1"
dir="${ARC_CUA_PY_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/py-venv}"
python="$dir/bin/python"
stamp="$dir/.arc-cua-py-$maturin-$pytest-$mypy"
profile="${ARC_CUA_PY_PROFILE:-dev}"

mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock -w 900 9
if [[ ! -x "$python" || ! -f "$stamp" ]]; then
  rm -rf "$dir"
  "${PYTHON:-python3}" -m venv "$dir" >&2
  "$python" -m pip install --quiet --disable-pip-version-check "maturin==$maturin" "pytest==$pytest" "mypy==$mypy" >&2
  touch "$stamp"
fi
# maturin as the PEP 517 backend, from the venv (no isolated build env to download).
PATH="$dir/bin:$PATH" MATURIN_PEP517_ARGS="--profile $profile" "$python" -m pip install --quiet --disable-pip-version-check \
  --no-build-isolation --force-reinstall --no-deps ./crates/python >&2
"$python" -c 'import arc_cua' >&2
echo "$python"
