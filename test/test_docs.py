"""The documentation renders: the README stays a guide, every relative link of README.md, docs/*.md and
CHANGELOG.md names a file (and, for a Markdown target with an anchor, a heading) that exists, and the architecture
diagram of the README and docs/architecture.md is the one the graph contract draws."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from reacthuman.ros_contract import mermaid_diagram

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 300
DOCS = sorted([README, ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])

# Docs written on other branches at the time of writing, linked from the README's index before they land.
# Once one exists, the test fails until it is taken off this list, so the list cannot outlive the merge.
PENDING_DOCS = frozenset({})

# [text](target) and ![alt](target), target without spaces; code spans are removed first.
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose_lines(text: str, drop_code_spans: bool = True) -> list[str]:
    """The lines outside fenced code blocks, with code spans removed unless asked to keep them."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(_CODE_SPAN.sub("", line) if drop_code_spans else line)
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped, lower case, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = text.lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file, numbered as GitHub numbers repeated ones."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose_lines(path.read_text(encoding="utf-8"), drop_code_spans=False):
        match = _HEADING.match(line)
        if not match:
            continue
        slug = _slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file (no URLs, no mail addresses)."""
    targets = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            targets.append(target)
    return targets


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of `path` whose file, or whose heading anchor, does not exist: 'target (why)'."""
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        name = resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else str(resolved)
        if not resolved.exists():
            if name not in PENDING_DOCS:
                broken.append(f"{target} (no file {name})")
            continue
        if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target} (no heading '{anchor}' in {name})")
    return broken


def test_the_readme_is_a_guide_of_at_most_300_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail to docs/"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file_and_heading_that_exist(doc: Path) -> None:
    broken = broken_links(doc)
    assert not broken, f"{doc.relative_to(ROOT)}: broken links: " + "; ".join(broken)


def test_the_readme_indexes_every_doc() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in relative_links(README)}
    unlisted = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.resolve() not in linked)
    assert unlisted == [], f"docs not in the README's index: {unlisted}"


def test_pending_docs_are_taken_off_the_list_once_they_exist() -> None:
    landed = sorted(name for name in PENDING_DOCS if (ROOT / name).exists())
    assert landed == [], f"these docs exist now; remove them from PENDING_DOCS: {landed}"


def test_the_link_checker_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    assert "where-things-live" in anchors(ROOT / "docs" / "architecture.md")
    assert "the-hands-reachable-workspace" in anchors(ROOT / "docs" / "spine-and-body.md")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "target.md").write_text(
        "# Title\n\n## The hands' `reachable` workspace\n\n```\n## not a heading\n```\n", encoding="utf-8"
    )
    probe = docs / "probe.md"
    probe.write_text(
        "[a](target.md#no-such-heading) [b](no-such-file.md)"
        " [c](target.md#the-hands-reachable-workspace) [d](target.md#not-a-heading)"
        " `[e](inside-code.md)` [f](https://example.org/x.md) [g](../docs/target.md)\n",
        encoding="utf-8",
    )
    assert broken_links(probe, root=tmp_path) == [
        "target.md#no-such-heading (no heading 'no-such-heading' in docs/target.md)",
        "no-such-file.md (no file docs/no-such-file.md)",
        "target.md#not-a-heading (no heading 'not-a-heading' in docs/target.md)",
    ]


@pytest.mark.parametrize("doc", [README, ROOT / "docs" / "architecture.md"], ids=lambda p: p.name)
def test_the_architecture_diagram_is_the_graph_contracts(doc: Path) -> None:
    blocks = re.findall(r"```mermaid\n(.*?)\n```", doc.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, f"{doc.name} has no mermaid diagram"
    assert blocks[0] == mermaid_diagram(), (
        f"{doc.name}'s diagram differs from reacthuman.ros_contract.mermaid_diagram()"
    )
