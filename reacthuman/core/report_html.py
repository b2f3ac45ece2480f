"""Rendering a report, a list of blocks, as Markdown and as self-styled HTML; tables also as CSV.

Blocks: Heading(text), Paragraph(text), a Table, Image(relative path, caption). Best cells of a table are
bold in both renderings. Every file is written to a temporary name and renamed (never half-written)."""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass
from typing import Union

from reacthuman.core.atomic import atomic_write_text  # noqa: F401 (the report writers import it from here)
from reacthuman.core.tables import Table


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Image:
    path: str  # relative to the report file
    caption: str


@dataclass(frozen=True)
class Custom:
    """A block that renders itself (the episode index: a linked table in Markdown, filters in HTML)."""

    markdown: str
    html: str


Block = Union[Heading, Paragraph, Table, Image, Custom]


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def table_markdown(t: Table) -> str:
    best = t.best_cells()
    lines = [
        f"**{t.title}**",
        "",
        "| " + " | ".join(_md_escape(c) for c in t.columns) + " |",
        "|" + "|".join("---" if j == 0 else "---:" for j in range(len(t.columns))) + "|",
    ]
    for i in range(len(t.rows)):
        cells = []
        for j in range(len(t.columns)):
            text = _md_escape(t.format_cell(i, j))
            cells.append(f"**{text}**" if (i, j) in best else text)
        lines.append("| " + " | ".join(cells) + " |")
    if t.note:
        lines += ["", f"_{t.note}_"]
    return "\n".join(lines)


def table_html(t: Table) -> str:
    best = t.best_cells()
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.columns)
    body = []
    for i in range(len(t.rows)):
        cells = []
        for j in range(len(t.columns)):
            text = html.escape(t.format_cell(i, j))
            cells.append(f"<td><b>{text}</b></td>" if (i, j) in best else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    note = f"<p class='note'>{html.escape(t.note)}</p>" if t.note else ""
    return (
        f"<table><caption>{html.escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>{note}"
    )


def table_csv(t: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(t.columns)
    for row in t.rows:
        writer.writerow(["" if v is None else v for v in row])
    return buf.getvalue()


def render_markdown(title: str, blocks: list[Block]) -> str:
    parts = [f"# {title}"]
    for b in blocks:
        if isinstance(b, Heading):
            parts.append(f"## {b.text}")
        elif isinstance(b, Paragraph):
            parts.append(b.text)
        elif isinstance(b, Table):
            parts.append(table_markdown(b))
        elif isinstance(b, Custom):
            parts.append(b.markdown)
        else:
            parts.append(f"![{b.caption}]({b.path})")
    return "\n\n".join(parts) + "\n"


_STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}caption{font-weight:bold;text-align:left;padding:4px 0}
.note{font-size:90%;color:#555}img{max-width:100%;border:1px solid #eee}"""


def render_html(title: str, blocks: list[Block]) -> str:
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
    ]
    for b in blocks:
        if isinstance(b, Heading):
            parts.append(f"<h2>{html.escape(b.text)}</h2>")
        elif isinstance(b, Paragraph):
            parts.append(f"<p>{html.escape(b.text)}</p>")
        elif isinstance(b, Table):
            parts.append(table_html(b))
        elif isinstance(b, Custom):
            parts.append(b.html)
        else:
            parts.append(
                f"<figure><img src='{html.escape(b.path)}' alt='{html.escape(b.caption)}'>"
                f"<figcaption>{html.escape(b.caption)}</figcaption></figure>"
            )
    parts.append("</body></html>\n")
    return "\n".join(parts)
