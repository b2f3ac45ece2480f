"""Moved to reacthuman.core.bag; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import bag as _moved

warnings.warn("reacthuman.recording.bag is reacthuman.core.bag now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
