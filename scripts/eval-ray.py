#!/usr/bin/env python3
"""Runs an `arc-cua eval` suite as N shards on a Ray cluster and merges them into one
scorecard.

    scripts/eval-ray.py SUITE --shards N --results FILE [--out DIR] [--address ADDR]
                        [--bin PATH] [--retries K] [-- <eval args>]

SUITE is what `arc-cua eval` takes (fixtures, miniwob, planner). One Ray task per shard
runs `arc-cua eval SUITE --shard K/N --results …` with its own browser on whichever node
Ray places it (each asks for one CPU and 1 GiB, what one headless Chromium needs), and
returns the shard's results to the driver, so no shared results directory is needed. A
shard whose worker or node died is submitted again (up to --retries times); a shard whose
eval failed outright (no results written) is too. Progress is printed as shards finish.
The shards are then merged by `arc-cua eval merge` into --out (JSON, Markdown, HTML) and
the merged raw results are written to --results.

Without --address a local Ray cluster is started on this machine for the run. With one
(`ray://…` or `HOST:PORT`, or `auto` for the cluster `ray start` made here) the run uses
that cluster; every node must have the binary at --bin's path and the suite's pages (the
fixtures through the checkout or `ARC_CUA_FIXTURES`, MiniWoB++ fetched on first use or
through `ARC_CUA_MINIWOB_DIR`), see docs/EVAL.md. The ARC_CUA_* variables of the
driver's environment are passed on to every task.

Ray comes from scripts/ray-venv.sh (pinned): run with a python that lacks it, the script
runs itself again under that venv's python, making the venv on first use. Exit status: 0 merged, 1 a shard failed
for good or the merge was refused, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITES = ("fixtures", "miniwob", "planner")
REPO = Path(__file__).resolve().parent.parent
GIB = 1 << 30


def parse_args(argv: list[str]) -> argparse.Namespace:
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    p = argparse.ArgumentParser(
        prog="eval-ray.py",
        description="Run an arc-cua eval suite as shards on Ray and merge the results.",
        epilog="Arguments after `--` go to every shard's `arc-cua eval SUITE`.",
    )
    p.add_argument("suite", choices=SUITES, help="the suite, as `arc-cua eval` names it")
    p.add_argument("--shards", type=int, required=True, help="how many shards (Ray tasks)")
    p.add_argument("--results", type=Path, required=True, help="merged raw results (JSON)")
    p.add_argument("--out", type=Path, default=Path("eval-report"), help="scorecard directory")
    p.add_argument("--address", help="a Ray cluster to use (default: start a local one)")
    p.add_argument(
        "--bin",
        default=os.environ.get("ARC_CUA_BIN") or str(REPO / "target/release/arc-cua"),
        help="arc-cua on every node (default: $ARC_CUA_BIN, else target/release/arc-cua)",
    )
    p.add_argument("--retries", type=int, default=2, help="new attempts per shard (default 2)")
    p.add_argument("--cpus", type=float, default=1.0, help="CPUs per shard (default 1)")
    p.add_argument("--memory-gib", type=float, default=1.0, help="memory per shard (default 1)")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local cluster (default: all)")
    args = p.parse_args(argv)
    args.extra = extra
    if args.shards < 1 or args.shards > 1000:
        p.error(f"--shards must be 1..1000, not {args.shards}")
    if args.retries < 0 or args.retries > 10:
        p.error(f"--retries must be 0..10, not {args.retries}")
    if args.address is None and not Path(args.bin).is_file():
        p.error(f"--bin {args.bin}: no such file (cargo build --release -p arc-cli)")
    if any(a == "--shard" or a.startswith("--shard=") or a == "--results" for a in extra):
        p.error("the eval arguments must not set --shard or --results: the driver does")
    return args


def _die_with_parent() -> None:
    # The shard's eval (and its browser) ends with the Ray worker that started it, so a
    # killed worker leaves no orphan behind. PR_SET_PDEATHSIG = 1.
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


def run_shard(binary: str, suite: str, k: int, n: int, extra: list[str]) -> dict:
    """One shard, on a Ray worker: its raw results text, or an error naming the exit."""
    import socket

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arc-ray-shard-") as tmp:
        results = Path(tmp) / "results.json"
        cmd = [binary, "eval", suite, "--shard", f"{k}/{n}", "--results", str(results)]
        cmd += ["--out", str(Path(tmp) / "report"), *extra]
        done = subprocess.run(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_die_with_parent,
        )
        if not results.is_file():
            tail = done.stderr.strip().splitlines()[-5:]
            raise RuntimeError(f"exit {done.returncode}, no results: " + " | ".join(tail))
        return {
            "shard": k,
            "results": results.read_text(),
            "host": socket.gethostname(),
            "seconds": time.monotonic() - started,
        }


def summary(text: str) -> str:
    import json

    runs = json.loads(text)
    tasks = [t for r in runs for t in r.get("tasks", [])]
    ok = sum(1 for t in tasks if t.get("success"))
    return f"{len(tasks)} runs, {ok} succeeded"


def ensure_ray() -> None:
    """Runs this script again under the Ray venv's python when this one lacks Ray (the
    venv is made on first use by scripts/ray-venv.sh)."""
    try:
        import ray  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("ARC_CUA_RAY_REEXEC"):
        sys.exit("eval-ray: Ray is not importable even from scripts/ray-venv.sh's venv")
    venv = subprocess.run(
        [str(REPO / "scripts/ray-venv.sh")], stdout=subprocess.PIPE, text=True, check=True
    )
    python = venv.stdout.strip()
    os.environ["ARC_CUA_RAY_REEXEC"] = "1"
    os.execv(python, [python, str(Path(__file__).resolve()), *sys.argv[1:]])


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    ensure_ray()
    import ray  # noqa: E402  (after argument errors, which need no Ray)
    from ray import exceptions as rex

    env = {k: v for k, v in os.environ.items() if k.startswith("ARC_CUA_")}
    init: dict = {"runtime_env": {"env_vars": env}, "log_to_driver": False}
    if args.address:
        init["address"] = args.address
    else:
        init["include_dashboard"] = False
        if args.num_cpus:
            init["num_cpus"] = args.num_cpus
    ray.init(**init)
    remote = ray.remote(run_shard).options(
        num_cpus=args.cpus, memory=int(args.memory_gib * GIB), max_retries=0
    )
    n = args.shards
    print(f"eval-ray: {args.suite} as {n} shards on {ray.cluster_resources().get('CPU', 0):g} CPUs", flush=True)
    started = time.monotonic()
    attempts = {k: 1 for k in range(1, n + 1)}
    pending = {remote.remote(args.bin, args.suite, k, n, args.extra): k for k in attempts}
    done: dict[int, dict] = {}
    failed: list[str] = []
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        k = pending.pop(ready[0])
        try:
            got = ray.get(ready[0])
        except (rex.WorkerCrashedError, rex.NodeDiedError, rex.RayTaskError, rex.OutOfMemoryError) as e:
            why = type(e).__name__
            if isinstance(e, rex.RayTaskError):
                why = str(e.cause) if getattr(e, "cause", None) else str(e).splitlines()[0]
            if attempts[k] <= args.retries:
                attempts[k] += 1
                print(f"eval-ray: shard {k}/{n} failed ({why}); attempt {attempts[k]} of {args.retries + 1}", flush=True)
                pending[remote.remote(args.bin, args.suite, k, n, args.extra)] = k
            else:
                failed.append(f"shard {k}/{n}: {why}")
                print(f"eval-ray: shard {k}/{n} failed for good ({why})", flush=True)
            continue
        done[k] = got
        print(
            f"eval-ray: [{len(done)}/{n}] shard {k}/{n} on {got['host']}: "
            f"{summary(got['results'])} in {got['seconds']:.1f} s",
            flush=True,
        )
    ray.shutdown()
    if failed:
        print("eval-ray: not merged: " + "; ".join(failed), file=sys.stderr)
        return 1
    parts = Path(tempfile.mkdtemp(prefix="arc-ray-parts-"))
    try:
        files = []
        for k in sorted(done):
            f = parts / f"shard-{k}-of-{n}.json"
            f.write_text(done[k]["results"])
            files.append(str(f))
        merged = subprocess.run(
            [args.bin, "eval", "merge", *files, "--out", str(args.out), "--results", str(args.results)],
            stdout=subprocess.DEVNULL,
        )
    finally:
        shutil.rmtree(parts, ignore_errors=True)
    if merged.returncode != 0:
        print(f"eval-ray: the merge was refused (exit {merged.returncode})", file=sys.stderr)
        return 1
    print(
        f"eval-ray: merged {n} shards in {time.monotonic() - started:.1f} s: "
        f"scorecard in {args.out}, results in {args.results}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
