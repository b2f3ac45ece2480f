"""scene_generator: plans, randomizes and labels a scene, and announces it with its ground truth."""

from __future__ import annotations

from reacthuman import graph
from reacthuman.nodes.runtime import ContractNode, msg_type, run


class SceneGeneratorNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("scene_generator")
        self.scenes_dir = self.declare("scenes_dir", "", "folder of generated scenes (DIR/<scene_id>/spec.json)")
        self.planner_model = self.declare("planner_model", "", "model preset for semantic planning; empty: rule parser")
        srv_type = msg_type(self.contract.services[graph.GENERATE_SCENE_SRV])
        self.create_service(srv_type, graph.GENERATE_SCENE_SRV, self._generate)
        self.get_logger().info("placeholder: scene generation lands with the scene-generator issue")

    def _generate(self, request, response):
        response.ok = False
        response.error = "scene generation is not available in this build yet"
        return response


def main(args: list[str] | None = None) -> int:
    return run(SceneGeneratorNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
