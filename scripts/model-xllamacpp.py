"""Serves a GGUF with llama.cpp's own HTTP server, run in process by the prebuilt
`xllamacpp` wheel (scripts/model-fetch.sh installs it), on 127.0.0.1 until SIGTERM.
scripts/model-serve.sh starts it; the settings are the ones it gives llama-server.

usage: model-xllamacpp.py MODEL PORT THREADS
"""

import signal
import sys
import threading

import xllamacpp


def main() -> None:
    model, port, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.port = port  # the host stays llama.cpp's default, 127.0.0.1
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    # The legacy formatter knows "gemma" by name; Jinja would take it as template text.
    params.use_jinja = False
    params.chat_template = "gemma"
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    server = xllamacpp.Server(params)
    print(f"listening on {server.listening_address}", flush=True)
    stop.wait()


if __name__ == "__main__":
    main()
