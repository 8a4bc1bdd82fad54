#!/usr/bin/env bash
# The test command.
#   scripts/test.sh          installs what the tests need, then runs every test in the
#                            workspace (what CI runs).
#   scripts/test.sh quick    every test module that needs no browser and no X display:
#                            core, view, sim, the policies on simulated pages, eval's
#                            formats; for a developer's edit-test loop (no apt, no Chromium,
#                            no Xvfb).
# Extra arguments go to `cargo nextest run`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi

if [ "${1:-}" = "quick" ]; then
  shift
  # A test module (crates/<crate>/tests/it/<module>.rs) that mentions the browser in any
  # form, or starts a private desktop (Xvfb + D-Bus), is left out, and so is the browser crate: computed here, so a new module is
  # classified by what it uses, not by a list someone must remember to update.
  filter="not package(arc-browser)"
  for f in crates/*/tests/it/*.rs; do
    module=$(basename "$f" .rs)
    [ "$module" = main ] && continue
    if grep -qE 'Chromium|BrowserBackend|StaticServer|arc_browser|"browser"|miniwob|--url|Desktop::start' "$f"; then
      crate=$(basename "$(dirname "$(dirname "$(dirname "$f")")")")
      filter+=" and not (package(arc-$crate) and test(/^$module::/))"
    fi
  done
  exec cargo nextest run --workspace --no-fail-fast -E "$filter" "$@"
fi

scripts/setup-system.sh
# The local model the real-inference tests ask (built and fetched once per machine, cached
# in ~/.cache/arc-cua/model); they start it, and it stops when the tests end.
scripts/model-fetch.sh >/dev/null
trap 'scripts/model-serve.sh --stop >/dev/null 2>&1 || true' EXIT
profile=()
if [ -n "${CI:-}" ]; then profile=(--profile ci); fi
cargo nextest run --workspace --no-fail-fast "${profile[@]}" "$@"
