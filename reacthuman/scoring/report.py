"""`reacthuman report RUN_DIR`: every table and plot of a run, recomputed from RUN_DIR/ledger.jsonl alone.

Writes into OUT (default RUN_DIR): report.md, report.html, plots/*.png and tables/*.csv (one CSV per table,
raw values: fractions, metres, counts; empty cells for missing values). Layout follows the paper: the main
table (SAA, Safety, d_end, AIA, d_min per model, mean row, best per column in bold), the safety rule counts,
catch vs dodge scenes, per-family tables, then the sec. 5.2 analyses (`analyses` documents each).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reacthuman.scoring import analyses, plots
from reacthuman.scoring.aggregate import (
    Decisions,
    catch_dodge_table,
    counts_table,
    family_model_table,
    family_table,
    main_table,
    outcome_table,
    rules_table,
    select_decisions,
)
from reacthuman.scoring.ledger import read_ledger
from reacthuman.scoring.render import Block, Heading, Image, Paragraph, atomic_write_text, render_html, \
    render_markdown, table_csv
from reacthuman.scoring.tables import Table
from reacthuman.scoring import outcomes


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
        f"{sum(d.lost.values())} decision(s) lost to API errors (counted, not scored)."
    )


def build_blocks(d: Decisions, run_dir: Path, out_dir: Path, config: analyses.AnalysisConfig) -> tuple[list[Block], list[Table], list[Path]]:
    plot_dir = out_dir / "plots"
    t_main, t_counts, t_rules = main_table(d), counts_table(d), rules_table(d)
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
        Heading("Main results"), t_main, t_counts,
        Heading("Safety violations"), t_rules, _plot_block(p_rules, out_dir, "Safety violations by rule"),
        Heading("Catch scenes and dodge scenes"), t_cd,
        _plot_block(p_cd, out_dir, "SAA on catch scenes against dodge scenes; the dashed diagonal is equal skill"),
        Heading("Per family"), t_fam, t_fam_saa, t_fam_safe, _plot_block(p_fam, out_dir, "SAA and Safety per family"),
        Heading("Speed"), t_freeze, _plot_block(p_freeze, out_dir, "Freeze rate by speed band"), t_speed_saa, t_stab,
        Heading("Adversarial probes"), t_adv, t_doubt,
        Heading("Across models"), t_vote,
        Heading("Correct but out of reach"), t_reach,
        Heading("Execution"), t_out, *outcomes.execution_tables(d),
    ]
    tables = [b for b in blocks if isinstance(b, Table)]
    made = [p for p in (p_cd, p_freeze, p_fam, p_rules) if p is not None]
    return blocks, tables, made


def write_report(run_dir: str | Path, out_dir: str | Path | None = None,
                 config: analyses.AnalysisConfig | None = None) -> ReportFiles:
    """Read the run's ledger and write the report (raises LedgerError on a missing/empty/malformed ledger)."""
    run_dir = Path(run_dir)
    out = Path(out_dir) if out_dir is not None else run_dir
    d = select_decisions(read_ledger(run_dir))
    blocks, tables, made = build_blocks(d, run_dir, out, config or analyses.default_config())
    title = f"ReactHuman report: {run_dir.name}"
    csvs = []
    for t in tables:
        path = out / "tables" / f"{t.name}.csv"
        atomic_write_text(path, table_csv(t))
        csvs.append(path)
    md, page = out / "report.md", out / "report.html"
    atomic_write_text(md, render_markdown(title, blocks))
    atomic_write_text(page, render_html(title, blocks))
    return ReportFiles(markdown=md, html=page, plots=made, tables=csvs)
