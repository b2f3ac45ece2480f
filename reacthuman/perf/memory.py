"""Memory: peak resident memory (VmHWM) of each node process of a running graph, read from /proc before
the graph stops. Nodes are the launcher's children; a child is named by its `__node:=NAME` remapping."""

from __future__ import annotations

import os
from pathlib import Path

from reacthuman.perf.common import Goal
from reacthuman.core.processes import peak_rss_mib
import dataclasses
from reacthuman.scenes.spec import SceneSpec
import subprocess
import sys
from reacthuman.evaluation.memory_log import FLAT_TOLERANCE, node_series, read_samples, summarize
from reacthuman.core.plotting import pyplot

# Two graphs side by side (`eval --workers 2`) must fit on a 24 GiB machine with room for the OS.
GRAPH_GOAL_MIB = Goal(8192.0, "MiB", False, "two graphs (eval --workers 2) fit in 24 GiB with headroom")


def memory_section(
    nodes_mib: dict[str, float] | None, own_pid: int | None = None, per_episode: dict | None = None
) -> dict:
    """The graph's per-node peaks (as measured by the episode section), this bench process's own, and each
    node's memory per episode over a run (`per_episode_section`; None when none was measured)."""
    own = peak_rss_mib(own_pid or os.getpid())
    out: dict = {
        "unit": "MiB",
        "source": "VmHWM from /proc/<pid>/status, read before the graph stopped",
        "bench_process_peak_mib": None if own is None else round(own, 1),
        "per_episode": per_episode
        or {"note": "no run measured: the full bench runs one (--quick does not), or pass --memory-run RUN_DIR"},
    }
    if not nodes_mib:
        out["nodes_peak_mib"] = None
        out["note"] = "the episode section did not run: no graph was measured"
        return out
    total = sum(nodes_mib.values())
    out["nodes_peak_mib"] = dict(sorted(nodes_mib.items(), key=lambda kv: -kv[1]))
    out["graph_total_peak_mib"] = round(total, 1)
    out["goal"] = GRAPH_GOAL_MIB.to_dict(total)
    return out


# Resident memory per episode over a run: what a long eval needs to stay flat (within 10% after warm-up).
MEMORY_WARMUP_EPISODES = 2
MEMORY_MODEL = "oracle"  # a reference brain: every episode does the same graph work without a model server


def looped_scene_set(src: Path, dst: Path, episodes: int) -> Path:
    """`episodes` scenes in dst, the scenes of src repeated in order under ids r<k>-<id> (same physics)."""

    specs = [SceneSpec.from_json(p.read_text()) for p in sorted(Path(src).glob("*/spec.json"))]
    if not specs:
        raise ValueError(f"no scenes in {src}")
    for k in range(episodes):
        spec = specs[k % len(specs)]
        looped = dataclasses.replace(spec, scene_id=f"r{k // len(specs):03d}-{spec.scene_id}")
        (dst / looped.scene_id).mkdir(parents=True, exist_ok=True)
        (dst / looped.scene_id / "spec.json").write_text(looped.to_json())
    return dst


def run_memory_episodes(scenes_dir: Path, work: Path, episodes: int, domain_base: int) -> Path:
    """A real eval of `episodes` episodes (one graph, the eval's restart policy) in work/memory_run."""

    looped = looped_scene_set(scenes_dir, work / "memory_scenes", episodes)
    run_dir = work / "memory_run"
    cmd = [
        sys.executable,
        "-m",
        "reacthuman.cli",
        "eval",
        "--scenes",
        str(looped),
        "--models",
        MEMORY_MODEL,
        "--out",
        str(run_dir),
        "--keep-bags",
        "failures",
        "--domain-base",
        str(domain_base),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"eval for the memory run failed ({done.returncode}): {done.stdout.strip()[-1500:]}")
    return run_dir


def per_episode_section(run_dir: Path, plot_path: Path | None, warmup: int = MEMORY_WARMUP_EPISODES) -> dict:
    """Each node's resident MiB after every episode of a run (its logs/memory.jsonl), the level after warm-up,
    the last and highest later values, the least-squares slope, and the verdict against 10%."""

    samples = read_samples(run_dir)
    if len(samples) <= warmup:
        raise ValueError(f"{run_dir}: {len(samples)} memory samples, need more than the {warmup} warm-up episodes")
    series = node_series(samples)
    nodes = {
        d.node: {
            "rss_mib": series[d.node],
            "after_warmup_mib": d.after_warmup_mib,
            "last_mib": d.last_mib,
            "max_mib": d.max_mib,
            "growth": round(d.growth, 4),
            "slope_mib_per_episode": d.slope_mib_per_episode,
            "verdict": "flat" if d.flat() else f"grows beyond {FLAT_TOLERANCE:.0%}",
        }
        for d in summarize(samples, warmup)
    }
    restarted = [
        k + 2
        for k, (prev, row) in enumerate(zip(samples, samples[1:]))
        if row.get("graph_episode", 0) <= prev.get("graph_episode", 0)
    ]  # episodes run on a fresh body or graph
    restarts = len(restarted)
    out = {
        "source": str(run_dir),
        "episodes": len(samples),
        "warmup_episodes": warmup,
        "restarts": restarts,
        "tolerance": FLAT_TOLERANCE,
        "nodes": nodes,
        "all_flat": all(n["verdict"] == "flat" for n in nodes.values()),
    }
    if plot_path is not None:
        out["plot"] = str(plot_memory(series, nodes, restarted, plot_path))
    return out


def plot_memory(series: dict[str, list[float]], nodes: dict[str, dict], restarted: list[int], path: Path) -> Path:
    plt = pyplot()

    fig, axes = plt.subplots(len(series), 1, figsize=(8, 1.6 * len(series) + 0.6), sharex=True, squeeze=False)
    for ax, (node, values) in zip(axes[:, 0], sorted(series.items(), key=lambda kv: -max(kv[1]))):
        ax.plot(range(1, len(values) + 1), values, lw=1.2, marker=".", ms=3)
        if node in nodes:
            level = nodes[node]["after_warmup_mib"]
            ax.axhline(level, color="grey", lw=0.8, ls=":")
            ax.axhline(level * 1.10, color="red", lw=0.8, ls="--")
        for k in restarted:
            ax.axvline(k - 0.5, color="green", lw=0.6, alpha=0.5)
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
        ax.set_ylabel("MiB", fontsize=8)
        ax.set_title(f"{node}: {nodes.get(node, {}).get('verdict', 'warm-up only')}", fontsize=9, loc="left")
        ax.tick_params(labelsize=7)
    axes[-1, 0].set_xlabel(
        "episode (resident memory after it; dotted: level after warm-up, dashed: +10%, green: a restart before it)",
        fontsize=8,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
