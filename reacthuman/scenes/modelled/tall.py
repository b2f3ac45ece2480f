"""Modelled objects: tall (see registry.MODULES)."""

from __future__ import annotations
