#!/usr/bin/env bash
# Fetches the MiniWoB++ task pages (the `miniwob` package on PyPI, MIT) into a cache
# directory outside git and prints the html root (the directory holding `miniwob/` and
# `core/`). Idempotent: does nothing when the pages are already there. The pages are never
# vendored into the repository.
#
#   ARC_CUA_MINIWOB_DIR   cache directory (default $XDG_CACHE_HOME/arc-cua/miniwob or
#                         ~/.cache/arc-cua/miniwob)
set -euo pipefail

version="1.1.0"
dir="${ARC_CUA_MINIWOB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/miniwob}"
html="$dir/miniwob/html"

if [[ -f "$html/core/core.js" && -f "$html/miniwob/click-test.html" ]]; then
  echo "$html"
  exit 0
fi

python="${PYTHON:-python3}"
mkdir -p "$dir"
# Unpack into a scratch directory beside the cache and move it into place at the end, so
# an interrupted run never leaves a half-unpacked tree that looks complete.
work="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
  --dest "$work" "miniwob==$version" >&2
wheel="$(ls "$work"/miniwob-"$version"-*.whl 2>/dev/null | head -n1)"
if [[ -z "$wheel" ]]; then
  echo "fetch-miniwob: pip did not produce a miniwob $version wheel in $work" >&2
  exit 1
fi
"$python" -m zipfile -e "$wheel" "$work/unpacked"
if [[ ! -f "$work/unpacked/miniwob/html/core/core.js" ]]; then
  echo "fetch-miniwob: the wheel has no miniwob/html/core/core.js" >&2
  exit 1
fi

rm -rf "$dir/miniwob"
mv "$work/unpacked/miniwob" "$dir/miniwob"
echo "$html"
