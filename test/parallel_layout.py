"""How `make test` spreads the suite over two pytest-xdist workers (`-n 2`).

Each test module runs whole on one worker, so its module fixtures are built once. The modules that start
ROS 2 or DDS participants, Ray, or the `launch` / `eval` commands form one group, `graph`, that runs first
and in order on one worker: two graphs of six processes at once on two cores would starve each other's
control loops, two Ray clusters would contend for ports, and graphs on different workers could share a ROS
domain. The other worker takes the remaining modules (Genesis and MuJoCo in process, the unit layer, the
model server) one at a time. The group is found from each module's source, so a new graph test joins it
without a list to keep.

pytest-xdist's own `--dist loadgroup` cannot carry this with pytest 9 (it renames node ids through an
attribute pytest 9 no longer reads), so the grouping is a scheduler of its own (`pytest_xdist_make_scheduler`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

GRAPH_GROUP = "graph"
# What a module's source names when it starts a graph, a DDS participant or Ray.
_GRAPH_SOURCE = re.compile(
    r"\brclpy\b|\bray\b|cyclonedds|ros_domain_id|GraphClient|EpisodeClient|"
    r"\"launch\"|\"eval\"|\"ros-episode\"|reacthuman\.cli|spine_harness|fault_campaign"
)


@lru_cache(maxsize=None)
def module_group(path: Path) -> str:
    """`graph` for a module that starts a graph, a DDS participant or Ray; else the module's own path."""
    return GRAPH_GROUP if _GRAPH_SOURCE.search(path.read_text(encoding="utf-8")) else str(path)


def graph_group_first(items: list[pytest.Item]) -> None:
    """The graph group's tests first, each group's in collection order: the longest group starts at once and
    the other worker balances the rest."""
    items.sort(key=lambda item: module_group(Path(item.path)) != GRAPH_GROUP)


class ModuleGroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling (a scope runs whole on one worker) with module_group as the scope."""

    def __init__(self, config: pytest.Config, log=None) -> None:
        super().__init__(config, log)
        self._root = Path(config.rootpath)

    def _split_scope(self, nodeid: str) -> str:
        return module_group(self._root / nodeid.split("::", 1)[0])


def module_group_scheduler(config: pytest.Config, log) -> ModuleGroupScheduling:
    return ModuleGroupScheduling(config, log)
