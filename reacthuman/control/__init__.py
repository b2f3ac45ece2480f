"""Deprecated import path: the package `reacthuman.control` is `reacthuman.spine`
(this alias is removed in the next release).

Its modules are aliases too: `import reacthuman.control.x` yields the module `reacthuman.spine.x`."""

import importlib
import warnings

ALIAS_OF = "reacthuman.spine"

warnings.warn(f"{__name__} is a deprecated import path: import {ALIAS_OF}", DeprecationWarning, stacklevel=2)
_package = importlib.import_module(ALIAS_OF)


def __getattr__(name: str) -> object:
    return getattr(_package, name)
