"""One whole episode in one process, with the spine in the loop and a plan known in advance: what the body's
tests and benchmarks run (the ROS graph runs the same steps across nodes, with a brain in the freeze)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from reacthuman.control.spine import Spine
from reacthuman.plan import Plan
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim_bridge.body import Body, FrameSet
from reacthuman.sim_bridge.freeze import Verdict
from reacthuman.sim_bridge.outcome import Outcome


@dataclass(frozen=True)
class EpisodeResult:
    frames: list[FrameSet]
    verdict: Verdict | None
    outcome: Outcome


def run_episode(body: Body, spec: SceneSpec, plan: Plan | None, spine: Spine | None = None,
                plan_scene_id: str | None = None) -> EpisodeResult:
    """Load, simulate the window with the spine standing, offer `plan` (for `plan_scene_id`, default the
    scene's) at once, and execute. plan None: no plan is offered; the body waits out the freeze timeout
    on the wall clock (keep it short) and the spine stands."""
    spine = spine or Spine()
    body.load(spec)
    spine.reset(None)
    frames = body.simulate_window(spine.command)
    verdict = None
    if plan is not None:
        verdict = body.offer_plan(plan_scene_id or spec.scene_id)
        if verdict is Verdict.ACCEPTED:
            spine.set_plan(plan)
    while not body.released:
        time.sleep(0.01)
        body.poll()
    outcome = body.execute(spine.command)
    return EpisodeResult(frames, verdict, outcome)
