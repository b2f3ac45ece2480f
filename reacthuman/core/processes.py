"""The processes of a running graph, read from /proc: a process's children, its node name (its `__node:=NAME`
remapping) and its peak resident memory (VmHWM)."""

from __future__ import annotations

import os
from pathlib import Path


def peak_rss_mib(pid: int) -> float | None:
    """VmHWM of one process in MiB; None if it is gone or unreadable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # the command name (field 2) may hold spaces and parentheses: fields after the last ')' are fixed
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[1]) == pid:
            out.append(int(entry))
    return sorted(out)


def process_name(pid: int) -> str:
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"pid{pid}"
    for arg in args:
        if arg.startswith(b"__node:="):
            return arg.split(b"=", 1)[1].decode()
    words = [a.decode(errors="replace") for a in args if a]
    return Path(words[1]).name if len(words) > 1 else (Path(words[0]).name if words else f"pid{pid}")


def tree_peak_rss(root_pid: int) -> dict[str, float]:
    """Peak resident MiB of root_pid's children by name (the root itself as 'launcher')."""
    out: dict[str, float] = {}
    root = peak_rss_mib(root_pid)
    if root is not None:
        out["launcher"] = round(root, 1)
    for pid in children(root_pid):
        value = peak_rss_mib(pid)
        if value is not None:
            name = process_name(pid)
            out[name if name not in out else f"{name}#{pid}"] = round(value, 1)
    return out
