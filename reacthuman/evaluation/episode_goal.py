"""What a graph's episode manager accepts as a RunEpisode goal (ROS-free, so it is tested without a graph).

A graph is launched for one scenes folder and one brain model: its scene generator reads scenes from that
folder and its brain runs that model. A goal names both; the manager runs it only when they are the graph's
own, since a goal for another folder would be scored as an episode of scenes it never ran, and one for
another model would be filed under that model's folder with this brain's decisions in it."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class GoalScope:
    """The scenes folder and the model of the graph a manager serves (its launch parameters)."""

    scenes_dir: str
    model: str

    def refusal(self, scene_id: str, scenes_dir: str, model: str) -> str:
        """Why a goal cannot run on this graph; empty when it can."""
        if not scene_id:
            return "the goal names no scene_id"
        if not same_folder(scenes_dir, self.scenes_dir):
            return (
                f"the goal's scenes_dir {scenes_dir!r} is not the folder this graph serves "
                f"({self.scenes_dir!r}); launch a graph with scenes_dir:={scenes_dir}"
            )
        if model != self.model:
            return f"the goal's model {model!r} is not this graph's brain model ({self.model!r})"
        return ""


def same_folder(a: str, b: str) -> bool:
    """The same folder however spelt (relative to this process, trailing slash, symlink). Empty is no folder
    (resolving it would mean the current one), equal only to empty."""
    if not a or not b:
        return a == b
    return os.path.realpath(a) == os.path.realpath(b)
