"""Joining a Ray cluster (or starting a small local one), checking what the driver can check before any
worker starts, and describing how a run used Ray for its manifest. Shared by every `--executor ray`."""

from __future__ import annotations

import os
import socket
from importlib.metadata import PackageNotFoundError, version
from reacthuman.core.presets import resolve_preset

LOCAL_NUM_CPUS = 2
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
WORKER_NICENESS_ENV = "RAY_worker_niceness"  # read by a raylet as it starts (`ray start`, ray.init, Cluster)


def executor_info(executor: str, workers: int, address: str | None = None) -> dict:
    """What a run's manifest records of how it ran: the executor, the number of workers, Ray's version."""
    info: dict = {"name": executor, "workers": workers}
    if executor == "ray":
        try:
            info["ray_version"] = version("ray")
        except PackageNotFoundError:
            info["ray_version"] = None
        info["ray_address"] = address or "local"
    return info


def check_address(address: str, timeout_s: float = 10.0) -> None:
    """Fail in seconds, with one line, where Ray itself would retry an unreachable head for minutes."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if address == "auto":
        return
    if not sep or not host or not port.isdigit():
        raise ValueError(f"--ray-address must be HOST:PORT (the head's `ray start --head --port`), got {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise ValueError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); "
            "start one with `ray start --head --port PORT`"
        ) from None


def import_ray():
    """Ray, loaded on first use: importing it costs seconds and starts nothing, and the light commands never need it."""
    import ray

    return ray


def connect(address: str | None) -> bool:
    """Join the cluster at `address`, or start a small local Ray instance (no dashboard) on this machine.
    True when this call started or joined Ray (the caller then shuts it down), False when already connected."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    if address:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    else:
        # Ray starts workers at niceness 15, and the graphs they launch inherit it: on a machine shared with
        # other work they would starve where the local executor's graphs (niceness 0) do not
        os.environ.setdefault(WORKER_NICENESS_ENV, "0")
        ray.init(
            num_cpus=LOCAL_NUM_CPUS,
            include_dashboard=False,
            object_store_memory=LOCAL_OBJECT_STORE_BYTES,
            log_to_driver=False,
            configure_logging=False,
        )
    return True


def node_info() -> dict:
    """Which node and process the calling worker runs in (an actor's where() starts from it)."""
    ray = import_ray()
    return {"node_id": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}


def check_model(name: str) -> None:
    """Raise ValueError, naming it, for a model no worker could start: checked on the driver, which reads no
    API key (each worker reads its own)."""

    resolve_preset(name)
