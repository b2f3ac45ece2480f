"""The lab as a ROS 2 node, in a process of its own started as a user starts it (ROS parameters): tools called
as services give the same results as the in-process path, under the namespace its contract declares or a
remapped one, and a scene that does not load is refused in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from rclpy.node import NodeNameNonExistentError
from reacthuman_msgs.srv import CallTool

from physment.cli import DEFAULT_SCENES
from physment.ros_contract import LAB
from physment.scene import load_scene
from physment.tools import ToolBox
from ros_helpers import GraphClient


def _lab(domain_id: int, *ros_args: str) -> subprocess.Popen:
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    return subprocess.Popen(
        [sys.executable, "-m", "physment.lab_node", "--ros-args", *ros_args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _services(client: GraphClient, namespace: str) -> int:
    """How many services the lab node offers, as the graph shows them (0 until the node is discovered)."""
    try:
        return len(client.node.get_service_names_and_types_by_node(LAB.name, namespace))
    except NodeNameNonExistentError:
        return 0


def _call(client: GraphClient, service: str, tool: str = "", args: dict | None = None) -> tuple[bool, dict]:
    cli = client.node.create_client(CallTool, service)
    assert client.wait_for(cli.service_is_ready, 60.0), f"{service} never appeared"
    request = CallTool.Request(tool=tool, arguments_json=json.dumps(args or {}))
    # FastDDS may drop the first response while the client's reply reader is still being discovered
    # ("failed to send response (timeout)", seen on a loaded machine): a client sends the request again
    for _ in range(3):
        future = cli.call_async(request)
        if client.wait_for(future.done, 10.0):
            break
    assert future.done(), f"{service} did not answer three requests"
    res = future.result()
    return res.ok, json.loads(res.result_json)


def test_tools_as_services_match_the_in_process_lab(ros_domain_id):
    lab = _lab(ros_domain_id)
    client = GraphClient(ros_domain_id, "physment_test_agent")
    try:
        assert client.wait_for(lambda: _services(client, "/physment") >= len(LAB.services), 60.0), (
            "the lab node's services never appeared"
        )
        ok, facts = _call(client, "/physment/load_scene", args={"scene": str(DEFAULT_SCENES / "Scene1")})
        assert ok
        assert facts["scene"] == "Scene1"
        assert facts["objects"] == ["1"]
        assert _call(client, "/physment/step", args={"duration": 0.4})[0]
        ok, vel = _call(client, "/physment/get_velocity", args={"object_id": 1})
        local = ToolBox(load_scene(DEFAULT_SCENES / "Scene1"))
        local.call("step", {"duration": 0.4})
        assert ok
        assert vel == local.call("get_velocity", {"object_id": 1}).result
        ok, err = _call(client, "/physment/call", tool="step", args={"duration": -3})
        assert not ok
        assert "duration" in err["error"]
        ok, err = _call(client, "/physment/get_position", tool="step")
        assert not ok
        assert "get_position" in err["error"]
        ok, prompt = _call(client, "/physment/prompt", args={"budget": 5})
        assert ok
        assert "at most 5 iterations" in prompt["prompt"]
        ok, done = _call(client, "/physment/answer", args={"answer": 3.924})
        assert ok
        assert done["submitted"] == 3.924
    finally:
        client.close()
        lab.send_signal(signal.SIGINT)
        out = lab.communicate(timeout=30)[0]
    assert lab.returncode == 0, out


def test_the_scene_parameter_loads_at_start_under_a_remapped_namespace(ros_domain_id):
    lab = _lab(ros_domain_id, "-p", f"scene:={DEFAULT_SCENES / 'Scene1'}", "-r", "__ns:=/lab2")
    client = GraphClient(ros_domain_id, "physment_test_agent")
    try:
        ok, pos = _call(client, "/lab2/get_position", args={"object_id": 1})
        assert ok
        assert pos == ToolBox(load_scene(DEFAULT_SCENES / "Scene1")).call("get_position", {"object_id": 1}).result
    finally:
        client.close()
        lab.send_signal(signal.SIGINT)
        lab.communicate(timeout=30)


def test_a_scene_that_does_not_load_is_refused_in_one_line(ros_domain_id, tmp_path):
    lab = _lab(ros_domain_id, "-p", f"scene:={tmp_path / 'Scene404'}")
    out = lab.communicate(timeout=60)[0]
    assert lab.returncode == 2, out
    assert "Traceback" not in out, out
    assert out.strip().count("\n") == 0, out
    assert "parameter 'scene'" in out, out
