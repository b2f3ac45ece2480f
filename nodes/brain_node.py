"""brain: the evaluated model (or a reference brain) turns an observation window into a reaction plan."""

from __future__ import annotations

from reacthuman.nodes.runtime import ContractNode, one_of, run


class BrainNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("brain")
        self.model = self.declare("model", "local", "model preset or reference brain name")
        self.modality = self.declare("modality", "state_text", "what the model is shown",
                                     one_of("images", "state_text", "both"))
        self.get_logger().info("placeholder: model clients land with the brain issue")


def main(args: list[str] | None = None) -> int:
    return run(BrainNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
