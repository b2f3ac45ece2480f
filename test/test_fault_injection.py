"""What a fault campaign may inject (REACTHUMAN_INJECT) and what a node that gives up tells the episode manager
(graph.EpisodeFault): parsed strictly, so that a misspelt fault never runs a campaign undisturbed."""

from __future__ import annotations

import pytest

from reacthuman import ros_contract as graph
from reacthuman.evaluation.fault_injection import INJECT_ENV, injected


def test_each_node_reads_only_its_own_faults():
    env = {INJECT_ENV: "spine.drop_commands=2, spine.delay_command_s=0.5"}
    assert injected("spine", env) == {"drop_commands": 2.0, "delay_command_s": 0.5}
    assert injected("body", env) == {}
    assert injected("spine", {}) == {}


@pytest.mark.parametrize(
    "entry, says",
    [
        ("spine.drop_command=1", "unknown fault 'spine.drop_command=1'"),
        ("drop_commands=1", "unknown fault"),
        ("brain.drop_commands=1", "unknown fault"),
        ("spine.drop_commands", "unknown fault"),
        ("spine.drop_commands=many", "needs a number"),
        ("spine.delay_command_s=-1", "must be >= 0"),
    ],
)
def test_a_bad_entry_is_refused_in_one_line_naming_it(entry, says):
    with pytest.raises(ValueError, match=says) as caught:
        injected("body", {INJECT_ENV: entry})  # refused whichever node reads it
    assert "\n" not in str(caught.value)
    assert INJECT_ENV in str(caught.value)


def test_an_episode_fault_survives_its_message_and_names_node_scene_and_reason():
    fault = graph.EpisodeFault("object_drop-s3-normal", "body", "scene refused: dt_s must be 1/240 s")
    assert graph.EpisodeFault.from_json(fault.to_json()) == fault
    assert str(fault) == "the body gave up on object_drop-s3-normal: scene refused: dt_s must be 1/240 s"
    with pytest.raises(ValueError, match="not an episode fault"):
        graph.EpisodeFault.from_json('{"scene_id": "x"}')


def test_every_node_that_can_give_up_publishes_faults_and_the_manager_hears_them():
    for name in ("body", "spine", "brain", "scorer"):
        assert graph.NODES[name].publishes[graph.EPISODE_FAULT] == graph.EPISODE_FAULT_TYPE
    assert graph.EPISODE_FAULT in graph.NODES["episode_manager"].subscribes
