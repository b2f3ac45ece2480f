"""Atomic file writes: a reader sees the old file or the whole new one, never a half-written one.

Every write goes to a uniquely named temporary file in the destination's folder (same filesystem, so the
rename is atomic; unique, so two writers of the same path never share a temporary), is flushed to disk,
then renamed over the destination. A failed write leaves no temporary behind.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Union

PathLike = Union[str, "os.PathLike[str]"]


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once at import: os.umask can only be read by setting it, which would race with other threads.
_UMASK = _read_umask()


@contextmanager
def atomic_path(path: PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside `path` for a writer that wants a file name (a plot's savefig, an image
    encoder that picks the format from `suffix`); renamed to `path` when the block ends without error."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
    os.close(fd)
    tmp = Path(tmp_name)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes it private; the result gets the usual mode
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_bytes(path: PathLike, data: bytes, fsync: bool = True) -> Path:
    """Writes `data` to `path` atomically (creating its folder) and returns the path."""
    target = Path(path)
    with atomic_path(target) as tmp:
        with tmp.open("wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
    return target


def atomic_write_text(path: PathLike, text: str, fsync: bool = True) -> Path:
    """Writes `text` as UTF-8, newlines untranslated, to `path` atomically and returns the path."""
    return atomic_write_bytes(path, text.encode("utf-8"), fsync=fsync)
