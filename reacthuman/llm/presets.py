"""Moved to reacthuman.core.presets; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import presets as _moved

warnings.warn("reacthuman.llm.presets is reacthuman.core.presets now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
