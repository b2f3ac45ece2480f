"""What the assistant can perceive: a labelled object keeps its colour and shows its label; objects in a
closed box are hidden until it is opened."""

from __future__ import annotations

import numpy as np

from interactiveworld.bench.taskpack import default_tasks_dir, load_pack
from interactiveworld.world.labels import rgb_of
from interactiveworld.world.objects import COLORS_RGBA


def test_labelled_carton_shows_its_colour_and_its_label():
    from interactiveworld.episode import Episode

    p = load_pack(default_tasks_dir() / "decision-juice-0.json")
    carton = next(o for o in p.scene.objects if o.category == "juice" and o.text == "opened")
    ep = Episode(p, render=True)
    try:
        ep.pending.clear()
        ep.hear(f"The {carton.name.replace('_', ' ')} is on the {carton.support.replace('_', ' ')}.")
        assert ep.execute(f"read the {carton.name.replace('_', ' ')}").ok
        frame = next(f.image for f in ep.pending if f.label.startswith("reading")).astype(int)
    finally:
        ep.close()
    centre = frame[30:210, 100:220]
    body = np.array(rgb_of(COLORS_RGBA[carton.color]))
    # lit by one light, a face shows its colour scaled: compare chromaticity, not brightness
    chroma = centre / np.maximum(centre.sum(axis=2, keepdims=True), 1)
    coloured = np.linalg.norm(chroma - body / body.sum(), axis=2) < 0.05
    label = centre.min(axis=2) > 200
    assert coloured.mean() > 0.15, "the carton's own colour is not seen"
    assert label.mean() > 0.05, "its white label is not seen"
    rows, cols = np.flatnonzero(label.any(axis=1)), np.flatnonzero(label.any(axis=0))
    panel = centre[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    assert (panel.max(axis=2) < 130).mean() > 0.03, "the label carries no writing"
