"""spine: turns a reaction plan into joint commands (walking policy for the legs, IK for the arms)."""

from __future__ import annotations

from reacthuman.nodes.runtime import ContractNode, positive, run


class SpineNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("spine")
        self.watchdog_s = self.declare("command_timeout_s", 0.1, "state silence that drops the spine to damping", positive)
        self.get_logger().info("placeholder: the whole-body controller lands with the spine issue")


def main(args: list[str] | None = None) -> int:
    return run(SpineNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
