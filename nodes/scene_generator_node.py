"""scene_generator: announces each episode's scene with its exact ground truth (both latched).

A GenerateScene request names a pre-generated scene (DIR/<scene_id>/spec.json under `scenes_dir`), or a
family and seed, or a natural-language description (planned by `planner_model`, else the rule parser)."""

from __future__ import annotations

from pathlib import Path

from reacthuman_msgs.msg import SceneAnnouncement

from reacthuman import ros_contract as graph
from reacthuman.nodes import conversions as conv
from reacthuman.nodes.runtime import ContractNode, msg_type, run
from reacthuman.scenes import generate_spec
from reacthuman.scenes.spec import SceneSpec, SpecError
from reacthuman.llm import make_client
from reacthuman.scenes.planner import plan


class SceneGeneratorNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("scene_generator")
        self.scenes_dir = self.declare("scenes_dir", "", "folder of generated scenes (DIR/<scene_id>/spec.json)")
        self.planner_model = self.declare("planner_model", "", "model preset for semantic planning; empty: rule parser")
        srv_type = msg_type(self.contract.services[graph.GENERATE_SCENE_SRV])
        self.create_service(srv_type, graph.GENERATE_SCENE_SRV, self._generate)

    def _generate(self, request, response):
        try:
            spec = self._spec_for(request)
        except (SpecError, ValueError, FileNotFoundError) as exc:
            response.ok, response.error = False, str(exc)
            return response
        self.announce(spec)
        response.ok, response.scene_id, response.spec_json = True, spec.scene_id, spec.to_json()
        return response

    def _spec_for(self, request) -> SceneSpec:
        if request.scene_id:
            if not self.scenes_dir:
                raise ValueError("scene_id given but the node has no scenes_dir")
            return SceneSpec.from_json((Path(self.scenes_dir) / request.scene_id / "spec.json").read_text())
        if request.description:
            return self._from_description(request.description, int(request.seed))
        if request.family:
            return generate_spec(request.family, int(request.seed))
        raise ValueError("a GenerateScene request needs a scene_id, a description or a family")

    def _from_description(self, description: str, seed: int) -> SceneSpec:
        client = make_client(self.planner_model) if self.planner_model else None
        try:
            sel = plan(description, client)
        finally:
            if client is not None:
                client.close()
        return generate_spec(
            sel.family,
            seed,
            object_id=sel.object_id,
            room=sel.room,
            hints=sel.hints,
            planner=sel.planner,
            description=description,
            sourced=sel.sourced,
        )

    def announce(self, spec: SceneSpec) -> None:
        stamp = self.get_clock().now().to_msg()
        scene = SceneAnnouncement(
            scene_id=spec.scene_id,
            seed=int(spec.seed),
            family=spec.family,
            object_name=spec.object_id,
            room=spec.room,
            spec_json=spec.to_json(),
        )
        scene.header.stamp = stamp
        self.pub[graph.GROUND_TRUTH].publish(conv.ground_truth_msg(spec, stamp))
        self.pub[graph.SCENE].publish(scene)
        self.get_logger().info(f"announced {spec.scene_id} ({spec.family}, {spec.object_id})")


def main(args: list[str] | None = None) -> int:
    return run(SceneGeneratorNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
