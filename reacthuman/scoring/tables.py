"""Moved to reacthuman.core.tables; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import tables as _moved

warnings.warn("reacthuman.scoring.tables is reacthuman.core.tables now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
