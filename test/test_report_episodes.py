"""Episode pages in the report: a page per decision with the frames the model saw and its plan drawn over the
overhead view (checked pixel-exactly against the scene camera's projection), and the HTML report loaded in a
real headless Chromium: no console errors, the filters work, an episode's frames load."""

from __future__ import annotations

import json

import imageio.v3 as iio
import numpy as np
import pytest
from browser_helpers import Browser

from reacthuman.plan.plan import Pose2D
from reacthuman.scenes.cameras import project
from reacthuman.scenes.spec import CameraSpec
from reacthuman.reporting.aggregate import select_decisions
from reacthuman.reporting.episode_pages import episode_folder
from reacthuman.scoring.ledger import read_ledger
from reacthuman.plan.plan_path import base_path_robot, plan_geometry, plan_of_stored
from reacthuman.recording.viewer_config import DEFAULT
from reacthuman.reporting.report import write_report
from reacthuman.reporting.report_cli import main
from test_scoring_report import _write_run

W, H = 320, 180
IMPACT = [1.2, 0.1, 0.9]
CAMERAS = [
    {"name": "egocentric", "pos": [-0.3, 0.0, 1.45], "lookat": [1.5, 0.0, 0.8], "fov_deg": 70.0},
    {"name": "closeup", "pos": [1.0, 2.0, 1.2], "lookat": [1.0, 0.0, 0.8], "fov_deg": 60.0},
    {"name": "overhead", "pos": [0.6, 0.0, 4.2], "lookat": [0.6, 0.0, 0.5], "fov_deg": 70.0},
]
PLAN = {
    "walking_cmd": [0.5, 0.0, 0.4],
    "walking_duration": 0.8,
    "intent": "catch it",
    "keyframes": [
        {"t": 0.0, "left_hand": [0, 0, 0], "right_hand": [0, 0, 0], "knee_bend": 0.0},
        {"t": 0.6, "left_hand": [0.3, -0.1, 0.2], "right_hand": [0.3, 0.1, 0.2], "knee_bend": 0.0},
    ],
}


def _spec_json(scene_id: str) -> str:
    """A complete spec (the report reads every episode's spec, e.g. for the models' attribution): a sampled
    knife scene with this test's cameras, observer and impact point."""
    import dataclasses

    from reacthuman.scenes import sample_spec
    from reacthuman.scenes.spec import GroundTruth, ObserverSpec

    sampled = sample_spec("object_drop", 3, object_id="chefs_knife", width=W, height=H)
    cams = tuple(CameraSpec(c["name"], tuple(c["pos"]), tuple(c["lookat"]), c["fov_deg"], 1280, 720) for c in CAMERAS)
    gt = GroundTruth("CATCH", True, tuple(IMPACT), 0.5, sampled.speed_band, False)
    return dataclasses.replace(
        sampled, scene_id=scene_id, cameras=cams, observer=ObserverSpec(0.0, 0.0, 0.0), ground_truth=gt
    ).to_json()


def _episode(run, model: str, scene_id: str) -> None:
    folder = episode_folder(run, model, scene_id)
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(_spec_json(scene_id))
    (folder / "plan.json").write_text(json.dumps(PLAN))
    (folder / "raw_reply.txt").write_text('{"intent": "catch it"} <b>not html</b>')
    (folder / "outcome.json").write_text(json.dumps({"caught": True, "struck": False, "fell": False}))
    for v, view in enumerate(c["name"] for c in CAMERAS):
        for k in range(5):
            image = np.full((H, W, 3), 40 + 30 * v + 10 * k, np.uint8)  # plain grey: no red anywhere
            iio.imwrite(folder / f"brain_view_{view}_{k}.png", image)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    run = tmp_path_factory.mktemp("run")
    _write_run(run)
    for family in ("object_drop", "thrown_object"):
        for band in ("slow", "normal", "fast", "very_fast"):
            _episode(run, "alpha", f"{family}-{band}")
    videos = run / "videos" / "alpha" / "object_drop-fast"  # where the body writes them with --videos
    videos.mkdir(parents=True)
    for name in ("video_egocentric.mp4", "video_thirdperson.mp4"):
        (videos / name).write_bytes(b"")
    assert main([str(run)]) == 0
    return run


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def test_base_path_integrates_the_walking_command():
    straight = base_path_robot(plan_of_stored({"walking_cmd": [0.5, 0.0, 0.0], "walking_duration": 1.0}))
    assert straight[-1] == pytest.approx((0.5, 0.0, 0.0))
    turning = base_path_robot(plan_of_stored({"walking_cmd": [0.5, 0.0, 0.5], "walking_duration": 2.0}))
    # a circle of radius v / w = 1 m through 1 rad: (sin 1, 1 - cos 1), exactly (the drawn path is the scored one)
    assert turning[-1][0] == pytest.approx(np.sin(1.0), abs=1e-12)
    assert turning[-1][1] == pytest.approx(1 - np.cos(1.0), abs=1e-12)
    assert all(np.hypot(x, y - 1.0) == pytest.approx(1.0) for x, y, _ in turning)  # every point on that circle


def test_each_episode_gets_a_page_and_an_overlay(run):
    pages = sorted((run / "pages" / "alpha").glob("*.html"))
    assert len(pages) == 8
    assert not (run / "pages" / "beta").exists()  # no episode folders for beta: index rows without links
    text = pages[0].read_text()
    assert text.count("class='frame'") == 15
    assert "&lt;b&gt;not html&lt;/b&gt;" in text


def test_recorded_execution_videos_are_on_the_page(run):
    page = (run / "pages" / "alpha" / "object_drop-fast.html").read_text()
    assert page.count("<video") == 2
    assert "src='../../videos/alpha/object_drop-fast/video_thirdperson.mp4'" in page
    assert "<video" not in (run / "pages" / "alpha" / "object_drop-slow.html").read_text()


def test_overlay_draws_the_impact_point_and_the_base_path_where_the_camera_projects_them(run):
    overlay = iio.imread(run / "pages" / "alpha" / "object_drop-slow_plan.png")[..., :3].astype(int)
    assert overlay.shape[:2] == (H * DEFAULT.overlay_scale, W * DEFAULT.overlay_scale)
    cam = CameraSpec("overhead", tuple(CAMERAS[2]["pos"]), tuple(CAMERAS[2]["lookat"]), 70.0, W, H)

    def pixel(p):
        u, v, _ = project(cam, tuple(p))
        return overlay[int(v * DEFAULT.overlay_scale), int(u * DEFAULT.overlay_scale)]

    r, g, b = pixel(IMPACT)
    assert r > 200
    assert g < 80
    assert b < 80  # the red cross
    end = plan_geometry(PLAN, Pose2D(0.0, 0.0, 0.0)).base_path[-1]
    r, g, b = pixel(end)
    assert b > 180
    assert g > 180
    assert r < 80  # the cyan path's end marker
    far = overlay[5, 5]
    assert abs(int(far[0]) - int(far[2])) < 10  # and grey where nothing is drawn


def test_overlay_scale_comes_from_the_viewer_config(tmp_path):
    from PIL import Image

    from reacthuman.recording.viewer_config import default_config
    from reacthuman.reporting.plan_overlay import draw_plan_overlay

    frame = tmp_path / "overhead.png"
    Image.new("RGB", (W, H), (128, 128, 128)).save(frame)
    spec = {
        "cameras": CAMERAS,
        "observer": {"x_m": 0.0, "y_m": 0.0, "yaw_rad": 0.0},
        "ground_truth": {"impact_point": IMPACT},
    }
    out = draw_plan_overlay(frame, spec, PLAN, tmp_path / "plan.png", config=default_config(overlay_scale=2))
    overlay = iio.imread(out)[..., :3].astype(int)
    assert overlay.shape[:2] == (2 * H, 2 * W)
    u, v, _ = project(
        CameraSpec("overhead", tuple(CAMERAS[2]["pos"]), tuple(CAMERAS[2]["lookat"]), 70.0, W, H), tuple(IMPACT)
    )
    r, g, b = overlay[int(2 * v), int(2 * u)]
    assert r > 200
    assert g < 80
    assert b < 80  # the red cross where the camera projects the impact point


def test_markdown_index_links_pages(run):
    md = (run / "report.md").read_text()
    assert "## Episodes" in md
    assert "(pages/alpha/object_drop-slow.html)" in md
    assert "| Kitchen knife |" in md  # the episodes' specs draw the knife's model: attributed


def test_report_loads_in_headless_chromium_filters_and_shows_an_episode(run, browser):
    browser.load(run / "report.html")
    assert browser.errors() == []
    rows = browser.evaluate("document.querySelectorAll('#episodes tbody tr').length")
    assert rows == len(select_decisions(read_ledger(run)).scored)
    visible = "Array.from(document.querySelectorAll('#episodes tbody tr')).filter(r => r.style.display !== 'none')"
    select = (
        "(f, v) => { const s = document.querySelector(`select[data-field=${f}]`); s.value = v;"
        " s.dispatchEvent(new Event('change')); }"
    )
    browser.evaluate(f"({select})('model', 'alpha')")
    shown = browser.evaluate(f"{visible}.map(r => r.dataset.model)")
    assert shown
    assert set(shown) == {"alpha"}
    assert len(shown) < rows
    browser.evaluate(f"({select})('family', 'object_drop')")
    assert (
        browser.evaluate(f"{visible}.map(r => r.dataset.family + '/' + r.dataset.model)") == ["object_drop/alpha"] * 4
    )
    browser.evaluate(f"({select})('model', '')")
    browser.evaluate(f"({select})('family', '')")
    assert browser.evaluate(f"{visible}.length") == rows
    link = browser.evaluate("document.querySelector('#episodes a').getAttribute('href')")
    browser.load(run / link)
    assert browser.errors() == []
    widths = browser.evaluate("Array.from(document.querySelectorAll('img.frame')).map(i => i.naturalWidth)")
    assert widths == [W] * 15
    assert browser.evaluate("document.querySelector('img.overlay').naturalWidth") == W * DEFAULT.overlay_scale
    back = browser.evaluate("document.querySelector('a').getAttribute('href')")
    assert (run / "pages" / "alpha" / back).resolve() == (run / "report.html").resolve()


def test_a_report_written_elsewhere_links_back_to_the_run(run, tmp_path, browser):
    out = tmp_path / "elsewhere"
    write_report(run, out)
    page = out / "pages" / "alpha" / "thrown_object-fast.html"
    browser.load(page)
    assert browser.errors() == []
    assert browser.evaluate("Array.from(document.querySelectorAll('img.frame')).every(i => i.naturalWidth > 0)")
