"""The import checks' view of the tree: `nodes/` and `sim_bridge/` are installed as reacthuman.nodes and
reacthuman.sim_bridge (setup.py's package_dir), so the static tools (import-linter, grimp) read the packages
from a temporary folder of links laid out as installed. `python tools/import_view.py` runs lint-imports on it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reacthuman", "physment", "interactiveworld")
MAPPED = {"nodes": "nodes", "sim_bridge": "sim_bridge"}  # reacthuman.<key> is the folder <value>


def make_view(into: Path) -> Path:
    """Links the three packages under `into` as they are installed; returns `into`."""
    for name in PACKAGES:
        if name != "reacthuman":
            (into / name).symlink_to(ROOT / name)
    pkg = into / "reacthuman"
    pkg.mkdir()
    for entry in (ROOT / "reacthuman").iterdir():
        if entry.name not in MAPPED and entry.name != "__pycache__":
            (pkg / entry.name).symlink_to(entry)
    for sub, folder in MAPPED.items():
        (pkg / sub).symlink_to(ROOT / folder)
    return into


def run_in_view(argv: list[str]) -> int:
    """Runs a command with the view first on PYTHONPATH, from inside the view: a tool that puts its working
    folder first on the path (lint-imports does) would otherwise read the repository's own `reacthuman/`,
    which has no `nodes` or `sim_bridge`."""
    with tempfile.TemporaryDirectory(prefix="import_view_") as tmp:
        view = make_view(Path(tmp))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(view), os.environ.get("PYTHONPATH", "")]))
        return subprocess.run(argv, cwd=view, env=env).returncode


def main() -> int:
    lint = Path(sys.executable).with_name("lint-imports")
    return run_in_view([str(lint), "--no-cache", "--config", str(ROOT / ".importlinter"), *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
