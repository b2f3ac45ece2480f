"""A fault campaign: real evals (`reacthuman eval`, the oracle) with one fault per episode, and what the run made of
them. `python tools/fault_campaign.py --faults 30 --out DIR` (see `main`).

Process faults: one eval over copies of a few scenes (each copy its own scene id, its physics the same), a
monitor that, when an episode starts (its `.partial` folder appears), waits a random part of an undisturbed
episode's wall time and then kills (SIGKILL) or stops (SIGSTOP) one node of the graph, chosen at random among
PROCESS_NODES; one fault at a time, the next once the last is resolved (the eval logged a failed attempt, or a
row came in and the faulted process is gone). Message faults: evals whose spine drops or delays the first joint
command of every episode (reacthuman.evaluation.fault_injection), one fault per episode.

The report counts, over all faults: attempts retried, pairs lost (goal 0) and duplicated (goal 0), faults not
resolved within STALL_S (goal 0), processes of the runs left behind (goal 0), rows that differ from the
undisturbed run's in a non-timing field (goal 0), runs whose `reacthuman rescore` differs from the ledger (goal
0), half-written episode folders (goal 0), and the extra wall time per fault."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from reacthuman.core.processes import process_name
from reacthuman.recording.episode_files import PARTIAL
from reacthuman.evaluation.liveness import HUNG_AFTER_S
from reacthuman.evaluation.run_lock import run_processes
from reacthuman.evaluation.fault_injection import INJECT_ENV
from reacthuman.scenes import generate_spec

PROCESS_NODES = ("body", "spine", "brain", "scorer", "scene_generator", "episode_manager")
SIGNALS = {"kill": signal.SIGKILL, "stop": signal.SIGSTOP}
MESSAGE_FAULTS = ("spine.drop_commands=1", "spine.delay_command_s=3")
BASE_SCENES = (("object_drop", 3), ("ceiling_drop", 0))
STALL_S = 120.0
MODEL = "oracle"
TIMING_FIELDS = frozenset({"latency_s"})


@dataclass
class Fault:
    kind: str  # kill, stop, or a REACTHUMAN_INJECT entry
    node: str
    scene_id: str
    after_start_s: float = 0.0  # from the episode's start (its folder appearing)
    resolved_s: float | None = None  # from the fault to the failed attempt or the row; None: never


@dataclass
class RunReport:
    name: str
    pairs: int
    rows: int = 0
    lost: int = 0
    duplicated: int = 0
    retried: int = 0
    differing_rows: int = 0
    rescore_ok: bool = False
    partial_folders: int = 0
    processes_left: int = 0
    wall_s: float = 0.0
    faults: list[Fault] = field(default_factory=list)


def write_scenes(folder: Path, copies: int, prefix: str) -> dict[str, str]:
    """`copies` scenes in `folder`, cycling through BASE_SCENES under new scene ids; scene id -> base scene id."""

    bases = [json.loads(generate_spec(f, s).to_json()) for f, s in BASE_SCENES]
    base_of = {}
    for k in range(copies):
        data = dict(bases[k % len(bases)])
        data["scene_id"] = f"{data['scene_id']}-{prefix}{k:03d}"
        (folder / data["scene_id"]).mkdir(parents=True, exist_ok=True)
        (folder / data["scene_id"] / "spec.json").write_text(json.dumps(data))
        base_of[data["scene_id"]] = bases[k % len(bases)]["scene_id"]
    return base_of


def _eval(
    scenes: Path, out: Path, domain_base: int, engine: str, inject: str = "", hung_after_s: float = HUNG_AFTER_S
) -> subprocess.Popen:
    env = dict(os.environ, **{INJECT_ENV: inject})
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reacthuman.cli",
            "eval",
            "--scenes",
            str(scenes),
            "--models",
            MODEL,
            "--out",
            str(out),
            "--engine",
            engine,
            "--domain-base",
            str(domain_base),
            "--hung-after",
            str(hung_after_s),
        ],
        env=env,
        stdout=(out.parent / f"{out.name}.out").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _lines(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


def _in_flight(out: Path) -> set[str]:
    folder = out / "episodes" / MODEL
    return {p.name[: -len(PARTIAL)] for p in folder.glob(f"*{PARTIAL}")} if folder.is_dir() else set()


def _node_pid(out: Path, name: str) -> int | None:
    return next((p.pid for p in run_processes(out) if process_name(p.pid) == name), None)


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def process_fault_run(
    scenes: Path,
    out: Path,
    faults: int,
    episode_s: float,
    rng: random.Random,
    domain_base: int,
    engine: str,
    say=print,
    hung_after_s: float = HUNG_AFTER_S,
    kinds: tuple[str, ...] = (),
) -> list[Fault]:
    """Run the eval over `scenes`, injecting up to `faults` process faults (see the module docstring); `kinds`
    (kill, stop), when given, says each fault's kind in turn instead of the draw."""
    proc = _eval(scenes, out, domain_base, engine, hung_after_s=hung_after_s)
    done: list[Fault] = []
    faulted: set[str] = set()
    try:
        while proc.poll() is None and len(done) < faults:
            fresh = sorted(_in_flight(out) - faulted)
            if not fresh:
                time.sleep(0.1)
                continue
            scene_id = fresh[0]
            faulted.add(scene_id)
            kind = rng.choice(tuple(SIGNALS))
            fault = Fault(
                kinds[len(done) % len(kinds)] if kinds else kind,
                rng.choice(PROCESS_NODES),
                scene_id,
                round(rng.uniform(0.0, episode_s), 2),
            )
            time.sleep(fault.after_start_s)
            pid = _node_pid(out, fault.node)
            if pid is None or proc.poll() is not None:
                continue  # between two graphs: try the next episode
            failures_before, rows_before = len(_lines(out / "failures.jsonl")), len(_lines(out / "ledger.jsonl"))
            os.kill(pid, SIGNALS[fault.kind])
            at = time.monotonic()
            say(
                f"fault {len(done) + 1}/{faults}: {fault.kind} {fault.node} (pid {pid}) "
                f"{fault.after_start_s:.1f} s into {scene_id}"
            )
            while proc.poll() is None and time.monotonic() - at < STALL_S + 2 * hung_after_s:
                failed = len(_lines(out / "failures.jsonl")) > failures_before
                absorbed = len(_lines(out / "ledger.jsonl")) > rows_before and not _alive(pid)
                if failed or absorbed:
                    fault.resolved_s = round(time.monotonic() - at, 1)
                    break
                time.sleep(0.2)
            if fault.resolved_s is None and proc.poll() is not None and not _alive(pid):
                fault.resolved_s = round(time.monotonic() - at, 1)  # the run ended and took the process with it
            done.append(fault)
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
    return done


def check_run(report: RunReport, out: Path, base_of: dict[str, str], reference: dict[str, dict]) -> RunReport:
    """Fill `report` from the run folder: rows, losses, duplicates, retries, exactness, rescore, folders, processes."""
    rows = _lines(out / "ledger.jsonl")
    ids = [r["scene_id"] for r in rows]
    report.rows, report.duplicated = len(rows), len(ids) - len(set(ids))
    report.lost = len(set(base_of) - set(ids))
    report.retried = sum(1 for f in _lines(out / "failures.jsonl") if f.get("retried"))
    report.differing_rows = sum(1 for r in rows if _differs(r, reference[base_of[r["scene_id"]]]))
    rescore = subprocess.run(
        [sys.executable, "-m", "reacthuman.cli", "rescore", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    report.rescore_ok = rescore.returncode == 0
    episodes = out / "episodes" / MODEL
    folders = [p for p in episodes.iterdir() if p.is_dir()] if episodes.is_dir() else []
    report.partial_folders = sum(1 for p in folders if p.name.endswith(PARTIAL) or p.name not in set(ids))
    report.processes_left = len(run_processes(out))
    return report


def _differs(row: dict, reference: dict) -> bool:
    keys = (set(row) | set(reference)) - TIMING_FIELDS - {"scene_id"}
    return any(json.dumps(row.get(k), sort_keys=True) != json.dumps(reference.get(k), sort_keys=True) for k in keys)


def run_campaign(
    work: Path,
    faults: int,
    seed: int = 0,
    engine: str = "mujoco",
    domain_base: int = 60,
    message_share: float = 0.2,
    say=print,
    hung_after_s: float = HUNG_AFTER_S,
    kinds: tuple[str, ...] = (),
    timed: bool = True,
) -> dict:
    """The whole campaign in `work` (created): the undisturbed reference, the process faults, the message faults.
    `timed`: measure the undisturbed run's wall time too (one more reference run), for the extra time per fault."""
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    n_message = round(faults * message_share) if faults > 2 else min(1, faults - 1)
    n_process = faults - n_message
    reference, start_s, episode_s = _reference(work, domain_base, engine, timed)
    say(f"undisturbed: graph start and shutdown {start_s:.0f} s, {episode_s:.1f} s per episode")
    reports = []
    proc_scenes = work / "scenes_process"
    base_of = write_scenes(proc_scenes, max(4, 2 * n_process), "p")
    t0 = time.monotonic()
    run = RunReport("process faults", len(base_of))
    run.faults = process_fault_run(
        proc_scenes, work / "process", n_process, episode_s, rng, domain_base, engine, say, hung_after_s, kinds
    )
    run.wall_s = round(time.monotonic() - t0, 1)
    reports.append(check_run(run, work / "process", base_of, reference))
    per_message = [
        n_message // len(MESSAGE_FAULTS) + (k < n_message % len(MESSAGE_FAULTS)) for k in range(len(MESSAGE_FAULTS))
    ]
    for k, (inject, count) in enumerate(zip(MESSAGE_FAULTS, per_message)):
        if not count:
            continue
        scenes = work / f"scenes_message_{k}"
        base_of = write_scenes(scenes, count, f"m{k}")
        t0 = time.monotonic()
        say(f"message faults: {inject} in each of {count} episodes")
        proc = _eval(scenes, work / f"message_{k}", domain_base, engine, inject, hung_after_s)
        proc.wait()
        run = RunReport(
            f"message: {inject}",
            count,
            wall_s=round(time.monotonic() - t0, 1),
            faults=[Fault(inject, "spine", s, resolved_s=None) for s in base_of],
        )
        reports.append(check_run(run, work / f"message_{k}", base_of, reference))
    return summarise(reports, start_s, episode_s)


def _reference(work: Path, domain_base: int, engine: str, timed: bool = True) -> tuple[dict[str, dict], float, float]:
    """Undisturbed runs of 2 and 6 episodes: each base scene's row, and a run's fixed and per-episode wall time.
    Untimed, the run of 2 alone: its wall time is taken as all per episode (no figure of extra time then)."""
    walls, reference = [], {}
    for n in (len(BASE_SCENES), 3 * len(BASE_SCENES))[: 2 if timed else 1]:
        scenes, out = work / f"scenes_reference_{n}", work / f"reference_{n}"
        base_of = write_scenes(scenes, n, "ref")
        started = time.monotonic()
        proc = _eval(scenes, out, domain_base, engine)
        proc.wait()
        walls.append(time.monotonic() - started)
        rows = _lines(out / "ledger.jsonl")
        if proc.returncode != 0 or len(rows) != n:
            raise RuntimeError(f"the undisturbed reference run failed (see {out}.out)")
        reference.update((base_of[r["scene_id"]], r) for r in rows)
    if not timed:
        return reference, 0.0, walls[0] / len(BASE_SCENES)
    episode_s = (walls[1] - walls[0]) / (2 * len(BASE_SCENES))
    return reference, max(0.0, walls[0] - len(BASE_SCENES) * episode_s), max(0.1, episode_s)


def summarise(reports: list[RunReport], start_s: float, episode_s: float) -> dict:
    faults = [f for r in reports for f in r.faults]
    process = [f for f in faults if f.kind in SIGNALS]
    episodes = sum(r.pairs for r in reports)
    wall = sum(r.wall_s for r in reports)
    undisturbed = len(reports) * start_s + episodes * episode_s  # the same runs without faults
    return {
        "faults": len(faults),
        "process_faults": len(process),
        "message_faults": len(faults) - len(process),
        "episodes": episodes,
        "retried": sum(r.retried for r in reports),
        "lost": sum(r.lost for r in reports),
        "duplicated": sum(r.duplicated for r in reports),
        "stalled_past_2_min": sum(1 for f in process if f.resolved_s is None or f.resolved_s > STALL_S),
        "processes_left": sum(r.processes_left for r in reports),
        "differing_rows": sum(r.differing_rows for r in reports),
        "rescore_differs": sum(1 for r in reports if not r.rescore_ok),
        "partial_folders": sum(r.partial_folders for r in reports),
        "wall_s": round(wall, 1),
        "undisturbed_wall_s": round(undisturbed, 1),
        "undisturbed_episode_s": round(episode_s, 1),
        "extra_wall_s_per_fault": round((wall - undisturbed) / max(1, len(faults)), 1),
        "resolved_s_max": max((f.resolved_s for f in process if f.resolved_s is not None), default=None),
        "by_kind": _by_kind(process),
        "runs": [asdict(r) for r in reports],
    }


def _by_kind(faults: list[Fault]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in faults:
        entry = out.setdefault(f"{f.kind} {f.node}", {"faults": 0, "resolved_s": []})
        entry["faults"] += 1
        entry["resolved_s"].append(f.resolved_s)
    return dict(sorted(out.items()))


def markdown(summary: dict) -> str:
    keys = (
        "faults",
        "process_faults",
        "message_faults",
        "episodes",
        "retried",
        "lost",
        "duplicated",
        "stalled_past_2_min",
        "processes_left",
        "differing_rows",
        "rescore_differs",
        "partial_folders",
        "wall_s",
        "undisturbed_wall_s",
        "undisturbed_episode_s",
        "extra_wall_s_per_fault",
        "resolved_s_max",
    )
    lines = [
        "| measure | value |",
        "|---|---|",
        *(f"| {k} | {summary[k]} |" for k in keys),
        "",
        "| fault | count | resolved after (s) |",
        "|---|---|---|",
    ]
    lines += [
        f"| {k} | {v['faults']} | {', '.join('-' if s is None else f'{s:g}' for s in v['resolved_s'])} |"
        for k, v in summary["by_kind"].items()
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="fault_campaign", description=__doc__.splitlines()[0])
    p.add_argument("--faults", type=int, default=30, help="faults in all (process and message faults)")
    p.add_argument("--out", type=Path, required=True, help="work folder (created): runs, summary.json, summary.md")
    p.add_argument("--seed", type=int, default=0, help="seed of the faults' kinds, nodes and moments")
    p.add_argument("--engine", default="mujoco", choices=("mujoco", "genesis"))
    p.add_argument("--domain-base", type=int, default=60)
    p.add_argument("--message-share", type=float, default=0.2, help="share of the faults that are message faults")
    p.add_argument("--hung-after", type=float, default=HUNG_AFTER_S, help="the evals' --hung-after (liveness)")
    args = p.parse_args(argv)
    if args.faults < 1 or not 0 <= args.message_share <= 1:
        print("fault_campaign: --faults must be >= 1 and --message-share in [0, 1]", file=sys.stderr)
        return 2
    summary = run_campaign(
        args.out,
        args.faults,
        args.seed,
        args.engine,
        args.domain_base,
        args.message_share,
        say=lambda text: print(text, flush=True),
        hung_after_s=args.hung_after,
    )
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    (args.out / "summary.md").write_text(markdown(summary) + "\n")
    print(markdown(summary))
    bad = (
        "lost",
        "duplicated",
        "stalled_past_2_min",
        "processes_left",
        "differing_rows",
        "rescore_differs",
        "partial_folders",
    )
    return 0 if not any(summary[k] for k in bad) else 1


if __name__ == "__main__":
    raise SystemExit(main())
