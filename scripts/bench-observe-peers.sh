#!/usr/bin/env bash
# Observe p50 on the seven Rust-docs pages the anchors use, three ways in one run on the
# same pages served once on loopback and the same Chromium (headless):
#   arc-cua           BrowserBackend::observe (`arc-cua bench observe`)
#   reference         the reference Python package's ChromeBackend.observe
#                     (arc-cua[browser]==0.1.1 in a Python 3.12 venv)
#   Playwright MCP    browser_snapshot, through one stock MCP client (scripts/mcp-bench-client.py,
#                     which also times `arc-cua mcp`'s observe)
# and prints one table with the ratios against the targets (≤ 0.5× the reference, ≤ 0.1×
# Playwright MCP on every page).
#
#   RUNS              timed observations per page and tool (default 20, after a warm-up)
#   ARC_CUA           the arc-cua binary (default target/release/arc-cua)
#   ARC_CUA_CHROMIUM  Chromium (default /usr/lib/chromium/chromium)
#   ARC_CUA_REF_VENV  the reference's venv (default /tmp/arc-cua-refvenv; made when missing)
set -euo pipefail

runs="${RUNS:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
arc="${ARC_CUA:-$root/target/release/arc-cua}"
chromium="${ARC_CUA_CHROMIUM:-/usr/lib/chromium/chromium}"
refvenv="${ARC_CUA_REF_VENV:-/tmp/arc-cua-refvenv}"
docs="$(dirname "$(rustup doc --path)")"
[[ -x "$arc" ]] || { echo "no $arc: cargo build --release -p arc-cli" >&2; exit 1; }

[[ -x "$refvenv/bin/python" ]] || "$(pyenv root)/versions/3.12.1/bin/python" -m venv "$refvenv"
# Idempotent: quick when the package and its browser extra are there.
"$refvenv/bin/pip" install --quiet --disable-pip-version-check 'arc-cua[browser]==0.1.1' >&2
mcp_python="$("$root/scripts/mcp-venv.sh")"
playwright="$("$root/scripts/playwright-mcp.sh")"

pages=(
  std/index.html
  std/vec/struct.Vec.html
  book/ch04-01-what-is-ownership.html
  std/collections/struct.HashMap.html
  book/title-page.html
  reference/expressions.html
  cargo/commands/cargo-build.html
)
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server --bind 127.0.0.1 --directory "$docs" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/std/index.html" && break
  sleep 0.1
done
urls=()
for p in "${pages[@]}"; do urls+=("http://127.0.0.1:$port/$p"); done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo "[1/3] arc-cua bench observe" >&2
"$arc" bench observe --runs "$runs" --json --chromium "$chromium" "${urls[@]}" > "$work/arc.json"

echo "[2/3] reference ChromeBackend.observe" >&2
"$refvenv/bin/python" - "$runs" "$chromium" "${urls[@]}" > "$work/ref.json" <<'PY'
import json, sys, time
from arc_cua.backends.chrome import ChromeBackend
runs, exe, urls = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
out = {}
# As root (containers) Chromium needs --no-sandbox; arc-cua passes the same flag as root.
backend = ChromeBackend.launch("about:blank", headless=True, executable=exe, extra_args=("--no-sandbox",))
try:
    for url in urls:
        backend.navigate(url)
        backend.observe()  # warm-up
        ms = []
        for _ in range(runs):
            t = time.perf_counter()
            backend.observe()
            ms.append((time.perf_counter() - t) * 1e3)
        out[url] = sorted(ms)
finally:
    backend.close()
print(json.dumps(out))
PY

echo "[3/3] Playwright MCP browser_snapshot (and arc-cua mcp observe)" >&2
scratch="$work/pw"
mkdir -p "$scratch"
python3 - "$runs" "$arc" "$chromium" "$playwright" "${urls[@]}" > "$work/config.json" <<'PY'
import json, sys
runs, arc, chromium, playwright, urls = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
print(json.dumps({
    "runs": runs, "timeout_s": 120,
    "arc": {"command": arc, "args": ["mcp", "--chromium", chromium]},
    "playwright": {"command": playwright, "args": ["--headless", "--browser", "chromium",
                   "--executable-path", chromium, "--isolated"]},
    "pages": urls,
}))
PY
(cd "$scratch" && "$mcp_python" "$root/scripts/mcp-bench-client.py" < "$work/config.json") > "$work/mcp.jsonl"

python3 - "$work" "$port" <<'PY'
import json, math, sys
work, port = sys.argv[1], sys.argv[2]
def p50(ms):
    ms = sorted(ms)
    return ms[max(1, math.ceil(0.5 * len(ms))) - 1]
arc = {r["page"]: r for r in json.load(open(f"{work}/arc.json"))}
ref = json.load(open(f"{work}/ref.json"))
mcp = {}
for line in open(f"{work}/mcp.jsonl"):
    r = json.loads(line)
    mcp[(r["server"], r["page"])] = p50(r["ms"])
print(f"| page | arc-cua observe p50 ms (scope) | reference p50 ms | Playwright MCP p50 ms | arc-cua mcp p50 ms | vs reference | vs Playwright |")
print("|---|---:|---:|---:|---:|---:|---:|")
ok = True
for url, row in arc.items():
    a = row["observe_p50_ms"]
    r = p50(ref[url])
    pw = mcp[("playwright-mcp", url)]
    am = mcp[("arc-cua", url)]
    scope = ", ".join(f"{k} ×{n}" for k, n in row["scopes"].items())
    ok &= a <= 0.5 * r and a <= 0.1 * pw
    page = url.split(f":{port}/", 1)[1]
    print(f"| {page} | {a:.1f} ({scope}) | {r:.1f} | {pw:.1f} | {am:.1f} | {a / r:.2f} | {a / pw:.3f} |")
print()
print("targets (≤ 0.5× reference and ≤ 0.1× Playwright MCP on every page):", "met" if ok else "NOT met")
PY
