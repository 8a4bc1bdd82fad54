#!/usr/bin/env bash
# Creates the Python venv holding the stock MCP client (the `mcp` package on PyPI) that the
# MCP tests and `arc-cua bench mcp` drive `arc-cua mcp` with, and prints its python.
# Idempotent: does nothing when the venv already has the pinned version. Lives in a cache
# directory outside git.
#
#   ARC_CUA_MCP_VENV   venv directory (default $XDG_CACHE_HOME/arc-cua/mcp-venv or
#                      ~/.cache/arc-cua/mcp-venv)
set -euo pipefail

version="2.3.0" # supports Python 3.10+ (python3 here is 3.11)
dir="${ARC_CUA_MCP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/mcp-venv}"
python="$dir/bin/python"
stamp="$dir/.arc-cua-mcp-$version"

if [[ -x "$python" && -f "$stamp" ]]; then
  echo "$python"
  exit 0
fi

# A venv records its own path in its scripts, so it is built in place under a lock; the
# stamp written last tells a complete venv from an interrupted one.
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock -w 600 9
if [[ -x "$python" && -f "$stamp" ]]; then
  echo "$python"
  exit 0
fi
rm -rf "$dir"
"${PYTHON:-python3}" -m venv "$dir" >&2
"$python" -m pip install --quiet --disable-pip-version-check "mcp==$version" >&2
"$python" -c 'import mcp.client.stdio' >&2
touch "$stamp"
echo "$python"
