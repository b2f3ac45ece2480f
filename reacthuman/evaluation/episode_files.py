"""Moved to reacthuman.recording.episode_files; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.recording import episode_files as _moved

warnings.warn(
    "reacthuman.evaluation.episode_files is reacthuman.recording.episode_files now", DeprecationWarning, stacklevel=2
)
sys.modules[__name__] = _moved
