"""Modelled objects: blocks (see registry.MODULES)."""

from __future__ import annotations
