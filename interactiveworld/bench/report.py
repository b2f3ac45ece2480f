"""`interactiveworld report RUN_DIR [RUN_DIR...]`: tables per family and model, efficiency, capability bars
and the first-error taxonomy, as Markdown (printed and written to the first RUN_DIR) plus a PNG chart."""

from __future__ import annotations

from pathlib import Path

from reacthuman.core.atomic import atomic_path

from interactiveworld.bench.capabilities import ERROR_TYPES
from interactiveworld.bench.scoring import Summary, read_results, summarize
from interactiveworld.bench.taskpack import CAPABILITIES, FAMILIES, write_atomic


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _label(s: Summary, run_dir: Path) -> str:
    return f"{s.assistant} / {s.human}" + (f" ({run_dir.name})" if run_dir.name not in s.assistant else "")


def markdown(summaries: list[tuple[Path, Summary]]) -> str:
    fams = [f for f in FAMILIES if any(f in s.family_n for _, s in summaries)]
    lines = ["# InteractiveBench report", ""]
    lines += ["## Pass rate (%) per family", "", "| model | " + " | ".join(fams) + " | average | valid | voided |",
              "|---" * (len(fams) + 4) + "|"]
    for d, s in summaries:
        lines.append(f"| {_label(s, d)} | " + " | ".join(_pct(s.family_pass.get(f)) for f in fams)
                     + f" | {_pct(s.pass_rate)} | {s.n} | {s.voided} |")
    lines += ["", "## Mean completion rate (%) per family (families weighted equally)", "",
              "| model | " + " | ".join(fams) + " | average |", "|---" * (len(fams) + 2) + "|"]
    for d, s in summaries:
        lines.append(f"| {_label(s, d)} | " + " | ".join(_pct(s.family_mcr.get(f)) for f in fams) + f" | {_pct(s.mcr)} |")
    lines += ["", "## Action efficiency (actions / oracle actions, passed tasks only; 1.00 = oracle)", "",
              "| model | " + " | ".join(fams) + " | all |", "|---" * (len(fams) + 2) + "|"]
    for d, s in summaries:
        cells = [("-" if s.family_efficiency.get(f) is None else f"{s.family_efficiency[f]:.2f}") for f in fams]
        lines.append(f"| {_label(s, d)} | " + " | ".join(cells) + f" | {'-' if s.efficiency is None else f'{s.efficiency:.2f}'} |")
    lines += ["", "## Capability scores (%) from pooled evaluation points (passed/observed)", "",
              "| model | " + " | ".join(CAPABILITIES) + " |", "|---" * (len(CAPABILITIES) + 1) + "|"]
    for d, s in summaries:
        cells = [f"{_pct(s.capabilities[c])} ({s.capability_points[c][0]}/{s.capability_points[c][1]})" for c in CAPABILITIES]
        lines.append(f"| {_label(s, d)} | " + " | ".join(cells) + " |")
    lines += ["", "## First-error taxonomy (failed, valid episodes)", "",
              "| model | " + " | ".join(ERROR_TYPES) + " |", "|---" * (len(ERROR_TYPES) + 1) + "|"]
    for d, s in summaries:
        lines.append(f"| {_label(s, d)} | " + " | ".join(str(s.errors[e]) for e in ERROR_TYPES) + " |")
    return "\n".join(lines) + "\n"


def capability_chart(summaries: list[tuple[Path, Summary]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    width = 0.8 / max(1, len(summaries))
    for i, (d, s) in enumerate(summaries):
        vals = [100 * (s.capabilities[c] or 0.0) for c in CAPABILITIES]
        ax.bar([j + i * width for j in range(len(CAPABILITIES))], vals, width, label=_label(s, d))
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
    from interactiveworld.bench import horizon

    results = [read_results(Path(d)) for d in run_dirs]
    summaries = [(Path(d), summarize(rows)) for d, rows in zip(run_dirs, results)]
    text = markdown(summaries) + "\n" + horizon.markdown([r for rows in results for r in rows])
    out = Path(run_dirs[0])
    write_atomic(out / "report.md", text)
    capability_chart(summaries, out / "capabilities.png")
    return text
