"""`make demo`: the main job. Until evaluation runs exist it brings the node graph up through
`reacthuman launch`, checks that every node is running, stops it, and says what it did."""

from __future__ import annotations

import sys
from pathlib import Path

from reacthuman import graph
from reacthuman.launch_file import load
from reacthuman.launcher import graph_env, resolve_launch_file, run_graph

DEMO_DURATION_S = 8.0


def main() -> int:
    spec = load(resolve_launch_file(str(Path(__file__).resolve().parent.parent / "launch" / "eval.launch.yaml")))
    print(f"demo: starting the ReactHuman graph ({', '.join(n.name for n in spec.nodes)}) for {DEMO_DURATION_S:.0f} s")
    status = run_graph(spec.nodes, graph_env(None), DEMO_DURATION_S)
    print("demo: the graph came up and was stopped cleanly" if status == 0 else f"demo: the graph failed (status {status})")
    print("demo: topics of the graph:")
    print(graph.mermaid_diagram())
    return status


if __name__ == "__main__":
    sys.exit(main())
