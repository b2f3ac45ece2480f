"""Moved to reacthuman.core.report_html; this path re-exports it for one release."""

import sys
import warnings

from reacthuman.core import report_html as _moved

warnings.warn("reacthuman.scoring.render is reacthuman.core.report_html now", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
