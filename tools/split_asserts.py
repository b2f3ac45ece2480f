"""Split `assert a and b, msg` into `assert a, msg` and `assert b, msg`, so that a failure names the condition.

Usage: python tools/split_asserts.py [PATH ...]   (default: test/). Rewrites the files in place and prints one
line per file changed. Only an assert statement on its own line whose condition is a top-level `and` chain is
split, each part keeping the message; an assert with a comment inside its lines is left as it is (the comment
would lose its place). The file must still compile and hold the same number of asserts plus the splits made.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path


def _comment_lines(source: str) -> set[int]:
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            lines.add(tok.start[0])
    return lines


def _part(source: str, node: ast.expr) -> str:
    """The condition's text, in parentheses only where it does not stand alone after `assert` (a walrus, or a
    condition wrapped over lines outside its own brackets)."""
    text = ast.get_source_segment(source, node) or ast.unparse(node)
    try:
        compile(f"assert {text}, 0\n", "<part>", "exec")
    except SyntaxError:
        return f"({text})"
    return text


def split_source(source: str) -> tuple[str, int]:
    """The source with its `and` asserts split, and how many asserts were split."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    comments = _comment_lines(source)
    edits: list[tuple[int, int, list[str]]] = []  # (first line index, last line index, replacement lines)
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Assert) and isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And)
        ):
            continue
        first, last = node.lineno - 1, node.end_lineno - 1
        indent = lines[first][: node.col_offset]
        if indent.strip() or any(n in comments for n in range(node.lineno, node.end_lineno)):
            continue  # not alone on its line (`if x: assert ...`), or a comment inside it
        tail = lines[last][node.end_col_offset :]
        if tail.strip() and not tail.strip().startswith("#"):
            continue  # another statement after it on the line (`assert a and b; x()`)
        msg = ast.get_source_segment(source, node.msg) if node.msg is not None else None
        if msg is not None:
            try:
                compile(f"assert 0, {msg}\n", "<msg>", "exec")
            except SyntaxError:
                msg = f"({msg})"
        out = [f"{indent}assert {_part(source, v)}" + (f", {msg}" if msg is not None else "") for v in node.test.values]
        out[-1] += tail.rstrip("\n")
        edits.append((first, last, [line + "\n" for line in out]))
    for first, last, new in sorted(edits, reverse=True):
        lines[first : last + 1] = new
    return "".join(lines), len(edits)


def _asserts(source: str) -> int:
    return sum(isinstance(n, ast.Assert) for n in ast.walk(ast.parse(source)))


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or [Path("test")]
    files = [f for p in paths for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]
    total = 0
    for f in files:
        source = f.read_text()
        new, n = split_source(source)
        if not n:
            continue
        parts = sum(
            len(a.test.values) - 1
            for a in ast.walk(ast.parse(source))
            if isinstance(a, ast.Assert) and isinstance(a.test, ast.BoolOp) and isinstance(a.test.op, ast.And)
        )
        if _asserts(new) > _asserts(source) + parts:
            raise SystemExit(f"{f}: the split made more asserts than conditions; left unchanged")
        f.write_text(new)
        total += n
        print(f"{f}: {n} asserts split")
    print(f"{total} asserts split in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
