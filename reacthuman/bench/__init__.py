"""Deprecated import path: the package `reacthuman.bench` is `reacthuman.perf`
(this alias is removed in the next release).

Its modules are aliases too: `import reacthuman.bench.x` yields the module `reacthuman.perf.x`."""

import importlib
import warnings

ALIAS_OF = "reacthuman.perf"

warnings.warn(f"{__name__} is a deprecated import path: import {ALIAS_OF}", DeprecationWarning, stacklevel=2)
_package = importlib.import_module(ALIAS_OF)


def __getattr__(name: str) -> object:
    return getattr(_package, name)
