#!/usr/bin/env bash
# Installs Playwright MCP (`@playwright/mcp` from npm), the peer `arc-cua bench mcp`
# compares against, and prints its executable. Idempotent. Lives in a cache directory
# outside git. It drives the system's Chromium (--executable-path): Playwright's own
# browser download is skipped (it cannot be fetched here).
#
#   ARC_CUA_PLAYWRIGHT_MCP_DIR   install directory (default
#                                $XDG_CACHE_HOME/arc-cua/playwright-mcp or
#                                ~/.cache/arc-cua/playwright-mcp)
set -euo pipefail

version="0.0.83"
dir="${ARC_CUA_PLAYWRIGHT_MCP_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/playwright-mcp}"
bin="$dir/node_modules/.bin/playwright-mcp"
stamp="$dir/.arc-cua-playwright-mcp-$version"

if [[ -x "$bin" && -f "$stamp" ]]; then
  echo "$bin"
  exit 0
fi
command -v npm >/dev/null || { echo "playwright-mcp: npm is not installed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent \
  "@playwright/mcp@$version" >&2
[[ -x "$bin" ]] || { echo "playwright-mcp: npm did not install $bin" >&2; exit 1; }
touch "$stamp"
echo "$bin"
