"""Deprecated import path: `reacthuman.control.envelope` is `reacthuman.scenes.envelope`
(this alias is removed in the next release)."""

import importlib
import runpy
import sys
import warnings

ALIAS_OF = "reacthuman.scenes.envelope"

if __name__ == "__main__":
    runpy.run_module(ALIAS_OF, run_name="__main__", alter_sys=True)
else:
    warnings.warn(f"{__name__} is a deprecated import path: import {ALIAS_OF}", DeprecationWarning, stacklevel=2)
    sys.modules[__name__] = importlib.import_module(ALIAS_OF)
