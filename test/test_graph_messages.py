"""What the graph's messages say, ROS-free: the state phase the spine acts on, and which RunEpisode goals an
episode manager runs (with the launch file giving it its graph's scenes folder and model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reacthuman import ros_contract as graph
from reacthuman.evaluation.episode_goal import GoalScope, same_folder
from reacthuman.launching.launch_file import load

StatePhase = graph.StatePhase
LAUNCH = Path(__file__).resolve().parent.parent / "launch"


def test_only_the_execution_of_an_accepted_plan_waits_for_that_plan():
    assert [p for p in StatePhase if p.waits_for_plan] == [StatePhase.EXECUTION]
    assert StatePhase.execution(plan_accepted=True) is StatePhase.EXECUTION
    assert StatePhase.execution(plan_accepted=False) is StatePhase.EXECUTION_WITHOUT_PLAN


def test_a_state_phase_is_parsed_from_its_wire_value_and_unset_or_unknown_is_refused():
    assert StatePhase.parse(2) is StatePhase.EXECUTION
    assert StatePhase.parse(StatePhase.HARDWARE.value) is StatePhase.HARDWARE
    with pytest.raises(ValueError, match="does not say its phase"):
        StatePhase.parse(0)  # the default of the field: a publisher that never set it
    with pytest.raises(ValueError, match="unknown state phase 9 .*1 WINDOW"):
        StatePhase.parse(9)


def test_a_goal_runs_only_on_the_graph_of_its_scenes_folder_and_model(tmp_path):
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    scope = GoalScope(scenes_dir=str(scenes), model="oracle")
    assert scope.refusal("s1", str(scenes), "oracle") == ""
    assert scope.refusal("s1", str(scenes) + "/", "oracle") == ""  # the same folder, spelt differently
    other = scope.refusal("s1", str(tmp_path / "other"), "oracle")
    assert "is not the folder this graph serves" in other
    assert str(scenes) in other
    assert (
        scope.refusal("s1", str(scenes), "always_dodge")
        == "the goal's model 'always_dodge' is not this graph's brain model ('oracle')"
    )
    assert scope.refusal("", str(scenes), "oracle") == "the goal names no scene_id"
    assert "not the folder" in scope.refusal("s1", "", "oracle")  # no folder named is not this folder


def test_same_folder_resolves_links_and_never_takes_empty_for_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert same_folder(str(tmp_path / "link"), str(tmp_path / "real"))
    monkeypatch.chdir(tmp_path / "real")
    assert same_folder(".", str(tmp_path / "real"))
    assert not same_folder("", str(tmp_path / "real"))
    assert same_folder("", "")


def test_the_launch_file_gives_the_episode_manager_its_graphs_scenes_folder_and_model():
    nodes = {
        n.name: dict(n.params)
        for n in load(LAUNCH / "eval.launch.yaml", {"model": "always_dodge", "scenes_dir": "/data/scenes"}).nodes
    }
    assert nodes["episode_manager"]["scenes_dir"] == nodes["scene_generator"]["scenes_dir"] == "/data/scenes"
    assert nodes["episode_manager"]["model"] == nodes["brain"]["model"] == "always_dodge"


def test_frames_go_only_to_the_brain_and_the_recorder():
    """The scorer reads the hazard at the freeze from its own small message, not from the 10 MB window."""
    framed = {graph.M + "ObservationWindow", "sensor_msgs/msg/Image"}
    takers = {name for name, c in graph.NODES.items() if framed & set(c.subscribes.values())}
    assert takers == {"brain", "episode_manager"}, takers
    assert graph.NODES["scorer"].subscribes[graph.FREEZE_STATE] == graph.NODES["body"].publishes[graph.FREEZE_STATE]
