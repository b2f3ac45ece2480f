"""The lab as a ROS 2 node: every tool is a service, so an agent node (or an agent outside Python) can run
an episode. The in-process ToolBox stays the default path; this node wraps the same ToolBox.

Services (type reacthuman_msgs/srv/CallTool: request `tool`, `arguments_json`; response `ok`, `result_json`):
- <ns>/<tool> for each tool (the request's `tool` may be empty or must equal the service's tool);
- <ns>/call: any tool, named in the request;
- <ns>/load_scene: arguments_json {"scene": "<folder Scene<N>>"}; answers the prompt facts (task, objects,
  timestep, gravity) so a remote agent can build its prompt; <ns>/prompt: {"budget": B, "prompting": ...}.
A bad request is an ok=false response with {"error": ...}, as in-process.

    python -m physment.lab_node --scene physment/scenes/Scene1 [--namespace physment]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading

from physment.prompt import build_prompt
from physment.scene import SceneError, load_scene
from physment.tools import ToolBox
from physment.toolspec import TOOL_NAMES

DEFAULT_NAMESPACE = "physment"


class LabNode:
    """Owns an rclpy Node offering the tool services over one scene at a time."""

    def __init__(self, context=None, namespace: str = DEFAULT_NAMESPACE, scene_dir: str | None = None) -> None:
        from rclpy.node import Node
        from reacthuman_msgs.srv import CallTool

        self.node = Node("physment_lab", context=context)
        self._lock = threading.Lock()
        self.toolbox: ToolBox | None = None
        ns = namespace.strip("/")
        for name in TOOL_NAMES:
            self.node.create_service(CallTool, f"/{ns}/{name}", self._tool_handler(name))
        self.node.create_service(CallTool, f"/{ns}/call", self._tool_handler(None))
        self.node.create_service(CallTool, f"/{ns}/load_scene", self._load_scene)
        self.node.create_service(CallTool, f"/{ns}/prompt", self._prompt)
        if scene_dir:
            self.load(scene_dir)

    def load(self, scene_dir: str) -> dict:
        scene = load_scene(scene_dir)
        with self._lock:
            self.toolbox = ToolBox(scene)
            lab = self.toolbox.lab
            return {"scene": scene.scene_id, "task": scene.task, "problem_type": scene.problem_type,
                    "objects": self.toolbox.known_ids(), "timestep_s": lab.timestep_s, "gravity": list(lab.gravity)}

    @staticmethod
    def _respond(response, ok: bool, result: dict):
        response.ok, response.result_json = ok, json.dumps(result, default=float)
        return response

    @staticmethod
    def _args(request) -> dict:
        text = request.arguments_json.strip() or "{}"
        args = json.loads(text)
        if not isinstance(args, dict):
            raise ValueError("arguments_json must be a JSON object")
        return args

    def _tool_handler(self, fixed: str | None):
        def handle(request, response):
            name = fixed or request.tool
            if fixed and request.tool and request.tool != fixed:
                return self._respond(response, False, {"error": f"this service runs {fixed}, not {request.tool}"})
            try:
                args = self._args(request)
            except ValueError as exc:  # json.JSONDecodeError is a ValueError
                return self._respond(response, False, {"error": f"arguments_json: {exc}"})
            with self._lock:
                if self.toolbox is None:
                    return self._respond(response, False, {"error": "no scene loaded (call load_scene)"})
                res = self.toolbox.call(name, args)
            return self._respond(response, res.ok, res.result)
        return handle

    def _load_scene(self, request, response):
        try:
            facts = self.load(str(self._args(request).get("scene", "")))
        except (ValueError, SceneError, OSError) as exc:
            return self._respond(response, False, {"error": str(exc)})
        return self._respond(response, True, facts)

    def _prompt(self, request, response):
        try:
            args = self._args(request)
            with self._lock:
                if self.toolbox is None:
                    raise ValueError("no scene loaded (call load_scene)")
                text = build_prompt(self.toolbox, int(args.get("budget", 5)), str(args.get("prompting", "zero-shot")))
        except ValueError as exc:
            return self._respond(response, False, {"error": str(exc)})
        return self._respond(response, True, {"prompt": text})

    def destroy(self) -> None:
        self.node.destroy_node()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="physment-lab-node", description=__doc__.split("\n")[0])
    parser.add_argument("--scene", default=None, help="a Scene<N> folder to load at start")
    parser.add_argument("--namespace", default=DEFAULT_NAMESPACE)
    args, ros_args = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    import rclpy

    rclpy.init(args=ros_args)
    try:
        lab = LabNode(namespace=args.namespace, scene_dir=args.scene)
    except SceneError as exc:
        print(f"physment-lab-node: {exc}", file=sys.stderr)
        rclpy.shutdown()
        return 2
    try:
        rclpy.spin(lab.node)
    except KeyboardInterrupt:
        pass
    finally:
        lab.destroy()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
