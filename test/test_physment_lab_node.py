"""The lab as a ROS 2 node: tools called as services give the same results as the in-process path."""

from __future__ import annotations

import json
import threading

import rclpy
from rclpy.executors import SingleThreadedExecutor
from reacthuman_msgs.srv import CallTool

from physment.cli import DEFAULT_SCENES
from physment.lab_node import LabNode
from physment.scene import load_scene
from physment.tools import ToolBox
from ros_helpers import GraphClient


def _call(client: GraphClient, service: str, tool: str = "", args: dict | None = None) -> tuple[bool, dict]:
    cli = client.node.create_client(CallTool, service)
    assert client.wait_for(cli.service_is_ready, 20.0), f"{service} never appeared"
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
    ctx = rclpy.Context()
    rclpy.init(context=ctx, domain_id=ros_domain_id)
    lab = LabNode(context=ctx)
    executor = SingleThreadedExecutor(context=ctx)
    executor.add_node(lab.node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    client = GraphClient(ros_domain_id, "physment_test_agent")
    try:
        ok, facts = _call(client, "/physment/load_scene", args={"scene": str(DEFAULT_SCENES / "Scene1")})
        assert ok and facts["scene"] == "Scene1" and facts["objects"] == ["1"]
        assert _call(client, "/physment/step", args={"duration": 0.4})[0]
        ok, vel = _call(client, "/physment/get_velocity", args={"object_id": 1})
        local = ToolBox(load_scene(DEFAULT_SCENES / "Scene1"))
        local.call("step", {"duration": 0.4})
        assert ok and vel == local.call("get_velocity", {"object_id": 1}).result
        ok, err = _call(client, "/physment/call", tool="step", args={"duration": -3})
        assert not ok and "duration" in err["error"]
        ok, err = _call(client, "/physment/get_position", tool="step")
        assert not ok and "get_position" in err["error"]
        ok, prompt = _call(client, "/physment/prompt", args={"budget": 5})
        assert ok and "at most 5 iterations" in prompt["prompt"]
        ok, done = _call(client, "/physment/answer", args={"answer": 3.924})
        assert ok and done["submitted"] == 3.924
    finally:
        client.close()
        executor.shutdown()
        lab.destroy()
        rclpy.shutdown(context=ctx)
