"""Moved to reacthuman.core.ray_pool; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import ray_pool as _moved

warnings.warn("reacthuman.evaluation.ray_pool is reacthuman.core.ray_pool now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
