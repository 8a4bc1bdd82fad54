#!/usr/bin/env bash
# Per-step loop cost from Python (crates/python/bench/loop_bench.py) against the reference
# package arc-cua 0.1.1, in one run, on the same interpreter (CPython 3.12, which the
# reference requires): the reference's own scenario (a state machine whose snapshot
# factory builds N elements, SCROLL steps, no settle wait), with the state machine in
# Python on both, and in Rust on ours. Prints one JSON line per measurement.
#
#   ARC_CUA_BENCH_PYTHON   a CPython 3.12 (default: pyenv's 3.12.1)
#   N, STEPS, ROUNDS       elements, steps per run, rounds — default 1000, 50, 5
#
# The three are interleaved, one run each per round, and each keeps its best round: on a
# shared machine a load spike then costs a round, not one side of the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
py312="${ARC_CUA_BENCH_PYTHON:-$(pyenv root 2>/dev/null)/versions/3.12.1/bin/python}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua"
n="${N:-1000}" steps="${STEPS:-50}" rounds="${ROUNDS:-5}"

# Ours: a release build of the extension in a 3.12 venv.
ours="$(PYTHON="$py312" ARC_CUA_PY_VENV="$cache/py-bench-venv" ARC_CUA_PY_PROFILE=release scripts/py-venv.sh)"
# The reference, from PyPI.
ref="$cache/ref-venv/bin/python"
if [[ ! -x "$ref" ]]; then
  "$py312" -m venv "$cache/ref-venv" >&2
  "$ref" -m pip install --quiet --disable-pip-version-check "arc-cua==0.1.1" >&2
fi

bench="$PWD/crates/python/bench/loop_bench.py"
# Three runs per process: the first one also pays for imports and warm-up.
args=(--n "$n" --steps "$steps" --repeat 3)
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT
for _ in $(seq "$rounds"); do
  (cd /tmp && "$ref" "$bench" "${args[@]}" --variant python) >>"$lines"
  (cd /tmp && "$ours" "$bench" "${args[@]}" --variant python) >>"$lines"
  (cd /tmp && "$ours" "$bench" "${args[@]}" --variant rust) >>"$lines"
done
"$ours" - "$lines" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = (r["impl"], r["variant"])
    if key not in best or r["us_per_step"] < best[key]["us_per_step"]:
        best[key] = r
ref = best[("reference", "python")]["us_per_step"]
for key, r in best.items():
    r["speedup_vs_reference"] = round(ref / r["us_per_step"], 1)
    print(json.dumps(r))
PY
