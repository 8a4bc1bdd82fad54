#!/usr/bin/env bash
# The test command: installs what the tests need, then runs every test in the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-system.sh
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi
exec cargo nextest run --workspace --no-fail-fast "$@"
