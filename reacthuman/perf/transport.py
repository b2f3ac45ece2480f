"""Transport: observation windows per second through the graph's path (numpy frames -> typed message ->
DDS -> numpy frames, in two processes) against a raw publisher/subscriber pair moving the same serialized
bytes, with FastDDS' default transports and with FASTDDS_BUILTIN_TRANSPORTS=LARGE_DATA."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from reacthuman.perf.common import Goal, Repeats
from reacthuman.launching.launcher import die_with_parent

TRANSPORTS = {"default": None, "large_data": "LARGE_DATA"}
RATIO_GOAL = Goal(0.8, "x raw", True, "building and parsing typed frames should keep 80% of the raw byte rate")
# One window per episode: the graph needs 1 window/s at most (an episode takes far longer than a second).
RATE_GOAL = Goal(1.0, "windows/s", True, "one window per episode, and an episode takes seconds")


def _env(domain_id: int, transport: str | None) -> dict:
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    env.pop("FASTDDS_BUILTIN_TRANSPORTS", None)
    if transport:
        env["FASTDDS_BUILTIN_TRANSPORTS"] = transport
    return env


def run_pair(
    mode: str,
    transport: str | None,
    domain_id: int,
    windows: int,
    warmup: int,
    width: int,
    height: int,
    timeout_s: float = 300.0,
) -> dict:
    """One echo and one sender process; the sender's JSON result."""
    peer = [sys.executable, "-m", "reacthuman.nodes.transport_peer"]
    env = _env(domain_id, transport)
    echo = subprocess.Popen(
        peer + ["echo", "--mode", mode],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=die_with_parent,
    )
    try:
        done = subprocess.run(
            peer
            + [
                "send",
                "--mode",
                mode,
                "--windows",
                str(windows),
                "--warmup",
                str(warmup),
                "--width",
                str(width),
                "--height",
                str(height),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            preexec_fn=die_with_parent,
        )
    finally:
        echo.terminate()
        try:
            echo.wait(timeout=10)
        except subprocess.TimeoutExpired:
            echo.kill()
            echo.wait()
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(
            f"transport sender ({mode}, {transport or 'default'}) gave no result "
            f"(exit {done.returncode}): {done.stderr.strip()[-1500:]}"
        )
    result = json.loads(lines[-1])
    if "error" in result:
        raise RuntimeError(f"transport sender ({mode}, {transport or 'default'}): {result['error']}")
    return result


def transport_section(
    domain_id: int, windows: int, warmup: int, repeats: int, width: int = 320, height: int = 180
) -> dict:
    """Per transport setting: windows/s (median over repeats of `windows` round trips) for the graph path and
    the raw pair, measured alternately so both see the same load."""
    rows = []
    for label, transport in TRANSPORTS.items():
        rates: dict[str, list[float]] = {"graph": [], "raw": []}
        latencies: dict[str, list[float]] = {"graph": [], "raw": []}
        size = 0
        for _ in range(repeats):
            for mode in ("raw", "graph"):
                r = run_pair(mode, transport, domain_id, windows, warmup, width, height)
                size = r["bytes_per_window"]
                rates[mode].append(len(r["seconds"]) / sum(r["seconds"]))
                latencies[mode].append(statistics.median(r["seconds"]))
        g, w = Repeats.of(rates["graph"]), Repeats.of(rates["raw"])
        ratio = g.median / w.median
        rows.append(
            {
                "transport": label,
                "env": transport and f"FASTDDS_BUILTIN_TRANSPORTS={transport}",
                "bytes_per_window": size,
                "window": f"3 views x 5 frames at {width}x{height} rgb8",
                "graph_windows_per_s": g.to_dict(2),
                "raw_windows_per_s": w.to_dict(2),
                "graph_round_trip_ms": round(1e3 * statistics.median(latencies["graph"]), 2),
                "raw_round_trip_ms": round(1e3 * statistics.median(latencies["raw"]), 2),
                "ratio": round(ratio, 3),
                "goal": RATIO_GOAL.to_dict(ratio),
                "rate_goal": RATE_GOAL.to_dict(g.median),
            }
        )
    out: dict = {
        "method": "round trips: send one window, wait for the echo's acknowledgement, repeat",
        "settings": rows,
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    by = {r["transport"]: r for r in rows}
    if "default" in by and "large_data" in by:
        out["large_data_speedup_graph"] = round(
            by["large_data"]["graph_windows_per_s"]["median"] / by["default"]["graph_windows_per_s"]["median"], 3
        )
    return out
