#!/usr/bin/env bash
# Per-step loop cost from Python (crates/python/bench/loop_bench.py) against the reference
# package arc-cua 0.1.1, in one run, on the same interpreter (CPython 3.12, which the
# reference requires): the reference's own scenario (a state machine whose snapshot
# factory builds N elements, SCROLL steps, no settle wait), with the state machine in
# Python on both, and in Rust on ours. Prints one JSON line per measurement.
#
#   ARC_CUA_BENCH_PYTHON   a CPython 3.12 (default: pyenv's 3.12.1)
#   N, STEPS, REPEAT       elements, steps per run, runs (best of) — default 1000, 50, 5
set -euo pipefail
cd "$(dirname "$0")/.."
py312="${ARC_CUA_BENCH_PYTHON:-$(pyenv root 2>/dev/null)/versions/3.12.1/bin/python}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua"
n="${N:-1000}" steps="${STEPS:-50}" repeat="${REPEAT:-5}"

# Ours: a release build of the extension in a 3.12 venv.
ours="$(PYTHON="$py312" ARC_CUA_PY_VENV="$cache/py-bench-venv" ARC_CUA_PY_PROFILE=release scripts/py-venv.sh)"
# The reference, from PyPI.
ref="$cache/ref-venv/bin/python"
if [[ ! -x "$ref" ]]; then
  "$py312" -m venv "$cache/ref-venv" >&2
  "$ref" -m pip install --quiet --disable-pip-version-check "arc-cua==0.1.1" >&2
fi

bench=crates/python/bench/loop_bench.py
args=(--n "$n" --steps "$steps" --repeat "$repeat")
(cd /tmp && "$ref" "$OLDPWD/$bench" "${args[@]}" --variant python)
(cd /tmp && "$ours" "$OLDPWD/$bench" "${args[@]}" --variant python)
(cd /tmp && "$ours" "$OLDPWD/$bench" "${args[@]}" --variant rust)
