#!/usr/bin/env bash
# The reference package's own tests (arc-cua 0.1.1's test_api, test_runtime, test_safety,
# test_validation), unmodified, against this package: builds and installs crates/python
# (scripts/py-venv.sh) and runs them from a scratch directory, so `import arc_cua` finds
# the installed package, never the reference's source. The sdist comes from
# scripts/fetch-reference.sh (cached). Extra arguments go to pytest.
#
# Every test runs; none is skipped. The run fails when a test fails that docs/PYTHON.md's
# "The reference's own tests" section does not name, or (on a full run) when one it names
# passes, so that list stays true.
set -euo pipefail
cd "$(dirname "$0")/.."

files=(test_api.py test_runtime.py test_safety.py test_validation.py)
reference="$(scripts/fetch-reference.sh)"
python="$(scripts/py-venv.sh)"
doc="$PWD/docs/PYTHON.md"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for f in "${files[@]}"; do
  cp "$reference/tests/$f" "$work/$f"
done

# The test functions the section names (file names left out).
named="$(sed -n "/^## The reference's own tests/,/^## [^T]/p" "$doc" \
  | grep -o 'test_[a-z0-9_]*' | grep -vxE 'test_(api|runtime|safety|validation)' | sort -u)"

# -p no:cacheprovider: nothing is written beside the copies; rootdir is the scratch dir;
# a file that does not import is an error, and the other files still run.
set +e
(cd "$work" && "$python" -m pytest -q -rfE -p no:cacheprovider --continue-on-collection-errors \
  --rootdir "$work" "${files[@]}" "$@") | tee "$work/out.txt"
set -e

if grep -q '^ERROR ' "$work/out.txt"; then
  echo "py-reference-test: a reference test file did not import or run (ERROR above)" >&2
  exit 1
fi
failed="$(grep -o '^FAILED [^ ]*' "$work/out.txt" | sed -e 's/.*:://' -e 's/\[.*//' | sort -u)"
unexpected="$(comm -23 <(echo "$failed" | sed '/^$/d') <(echo "$named"))"
if [[ -n "$unexpected" ]]; then
  echo "py-reference-test: failing and not named in docs/PYTHON.md:" $unexpected >&2
  exit 1
fi
if [[ $# -eq 0 ]]; then
  fixed="$(comm -13 <(echo "$failed" | sed '/^$/d') <(echo "$named"))"
  if [[ -n "$fixed" ]]; then
    echo "py-reference-test: passing now, still named in docs/PYTHON.md:" $fixed >&2
    exit 1
  fi
fi
echo "py-reference-test: every failure is one docs/PYTHON.md names" >&2
