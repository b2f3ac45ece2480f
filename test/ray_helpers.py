"""A real Ray cluster on this machine for the Ray tests: a head and worker nodes, each a raylet of its own
(ray.cluster_utils.Cluster), so removing a node kills its workers like a lost machine."""

from __future__ import annotations

import contextlib
from typing import Iterator

import pytest

import ray
from ray.cluster_utils import Cluster

from reacthuman.core.ray_cluster import WORKER_NICENESS_ENV

NODE_BYTES = 96 * 1024 * 1024


@contextlib.contextmanager
def local_cluster(head_cpus: int, worker_nodes: int) -> Iterator[tuple[Cluster, list]]:
    """(the cluster, its worker nodes); the test process is its driver. Workers (and the graphs they start)
    run at niceness 0, as a local run does, not Ray's default 15."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv(WORKER_NICENESS_ENV, "0")
        c = Cluster(
            initialize_head=True,
            connect=True,
            head_node_args={"num_cpus": head_cpus, "object_store_memory": NODE_BYTES, "include_dashboard": False},
        )
        try:
            nodes = [c.add_node(num_cpus=1, object_store_memory=NODE_BYTES) for _ in range(worker_nodes)]
            c.wait_for_nodes()
            yield c, nodes
        finally:
            ray.shutdown()
            c.shutdown()
