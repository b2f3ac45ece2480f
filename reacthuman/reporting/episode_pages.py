"""One HTML page per decision, and the report's filterable index of them.

A page (OUT/pages/<model>/<scene_id>.html) shows what happened in one episode from its folder
(RUN_DIR/episodes/<model>/<scene_id>/): the frames of each view the model saw, its plan drawn over the
overhead view (plan_overlay), the execution videos when the run recorded them (RUN_DIR/videos/...), the
outcome and the score, the plan and the raw reply, and how to open the episode's bag in a 3D viewer. Pages
link to the episode's files in place (relative paths). The frames are the folder's brain_view PNGs when its
bag was dropped; otherwise they are read from the bag's observation and written beside the page
(OUT/pages/<model>/<scene_id>_frames/), since the folder keeps them only once. The index lists every scored
decision with its page; the HTML report filters it by model, family, action and rule.
"""

from __future__ import annotations

import html
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from reacthuman.recording.episode_files import safe_name, write_frames
from reacthuman.recording.images import observation_frames_in_bag
from reacthuman.reporting.aggregate import Decisions
from reacthuman.scoring.ledger import DecisionRecord
from reacthuman.reporting.plan_overlay import draw_plan_overlay
from reacthuman.core.report_html import Block, Custom, Heading, Paragraph, atomic_write_text

VIEWS = ("egocentric", "closeup", "overhead")
PAGE_WORKERS = 2
_FRAME = re.compile(r"brain_view_(?P<view>.+)_(?P<k>\d+)\.png$")
FILTERS = ("model", "family", "action", "rule")


@dataclass(frozen=True)
class EpisodeEntry:
    record: DecisionRecord
    page: str | None  # relative to the report's folder; None when the run kept no episode folder

    def value(self, name: str) -> str:
        return str(getattr(self.record, name) or "none")

    @property
    def outcome(self) -> str:
        r = self.record
        parts = [name for name, flag in (("caught", r.caught), ("struck", r.struck), ("fell", r.fell)) if flag]
        return ", ".join(parts) or ("not executed" if r.caught is None else "untouched")


def episode_folder(run_dir: Path, model: str, scene_id: str) -> Path:
    return Path(run_dir) / "episodes" / safe_name(model) / safe_name(scene_id)


def frames_by_view(folder: Path, extract_to: Path | None = None) -> dict[str, list[Path]]:
    """Each view's frame files in order: the folder's PNGs, or (with `extract_to`) the bag's frames written
    there when the folder keeps none."""
    bag = folder / "bag"
    if extract_to is not None and not any(folder.glob("brain_view_*.png")) and bag.is_dir():
        extract_to.mkdir(parents=True, exist_ok=True)
        write_frames(extract_to, observation_frames_in_bag(bag))
        folder = extract_to
    views: dict[str, list[tuple[int, Path]]] = {}
    for f in folder.glob("brain_view_*.png"):
        m = _FRAME.match(f.name)
        if m:
            views.setdefault(m["view"], []).append((int(m["k"]), f))
    order = {v: i for i, v in enumerate(VIEWS)}
    return {v: [p for _, p in sorted(views[v])] for v in sorted(views, key=lambda v: (order.get(v, 99), v))}


def _videos(run_dir: Path, model: str, scene_id: str) -> list[Path]:
    folder = Path(run_dir) / "videos" / model.replace("/", "_") / scene_id
    return sorted(folder.glob("*.mp4")) if folder.is_dir() else []


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _rel(target: Path, page: Path) -> str:
    return Path(os.path.relpath(target, page.parent)).as_posix()


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "-" if value is None else str(value)


def _dl(pairs: list[tuple[str, object]]) -> str:
    return (
        "<table class='kv'>"
        + "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(_fmt(v))}</td></tr>" for k, v in pairs)
        + "</table>"
    )


_PAGE_STYLE = """body{font-family:sans-serif;max-width:1200px;margin:1.5em auto;color:#222}
.frames{display:flex;gap:4px;flex-wrap:wrap}.frames img{width:232px;border:1px solid #ccc}
table.kv th{text-align:left;padding-right:1em;font-weight:normal;color:#555}pre{white-space:pre-wrap;background:#f6f6f6;
padding:8px}.cols{display:flex;gap:2em;flex-wrap:wrap}img.overlay{max-width:100%;border:1px solid #ccc}
video{max-width:48%}"""


def _page_html(
    r: DecisionRecord,
    folder: Path,
    run_dir: Path,
    page: Path,
    report: Path,
    overlay: Path | None,
    frames: dict[str, list[Path]],
) -> str:
    plan, outcome = _read_json(folder / "plan.json"), _read_json(folder / "outcome.json")
    raw = (folder / "raw_reply.txt").read_text() if (folder / "raw_reply.txt").is_file() else ""
    title = f"{r.model} on {r.scene_id}"
    score = [
        ("correct action", r.correct_action),
        ("action", r.action),
        ("SAA", r.saa),
        ("safe", r.safe),
        ("rule", r.rule),
        ("d_end (m)", r.d_end),
        ("d_min (m)", r.d_min),
        ("AIA", r.aia),
    ]
    scene = [
        ("family", r.family),
        ("object", r.object),
        ("room", r.room),
        ("speed band", r.speed_band),
        ("adversarial", r.adversarial),
    ]
    executed = (
        [(k, v) for k, v in (outcome or {}).items() if not isinstance(v, list)] if isinstance(outcome, dict) else []
    )
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_PAGE_STYLE}</style></head><body>",
        f"<p><a href='{html.escape(_rel(report, page))}'>back to the report</a></p><h1>{html.escape(title)}</h1>",
        f"<div class='cols'><div><h2>Score</h2>{_dl(score)}</div><div><h2>Scene</h2>{_dl(scene)}</div>"
        f"<div><h2>Outcome</h2>{_dl(executed) if executed else '<p>no outcome recorded</p>'}</div></div>",
        "<h2>What the model saw</h2>",
    ]
    for view, files in frames.items():
        imgs = "".join(
            f"<img class='frame' src='{html.escape(_rel(f, page))}' alt='{html.escape(view)} frame {k}'>"
            for k, f in enumerate(files)
        )
        parts.append(f"<h3>{html.escape(view)}</h3><div class='frames'>{imgs}</div>")
    parts.append("<h2>The plan over the overhead view</h2>")
    if overlay is not None:
        parts.append(
            f"<img class='overlay' src='{html.escape(_rel(overlay, page))}' alt='plan over the overhead view'>"
            "<p>Cyan: base path of the walking command (circle: start, square: end); green and magenta: "
            "left and right hand keyframes; red cross: the ground-truth impact point.</p>"
        )
    else:
        parts.append("<p>(no overhead frame in this episode)</p>")
    videos = _videos(run_dir, r.model, r.scene_id)
    if videos:
        parts.append(
            "<h2>Execution</h2>"
            + "".join(f"<video controls preload='none' src='{html.escape(_rel(v, page))}'></video>" for v in videos)
        )
    plan_text = json.dumps(plan, indent=1) if plan is not None else "no plan"
    parts += [f"<h2>Plan</h2><pre>{html.escape(plan_text)}</pre>", f"<h2>Raw reply</h2><pre>{html.escape(raw)}</pre>"]
    bag = folder / "bag"
    if bag.is_dir():
        parts.append(
            f"<h2>In 3D</h2><p>The bag <code>{html.escape(_rel(bag, page))}</code> carries /tf, "
            "/robot_description and the scene markers: open it in Foxglove with "
            "<code>config/foxglove/episode_layout.json</code>, or play it into RViz with "
            "<code>config/rviz/episode.rviz</code> (docs/watching.md).</p>"
        )
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_episode_page(r: DecisionRecord, run_dir: Path, out_dir: Path) -> Path | None:
    """The page of one decision, or None when the run has no folder for its episode."""
    folder = episode_folder(run_dir, r.model, r.scene_id)
    if not folder.is_dir():
        return None
    page = out_dir / "pages" / safe_name(r.model) / f"{safe_name(r.scene_id)}.html"
    spec = _read_json(folder / "spec.json")
    plan = _read_json(folder / "plan.json")
    frames = frames_by_view(folder, page.with_name(f"{safe_name(r.scene_id)}_frames"))
    overheads = frames.get("overhead", [])
    overlay = None
    if overheads and isinstance(spec, dict) and spec.get("cameras"):
        overlay = draw_plan_overlay(
            overheads[-1],
            spec,
            plan if isinstance(plan, dict) else None,
            page.with_name(f"{safe_name(r.scene_id)}_plan.png"),
        )
    atomic_write_text(page, _page_html(r, folder, Path(run_dir), page, out_dir / "report.html", overlay, frames))
    return page


def write_episode_pages(d: Decisions, run_dir: Path, out_dir: Path) -> list[EpisodeEntry]:
    """Every decision's page, in the decisions' order. Two pages at a time: most of a page is PNG encoding of the
    frames it extracts from the bag, which Pillow does without the GIL, and each page writes files of its own."""
    run_dir, out_dir = Path(run_dir), Path(out_dir)
    with ThreadPoolExecutor(max_workers=PAGE_WORKERS) as pool:
        pages = list(pool.map(lambda r: write_episode_page(r, run_dir, out_dir), d.scored))
    return [EpisodeEntry(r, page.relative_to(out_dir).as_posix() if page else None) for r, page in zip(d.scored, pages)]


def index_markdown(entries: list[EpisodeEntry]) -> str:
    lines = ["| model | scene | family | action | correct | rule | outcome |", "|---|---|---|---|---|---|---|"]
    for e in entries:
        r = e.record
        scene = f"[{r.scene_id}]({e.page})" if e.page else r.scene_id
        lines.append(
            f"| {r.model} | {scene} | {r.family} | {e.value('action')} | {r.correct_action} | "
            f"{e.value('rule')} | {e.outcome} |"
        )
    return "\n".join(lines)


_FILTER_SCRIPT = """<script>
(function(){
  var table=document.getElementById('episodes');
  var selects=document.querySelectorAll('select.episode-filter');
  function apply(){
    var shown=0;
    table.querySelectorAll('tbody tr').forEach(function(row){
      var ok=true;
      selects.forEach(function(s){ if(s.value!=='' && row.dataset[s.dataset.field]!==s.value){ok=false;} });
      row.style.display=ok?'':'none'; if(ok){shown++;}
    });
    document.getElementById('episodes-shown').textContent=shown;
  }
  selects.forEach(function(s){ s.addEventListener('change', apply); });
  apply();
})();
</script>"""


def index_html(entries: list[EpisodeEntry]) -> str:
    filters = []
    for name in FILTERS:
        values = sorted({e.value(name) for e in entries})
        options = "<option value=''>all</option>" + "".join(
            f"<option value='{html.escape(v)}'>{html.escape(v)}</option>" for v in values
        )
        filters.append(f"<label>{name} <select class='episode-filter' data-field='{name}'>{options}</select></label>")
    rows = []
    for e in entries:
        r = e.record
        data = " ".join(f"data-{n}='{html.escape(e.value(n))}'" for n in FILTERS)
        scene = f"<a href='{html.escape(e.page)}'>{html.escape(r.scene_id)}</a>" if e.page else html.escape(r.scene_id)
        cells = [
            html.escape(r.model),
            scene,
            html.escape(r.family),
            html.escape(e.value("action")),
            html.escape(str(r.correct_action)),
            html.escape(e.value("rule")),
            html.escape(e.outcome),
        ]
        rows.append(f"<tr {data}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{c}</th>" for c in ("model", "scene", "family", "action", "correct", "rule", "outcome"))
    return (
        f"<div class='filters'>{' '.join(filters)} <span><span id='episodes-shown'>{len(entries)}</span> of "
        f"{len(entries)} shown</span></div><table id='episodes'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>{_FILTER_SCRIPT}"
    )


def episode_section(d: Decisions, run_dir: Path, out_dir: Path) -> list[Block]:
    """Writes every decision's page; the report's "Episodes" section that links them."""
    entries = write_episode_pages(d, run_dir, out_dir)
    return [
        Heading("Episodes"),
        Paragraph(
            "Each decision's page shows the frames the model saw, its plan over the overhead view, the "
            "outcome and, when recorded, the execution videos."
        ),
        Custom(index_markdown(entries), index_html(entries)),
    ]
