"""The initial prompt: task, visible objects (permission-filtered), the tool API, the scene's own
conventions (timestep, gravity axis), the iteration budget, answer format, and 0/1/3 worked examples."""

from __future__ import annotations

import json

import numpy as np

from physment.tools import ToolBox
from physment.toolspec import api_listing

PROMPTING = ("zero-shot", "one-shot", "few-shot")

_ANSWER_FORMAT = {
    "comparison": "the object id of the object asked for, as a number (e.g. 2)",
    "calculation": "one number in SI units, without units or words (e.g. 3.27)",
    "computation": "a number, or a JSON list of numbers in the order the task asks (e.g. [12.6, 25.2])",
    "observation": 'one short lowercase keyword or phrase describing what happens (e.g. "stops")',
}

EXAMPLES = (
    (
        "A ball (object 1) is dropped. Find its speed after 1 s.",
        [
            (
                "The ball starts at rest; I let it fall for 1 s and read its velocity.",
                [
                    {"tool": "step", "arguments": {"duration": 1.0}},
                    {"tool": "get_velocity", "arguments": {"object_id": 1}},
                ],
                '[{"tool": "step", "result": {"simulation_time_s": 1.0}}, {"tool": "get_velocity", "result": '
                '{"linear_velocity_m_s": [0, 0, -9.81], "speed_m_s": 9.81}}]',
            ),
            ("The measured speed is 9.81 m/s.", [{"tool": "answer", "arguments": {"answer": 9.81}}], None),
        ],
    ),
    (
        "A box (object 1) rests on a frictionless floor. Find its mass.",
        [
            (
                "Push it with 10 N along x for 1 s, then read its velocity: m = F t / v.",
                [
                    {"tool": "apply_force", "arguments": {"object_id": 1, "force_vector": [10, 0, 0], "duration": 1.0}},
                    {"tool": "step", "arguments": {"duration": 1.0}},
                    {"tool": "get_velocity", "arguments": {"object_id": 1}},
                ],
                '[..., {"tool": "get_velocity", "result": {"linear_velocity_m_s": [2.5, 0, 0]}}]',
            ),
            ("v = 2.5 m/s, so m = 10 * 1 / 2.5 = 4 kg.", [{"tool": "answer", "arguments": {"answer": 4.0}}], None),
        ],
    ),
    (
        "Two spheres (objects 1 and 2) sit on a ramp. Which one is hollow?",
        [
            (
                "A hollow sphere rolls down more slowly; let both roll for 1 s and compare displacements.",
                [
                    {"tool": "step", "arguments": {"duration": 1.0}},
                    {"tool": "get_displacement", "arguments": {"object_id": 1}},
                    {"tool": "get_displacement", "arguments": {"object_id": 2}},
                ],
                '[..., {"tool": "get_displacement", "result": {"distance_m": 0.88}}, {"tool": "get_displacement", '
                '"result": {"distance_m": 1.03}}]',
            ),
            (
                "Object 1 travelled less (0.88 m < 1.03 m): it is the hollow one.",
                [{"tool": "answer", "arguments": {"answer": 1}}],
                None,
            ),
        ],
    ),
)


def _axes(gravity: np.ndarray) -> str:
    if not np.any(gravity):
        return "gravity is switched off in this scene"
    axis = int(np.argmax(np.abs(gravity)))
    sign = "-" if gravity[axis] < 0 else "+"
    name = "xyz"[axis]
    return (
        f"gravity is {np.linalg.norm(gravity):.4g} m/s^2 along {sign}{name}, so {name} is "
        f"{'up' if sign == '-' else 'down'}"
    )


def _objects(toolbox: ToolBox) -> str:
    lines = []
    for oid in toolbox.known_ids():
        params = toolbox.parameters(oid)
        shown = {k: v for k, v in params.items() if k not in ("object_id", "name", "size_convention")}
        lines.append(f"- object {oid} ({params['name']})" + (f": {json.dumps(shown)}" if shown else ""))
    hidden = len(toolbox.lab.object_ids()) - len(toolbox.known_ids())
    text = "\n".join(lines) or "- (none listed)"
    return text + ("\nSome objects may not be listed." if hidden > 0 else "")


def _example_text(examples: tuple) -> str:
    blocks = []
    for task, turns in examples:
        out = [f"Task: {task}"]
        for i, (reasoning, calls, result) in enumerate(turns, 1):
            out.append(f"Iteration {i} reply: " + json.dumps({"reasoning": reasoning, "tool_calls": calls}))
            if result:
                out.append(f"Tool results: {result}")
        blocks.append("\n".join(out))
    return "\n\n".join(blocks)


def system_prompt() -> str:
    return (
        "You are a physicist running experiments in a MuJoCo simulation through tools. Nothing is known "
        "until you measure it: apply forces, step time, read states, change the scene, then answer."
    )


def build_prompt(
    toolbox: ToolBox,
    budget: int,
    prompting: str = "zero-shot",
    brief_api: bool = False,
    tools: tuple[str, ...] | None = None,
) -> str:
    if prompting not in PROMPTING:
        raise ValueError(f"prompting must be one of {PROMPTING}, got {prompting!r}")
    scene, lab = toolbox.scene, toolbox.lab
    fmt = _ANSWER_FORMAT.get(scene.problem_type, _ANSWER_FORMAT["calculation"])
    parts = [
        f"## Scene: {scene.name}\nTask: {scene.task}" + (f"\n{scene.description}" if scene.description else ""),
        f"## Objects\n{_objects(toolbox)}",
        "## Conventions\nSI units. Right-handed world frame; "
        + _axes(lab.gravity)
        + f". Simulation timestep: {lab.timestep_s:g} s. Object ids are the numbers above.",
        "## Tools\nSI units, world frame; vectors are [x, y, z] lists.\n" + api_listing(brief_api, tools),
        f"## Budget\nYou have at most {budget} iterations (replies). Each reply may call several tools, run in "
        "order; their results come back in the next message. If you have not called `answer` by the last "
        "iteration, the episode counts as wrong.",
        f"## Answer format\nCall answer(answer) with {fmt}.",
        '## Reply format\nReply with one JSON object: {"reasoning": "<short>", "tool_calls": [{"tool": '
        '"<name>", "arguments": {...}}, ...]} (or use native tool calls if you have them).',
    ]
    if prompting != "zero-shot":
        chosen = EXAMPLES[:1] if prompting == "one-shot" else EXAMPLES
        parts.append("## Worked example" + ("s" if len(chosen) > 1 else "") + "\n" + _example_text(chosen))
    return "\n\n".join(parts)
