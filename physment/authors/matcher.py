"""The authors' answer matcher (`--matcher authors`), written here from the rules their experiment code applies:

1. normalise both sides: str(), trimmed, leading `[`/`(` and trailing `]`/`)` removed, one trailing unit
   (m/s², m/s2, m/s, rad/s, kg·m/s, kg*m/s, N·m, N*m, rad, kg, m, N, J, W, s) removed, `object_` prefixes
   removed; then
2. equal ignoring case; or
3. both single numbers within an ABSOLUTE 0.1 (strictly less); or
4. when the key's text has a comma: the comma-separated parts pairwise, numbers within 0.1, words equal; or
5. either normalised text contained in the other (both ways), ignoring case; or
6. the same count of numbers (`-?digits[.digits]`, no exponents) embedded in both, pairwise within 0.1.

So `1` passes against `10` (containment), `0.05` against `0.14` (absolute tolerance on a small key) and a
sentence that contains the key passes. The strict matcher and Eq. 4 refuse these; `physment rescore-authors`
reports all three."""

from __future__ import annotations

import re

AUTHORS_ABS_TOL = 0.1
_UNIT_RE = re.compile(r"\s*(m/s²|m/s2|m/s|rad/s|kg·m/s|kg\*m/s|N·m|N\*m|rad|kg|m|N|J|W|s)\s*$", re.IGNORECASE)
_NUMBER_RE = re.compile(r"-?\d+\.?\d*")


def authors_normalise(answer: object) -> str:
    if answer is None:
        return ""
    text = str(answer).strip()
    text = re.sub(r"^[\[\(]+", "", text)
    text = re.sub(r"[\]\)]+$", "", text)
    text = _UNIT_RE.sub("", text)
    return re.sub(r"\bobject_", "", text, flags=re.IGNORECASE).strip()


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _parts_match(pred: str, truth: str) -> bool:
    tp, pp = [p.strip() for p in truth.split(",")], [p.strip() for p in pred.split(",")]
    if len(tp) != len(pp):
        return False
    for t, p in zip(tp, pp):
        tf, pf = _float(t), _float(p)
        if tf is not None and pf is not None:
            if abs(pf - tf) >= AUTHORS_ABS_TOL:
                return False
        elif p.lower() != t.lower():
            return False
    return True


def authors_correct(predicted: object, truth: object) -> bool:
    """The authors' verdict on one final answer (rules in the module docstring)."""
    if predicted is None or truth is None:
        return False
    pred, key = authors_normalise(predicted), authors_normalise(truth)
    if pred.lower() == key.lower():
        return True
    pf, tf = _float(pred), _float(key)
    if pf is not None and tf is not None and abs(pf - tf) < AUTHORS_ABS_TOL:
        return True
    if "," in str(truth) and _parts_match(pred, key):
        return True
    if pred and key and (pred.lower() in key.lower() or key.lower() in pred.lower()):
        return True
    pn, tn = _NUMBER_RE.findall(pred), _NUMBER_RE.findall(key)
    return bool(pn) and len(pn) == len(tn) and all(abs(float(a) - float(b)) < AUTHORS_ABS_TOL for a, b in zip(pn, tn))
