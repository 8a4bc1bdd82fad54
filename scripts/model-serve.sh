#!/usr/bin/env bash
# Serves the local model (scripts/model-fetch.sh: Gemma 3 270M on llama.cpp's server)
# OpenAI-compatibly on 127.0.0.1, in the background, and returns once it answers /health.
# Prints the OpenAI base URL on the first line of stdout and the pid file on the second:
#
#   url="$(scripts/model-serve.sh | head -n1)"    # http://127.0.0.1:8181/v1
#   scripts/model-serve.sh --stop
#
# Already serving on that port: prints the same two lines and leaves it running.
#
#   --port N               port on 127.0.0.1 (default $ARC_CUA_MODEL_PORT or 8181)
#   --threads N            inference threads (default $ARC_CUA_MODEL_THREADS or 1: on
#                          2 cores shared with builds and browsers, 2 threads ran 3–10x
#                          slower than 1, docs/MODEL.md)
#   --from-source          serve with llama-server built from source, not xllamacpp
#   --stop                 stop the server on that port
#   ARC_CUA_MODEL_WAIT     seconds to wait for /health (default 120)
#   ARC_CUA_MODEL_DIR      the cache model-fetch.sh uses (pid and log files live there too)
set -euo pipefail
cd "$(dirname "$0")/.."

port="${ARC_CUA_MODEL_PORT:-8181}"
threads="${ARC_CUA_MODEL_THREADS:-1}"
stop=0
fetch_args=()
while (($#)); do
  case "$1" in
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    --threads) threads="${2:?--threads needs a number}"; shift 2 ;;
    --from-source) fetch_args=(--from-source); shift ;;
    --stop) stop=1; shift ;;
    *) echo "model-serve: unknown argument $1 (use --port N, --threads N, --from-source, --stop)" >&2; exit 2 ;;
  esac
done
[[ "$port" =~ ^[0-9]+$ ]] || { echo "model-serve: --port $port is not a number" >&2; exit 2; }
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "model-serve: --threads $threads is not a count" >&2; exit 2; }

dir="${ARC_CUA_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-cua/model}"
pid_file="$dir/serve-$port.pid"
log="$dir/serve-$port.log"
wait_s="${ARC_CUA_MODEL_WAIT:-120}"
base="http://127.0.0.1:$port"

say() { echo "model-serve: $*" >&2; }
running() { [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; }
healthy() { curl -sf -m 2 "$base/health" >/dev/null 2>&1; }

if ((stop)); then
  if ! running; then
    rm -f "$pid_file"
    say "nothing of ours serves on port $port"
    exit 0
  fi
  pid="$(cat "$pid_file")"
  kill "$pid"
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  rm -f "$pid_file"
  say "stopped pid $pid"
  exit 0
fi

# Test processes start it concurrently (nextest runs a process per test): one starts the
# server while the others wait on this lock, then find it serving. The server does not
# inherit the lock.
mkdir -p "$dir"
exec 9>"$dir/serve-$port.lock"
flock -w "$wait_s" 9 || { say "another start on port $port held the lock for ${wait_s}s"; exit 1; }

if running && healthy; then
  echo "$base/v1"
  echo "$pid_file"
  exit 0
fi

paths="$(scripts/model-fetch.sh "${fetch_args[@]}")"
model="$(sed -n 's/^model=//p' <<<"$paths")"
server="$(sed -n 's/^server=//p' <<<"$paths")"
python="$(sed -n 's/^python=//p' <<<"$paths")"

if healthy; then
  say "port $port already answers /health, but not from a server this script started; pick another --port"
  exit 1
fi

# The GGUF is the base model and carries no chat template: llama.cpp would fall back to
# ChatML. Gemma's own turn markup is the built-in "gemma" template, which only the legacy
# (non-Jinja) formatter knows; under Jinja the name would be taken as the template's text.
# One slot: requests queue rather than split the context; 4096 tokens for short prompts.
if [[ -n "$server" ]]; then
  setsid "$server" --model "$model" --host 127.0.0.1 --port "$port" \
    --ctx-size 4096 --parallel 1 --threads "$threads" --threads-batch "$threads" \
    --no-jinja --chat-template gemma --alias gemma-3-270m --no-webui >"$log" 2>&1 </dev/null 9>&- &
else
  setsid "$python" scripts/model-xllamacpp.py "$model" "$port" "$threads" >"$log" 2>&1 </dev/null 9>&- &
fi
pid=$!
echo "$pid" >"$pid_file"

deadline=$((SECONDS + wait_s))
until healthy; do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$pid_file"
    tail -n 20 "$log" >&2
    say "the model server exited before it was ready (log: $log)"
    exit 1
  fi
  if ((SECONDS >= deadline)); then
    kill "$pid" 2>/dev/null || true
    rm -f "$pid_file"
    tail -n 20 "$log" >&2
    say "the model server was not ready after ${wait_s}s (log: $log)"
    exit 1
  fi
  sleep 0.2
done
echo "$base/v1"
echo "$pid_file"
