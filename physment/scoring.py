"""Answer matching: the strict matcher and the four pre-registered regrade rules.

Strict: numbers within |p - t| <= abs + rel * |t| (rel 5 %, a small absolute floor so a zero truth is well
defined); categorical answers and object ids by exact match after normalisation; lists element by element
(partial credit per element). Never substring matching: "1" does not match 10, "2" not 0.2, "-1.96" not 1.96.

Regrade (reported separately, never folded into the strict score): object-id aliases, trivial rounding,
conceptual descriptions, partial formatting. Each rule is a named function with its own tests."""

from __future__ import annotations

import json
import math
import re

REL_TOL = 0.05
ABS_TOL = 1e-3
_NUM_RE = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
# a number standing alone in text: not part of a word (object_2, m2) nor an exponent (m/s^2)
_EMBEDDED_NUM_RE = re.compile(r"(?<![\w^.\-+])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w^]|\.\d)")


def normalize_text(value: object) -> str:
    text = str(value).strip().lower()
    text = text.strip("\"'`").rstrip(".!")
    return re.sub(r"\s+", " ", text).strip()


def as_number(value: object) -> float | None:
    """A float when the whole value is one number (no units, no words), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(float(value)) else None
    text = normalize_text(value)
    return float(text) if _NUM_RE.match(text) else None


def as_list(value: object) -> list | None:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return None
        return parsed if isinstance(parsed, list) else None
    return None


def numbers_close(p: float, t: float, abs_tol: float = ABS_TOL, rel_tol: float = REL_TOL) -> bool:
    return abs(p - t) <= abs_tol + rel_tol * abs(t)


def _scalar_correct(predicted: object, truth: object, abs_tol: float, rel_tol: float, categorical: bool) -> bool:
    if isinstance(predicted, (list, tuple, dict)) or predicted is None:
        return False
    p, t = as_number(predicted), as_number(truth)
    if p is not None and t is not None and not categorical:
        return numbers_close(p, t, abs_tol, rel_tol)
    if p is not None and t is not None:
        return p == t
    return normalize_text(predicted) == normalize_text(truth)


def element_scores(
    predicted: object, truth: object, abs_tol: float = ABS_TOL, rel_tol: float = REL_TOL, categorical: bool = False
) -> list[bool]:
    """Per-element correctness against a list truth (position by position), or one element otherwise."""
    truth_list = as_list(truth)
    if truth_list is None:
        return [_scalar_correct(predicted, truth, abs_tol, rel_tol, categorical)]
    pred_list = as_list(predicted)
    if pred_list is None:
        pred_list = [predicted] if len(truth_list) == 1 else []
    return [
        i < len(pred_list) and _scalar_correct(pred_list[i], t, abs_tol, rel_tol, categorical)
        for i, t in enumerate(truth_list)
    ]


def score_answer(
    predicted: object, truth: object, abs_tol: float = ABS_TOL, rel_tol: float = REL_TOL, categorical: bool = False
) -> float:
    """Graded correctness in [0, 1]: the fraction of list elements within tolerance."""
    scores = element_scores(predicted, truth, abs_tol, rel_tol, categorical)
    return sum(scores) / len(scores) if scores else 0.0


def is_correct(
    predicted: object, truth: object, abs_tol: float = ABS_TOL, rel_tol: float = REL_TOL, categorical: bool = False
) -> bool:
    """Strict pass/fail: every element correct (and a list answer of the right length)."""
    pred_list, truth_list = as_list(predicted), as_list(truth)
    if truth_list is not None and pred_list is not None and len(pred_list) != len(truth_list):
        return False
    scores = element_scores(predicted, truth, abs_tol, rel_tol, categorical)
    return bool(scores) and all(scores)


# ---- regrade rules ---------------------------------------------------------------------------------
_ID_ALIAS_RE = re.compile(r"^(?:the\s+)?(?:object|obj|body|id)?[\s_#-]*(\d+)$")


def _alias_id(value: object) -> str | None:
    match = _ID_ALIAS_RE.match(normalize_text(value))
    return str(int(match.group(1))) if match else None


def rule_object_id_alias(predicted: object, truth: object, object_names: dict[str, str] | None = None) -> bool:
    """'object_2', 'Object 2', 'obj #2', or the object's own name, for the id 2."""
    t = _alias_id(truth)
    if t is None or isinstance(predicted, (list, dict)):
        return False
    if _alias_id(predicted) == t:
        return True
    name = (object_names or {}).get(t)
    return name is not None and normalize_text(predicted) == normalize_text(name)


def _decimals(text: str) -> int:
    text = text.lower().split("e")[0]
    return len(text.split(".")[1]) if "." in text else 0


def rule_trivial_rounding(predicted: object, truth: object) -> bool:
    """The truth rounded to the predicted number's own decimals gives the prediction, with >= 2 significant
    digits shown (2.8 for 2.837 passes; 3 for 2.837 does not)."""
    p, t = as_number(predicted), as_number(truth)
    if p is None or t is None or p == 0:
        return False
    text = normalize_text(predicted)
    digits = re.sub(r"[^0-9]", "", text.lower().split("e")[0]).lstrip("0")
    if len(digits) < 2 or "e" in text:
        return False
    return round(t, _decimals(text)) == round(p, _decimals(text))


# categorical truth -> phrases that describe the same observation
CONCEPT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "stops": ("stops", "comes to rest", "comes to a stop", "halts", "stands still", "at rest"),
    "reverses": (
        "reverses",
        "bounces back",
        "rebounds",
        "moves backward",
        "moves backwards",
        "reverses direction",
        "slows, stops, and reverses",
    ),
    "continues": ("continues", "keeps moving", "continues forward", "moves forward", "follows"),
    "slides": ("slides", "slips", "starts sliding", "begins to slide"),
    "stays": ("stays", "does not move", "remains at rest", "stays put", "stationary"),
    "rolls": ("rolls", "rolling"),
    "tips over": ("tips over", "topples", "falls over"),
}
_NEGATION_RE = re.compile(r"\b(?:not|no|never|doesn't|does not|don't|won't|isn't|without)\s+(?:\w+\s+)?$")


def rule_conceptual_description(
    predicted: object, truth: object, synonyms: dict[str, tuple[str, ...]] | None = None
) -> bool:
    """A description using one of the truth's phrases as whole words, not negated."""
    if isinstance(predicted, (list, dict)) or as_number(truth) is not None:
        return False
    table = dict(CONCEPT_SYNONYMS)
    table.update(synonyms or {})
    phrases = table.get(normalize_text(truth), (normalize_text(truth),))
    text = normalize_text(predicted)
    for phrase in phrases:
        for match in re.finditer(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text):
            if not _NEGATION_RE.search(text[: match.start()]):
                return True
    return False


def embedded_numbers(text: str) -> list[float]:
    return [float(m.group(0)) for m in _EMBEDDED_NUM_RE.finditer(str(text))]


def rule_partial_formatting(predicted: object, truth: object) -> bool:
    """The right quantity inside extra formatting ('12.5 J', 'v = 3.2 m/s', '[12.6, 25.2] (rad/s, J)'):
    the numbers standing alone in the text, exactly as many as the truth has, all within strict tolerance."""
    if isinstance(predicted, (int, float)):
        return False
    text = json.dumps(predicted) if isinstance(predicted, (list, dict)) else str(predicted)
    found = embedded_numbers(text)
    truth_list = as_list(truth)
    truths = truth_list if truth_list is not None else [truth]
    nums = [as_number(t) for t in truths]
    if any(n is None for n in nums) or len(found) != len(nums):
        return False
    return all(numbers_close(f, n) for f, n in zip(found, nums))


REGRADE_RULES = ("object_id_alias", "trivial_rounding", "conceptual_description", "partial_formatting")


def normalisation_classes(
    predicted: object,
    truth: object,
    object_names: dict[str, str] | None = None,
    synonyms: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, bool]:
    """Every one of the four pre-registered classes the answer falls into (not only the first), recorded per
    answer so a report can count each class whatever matcher decided the verdict."""
    if predicted is None:
        return {rule: False for rule in REGRADE_RULES}
    return {
        "object_id_alias": rule_object_id_alias(predicted, truth, object_names),
        "trivial_rounding": rule_trivial_rounding(predicted, truth),
        "conceptual_description": rule_conceptual_description(predicted, truth, synonyms),
        "partial_formatting": rule_partial_formatting(predicted, truth),
    }


def regrade(
    predicted: object,
    truth: object,
    object_names: dict[str, str] | None = None,
    synonyms: dict[str, tuple[str, ...]] | None = None,
) -> str | None:
    """The first regrade rule under which a strictly-failed answer passes, or None."""
    if predicted is None:
        return None
    if rule_object_id_alias(predicted, truth, object_names):
        return "object_id_alias"
    if rule_trivial_rounding(predicted, truth):
        return "trivial_rounding"
    if rule_conceptual_description(predicted, truth, synonyms):
        return "conceptual_description"
    if rule_partial_formatting(predicted, truth):
        return "partial_formatting"
    return None
