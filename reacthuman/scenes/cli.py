"""`reacthuman scenes generate|validate|show|render|plan`: the scene generator's command line.

Errors in the input give one line on stderr and exit status 2; a validation mismatch exits 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from reacthuman.evaluation.observation_ray import render_set_on_ray
from reacthuman.evaluation.observation_set import folder_of
from reacthuman.evaluation.render_workers import render_set
from reacthuman.llm import make_client
from reacthuman.scenes import default_simulator, label_spec, sample_spec
from reacthuman.scenes.catalog import OBJECTS, spec_object
from reacthuman.scenes.dataset import (
    GenerateConfig,
    _store,
    generate_dataset,
    index_row,
    read_spec,
    scene_dirs,
    validate_scene,
    write_index,
)
from reacthuman.scenes.families import FAMILIES
from reacthuman.scenes.gallery import gallery
from reacthuman.scenes.planner import plan
from reacthuman.scenes.randomize import DEFAULT_ADVERSARIAL_RATE
from reacthuman.scenes.render import contact_sheet
from reacthuman.scenes.render import default_config as render_config
from reacthuman.core.ray_cluster import check_address
from reacthuman.scenes.spec import SpecError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2
        print(f"reacthuman scenes: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="reacthuman scenes", description="generate, validate and show ReactHuman scenes")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    g = sub.add_parser("generate", help="generate labelled scenes into DIR")
    g.add_argument("--count", type=int)
    g.add_argument("--balanced", type=int, help="K scenes per family instead of --count")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--out", required=True)
    g.add_argument("--families", default="", help="comma-separated families (default: all 17)")
    g.add_argument("--adversarial-rate", type=float, default=None)
    g.add_argument("--render", action="store_true", help="also write the window's frames and an mp4 per view")
    g.add_argument(
        "--render-interval",
        type=float,
        default=None,
        help="seconds between rendered frames (default: interval_s of config/render.yaml)",
    )
    g.add_argument("--width", type=int, default=1280)
    g.add_argument("--height", type=int, default=720)
    g.add_argument("--workers", type=int, default=1, help="processes (one Genesis each); same result")
    g.add_argument(
        "--executor",
        default="local",
        choices=("local", "ray"),
        help="ray: label on a Ray cluster (--workers Ray workers); same result",
    )
    g.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local Ray instance)")
    g.add_argument("--describe", default=None, help="a natural-language description: plan one scene from it")
    g.add_argument(
        "--model",
        default=None,
        help="model preset for the planner, for --describe and for every "
        "dataset scene's description (default: the rule-based parser)",
    )
    v = sub.add_parser("validate", help="re-simulate every scene in DIR and compare bit for bit")
    v.add_argument("dir")
    s = sub.add_parser("show", help="print a scene's spec and ground truth")
    s.add_argument("scene_dir")
    s.add_argument("--contact-sheet", default=None, help="write a PNG of the rendered views here")
    s.add_argument("--json", action="store_true", help="print the whole spec as JSON")
    gl = sub.add_parser("gallery", help="draw every library object alone, named, in one PNG")
    gl.add_argument("--out", required=True, help="PNG to write")
    gl.add_argument("--objects", default="", help="comma-separated object ids (default: the whole library)")
    gl.add_argument("--size", type=int, default=256, help="pixels per object tile")
    gl.add_argument("--columns", type=int, default=8)
    r = sub.add_parser(
        "render",
        help="write each scene's observation as the graph's body publishes it to the brain "
        "(DIR/observations: an observation set; resumable)",
    )
    r.add_argument("dir")
    r.add_argument("--workers", type=int, default=1, help="processes (one Genesis each); same result")
    r.add_argument(
        "--executor",
        default="local",
        choices=("local", "ray"),
        help="ray: render on a Ray cluster (--workers Ray workers); the same files",
    )
    r.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local Ray instance)")
    r.add_argument("--engine", default="genesis", choices=("genesis", "mujoco"), help="renderer (the graph's engine)")
    r.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    pl = sub.add_parser("plan", help="print the selection a description plans to")
    pl.add_argument("description")
    pl.add_argument("--model", default=None)
    return p


def _gallery(args: argparse.Namespace) -> int:
    if args.size < 32 or args.columns < 1:
        raise ValueError(f"--size must be >= 32 and --columns >= 1, got {args.size} and {args.columns}")
    ids = [o.strip() for o in args.objects.split(",") if o.strip()]
    print(f"gallery: {gallery(args.out, ids or None, args.size, args.columns)}")
    return 0


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2, already printed as one line)
        return int(exc.code or 0)
    try:
        return {
            "generate": _generate,
            "validate": _validate,
            "show": _show,
            "plan": _plan,
            "gallery": _gallery,
            "render": _render,
        }[args.cmd](args)
    except (SpecError, KeyError, ValueError, FileNotFoundError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"reacthuman scenes: {msg}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # e.g. a family whose scenes keep failing validation
        print(f"reacthuman scenes: {exc}", file=sys.stderr)
        return 1


def _render(args: argparse.Namespace) -> int:
    if args.workers < 1:
        raise ValueError(f"--workers must be a positive integer, got {args.workers}")
    ids = [os.path.basename(d) for d in scene_dirs(args.dir)][: args.limit]
    if not ids:
        raise ValueError(f"no scenes in {args.dir}")
    if args.executor == "ray":
        if args.ray_address:
            check_address(args.ray_address)
        rendered = render_set_on_ray(Path(args.dir), ids, args.workers, args.engine, args.ray_address)
    else:
        rendered = render_set(Path(args.dir), ids, args.workers, args.engine)
    print(f"observation set {folder_of(Path(args.dir))}: {len(ids)} scenes ({rendered} rendered now)")
    return 0


def _selection(description: str, model: str | None):
    if model is None:
        return plan(description)
    with make_client(model) as client:
        return plan(description, client)


def _generate(args: argparse.Namespace) -> int:
    if args.render_interval is None:
        args.render_interval = render_config().interval_s

    families = tuple(f.strip() for f in args.families.split(",") if f.strip())
    rate = DEFAULT_ADVERSARIAL_RATE if args.adversarial_rate is None else args.adversarial_rate
    if args.describe is not None:
        return _generate_described(args, rate)
    cfg = GenerateConfig(
        out=args.out,
        count=args.count,
        seed=args.seed,
        families=families or FAMILIES,
        balanced=args.balanced,
        render=args.render,
        render_interval_s=args.render_interval,
        width=args.width,
        height=args.height,
        adversarial_rate=rate,
        planner_model=args.model,
    )
    if args.render_interval <= 0 or args.render_interval > 1:
        raise SpecError(f"--render-interval must be in (0, 1] s, got {args.render_interval}")
    if args.workers < 1:
        raise SpecError(f"--workers must be >= 1, got {args.workers}")

    def wrote(sid: str) -> None:
        logging.getLogger("reacthuman.scenes").info("wrote %s", sid)

    if args.executor == "ray":
        from reacthuman.scenes.ray_labelling import generate_on_ray

        if args.ray_address:
            check_address(args.ray_address)

        rows = generate_on_ray(cfg, args.workers, args.ray_address, progress=wrote)
    else:
        rows = generate_dataset(cfg, progress=wrote, workers=args.workers)
    split = {a: sum(r["correct_action"] == a for r in rows) for a in ("CATCH", "DODGE", "NO_ACTION")}
    unreachable = sum(r.get("body_reachable") is False for r in rows)
    print(
        f"wrote {len(rows)} scenes to {args.out} (CATCH/DODGE/NO_ACTION {split['CATCH']}/{split['DODGE']}/{split['NO_ACTION']}; "
        f"{unreachable} whose correct action the G1 cannot carry out: ground_truth.body_reachable)"
    )
    return 0


def _generate_described(args: argparse.Namespace, rate: float) -> int:
    if args.seed < 0:
        raise SpecError(f"seed must be a non-negative integer, got {args.seed}")
    sel = _selection(args.describe, args.model)
    spec = sample_spec(
        sel.family,
        args.seed,
        object_id=sel.object_id,
        room=sel.room,
        hints=sel.hints,
        adversarial_rate=rate,
        planner=sel.planner,
        description=sel.description,
        width=args.width,
        height=args.height,
        sourced=sel.sourced,
    )
    cfg = GenerateConfig(
        out=args.out,
        count=1,
        seed=args.seed,
        render=args.render,
        render_interval_s=args.render_interval,
        width=args.width,
        height=args.height,
    )
    sim = default_simulator()
    spec = label_spec(spec, sim)
    os.makedirs(args.out, exist_ok=True)
    _store(cfg, spec, sim)
    write_index(args.out, [index_row(spec)])
    print(
        f"wrote {spec.scene_id} ({sel.family}, {spec.object_id}, planner={sel.planner}): {spec.ground_truth.correct_action}"
    )
    return 0


def _validate(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.dir):
        raise FileNotFoundError(f"no such dataset directory: {args.dir}")
    dirs = scene_dirs(args.dir)
    if not dirs:
        raise FileNotFoundError(f"no scenes in {args.dir}")
    sim, bad, relabelled = default_simulator(), 0, 0
    for d in dirs:
        name = os.path.basename(d)
        try:
            problems = validate_scene(read_spec(os.path.join(d, "spec.json")), sim)
        except (SpecError, OSError) as exc:
            problems = [str(exc)]
        if problems:
            bad += 1
            relabelled += any(p.startswith("label changed") for p in problems)
            print(f"{name}: {'; '.join(problems)}", file=sys.stderr)
    print(f"{len(dirs) - bad}/{len(dirs)} scenes reproduce bit for bit")
    if relabelled:  # reported, never rewritten: the stored specs stay as they are
        print(f"{relabelled} scenes' labels changed under the current labeller; their spec.json files are unchanged")
    return 1 if bad else 0


def _show(args: argparse.Namespace) -> int:
    spec = read_spec(os.path.join(args.scene_dir, "spec.json"))
    if args.json:
        print(spec.to_json())
    else:
        print(describe(spec))
    if args.contact_sheet:
        print(f"contact sheet: {contact_sheet(args.scene_dir, args.contact_sheet)}")
    return 0


def describe(spec) -> str:
    o = spec_object(spec)
    gt = spec.ground_truth
    look = f" (looks like {OBJECTS[o.looks_like].name})" if o.adversarial else ""
    lines = [
        f"scene {spec.scene_id}: {spec.family} in the {spec.room.replace('_', ' ')}, seed {spec.seed}",
        f"  object   {o.name}{look}: {o.mass_kg} kg {o.material}, flags {', '.join(o.hazard_flags) or 'none'}",
        *([f"  sourced  {spec.sourced_object.sourced} (not in the library)"] if spec.sourced_object else []),
        f"  speed    band {spec.speed_band}, group {spec.speed_group or '-'}; planner {spec.planner}",
        f"  observer x {spec.observer.x_m:.2f} m, y {spec.observer.y_m:.2f} m, yaw {spec.observer.yaw_rad:.2f} rad",
        f"  hazards  {', '.join(spec.hazard_bodies)}; t0 {spec.t0_s} s, window {spec.observation_window_s} s",
        "  params   " + json.dumps({k: v for k, v in spec.params.items() if k not in ("event_origin", "event_target")}),
    ]
    if gt is None:
        lines.append("  ground truth: none (unlabelled)")
    else:
        imp = "none" if gt.impact_point is None else "[" + ", ".join(f"{c:.2f}" for c in gt.impact_point) + "] m"
        ttf = "never" if gt.time_to_floor_s is None else f"{gt.time_to_floor_s:.3f} s"
        lines += [
            f"  ground truth: {gt.correct_action} (dangerous: {gt.dangerous}; {', '.join(gt.reasons) or 'benign'})",
            f"    impact point {imp} at {gt.impact_time_s} s, {gt.impact_speed_mps} m/s; time to floor {ttf}",
        ]
    return "\n".join(lines)


def _plan(args: argparse.Namespace) -> int:
    sel = _selection(args.description, args.model)
    print(
        json.dumps(
            {
                "family": sel.family,
                "object_id": sel.object_id,
                "room": sel.room,
                "hints": sel.hints,
                "planner": sel.planner,
            }
        )
    )
    return 0
