"""body: the G1 and the scene in a physics engine; simulates the window, freezes, executes, reports."""

from __future__ import annotations

from reacthuman.nodes.runtime import ContractNode, one_of, positive, run


class BodyNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("body")
        self.engine = self.declare("engine", "genesis", "physics engine: genesis or mujoco", one_of("genesis", "mujoco"))
        self.window_s = self.declare("observation_window_s", 0.6, "seconds simulated before time freezes", positive)
        self.timeout_s = self.declare("plan_timeout_s", 120.0, "wall seconds to wait for a plan while frozen", positive)
        self.get_logger().info("placeholder: the simulated body lands with the body issue")


def main(args: list[str] | None = None) -> int:
    return run(BodyNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
