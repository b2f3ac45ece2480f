"""The lab as a ROS 2 node: every tool is a service, so an agent node (or an agent outside Python) can run
an episode. The in-process ToolBox stays the default path; this node wraps the same ToolBox.

Services (type reacthuman_msgs/srv/CallTool: request `tool`, `arguments_json`; response `ok`, `result_json`),
as `physment.ros_contract.LAB` declares them, under the node's namespace (default /physment):
- <ns>/<tool> for each tool (the request's `tool` may be empty or must equal the service's tool);
- <ns>/call: any tool, named in the request;
- <ns>/load_scene: arguments_json {"scene": "<folder Scene<N>>"}; answers the prompt facts (task, objects,
  timestep, gravity) so a remote agent can build its prompt; <ns>/prompt: {"budget": B, "prompting": ...}.
A bad request is an ok=false response with {"error": ...}, as in-process.

    physment-lab-node --ros-args -p scene:=physment/scenes/Scene1 [-r __ns:=/lab2]
"""

from __future__ import annotations

import json
import threading

from reacthuman_msgs.srv import CallTool

from physment.ros_contract import CALL, LAB, LOAD_SCENE, PROMPT
from physment.prompt import build_prompt
from physment.scene import SceneError, load_scene
from physment.toolspec import TOOL_NAMES
from physment.tools import ToolBox
from reacthuman.nodes.runtime import ContractNode, run


class LabNode(ContractNode):
    """The tool services over one scene at a time (parameter `scene`, or the `load_scene` service)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.toolbox: ToolBox | None = None
        super().__init__(LAB)
        scene = self.declare("scene", "", "a Scene<N> folder to load at start; empty: none until load_scene")
        handlers = {name: self._tool_handler(name) for name in TOOL_NAMES} | {
            CALL: self._tool_handler(None),
            LOAD_SCENE: self._load_scene,
            PROMPT: self._prompt,
        }
        for name in self.contract.services:
            self.create_service(CallTool, name, handlers[name])
        if scene:
            try:
                self.load(scene)
            except (SceneError, OSError) as exc:
                raise ValueError(f"parameter 'scene': {exc}") from exc

    def load(self, scene_dir: str) -> dict:
        scene = load_scene(scene_dir)
        with self._lock:
            self.toolbox = ToolBox(scene)
            lab = self.toolbox.lab
            return {
                "scene": scene.scene_id,
                "task": scene.task,
                "problem_type": scene.problem_type,
                "objects": self.toolbox.known_ids(),
                "timestep_s": lab.timestep_s,
                "gravity": list(lab.gravity),
            }

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


def main(args: list[str] | None = None) -> int:
    return run(LabNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
