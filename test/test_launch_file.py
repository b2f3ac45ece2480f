"""The launch-file reader, without starting anything."""

from pathlib import Path

import pytest

from reacthuman import ros_contract as graph
from reacthuman.launching.launch_file import LaunchFileError, load
from reacthuman.launching.launcher import node_command

LAUNCH = Path(__file__).resolve().parent.parent / "launch"


def test_eval_launch_lists_every_contract_node_once():
    spec = load(LAUNCH / "eval.launch.yaml")
    assert sorted(n.name for n in spec.nodes) == sorted(graph.NODES)
    for node in spec.nodes:
        assert node.executable == graph.NODES[node.name].executable


def test_python_launch_file_reads_the_same_yaml():
    via_py = load(LAUNCH / "eval.launch.py", {"model": "freeze"})
    via_yaml = load(LAUNCH / "eval.launch.yaml", {"model": "freeze"})
    assert via_py.nodes == via_yaml.nodes


def test_overrides_substitute_and_parse_like_ros_parameters():
    spec = load(LAUNCH / "eval.launch.yaml", {"model": "always_dodge", "use_sim_time": "false"})
    brain = next(n for n in spec.nodes if n.name == "brain")
    params = dict(brain.params)
    assert params["model"] == "always_dodge"
    assert params["use_sim_time"] is False
    assert "-p" in brain.ros_args()
    assert "model:=always_dodge" in brain.ros_args()


def test_every_node_executable_resolves_to_an_installed_entry_point():
    for node in load(LAUNCH / "eval.launch.yaml").nodes:
        cmd = node_command(node)
        assert f"reacthuman.nodes.{node.name}_node" in cmd[2]


@pytest.mark.parametrize(
    "text, message",
    [
        ("launch: 3", "top-level 'launch:' list"),
        ("launch:\n- group: {}\n", "unsupported launch entry 'group'"),
        ("launch:\n- node: {pkg: reacthuman}\n", "node without 'exec'"),
        (
            "launch:\n- node: {pkg: p, exec: e, param: [{name: a, value: '$(var nope)'}]}\n",
            "unknown launch argument '$(var nope)'",
        ),
        ("launch: [\n", "not valid YAML"),
    ],
)
def test_malformed_launch_files_get_one_clear_error(tmp_path, text, message):
    f = tmp_path / "bad.launch.yaml"
    f.write_text(text)
    with pytest.raises(LaunchFileError, match=__import__("re").escape(message)):
        load(f)


def test_unknown_override_is_refused():
    with pytest.raises(LaunchFileError, match="unknown launch argument"):
        load(LAUNCH / "eval.launch.yaml", {"modle": "x"})
