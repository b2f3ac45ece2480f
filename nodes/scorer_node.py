"""scorer: scores each decision against exact ground truth and appends it to the run's ledger."""

from __future__ import annotations

from reacthuman.nodes.runtime import ContractNode, run


class ScorerNode(ContractNode):
    def __init__(self) -> None:
        super().__init__("scorer")
        self.ledger = self.declare("ledger_path", "", "append decisions to this ledger.jsonl; empty: publish only")
        self.get_logger().info("placeholder: the metric suite lands with the scorer issue")


def main(args: list[str] | None = None) -> int:
    return run(ScorerNode, args)


if __name__ == "__main__":
    raise SystemExit(main())
