"""`physment run`: episodes over a scene folder for one agent and budget, resumable.

RUN_DIR/results.jsonl gets one row per episode (append-only; a row is written only after its transcript);
RUN_DIR/transcripts/<agent>/b<budget>/<prompting>/Scene<N>.json holds every tool call and result. Rerunning
the same command skips episodes already in results.jsonl."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import logging
import re
from pathlib import Path
from typing import Any, Iterator

from physment.agents import ModelAgent, OracleAgent
from physment.authors.dialogue import DIALOGUES
from physment.authors.tools import ALL_ON, tool_semantics
from physment.cells import CELL_MAP_WORDS, assign_cells, cell_options, is_authors_scene
from physment.episode import protocol_config, run_episode, tools_name
from physment.lab import LabError
from physment.protocol import DEFAULT_PROTOCOL, MATCHERS, PROTOCOLS
from physment.record import EpisodeRecord
from physment.scene import Scene, load_scenes_lenient, problem_line
from reacthuman.core.atomic import atomic_write_text as write_atomic
from reacthuman.core.jsonl import append_jsonl
from reacthuman.core.records import read_records
from reacthuman.llm import make_client

LOG = logging.getLogger(__name__)
RESULTS_FILE = "results.jsonl"
INVOCATIONS_FILE = "invocations.jsonl"  # one line per `physment run` on this folder: what was asked, when


class RunError(ValueError):
    """A run that cannot start (unknown model, missing key); the message says which."""


_SAFE_RE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclasses.dataclass
class RunConfig:
    scenes: Path
    agent: str  # the model's name (without its ?options): rows, transcripts and reports name it so
    budget: int
    out: Path
    prompting: str = "zero-shot"
    tool_mode: str = "auto"
    all_scenes: bool = False  # also scenes whose smallest assigned budget is above this budget
    limit: int | None = None
    max_tokens: int | None = None  # None: the protocol's (strict 512; paper: the preset's own limit)
    brief_api: bool = False
    protocol: str = DEFAULT_PROTOCOL
    tools: str | None = None  # ours | authors[:-switch,...]; None: authors for their scenes under paper, else ours
    matcher: str | None = None  # strict | paper | authors: which verdict is `correct` (default: the protocol's)
    cell_map: Path | str | None = None  # a file (scene id -> cell), or `authors` / `inferred` (physment.cells)
    # ours | authors | authors-early (physment.authors.dialogue); None: the authors' for their scenes under
    # paper, zero-shot (as --tools), else ours
    dialogue: str | None = None
    agent_options: str = ""  # the model's ?options (they name environment variables, never keys)
    # filled by run(): 'Scene<N>: why' for each scene that could not be loaded or compiled (skipped, not fatal)
    skipped: list[str] = dataclasses.field(default_factory=list)

    @property
    def agent_entry(self) -> str:
        """The `--models` entry the model's client is built from: the name with its options."""
        return f"{self.agent}?{self.agent_options}" if self.agent_options else self.agent

    def __post_init__(self) -> None:
        self.scenes, self.out = Path(self.scenes), Path(self.out)
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {self.protocol!r}")
        tool_semantics(self.tools)  # a bad spelling or an unknown switch fails here, naming it
        if self.matcher is not None and self.matcher not in MATCHERS:
            raise ValueError(f"matcher must be one of {', '.join(MATCHERS)}, got {self.matcher!r}")
        if self.dialogue is not None and self.dialogue not in DIALOGUES:
            raise ValueError(f"dialogue must be one of {', '.join(DIALOGUES)}, got {self.dialogue!r}")
        if self.dialogue not in (None, "ours") and self.tools == "ours":
            raise ValueError("--dialogue authors lists their tools: it cannot run with --tools ours")
        if self.dialogue not in (None, "ours") and self.prompting != "zero-shot":
            raise ValueError(
                f"--dialogue {self.dialogue} is their zero-shot prompt; --prompting {self.prompting} "
                "needs --dialogue ours"
            )
        if self.max_tokens is not None and int(self.max_tokens) < 1:
            raise ValueError(f"max_tokens must be >= 1, got {self.max_tokens}")
        if self.cell_map is not None and str(self.cell_map) not in CELL_MAP_WORDS and not Path(self.cell_map).is_file():
            raise ValueError(f"cell_map {self.cell_map} is not a file")
        if not self.agent:
            raise ValueError("agent must be a name (oracle, local, or a model preset)")
        if int(self.budget) < 1:
            raise ValueError(f"budget must be >= 1, got {self.budget}")
        if self.tool_mode not in ("auto", "native", "json", "text"):
            raise ValueError(f"tool_mode must be auto, native, json or text, got {self.tool_mode!r}")
        if self.prompting not in ("zero-shot", "one-shot", "few-shot"):
            raise ValueError(f"prompting must be zero-shot, one-shot or few-shot, got {self.prompting!r}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be >= 1, got {self.limit}")


def safe_name(name: str) -> str:
    return _SAFE_RE.sub("_", name).strip("_") or "agent"


def read_results(run_dir: Path) -> list[EpisodeRecord]:
    """The episodes of RUN_DIR/results.jsonl (none before the first): a torn last line (an interrupted write)
    is skipped, its episode reruns; any other bad line raises LedgerError naming it."""
    return read_records(Path(run_dir) / RESULTS_FILE, EpisodeRecord.from_dict)


def append_row(run_dir: Path, row: dict) -> None:
    """One fsynced line; a torn last line of an interrupted run is moved out first (reacthuman.core.jsonl)."""
    append_jsonl(Path(run_dir) / RESULTS_FILE, row, default=float, ensure_ascii=True, allow_nan=True)


@contextlib.contextmanager
def make_agent(cfg: RunConfig) -> Iterator[Any]:
    if cfg.agent == "oracle":
        yield OracleAgent(tools=PROTOCOLS[cfg.protocol].tools)
        return

    try:
        client = make_client(cfg.agent_entry)
    except (ValueError, FileNotFoundError) as exc:
        raise RunError(f"agent {cfg.agent!r}: {exc}") from exc
    with client:
        yield ModelAgent(
            client,
            cfg.agent,
            tool_mode=cfg.tool_mode,
            max_tokens=effective_max_tokens(cfg),
            tools=PROTOCOLS[cfg.protocol].tools,
        )


def effective_max_tokens(cfg: RunConfig) -> int | None:
    return cfg.max_tokens if cfg.max_tokens is not None else PROTOCOLS[cfg.protocol].max_tokens


def selected_scenes(cfg: RunConfig, skipped: list[str] | None = None) -> list[Scene]:
    """The scenes this run covers; folders that do not load are appended to `skipped` ('Scene<N>: why')."""
    scenes, problems = load_scenes_lenient(cfg.scenes)
    for line in problems:
        LOG.info("skipped %s", line)  # the caller reports them (the command line prints each)
    if skipped is not None:
        skipped += problems
    cell_map, authors = cell_options(cfg.cell_map)
    assign_cells(scenes, cell_map, authors)
    if not (cfg.all_scenes or PROTOCOLS[cfg.protocol].all_scenes):
        skipped = [s.scene_id for s in scenes if cfg.budget < min(s.budgets)]
        if skipped:
            LOG.info(
                "budget %d is below the smallest budget of %d scene(s) (--all-scenes runs them too); skipped: %s",
                cfg.budget,
                len(skipped),
                ", ".join(skipped[:10]) + (" ..." if len(skipped) > 10 else ""),
            )
        scenes = [s for s in scenes if cfg.budget >= min(s.budgets)]
    return scenes[: cfg.limit] if cfg.limit else scenes


def pending_scenes(cfg: RunConfig) -> tuple[list[Scene], int]:
    """(the scenes whose episode is not in results.jsonl yet, the number selected); fills cfg.skipped."""
    cfg.out.mkdir(parents=True, exist_ok=True)
    cfg.skipped.clear()
    scenes = selected_scenes(cfg, cfg.skipped)
    done = {r.key for r in read_results(cfg.out)}
    todo = [s for s in scenes if episode_key(cfg, s) not in done]
    if not todo:
        LOG.info("nothing to run: all %d episode(s) are in %s", len(scenes), cfg.out / RESULTS_FILE)
    return todo, len(scenes)


def scene_tools(cfg: RunConfig, scene: Scene) -> frozenset[str] | None:
    """Whose tool semantics a scene runs with: `--tools`, else the authors' for their published scenes under
    the paper protocol (what their models met) or under their dialogue, else ours."""
    if cfg.tools is not None:
        return tool_semantics(cfg.tools)
    theirs = (cfg.protocol == "paper" and is_authors_scene(scene)) or cfg.dialogue not in (None, "ours")
    return ALL_ON if theirs else None


def scene_dialogue(cfg: RunConfig, scene: Scene) -> str:
    """Whose prompt and call format: `--dialogue`, else the authors' (their published code's) for their
    published scenes under the paper protocol, zero-shot, with their tool semantics; else ours."""
    if cfg.dialogue is not None:
        return cfg.dialogue
    theirs = (
        cfg.protocol == "paper"
        and cfg.prompting == "zero-shot"
        and is_authors_scene(scene)
        and scene_tools(cfg, scene) is not None
    )
    return "authors" if theirs else "ours"


def episode_key(cfg: RunConfig, scene: Scene) -> tuple:
    """The key (EpisodeRecord.key) the row of this scene's episode will have."""
    switches = scene_tools(cfg, scene)
    return (
        scene.scene_id,
        cfg.agent,
        cfg.budget,
        cfg.prompting,
        cfg.protocol,
        "ours" if switches is None else tools_name(switches),
        cfg.matcher or PROTOCOLS[cfg.protocol].matcher,
        scene_dialogue(cfg, scene),
    )


def episode_config(cfg: RunConfig):
    return protocol_config(
        cfg.protocol, budget=cfg.budget, prompting=cfg.prompting, brief_api=cfg.brief_api, matcher=cfg.matcher
    )


def write_invocation(cfg: RunConfig, tool_mode: str | None, episodes: int, executor: dict | None = None) -> None:
    with open(cfg.out / INVOCATIONS_FILE, "a", encoding="utf-8") as fh:
        fh.write(
            json.dumps(
                {
                    "utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    "agent": cfg.agent,
                    "agent_options": cfg.agent_options,
                    "tool_mode": tool_mode,
                    "budget": cfg.budget,
                    "prompting": cfg.prompting,
                    "scenes": str(cfg.scenes),
                    "protocol": cfg.protocol,
                    "matcher": cfg.matcher,
                    "tools": cfg.tools,
                    "dialogue": cfg.dialogue,
                    "episodes_to_run": episodes,
                    "max_tokens": effective_max_tokens(cfg),
                    "skipped_scenes": cfg.skipped,
                    "executor": executor or {"name": "local", "workers": 1},
                }
            )
            + "\n"
        )


def episode_row(cfg: RunConfig, scene: Scene, agent: Any, ep_cfg) -> tuple[EpisodeRecord, Path, dict]:
    """One episode: (its results row, the transcript's path under the run folder, the transcript).
    Raises LabError when the scene's MJCF does not compile."""
    record, transcript = run_episode(
        scene,
        agent,
        dataclasses.replace(ep_cfg, tool_semantics=scene_tools(cfg, scene), dialogue=scene_dialogue(cfg, scene)),
    )
    proto_dir = [] if cfg.protocol == DEFAULT_PROTOCOL else [cfg.protocol]  # strict keeps the old layout
    # an explicit --tools/--matcher/--dialogue is part of the episode's key, so of its transcript's path too
    chosen = [
        safe_name(f"{name}-{value}")
        for name, value in (("tools", cfg.tools), ("matcher", cfg.matcher), ("dialogue", cfg.dialogue))
        if value is not None
    ]
    rel = Path(
        "transcripts",
        safe_name(cfg.agent),
        f"b{cfg.budget}",
        cfg.prompting,
        *proto_dir,
        *chosen,
        f"{scene.scene_id}.json",
    )
    return dataclasses.replace(record, agent=cfg.agent, transcript=str(rel)), rel, transcript


def record_episode(cfg: RunConfig, record: EpisodeRecord, rel: Path, transcript: dict) -> None:
    """The transcript first, then the row: a row in results.jsonl always has its transcript."""
    write_atomic(cfg.out / rel, json.dumps(transcript, indent=1, default=float) + "\n")
    append_row(cfg.out, record.to_dict())
    LOG.info(
        "%s %s b%d: %s (predicted %r, truth %r)",
        cfg.agent,
        record.scene,
        cfg.budget,
        "correct" if record.correct else "wrong",
        record.predicted,
        record.truth,
    )


def run(cfg: RunConfig) -> list[EpisodeRecord]:
    """Run the missing episodes; returns the records written by this call."""
    todo, _ = pending_scenes(cfg)
    written: list[EpisodeRecord] = []
    if not todo:
        return written
    ep_cfg = episode_config(cfg)
    with make_agent(cfg) as agent:
        write_invocation(cfg, getattr(agent, "tool_mode", None), len(todo))
        for scene in todo:
            try:
                record, rel, transcript = episode_row(cfg, scene, agent, ep_cfg)
            except LabError as exc:  # the scene's MJCF does not compile: reported by name, the run goes on
                line = problem_line(scene.folder, exc)
                LOG.info("skipped %s", line)
                cfg.skipped.append(line)
                continue
            record_episode(cfg, record, rel, transcript)
            written.append(record)
    return written
