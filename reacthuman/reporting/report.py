"""`reacthuman report RUN_DIR`: every table and plot of a run, recomputed from RUN_DIR/ledger.jsonl alone.

Writes into OUT (default RUN_DIR): report.md, report.html, plots/*.png and tables/*.csv (one CSV per table,
raw values: fractions, metres, counts; empty cells for missing values). Layout follows the paper: the main
table (SAA, Safety, d_end, AIA, d_min per model, mean row, best per column in bold), the safety rule counts,
catch vs dodge scenes, per-family tables, then the sec. 5.2 analyses (`analyses` documents each).

Modalities never share a table: each modality the run's models were shown (images, the paper's protocol;
state_text, the privileged-state ablation; both) gets its own section with every table, and the reference
brains (which read simulator state, not a prompt) appear in each section as baselines.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from reacthuman.brain.prompt import MODALITIES

from reacthuman.reporting import analyses, plots
from reacthuman.reporting.aggregate import (
    Decisions,
    calls_table,
    catch_dodge_table,
    counts_table,
    family_model_table,
    family_table,
    main_table,
    outcome_table,
    rules_table,
    select_decisions,
)
from reacthuman.scoring.ledger import DecisionRecord, read_ledger
from reacthuman.scoring.replay import EXECUTED_FIELD
from reacthuman.core.report_html import (
    Block,
    Heading,
    Image,
    Paragraph,
    atomic_write_text,
    render_html,
    render_markdown,
    table_csv,
)
from reacthuman.core.tables import Table
from reacthuman.reporting import outcomes
from reacthuman.scenes.attribution import used_models
from reacthuman.scenes.spec import SceneSpec
from reacthuman.reporting.episode_pages import episode_section
from reacthuman.reporting.loop_tables import loop_blocks


@dataclass
class ReportFiles:
    markdown: Path
    html: Path
    plots: list[Path] = field(default_factory=list)
    tables: list[Path] = field(default_factory=list)


def _plot_block(path: Path | None, out_dir: Path, caption: str) -> Block:
    if path is None:
        return Paragraph(f"({caption}: no data in this run.)")
    return Image(path.relative_to(out_dir).as_posix(), caption)


def _summary(d: Decisions, run_dir: Path) -> Paragraph:
    families = len({r.family for r in d.scored})
    scenes = len({r.scene_id for r in d.scored})
    return Paragraph(
        f"Run {run_dir.name}: {len(d.scored)} decisions by {len(d.models)} model(s) on {scenes} scene(s) in "
        f"{families} famil{'y' if families == 1 else 'ies'}; {sum(d.api_error_rows.values())} API-error row(s), "
        f"{sum(d.lost.values())} decision(s) lost to API errors (counted, not scored)." + _no_plan_note(d)
    )


def _no_plan_note(d: Decisions) -> str:
    """After `eval --plans`: the pairs it could not execute, having no plan (their decision was lost to API errors)."""
    lost = sum(d.lost.values())
    if not lost or not any(r.extras.get(EXECUTED_FIELD) is True for r in d.scored):
        return ""
    return f" {lost} pair(s) had no plan (API errors) and were not executed."


REFERENCE_GROUP = "reference"
UNRECORDED_GROUP = "unrecorded"
MODALITY_TITLES = {
    "images": "Images (the paper's protocol)",
    "state_text": "state_text: the privileged-state ablation (object name and exact simulator state as text)",
    "both": "Images plus state_text",
    REFERENCE_GROUP: "Reference brains only",
    UNRECORDED_GROUP: "Modality not recorded (ledger rows written before rows carried it)",
}


def modality_group(r: DecisionRecord) -> str:
    """The report section of a row: the LLM modality, `reference` for reference brains, or `unrecorded`."""
    if r.modality in MODALITIES:
        return r.modality
    return UNRECORDED_GROUP if r.modality is None else REFERENCE_GROUP


def split_by_modality(records: list[DecisionRecord]) -> list[tuple[str, list[DecisionRecord]]]:
    """One group per modality present, in MODALITIES order, each with the reference rows as baselines."""
    groups = [modality_group(r) for r in records]
    references = [r for r, g in zip(records, groups) if g == REFERENCE_GROUP]
    present = [m for m in (*MODALITIES, UNRECORDED_GROUP) if m in groups]
    if not present:
        return [(REFERENCE_GROUP, records)]
    return (
        [(m, [r for r, g in zip(records, groups) if g in (m, REFERENCE_GROUP)]) for m in present]
        if references
        else [(m, [r for r, g in zip(records, groups) if g == m]) for m in present]
    )


def _text_only_note(records: list[DecisionRecord], group: str) -> Paragraph | None:
    if group != "state_text":
        return None
    models = sorted({r.model for r in records if r.modality == "state_text"})
    return Paragraph(
        f"Shown state_text, not images: {', '.join(models)}. A text-only model (such as the "
        "embedded local one) can only take this privileged-state ablation; compare it only with "
        "other state_text rows."
    )


def build_blocks(
    d: Decisions, run_dir: Path, out_dir: Path, config: analyses.AnalysisConfig, plot_dir: Path | None = None
) -> tuple[list[Block], list[Table], list[Path]]:
    plot_dir = plot_dir or out_dir / "plots"
    t_main, t_counts, t_rules, t_calls = main_table(d), counts_table(d), rules_table(d), calls_table(d)
    t_cd, t_fam = catch_dodge_table(d), family_table(d)
    t_fam_saa, t_fam_safe = family_model_table(d, "saa"), family_model_table(d, "safe")
    t_freeze, t_speed_saa = analyses.freeze_by_speed_table(d), analyses.saa_by_speed_table(d)
    t_stab, t_adv, t_doubt = analyses.stability_table(d), analyses.adversarial_table(d), analyses.doubt_table(d)
    t_vote, t_reach, t_out = analyses.voting_table(d), analyses.reach_table(d, config), outcome_table(d)

    p_cd = plots.catch_vs_dodge(t_cd, plot_dir / "catch_vs_dodge.png")
    p_freeze = plots.freeze_by_speed(t_freeze, analyses.speed_bands_present(d), plot_dir / "freeze_by_speed.png")
    p_fam = plots.family_bars(t_fam, plot_dir / "families.png")
    p_rules = plots.safety_by_rule(t_rules, d, plot_dir / "safety_rules.png")

    blocks: list[Block] = [
        _summary(d, run_dir),
        Heading("Main results"),
        t_main,
        t_counts,
        t_calls,
        Heading("Safety violations"),
        t_rules,
        _plot_block(p_rules, out_dir, "Safety violations by rule"),
        Heading("Catch scenes and dodge scenes"),
        t_cd,
        _plot_block(p_cd, out_dir, "SAA on catch scenes against dodge scenes; the dashed diagonal is equal skill"),
        Heading("Per family"),
        t_fam,
        t_fam_saa,
        t_fam_safe,
        _plot_block(p_fam, out_dir, "SAA and Safety per family"),
        Heading("Speed"),
        t_freeze,
        _plot_block(p_freeze, out_dir, "Freeze rate by speed band"),
        t_speed_saa,
        t_stab,
        Heading("Adversarial probes"),
        t_adv,
        t_doubt,
        Heading("Across models"),
        t_vote,
        Heading("Correct but out of reach"),
        t_reach,
        Heading("Execution"),
        t_out,
        *outcomes.execution_tables(d),
        *loop_blocks(d),
    ]
    tables = [b for b in blocks if isinstance(b, Table)]
    made = [p for p in (p_cd, p_freeze, p_fam, p_rules) if p is not None]
    return blocks, tables, made


def _attribution_blocks(run_dir: Path) -> list[Block]:
    """Creators and licences of the catalogue models the run's scenes draw (from the episodes' spec.json)."""

    specs = {p.parent.name: p for p in sorted(run_dir.glob("episodes/*/*/spec.json"))}
    models = used_models(SceneSpec.from_json(p.read_text()) for p in specs.values())
    if not models:
        return []
    rows = [
        [v.name, v.creator or "unknown", v.licence, f"{v.package}: {v.archive} / {v.member}", len(scenes)]
        for v, scenes in models
    ]
    table = Table(
        "object_models",
        "Object models drawn in this run's scenes (CC-BY requires this attribution)",
        ["model", "creator", "licence", "source", "scenes"],
        rows,
        {"scenes": "int"},
    )
    return [Heading("Object models"), table]


def write_report(
    run_dir: str | Path, out_dir: str | Path | None = None, config: analyses.AnalysisConfig | None = None
) -> ReportFiles:
    """Read the run's ledger and write the report (raises LedgerError on a missing/empty/malformed ledger)."""
    run_dir = Path(run_dir)
    out = Path(out_dir) if out_dir is not None else run_dir
    records = list(read_ledger(run_dir))
    groups = split_by_modality(records)
    blocks, tables, made = [], [], []
    for group, rows in groups:
        d = select_decisions(rows)
        if len(groups) == 1:
            b, t, m = build_blocks(d, run_dir, out, config or analyses.default_config())
            b.insert(1, Paragraph(f"Modality: {MODALITY_TITLES[group]}."))
        else:
            b, t, m = build_blocks(d, run_dir, out, config or analyses.default_config(), out / "plots" / group)
            renamed = {id(x): replace(x, name=f"{x.name}_{group}") for x in t}
            b = [Heading(f"Modality: {MODALITY_TITLES[group]}")] + [renamed.get(id(x), x) for x in b]
            t = [renamed[id(x)] for x in t]
        note = _text_only_note(rows, group)
        if note is not None:
            b.insert(2 if len(groups) == 1 else 1, note)
        blocks, tables, made = blocks + b, tables + t, made + m
    blocks += _attribution_blocks(run_dir)
    title = f"ReactHuman report: {run_dir.name}"

    blocks += episode_section(select_decisions(read_ledger(run_dir)), run_dir, out)
    csvs = []
    for t in tables:
        path = out / "tables" / f"{t.name}.csv"
        atomic_write_text(path, table_csv(t))
        csvs.append(path)
    md, page = out / "report.md", out / "report.html"
    atomic_write_text(md, render_markdown(title, blocks))
    atomic_write_text(page, render_html(title, blocks))
    return ReportFiles(markdown=md, html=page, plots=made, tables=csvs)
