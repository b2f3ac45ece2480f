"""A managed second Python environment holding another MuJoCo release (the authors ran 3.3.3; this project
pins 4.0), so `physment replay --mujoco 3.3.3` can re-run their calls on their engine. The environment lives
under `$PHYSMENT_ENGINES` (default `~/.cache/physment/engines/mujoco-<version>`), is created on first use with
the standard library's `venv` and the package index `pip` is configured for, and only ever holds MuJoCo,
NumPy and PyYAML; the replay code itself is imported from this checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

AUTHORS_MUJOCO = "3.3.3"
REPO_ROOT = Path(__file__).resolve().parents[2]


class EngineError(RuntimeError):
    """The managed environment could not be made or run; the message says which step failed."""


def engine_dir(version: str) -> Path:
    root = Path(os.environ.get("PHYSMENT_ENGINES") or Path.home() / ".cache" / "physment" / "engines")
    return root / f"mujoco-{version}"


def _version_of(python: Path) -> str | None:
    out = subprocess.run(
        [str(python), "-c", "import mujoco; print(mujoco.__version__)"], capture_output=True, text=True, check=False
    )
    return out.stdout.strip() if out.returncode == 0 else None


def managed_python(version: str) -> Path:
    """The managed environment's interpreter, made (venv + pip install mujoco==version) when missing."""
    folder = engine_dir(version)
    python = folder / "bin" / "python"
    if python.exists() and _version_of(python) == version:
        return python
    steps = (
        [sys.executable, "-m", "venv", str(folder)],
        [str(python), "-m", "pip", "install", "-q", f"mujoco=={version}", "numpy<2.3", "pyyaml"],
    )
    for cmd in steps:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise EngineError(
                f"making the MuJoCo {version} environment failed at `{' '.join(cmd[:4])}`: "
                f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}"
            )
    if _version_of(python) != version:
        raise EngineError(f"the environment at {folder} does not import MuJoCo {version}")
    return python


def replay_with(version: str, results_dir: Path, scenes_dir: Path | None, tools: str, git_dir: Path | None) -> dict:
    """`physment.authors.replay` run under MuJoCo `version` in the managed environment; its JSON summary."""
    python = managed_python(version)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "replay.json"
        cmd = [str(python), "-m", "physment.authors.replay", str(results_dir), str(out), "--tools", tools]
        if scenes_dir is not None:
            cmd += ["--scenes", str(scenes_dir)]
        if git_dir is not None:
            cmd += ["--git", str(git_dir)]
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0 or not out.is_file():
            raise EngineError(
                f"the replay under MuJoCo {version} failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
            )
        return json.loads(out.read_text(encoding="utf-8"))
