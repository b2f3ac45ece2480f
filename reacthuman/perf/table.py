"""The readable table printed after a run: one row per measured stage, with its reference, ratio, goal and
verdict ("far from limit by Nx" where it is), built from the JSON report alone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    section: str
    stage: str
    measured: str
    reference: str = ""
    ratio: str = ""
    goal: str = ""
    verdict: str = ""


def _goal(g: dict | None) -> tuple[str, str]:
    if not g:
        return "", ""
    side = ">=" if g["higher_is_better"] else "<="
    return f"{side} {g['value']:.4g} {g['unit']}", g["verdict"]


def _med(d: dict, scale: float = 1.0, digits: int = 2) -> str:
    return f"{d['median'] * scale:.{digits}f}"


def rows(report: dict) -> list[Row]:
    out: list[Row] = []
    for name in (
        "physics",
        "render",
        "transport",
        "episode",
        "scenes",
        "scoring",
        "memory",
        "tracking",
        "ray",
        "study",
    ):
        if name in ("ray", "study") and name not in report:  # opt-in: only a run that names it has it
            continue
        section = report.get(name) or {}
        if "error" in section or "skipped" in section:
            out.append(Row(name, "-", section.get("error") or section.get("skipped")))
            continue
        out.extend(_SECTION_ROWS[name](section))
    return out


def _physics(s: dict) -> list[Row]:
    out = []
    for c in s["cases"]:
        g, v = _goal(c["goal"])
        out.append(
            Row(
                "physics",
                f"{c['engine']} step {'with' if c['with_g1'] else 'without'} G1",
                f"{_med(c['step_ms'], digits=3)} ms",
                f"dt {s['dt_s'] * 1e3:.3f} ms",
                f"RTF {c['real_time_factor']:.2f}",
                g,
                v,
            )
        )
    return out


def _render(s: dict) -> list[Row]:
    out = []
    for r in s["resolutions"]:
        g, v = _goal(r["goal"])
        out.append(
            Row(
                "render",
                f"frame-set (3 views) {r['resolution']}",
                f"{_med(r['adapter_ms_per_frame_set'], digits=1)} ms",
                f"raw {_med(r['raw_ms_per_frame_set'], digits=1)} ms",
                f"{r['ratio']:.2f}x",
                g,
                v,
            )
        )
        if "window_render_s" in r:
            out.append(Row("render", f"  5 frame-sets (one window) {r['resolution']}", f"{r['window_render_s']:.2f} s"))
        if "goal_ms" in r:
            g, v = _goal(r["goal_ms"])
            out.append(
                Row(
                    "render",
                    f"  3 views {r['resolution']} against the issue's goal",
                    f"{_med(r['adapter_ms_per_frame_set'], digits=1)} ms",
                    "",
                    "",
                    g,
                    v,
                )
            )
    per_call = s.get("per_call")
    if per_call:
        shares = ", ".join(f"{k} {v * 100:.0f}%" for k, v in per_call["share_of_frame_set"].items())
        out.append(
            Row(
                "render",
                f"  per call (frame-set at {per_call['resolution']}, {per_call['triangles_per_view']} triangles/view)",
                f"{_med(per_call['ms_per_frame_set'], digits=1)} ms",
                f"share: {shares}",
            )
        )
    mesh = s.get("meshes_vs_primitives")
    if mesh:
        g, v = _goal(mesh["goal"])
        out.append(
            Row(
                "render",
                f"frame-set {mesh['resolution']}, meshes ({mesh['object_id']} scene)",
                f"{_med(mesh['meshes_ms_per_frame_set'], digits=1)} ms",
                f"primitives {_med(mesh['primitives_ms_per_frame_set'], digits=1)} ms",
                f"{mesh['ratio']:.2f}x",
                g,
                v,
            )
        )
        if "bare_room_ms_per_frame_set" in mesh:  # older results lack it
            out.append(
                Row(
                    "render",
                    "  the same without furniture (bare room, primitives)",
                    f"{_med(mesh['bare_room_ms_per_frame_set'], digits=1)} ms",
                    "meshes vs bare room",
                    f"{mesh['meshes_vs_bare_room']:.2f}x",
                )
            )
    return out


def _transport(s: dict) -> list[Row]:
    out = []
    for r in s["settings"]:
        g, v = _goal(r["goal"])
        out.append(
            Row(
                "transport",
                f"windows/s ({r['transport']})",
                f"{_med(r['graph_windows_per_s'], digits=1)}",
                f"raw {_med(r['raw_windows_per_s'], digits=1)}",
                f"{r['ratio']:.2f}x",
                g,
                v,
            )
        )
        g, v = _goal(r["rate_goal"])
        out.append(
            Row(
                "transport",
                f"window rate need ({r['transport']})",
                f"{_med(r['graph_windows_per_s'], digits=1)}/s",
                "",
                "",
                g,
                v,
            )
        )
    return out


def _episode(s: dict) -> list[Row]:
    g, v = _goal(s["goal"])
    local = s["in_process"]["stages_s"]
    out = [
        Row(
            "episode",
            "episode wall (graph vs in-process)",
            f"{_med(s['graph']['wall_s'])} s",
            f"{_med(local['total'])} s",
            f"{s['overhead_ratio']:.2f}x",
            g,
            v,
        ),
        Row("episode", "graph up (action server ready)", f"{s['graph']['action_server_ready_s']:.1f} s"),
    ]
    if s["graph"].get("warmup_episode_s") is not None:
        out.append(Row("episode", "graph first (warm-up) episode", f"{s['graph']['warmup_episode_s']:.1f} s"))
    for stage in ("scene_build", "window", "render", "plan", "execution", "scoring", "teardown", "recording"):
        if stage in local:
            out.append(Row("episode", f"  in-process {stage}", f"{_med(local[stage], digits=3)} s"))
    for phase, d in s["graph"]["phases_s"].items():
        out.append(Row("episode", f"  graph phase {phase}", f"{_med(d, digits=2)} s"))
    return out


def _scenes(s: dict) -> list[Row]:
    g, v = _goal(s["goal"])
    machine = s["all_cores"]
    return [
        Row(
            "scenes",
            f"labelled scenes/min (no render), {machine['workers']} processes at once",
            f"{machine['labelled_scenes_per_min']:.1f}",
            "",
            "",
            g,
            v,
        ),
        Row("scenes", "labelled scenes/min (no render), one process", _med(s["labelled_scenes_per_min"], digits=1)),
    ]


def _scoring(s: dict) -> list[Row]:
    out = []
    for key, label in (
        ("score_decision", "score_decision/s"),
        ("ledger_read", "ledger rows read/s"),
        ("ledger_to_report", "ledger -> report decisions/s"),
    ):
        g, v = _goal(s[key].get("goal"))
        out.append(Row("scoring", label, f"{s[key]['per_s']:.0f}", f"{s['decisions']} decisions", "", g, v))
    out.append(Row("scoring", "ledger appends/s (fsync)", f"{s['ledger_append_fsync']['per_s']:.0f}"))
    return out


def _memory(s: dict) -> list[Row]:
    out = [Row("memory", "bench process peak", f"{s['bench_process_peak_mib']} MiB")]
    for node, mib in (s.get("nodes_peak_mib") or {}).items():
        out.append(Row("memory", f"  node {node} peak", f"{mib:.0f} MiB"))
    if s.get("graph_total_peak_mib") is not None:
        g, v = _goal(s["goal"])
        out.append(Row("memory", "graph total peak", f"{s['graph_total_peak_mib']:.0f} MiB", "", "", g, v))
    per = s.get("per_episode") or {}
    if "nodes" not in per:
        return out + [Row("memory", "per episode", per.get("note", "not measured"))]
    for node, d in per["nodes"].items():
        out.append(
            Row(
                "memory",
                f"  {node} per episode ({per['episodes']} episodes, {per['restarts']} restarts)",
                f"{d['slope_mib_per_episode']:+.2f} MiB/ep, max {d['max_mib']:.0f} MiB",
                f"{d['after_warmup_mib']:.0f} MiB after warm-up",
                f"{1 + d['growth']:.3f}x",
                f"<= {1 + per['tolerance']:.2f}x",
                d["verdict"],
            )
        )
    return out


def _tracking(s: dict) -> list[Row]:
    out = []
    goals = s["summary"]["goals"]
    for c in s["cases"]:
        parts = []
        if c["hand_error_m"]:
            parts.append(
                f"hands {max(c['hand_error_m']) * 100:.1f} cm (held {max(c['hand_error_held_m'] or [0]) * 100:.1f})"
            )
        if c["displacement_error_rel"] is not None:
            parts.append(f"displacement off {c['displacement_error_rel'] * 100:.0f}%")
        if c["yaw_commanded_rad"]:
            parts.append(f"yaw {c['yaw_change_rad']:.2f}/{c['yaw_commanded_rad']:.2f} rad")
        parts.append(f"pelvis min {c['min_pelvis_m']:.2f} m" + (" FELL" if c["fell"] else ""))
        hand_goal = goals["hand_walking_m"] if c["walking"] else goals["hand_standing_m"]
        ok = (
            not c["fell"]
            and all(e <= hand_goal for e in c["hand_error_m"])
            and (c["displacement_error_rel"] is None or c["displacement_error_rel"] <= goals["displacement_rel"])
        )
        out.append(
            Row(
                "tracking",
                c["name"],
                "; ".join(parts),
                "",
                "",
                f"hands <= {hand_goal * 100:.0f} cm, displacement <= {goals['displacement_rel'] * 100:.0f}%",
                "meets goal" if ok else "misses goal",
            )
        )
    return out


def _ray(s: dict) -> list[Row]:
    runs = s["runs"]

    def rates(label: str) -> str:
        return f"{runs[label]['episodes_per_min']:.2f} ({runs[label]['wall_s']:.0f} s)"

    local, one = runs["local"]["episodes_per_min"], runs["ray_1_worker"]["episodes_per_min"]
    out = [Row("ray", f"episodes/min, local executor ({s['scenes']} x {s['model']}, {s['engine']})", rates("local"))]
    g, v = _goal(s["goal"])
    out.append(
        Row(
            "ray",
            "episodes/min, Ray 1 worker",
            rates("ray_1_worker"),
            f"local {local:.2f}",
            f"{s['ray_1_vs_local']:.2f}x",
            g,
            v,
        )
    )
    g, v = _goal(s["scaling_goal"])
    out.append(
        Row(
            "ray",
            "episodes/min, Ray 2 workers",
            rates("ray_2_workers"),
            f"1 worker {one:.2f}",
            f"{s['ray_2_vs_ray_1']:.2f}x",
            g,
            v,
        )
    )
    return out


def _study(s: dict) -> list[Row]:
    n = len(s["sample"]["scenes"])
    out = [
        Row("study", "render one window (G1, 3 views x 5 frames), CPU", f"{_med(s['render_cpu_s'])} s"),
        Row("study", "decide 7 instant models on one scene, CPU", f"{_med(s['decide_7_models_cpu_s'])} s"),
        Row(
            "study",
            f"graph episode, same model and scenes ({n}), CPU of all processes",
            f"{_med(s['graph_episode_cpu_s'])} s",
            f"wall {_med(s['graph_episode_wall_s'])} s",
            f"{s['measured_ratio_per_decision']:.1f}x per decision",
        ),
    ]
    g, v = _goal(s["goal"])
    out.append(
        Row(
            "study",
            "306 x 7 via observation sets + decide, 2 cores",
            f"{s['study_wall_s_on_2_cores'] / 60:.1f} min",
            "",
            "",
            g,
            v,
        )
    )
    g, v = _goal(s["speedup_goal"])
    out.append(
        Row(
            "study",
            "machine time vs the graph path (measured, extrapolated)",
            f"{s['study_cpu_s'] / 3600:.2f} h",
            f"graph {s['graph_machine_s'] / 3600:.1f} h",
            f"{s['speedup']:.1f}x",
            g,
            v,
        )
    )
    return out + (_study_full(s["full"]) if s.get("full") else [])


def _study_full(f: dict) -> list[Row]:
    """The decide path run in full (bench --study-full N): measured, not extrapolated."""
    n, d = f["scenes"], f["decisions"]
    g, v = _goal(f["goal"])
    rows = [
        Row(
            "study",
            f"full: scenes render {n} scenes --workers {f['render_workers']}",
            f"{f['render']['wall_s'] / 60:.1f} min",
            f"CPU {f['render']['cpu_s'] / 60:.1f} min",
        ),
        Row(
            "study",
            f"full: decide {n} x {f['models']} --concurrency {f['concurrency']}",
            f"{f['decide']['wall_s'] / 60:.1f} min",
            f"CPU {f['decide']['cpu_s'] / 60:.1f} min",
        ),
        Row(
            "study",
            f"full: {n} renders + {d} decisions, measured",
            f"{f['wall_s'] / 60:.1f} min",
            f"CPU {f['cpu_s'] / 60:.1f} min",
            f"{f['cpu_s_per_decision']:.3f} s CPU/decision",
            g,
            v,
        ),
    ]
    if f.get("speedup_vs_graph") is not None:
        g, v = _goal(f.get("speedup_goal"))
        rows.append(
            Row(
                "study",
                "full: machine time a decision vs the sample's graph episode",
                f"{f['speedup_vs_graph']:.1f}x",
                "",
                "",
                g,
                v,
            )
        )
    return rows


_SECTION_ROWS = {
    "physics": _physics,
    "render": _render,
    "transport": _transport,
    "episode": _episode,
    "scenes": _scenes,
    "scoring": _scoring,
    "memory": _memory,
    "tracking": _tracking,
    "ray": _ray,
    "study": _study,
}

HEADER = Row("section", "stage", "measured", "reference", "ratio", "goal", "verdict")


def render_text(report: dict) -> str:
    table = [HEADER] + rows(report)
    cols = list(zip(*[(r.section, r.stage, r.measured, r.reference, r.ratio, r.goal, r.verdict) for r in table]))
    widths = [max(len(str(v)) for v in col) for col in cols]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip() for row in zip(*cols)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def verdicts(report: dict) -> dict[str, list[str]]:
    """The stages far from their limits and those missing their goals, each with its margin."""
    far = [
        f"{r.section}: {r.stage} ({r.verdict.removeprefix('far from limit by ')})"
        for r in rows(report)
        if r.verdict.startswith("far")
    ]
    miss = [
        f"{r.section}: {r.stage} ({r.verdict.removeprefix('misses goal by ')})"
        for r in rows(report)
        if r.verdict.startswith("misses")
    ]
    return {"far_from_limit": far, "missing_goal": miss}


def render_markdown(report: dict) -> str:
    table = [HEADER] + rows(report)
    lines = [
        "| " + " | ".join((r.section, r.stage, r.measured, r.reference, r.ratio, r.goal, r.verdict)) + " |"
        for r in table
    ]
    lines.insert(1, "|" + " --- |" * 7)
    return "\n".join(lines)
