"""Modelled objects: containers (see registry.MODULES)."""

from __future__ import annotations
