"""The loop as ROS 2 nodes (world, human, assistant, judge) on typed topics, recorded as rosbag2: the
verdict and the final simulator state equal the in-process path's."""

from __future__ import annotations

import json

from interactiveworld.agents.assistants import make_assistant
from interactiveworld.agents.scripted_human import ScriptedHuman
from interactiveworld.bench.taskpack import default_tasks_dir, load_pack
from interactiveworld.cli import main
from interactiveworld.episode import run_episode


class EyesOracle:
    """The oracle, keeping the frames it is given each turn."""

    def __init__(self, pack) -> None:
        self.inner, self.name, self.seen = make_assistant("oracle", pack), "oracle", []

    def reset(self, brief) -> None:
        self.inner.reset(brief)

    def act(self, obs):
        self.seen.append([f.image for f in obs.frames])
        return self.inner.act(obs)


class EyesHuman(ScriptedHuman):
    """The scripted human, keeping the frames it is given at each decision."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list] = []

    def decide(self, text, view):
        self.seen.append([f.image for f in view.frames])
        return super().decide(text, view)


def test_node_graph_matches_in_process_and_records(tmp_path, capsys):
    from reacthuman.core.bag import bag_info, deserialize, read_bag

    from interactiveworld.ros_graph import run_ros_episode

    task = default_tasks_dir() / "prevention-store-0.json"
    pack = load_pack(task)
    # the nodes build their agents from their parameters, as the command line has them do
    verdict = run_ros_episode(task, "oracle", "scripted", bag_path=tmp_path / "bag")
    ref = run_episode(pack, make_assistant("oracle", pack), ScriptedHuman())
    assert verdict["passed"]
    assert ref.passed
    assert verdict["digest"] == ref.digest
    assert verdict["n_actions"] == ref.n_actions
    topics = bag_info(tmp_path / "bag")["topics"]
    assert topics["/interactiveworld/speech"]["type"] == "reacthuman_msgs/msg/Speech"
    assert topics["/interactiveworld/human/eye"]["count"] > 5
    said = [deserialize(m) for m in read_bag(tmp_path / "bag", {"/interactiveworld/speech"})]
    assert said[0].speaker == "human"
    assert said[0].text == pack.handoff
    assert any(s.speaker == "assistant" and "fridge" in s.text for s in said)
    silent = run_ros_episode(task, "silent")
    ref_silent = run_episode(pack, make_assistant("silent", pack), ScriptedHuman())
    assert not silent["passed"]
    assert silent["digest"] == ref_silent.digest
    # the human sees through its own eyes in the graph as in process, and so does the assistant: the same
    # frames at every decision (agent objects given to the nodes in place of their parameters' agents)
    graph_eyes, own_eyes = EyesHuman(), EyesHuman()
    graph_oracle, own_oracle = EyesOracle(pack), EyesOracle(pack)
    assert run_ros_episode(task, graph_oracle, graph_eyes)["passed"]
    assert run_episode(pack, own_oracle, own_eyes, render=True).passed
    for graph_seen, own_seen in ((graph_eyes.seen, own_eyes.seen), (graph_oracle.seen, own_oracle.seen)):
        assert [len(f) for f in graph_seen] == [len(f) for f in own_seen]
        assert graph_seen[0]
        for got, ref_frames in zip(graph_seen, own_seen):
            assert all(a.shape == (240, 320, 3) and (a == b).all() for a, b in zip(got, ref_frames))
    assert main(["ros-episode", "--task", "finding-moved-1", "--models", "oracle"]) == 0
    assert json.loads(capsys.readouterr().out)["passed"] is True


def test_ros_episode_and_matrix_take_the_assistant_view(tmp_path, capsys):
    import shutil

    from interactiveworld.agents.standin import StandInServer

    assert main(["ros-episode", "--task", "finding-moved-1", "--models", "oracle", "--assistant-view", "none"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "reference assistant" in err[0]
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    shutil.copy(default_tasks_dir() / "guidance-store-0.json", tasks)
    with StandInServer() as server:
        # the assistant node withholds the frames (its `assistant_view` parameter), as `run` does in process
        assert (
            main(
                [
                    "ros-episode",
                    "--tasks",
                    str(tasks),
                    "--task",
                    "guidance-store-0",
                    "--models",
                    server.spec,
                    "--assistant-view",
                    "none",
                ]
            )
            == 0
        )
        asked = [r for r in server.state.requests if r.format_name == "assistant_turn"]
        assert asked
        assert all(r.n_images == 0 for r in asked)
        server.state.requests.clear()
        assert (
            main(
                [
                    "matrix",
                    "--tasks",
                    str(tasks),
                    "--models",
                    server.spec,
                    "--humans",
                    "scripted",
                    "--assistant-view",
                    "none",
                    "--out",
                    str(tmp_path / "mx"),
                ]
            )
            == 0
        )
        asked = [r for r in server.state.requests if r.format_name == "assistant_turn"]
        assert asked
        assert all(r.n_images == 0 for r in asked)
    cells = json.loads((tmp_path / "mx" / "matrix.json").read_text())
    assert [c["assistant"].endswith("+noview") for c in cells] == [True]
