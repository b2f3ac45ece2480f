"""The renderer's first compile on a fresh install, done by one graph instead of by every graph at once.

Genesis' rasteriser (its pyrender) compiles about 80 numba functions on a body's first scene and frame and keeps
them in numba's on-disk cache, beside Genesis' sources (or under NUMBA_CACHE_DIR), so a new environment compiles
them once. Measured on this project's 2-core machine: 43 s in one process alone; with the four graphs of
`make demo` starting together, each body compiled them at once and its first observation came 85-124 s after the
body was up, against 25 s with the cache filled. The labeller never renders with Genesis, so `scenes generate`
leaves this cache empty.

`FirstRenderGate`: while the cache is empty, the first graph up runs its first episode alone until its
observation is out (the episode manager's phase 'frozen': the scene built and rendered), and the other graphs,
already started, wait before their first goal; they then load what it compiled. With the cache filled the gate
is open from the start and costs nothing."""

from __future__ import annotations

import importlib.metadata
import os
import threading
from pathlib import Path

from reacthuman.ros_contract import EPISODE_PHASE_BY_TOPIC

# the observation is out (or later): the first frames are drawn
RENDERED_PHASES = frozenset(EPISODE_PHASE_BY_TOPIC.values())
WAIT_POLL_S = 0.5


def renderer_compiled(environ: dict[str, str] | None = None, genesis_dir: Path | None = None) -> bool:
    """Whether numba's cache holds Genesis' compiled renderer (its index files for `jit_render`), read from the
    file system without importing Genesis (installed, or at `genesis_dir`)."""
    env = os.environ if environ is None else environ
    pyrender_dir = (genesis_dir or installed_genesis_dir()) / "ext" / "pyrender"
    if env.get("NUMBA_CACHE_DIR"):  # numba names the folder after the source folder and a hash of its path
        return any(Path(env["NUMBA_CACHE_DIR"]).glob(f"{pyrender_dir.name}_*/jit_render.*.nbi"))
    return any((pyrender_dir / "__pycache__").glob("jit_render.*.nbi"))


def installed_genesis_dir() -> Path:
    """Genesis' package folder, from its distribution's files rather than `find_spec`, which asks the import
    hooks (the fast test layer's guard refuses Genesis there)."""
    try:
        return Path(importlib.metadata.distribution("genesis-world").locate_file("genesis"))
    except importlib.metadata.PackageNotFoundError:
        raise RuntimeError("Genesis is not installed (genesis-world): run `make install`") from None


class FirstRenderGate:
    """Shared by the graph workers of one eval: `wait_turn` after a worker's graph is up and before its first
    episode; True for the one worker that goes first, which passes `on_phase` to that episode and calls `open`
    once it ends (the phase opens the gate as soon as the frames are drawn; `open` also covers a failure)."""

    def __init__(self, closed: bool) -> None:
        self._open = threading.Event()
        self._lock = threading.Lock()
        self._led = False
        if not closed:
            self._open.set()

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    def wait_turn(self, stop: threading.Event) -> bool:
        with self._lock:
            if not self._open.is_set() and not self._led:
                self._led = True
                return True
        while not self._open.wait(WAIT_POLL_S) and not stop.is_set():
            pass
        return False

    def on_phase(self, phase: str) -> None:
        if phase in RENDERED_PHASES:
            self._open.set()

    def open(self) -> None:
        self._open.set()
