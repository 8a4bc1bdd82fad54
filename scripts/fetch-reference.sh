#!/usr/bin/env bash
# Fetches the reference package's sdist (`arc-cua` 0.1.1 on PyPI) into a cache directory
# outside git, checks its sha256 and prints the unpacked root (the directory holding
# `tests/` and `src/`). Idempotent: does nothing when it is already unpacked. The reference
# is never vendored into the repository; scripts/py-reference-test.sh runs its tests.
#
#   ARC_CUA_REFERENCE_DIR   cache directory (default $XDG_CACHE_HOME/arc-cua/reference or
#                           ~/.cache/arc-cua/reference)
set -euo pipefail

version="0.1.1"
sha256="b6a1e870a9d7063f6427c8ba2324f713cbae1f8e951668acdb449abeeb4a4333"
dir="${ARC_CUA_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/reference}"
root="$dir/arc_cua-$version"

if [[ -f "$root/.sha256-ok" ]]; then
  echo "$root"
  exit 0
fi

python="${PYTHON:-python3}"
mkdir -p "$dir"
# Unpack into a scratch directory beside the cache and move it into place at the end, so
# an interrupted run never leaves a half-unpacked tree that looks complete.
work="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The package requires Python >= 3.12; --python-version lets an older pip fetch the sdist
# (it is only unpacked, never installed or built).
"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
  --no-binary :all: --python-version 3.12 --dest "$work" "arc-cua==$version" >&2
sdist="$work/arc_cua-$version.tar.gz"
if [[ ! -f "$sdist" ]]; then
  echo "fetch-reference: pip did not produce $(basename "$sdist") in $work" >&2
  exit 1
fi
got="$(sha256sum "$sdist" | cut -d' ' -f1)"
if [[ "$got" != "$sha256" ]]; then
  echo "fetch-reference: sha256 of $(basename "$sdist") is $got, expected $sha256" >&2
  exit 1
fi
tar -xzf "$sdist" -C "$work"
touch "$work/arc_cua-$version/.sha256-ok"

rm -rf "$root"
mv "$work/arc_cua-$version" "$root"
echo "$root"
