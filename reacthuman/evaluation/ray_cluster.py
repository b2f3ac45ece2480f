"""Moved to reacthuman.core.ray_cluster; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import ray_cluster as _moved

warnings.warn("reacthuman.evaluation.ray_cluster is reacthuman.core.ray_cluster now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
