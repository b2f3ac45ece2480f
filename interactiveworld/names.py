"""Normalised entity names: one spelling for every way a person may write a name."""

from __future__ import annotations

import re

_ARTICLES = {"the", "a", "an", "your", "my", "that", "this"}


def normalize(text: str) -> str:
    """'The Red-Mug ' -> 'red_mug'. Articles and punctuation dropped, words joined by '_'."""
    words = re.split(r"[\s_\-]+", re.sub(r"[^a-z0-9_\-\s]", " ", text.lower()))
    return "_".join(w for w in words if w and w not in _ARTICLES)


def display(name: str) -> str:
    """'red_mug' -> 'red mug' (what is spoken)."""
    return name.replace("_", " ")
