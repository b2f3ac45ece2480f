"""Modelled objects: flat (see registry.MODULES)."""

from __future__ import annotations
