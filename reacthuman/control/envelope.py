"""Moved to reacthuman.scenes.envelope; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.scenes import envelope as _moved

warnings.warn("reacthuman.control.envelope is reacthuman.scenes.envelope now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
