"""Loaded by Python processes that a fast-layer test spawns (test/fast_layer.py puts this folder on
PYTHONPATH): they may not import the heavy components either."""

import os
import sys

_who = os.environ.get("REACTHUMAN_FAST_LAYER_TEST")
if _who:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from fast_layer import install_blocker  # noqa: E402

    install_blocker(_who + " (in a child process)")
    sys.path.pop(0)
