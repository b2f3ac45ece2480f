"""`interactiveworld report RUN_DIR [RUN_DIR...]`: pass rate, completion and efficiency per family and model,
capability scores, the first-error taxonomy and the task-horizon slope, written with the suite's one report
writer (`reacthuman.core.report_html`, as ReactHuman's and PhysMent's): report.md (also printed), report.html,
tables/*.csv and plots/capabilities.png in the first RUN_DIR."""

from __future__ import annotations

import os
from pathlib import Path

from reacthuman.core.atomic import atomic_path
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

from interactiveworld.bench.capabilities import FIRST_ERROR_COLUMNS
from interactiveworld.bench.firth import firth_curves
from interactiveworld.bench.paper_metrics import paper_metrics
from interactiveworld.bench.scoring import Summary, read_results, summarize
from interactiveworld.bench.taskpack import CAPABILITIES, FAMILIES
from interactiveworld.bench import horizon
from reacthuman.core.plotting import pyplot

TITLE = "InteractiveBench report"


def _label(s: Summary, run_dir: Path) -> str:
    return f"{s.assistant} / {s.human}" + (f" ({run_dir.name})" if run_dir.name not in s.assistant else "")


def _per_family(
    name: str,
    title: str,
    summaries: list[tuple[Path, Summary]],
    fams: list[str],
    cell,
    extra: dict,
    fmt: str,
    best: str,
) -> Table:
    """One row per model: a value per family, then the `extra` columns (name -> value of a Summary)."""
    columns = ["model", *fams, *extra]
    rows = [[_label(s, d), *(cell(s, f) for f in fams), *(get(s) for get in extra.values())] for d, s in summaries]
    return Table(
        name,
        title,
        columns,
        rows,
        formats={c: fmt for c in columns[1 : len(fams) + 1 + len(extra)]},
        best={c: best for c in columns[1 : len(fams) + 2]},
    )


def tables(summaries: list[tuple[Path, Summary]]) -> list[Table]:
    fams = [f for f in FAMILIES if any(f in s.family_n for _, s in summaries)]
    passed = _per_family(
        "pass_rate",
        "Pass rate (%) per family",
        summaries,
        fams,
        lambda s, f: s.family_pass.get(f),
        {"average": lambda s: s.pass_rate},
        "pct",
        "max",
    )
    passed.columns += ["valid", "voided"]
    passed.formats.update(valid="int", voided="int")
    for row, (_, s) in zip(passed.rows, summaries):
        row += [s.n, s.voided]
    completion = _per_family(
        "completion",
        "Mean completion rate (%) per family (families weighted equally)",
        summaries,
        fams,
        lambda s, f: s.family_mcr.get(f),
        {"average": lambda s: s.mcr},
        "pct",
        "max",
    )
    efficiency = _per_family(
        "efficiency",
        "Action efficiency (actions / oracle actions, passed tasks only; 1.00 = oracle)",
        summaries,
        fams,
        lambda s, f: s.family_efficiency.get(f),
        {"all": lambda s: s.efficiency},
        "f2",
        "min",
    )
    capability = Table(
        "capabilities",
        "Capability scores (%) from pooled evaluation points",
        ["model", *CAPABILITIES],
        [[_label(s, d), *(s.capabilities[c] for c in CAPABILITIES)] for d, s in summaries],
        formats={c: "pct" for c in CAPABILITIES},
        best={c: "max" for c in CAPABILITIES},
    )
    points = Table(
        "capability_points",
        "Evaluation points per capability (passed/observed)",
        ["model", *CAPABILITIES],
        [
            [_label(s, d), *(f"{s.capability_points[c][0]}/{s.capability_points[c][1]}" for c in CAPABILITIES)]
            for d, s in summaries
        ],
    )
    errors = Table(
        "first_errors",
        "First-error taxonomy (failed, valid episodes)",
        ["model", *FIRST_ERROR_COLUMNS],
        [[_label(s, d), *(s.errors[e] for e in FIRST_ERROR_COLUMNS)] for d, s in summaries],
        formats={e: "int" for e in FIRST_ERROR_COLUMNS},
    )
    return [passed, completion, efficiency, capability, points, errors]


def family_measures(run_dirs: list[Path], summaries: list[tuple[Path, Summary]], results: list) -> Table:
    """Accessibility's CFSS-StateScore and STG-CFSS, Prevention's C7/C8 under WATCH-binary (bench.paper_metrics)."""
    cols = [
        "model",
        "CFSS-StateScore",
        "STG-CFSS",
        "C7 (WATCH-binary)",
        "C8 (WATCH-binary)",
        "accessibility n",
        "prevention n",
    ]
    rows = []
    for (d, s), rs in zip(summaries, results):
        m = paper_metrics(rs)
        rows.append([_label(s, d), m.cfss, m.stg_cfss, m.c7, m.c8, m.n_accessibility, m.n_prevention])
    return Table(
        "family_measures",
        "Family measures (%): Accessibility CFSS-StateScore and STG-CFSS, Prevention C7/C8 under WATCH-binary",
        cols,
        rows,
        formats={**{c: "pct" for c in cols[1:5]}, **{c: "int" for c in cols[5:]}},
    )


def firth_table(results: list) -> Table:
    curves = firth_curves([r for rows in results for r in rows])
    return Table(
        "firth_curves",
        "Firth logistic regression of success on normalised task length, per model and "
        "family (slope: log-odds from the family's shortest to its longest task)",
        ["model", "family", "slope", "episodes"],
        [[c.model, c.family, c.slope, c.n_episodes] for c in curves],
        formats={"slope": "f2", "episodes": "int"},
    )


def capability_chart(summaries: list[tuple[Path, Summary]], path: Path) -> None:
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(10, 4))
    width = 0.8 / max(1, len(summaries))
    for i, (d, s) in enumerate(summaries):
        xs = [j + i * width for j in range(len(CAPABILITIES))]
        ax.bar(xs, [100 * (s.capabilities[c] or 0.0) for c in CAPABILITIES], width, label=_label(s, d))
        for x, c in zip(xs, CAPABILITIES):  # no evaluation point is not a score of 0
            if s.capabilities[c] is None:
                ax.text(x, 2, "no points", rotation=90, ha="center", va="bottom", fontsize=7, color="#777")
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(CAPABILITIES))])
    ax.set_xticklabels([c.replace("_", "\n") for c in CAPABILITIES], fontsize=7)
    ax.set_ylabel("score (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    fig.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, dpi=100)
    plt.close(fig)


def write_report(run_dirs: list[Path]) -> str:
    """Write the report into the first run folder; returns its Markdown."""

    results = [read_results(Path(d)) for d in run_dirs]
    summaries = [(Path(d), summarize(rows)) for d, rows in zip(run_dirs, results)]
    out = Path(run_dirs[0])
    chart = out / "plots" / "capabilities.png"
    capability_chart(summaries, chart)
    all_tables = [*tables(summaries), family_measures(run_dirs, summaries, results), firth_table(results)]
    passed, completion, efficiency, capability, points, errors, measures, firth = all_tables
    for t in all_tables:
        atomic_write_text(out / "tables" / f"{t.name}.csv", table_csv(t))
    blocks: list[Block] = [
        Paragraph(
            f"{sum(len(r) for r in results)} episodes from {', '.join(str(Path(d) / 'results.jsonl') for d in run_dirs)}."
        ),
        passed,
        completion,
        efficiency,
        capability,
        points,
        Image(os.path.relpath(chart, out), "Capability scores"),
        errors,
        measures,
        Heading("Task horizon"),
        Paragraph(horizon.summary([r for rows in results for r in rows])),
        firth,
    ]
    text = render_markdown(TITLE, blocks)
    atomic_write_text(out / "report.md", text)
    atomic_write_text(out / "report.html", render_html(TITLE, blocks))
    return text
