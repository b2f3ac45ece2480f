"""The description stage of dataset generation: each scene is described in words and planned from them.

The paper's pipeline turns a description into a scene through the planner (the frozen model, or the
deterministic rule parser when there is none). For `--count`/`--balanced` datasets, `planned_spec` words the
seed's draw (family, object, room, the family's hints) with the family's template, passes the sentence
through `planner.plan` and samples the spec from the planner's selection, recording the description and the
planner path. The rule parser reads every template back to the same selection, so with it a dataset is the
same as sampling the seed directly except for `description` and `planner` (test_scenes_sourcing checks
every family, object, room and hint). A model may choose another object or room of the same family; an
answer in another family is replaced by the rule parser's (the dataset's family quotas hold).
"""

from __future__ import annotations

import atexit
import logging
from functools import lru_cache
from typing import Any

from reacthuman.llm import make_client
from reacthuman.scenes.catalog import OBJECTS
from reacthuman.scenes.planner import plan, rule_parse
from reacthuman.scenes.randomize import sample_spec
from reacthuman.scenes.spec import SceneSpec

log = logging.getLogger(__name__)

# One sentence per family, built from the planner's strongest phrases for it. {obj}: the object with its
# article; {room}, {support}, {surface}: the drawn room and hints in words; {regime}: the ladder's regime.
TEMPLATES: dict[str, str] = {
    "object_drop": "{obj} falls off the {support} in the {room}",
    "shelf_slide": "{obj} slides off the top shelf in the {room}",
    "hanging_fall": "{obj} comes off the wall in the {room}",
    "ceiling_drop": "{obj} falls from the ceiling in the {room}",
    "sliding_object": "{obj} slides down a ramp in the {room}",
    "rolling_ball": "{obj} rolls off the {support} in the {room}",
    "surface_cascade": "{obj} hops from the {support} onto the {surface} then the floor in the {room}",
    "furniture_tip": "{obj} tips over and falls forward in the {room}",
    "stack_collapse": "a stacked tower of {name} collapses on the {support} in the {room}",
    "ladder_slip": "{obj} {regime} in the {room}",
    "door_swing": "{obj} swings open in the {room}",
    "pendulum_swing": "{obj} swings like a pendulum in the {room}",
    "thrown_object": "{obj} is thrown at the robot in the {room}",
    "bouncing_object": "{obj} bounces towards the robot in the {room}",
    "stair_tumble": "{obj} tumbles down the stairs in the {room}",
    "chain_reaction": "{obj} knocks into the next object on the {support} in the {room}",
    "multi_object": "a line of {name} pieces falls one after another on the {support} in the {room}",
}
REGIME_WORDS = {"slide": "slips at its foot", "tip": "topples backwards"}


def scene_description(family: str, object_id: str, room: str, hints: dict[str, str]) -> str:
    """The sentence for a drawn scene (the object as the camera shows it: an adversarial twin by its name)."""
    name = OBJECTS[object_id].name
    article = "an" if name[:1].lower() in "aeiou" else "a"
    words = {
        "obj": f"{article} {name}",
        "name": name,
        "room": room.replace("_", " "),
        "support": hints.get("support", ""),
        "surface": hints.get("surface", ""),
        "regime": REGIME_WORDS.get(hints.get("regime", ""), ""),
    }
    return TEMPLATES[family].format(**words)


@lru_cache(maxsize=4)
def _client(model: str) -> Any:

    client = make_client(model)  # one per process, kept for the run (an embedded model starts once)
    atexit.register(client.close)
    return client


def planned_spec(
    family: str,
    seed: int,
    band: str,
    *,
    adversarial_rate: float,
    width: int,
    height: int,
    model: str | None = None,
    drawn: SceneSpec | None = None,
) -> SceneSpec:
    """The dataset's spec of (family, seed, band) through the description stage. `drawn`: the seed's
    direct draw when the caller has it already."""
    drawn = drawn or sample_spec(
        family, seed, speed_band=band, adversarial_rate=adversarial_rate, width=width, height=height
    )
    text = scene_description(family, drawn.object_id, drawn.room, drawn.params.get("hints", {}))
    sel = plan(text, _client(model)) if model else plan(text)
    if sel.family != family:
        log.warning("planner chose %s for a %s scene (%r); using the rule parser", sel.family, family, text)
        sel = rule_parse(text)
    return sample_spec(
        family,
        seed,
        object_id=sel.object_id,
        room=sel.room,
        hints=sel.hints,
        speed_band=band,
        adversarial_rate=adversarial_rate,
        planner=sel.planner,
        description=text,
        width=width,
        height=height,
        sourced=sel.sourced,
    )
