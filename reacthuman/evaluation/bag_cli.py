"""`reacthuman bag info BAG`, `reacthuman bag play BAG [--rate R]` and `reacthuman bag add-viewer-topics BAG...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reacthuman.core.bag import BagError, bag_info
from reacthuman.recording.viewer_topics import add_viewer_topics


def _info(bag: Path) -> int:
    info = bag_info(bag)
    print(f"bag:       {info['path']}")
    print(f"storage:   {info['storage']}")
    print(f"duration:  {info['duration_s']:.3f} s (sim time)")
    print(f"messages:  {info['messages']}")
    width = max((len(t) for t in info["topics"]), default=0)
    for topic, t in sorted(info["topics"].items()):
        print(f"  {topic:<{width}}  {t['count']:>6}  {t['type']}")
    return 0


def _play(bag: Path, rate: float, topics: list[str] | None, domain_id: int | None) -> int:
    import rclpy  # only `play` needs ROS

    from reacthuman.nodes.bag_player import play_bag

    with rclpy.init(domain_id=domain_id):
        sent = play_bag(bag, rate, set(topics) if topics else None)
    print(f"played {sent} messages from {bag}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reacthuman bag", description="inspect and replay episode bags")
    sub = parser.add_subparsers(dest="verb", required=True)
    info = sub.add_parser("info", help="topics, counts, types and duration of a bag")
    info.add_argument("bag", type=Path)
    play = sub.add_parser("play", help="republish a bag on the graph with /clock")
    play.add_argument("bag", type=Path)
    play.add_argument("--rate", type=float, default=1.0, help="playback speed; 0 = as fast as possible")
    play.add_argument("--topics", nargs="*", help="only these topics")
    play.add_argument("--domain-id", type=int, default=None)
    add = sub.add_parser(
        "add-viewer-topics", help="add /tf, /robot_description and markers to bags recorded without them"
    )
    add.add_argument("bags", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if getattr(args, "rate", 1.0) < 0:
        print("reacthuman bag: --rate must be >= 0", file=sys.stderr)
        return 2
    try:
        if args.verb == "info":
            return _info(args.bag)
        if args.verb == "add-viewer-topics":
            for bag in args.bags:
                print(f"{bag}: added {add_viewer_topics(bag)} viewer messages")
            return 0
        return _play(args.bag, args.rate, args.topics, args.domain_id)
    except BagError as exc:
        print(f"reacthuman bag: {exc}", file=sys.stderr)
        return 2
