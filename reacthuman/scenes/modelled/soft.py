"""Modelled objects: soft (see registry.MODULES)."""

from __future__ import annotations
