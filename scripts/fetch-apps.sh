#!/usr/bin/env bash
# Installs the real applications `arc-cua eval apps` drives (fixtures/apps/requirements.txt,
# pinned, from PyPI) into a venv outside git and prints its python. Idempotent: a venv whose
# stamp matches the requirements file is reused. The applications are never vendored.
#
#   ARC_CUA_APPS_VENV   venv directory (default $XDG_CACHE_HOME/arc-cua/apps-venv or
#                       ~/.cache/arc-cua/apps-venv)
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${ARC_CUA_APPS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/apps-venv}"
python="$dir/bin/python"
sum="$(sha256sum fixtures/apps/requirements.txt | cut -c1-16)"
stamp="$dir/.arc-cua-apps-$sum"

mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock -w 900 9
if [[ ! -x "$python" || ! -f "$stamp" ]]; then
  rm -rf "$dir"
  "${PYTHON:-python3}" -m venv "$dir" >&2
  "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
    -r fixtures/apps/requirements.txt >&2
  touch "$stamp"
fi
echo "$python"
