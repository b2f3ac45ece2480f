"""Action-Intent Alignment (AIA) and material-doubt detection, by documented keyword rules.

The paper scores AIA by keyword matching; these are our keyword sets. The intent text is lower-cased and
split into words; each goal phrase below is matched longest-first, left to right, so "stay clear" is an
evade phrase and never a "stay" one, and "no need to move" is a stay phrase and never a negated move.

Goals: catch (catch, grab, grasp, snatch, intercept, receive, reach for/out/toward), evade (dodge, evade,
retreat, sidestep, flee, escape, avoid, step/move/walk/jump/lean/back/get back/away/aside/sideways/clear/off,
move out of, out of the way/path, stay/keep clear/away/back/out), stay (stay, stay still/put/here/in place,
stand/hold still, hold position, wait, freeze, do nothing, no action, no reaction, not move, no need to
move/react/act/respond/intervene, not react/intervene, won't/will not reach/hit/affect, ignore).

Negation: a goal phrase is negated when one of NEGATORS stands at most NEGATION_WINDOW words before it in the
same clause (clauses end at punctuation and at CLAUSE_BREAKS), so "do not catch" and "rather than catching"
are not catch goals; negation carries across "or"/"nor" ("don't catch or grab it"). "avoid" is an evade goal
and also negates what follows ("avoid catching"), except when what follows within two words is damage to the
object ("catch it to avoid it shattering"), where it states no goal of its own.

Score against the goal of the true action (CATCH -> catch, DODGE -> evade, NO_ACTION -> stay):
1 the true goal is stated and no other; 0.5 the true goal is stated together with another (a hedge), or
no goal is stated but a wrong one is explicitly rejected ("don't catch it" when the truth is Dodge);
0 otherwise (only wrong goals, the true goal negated, or no goal at all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reacthuman.plan.plan import Action

GOAL_OF_ACTION: dict[Action, str] = {Action.CATCH: "catch", Action.DODGE: "evade", Action.NO_ACTION: "stay"}
NEGATION_WINDOW = 3
NEGATORS = frozenset(
    "not no never don't dont cannot can't won't wont shouldn't mustn't without instead rather refrain nor "
    "avoid avoids avoiding".split()
)
CLAUSE_BREAKS = frozenset("but however so then because since while although though".split())
_DAMAGE_RE = re.compile(r"(break|broke|shatter|damag|smash|crash|spill|drop|crack)")
_AWAY_WORDS = r"back|backward|backwards|away|aside|sideways|clear|off"

# (goal, word regexes); every regex must match one whole word.
_PHRASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("catch", (r"catch(es|ing)?|caught",)),
    ("catch", (r"grab(s|bing|bed)?",)),
    ("catch", (r"grasp(s|ing|ed)?",)),
    ("catch", (r"snatch(es|ing|ed)?",)),
    ("catch", (r"intercept(s|ing|ed|ion)?",)),
    ("catch", (r"receiv(e|es|ing|ed)",)),
    ("catch", (r"reach(es|ing|ed)?", r"for|out|toward|towards")),
    ("evade", (r"dodg(e|es|ing|ed)",)),
    ("evade", (r"evad(e|es|ing|ed)|evasion|evasive",)),
    ("evade", (r"avoid(s|ing|ed|ance)?",)),
    ("evade", (r"retreat(s|ing|ed)?",)),
    ("evade", (r"sidestep(s|ping|ped)?",)),
    ("evade", (r"flee(s|ing)?|fled|escap(e|es|ing|ed)",)),
    (
        "evade",
        (
            r"step(s|ping|ped)?|mov(e|es|ing|ed)|walk(s|ing|ed)?|jump(s|ing|ed)?|lean(s|ing|ed)?|"
            r"back(s|ing|ed)?|get(s|ting)?|go|going|run(s|ning)?",
            _AWAY_WORDS,
        ),
    ),
    ("evade", (r"mov(e|es|ing|ed)|get(s|ting)?", r"out", r"of")),
    ("evade", (r"out", r"of", r"the|its|harm's|harms", r"way|path|trajectory|line")),
    ("evade", (r"stay(s|ing)?|keep(s|ing)?|remain(s|ing)?", r"clear|away|back|out")),
    ("stay", (r"stay(s|ing)?",)),
    ("stay", (r"stay(s|ing)?|remain(s|ing)?", r"still|put|here|in|where|stationary|idle")),
    ("stay", (r"stand(s|ing)?|hold(s|ing)?", r"still|position")),
    ("stay", (r"wait(s|ing|ed)?",)),
    ("stay", (r"freez(e|es|ing)|froze",)),
    ("stay", (r"ignor(e|es|ing|ed)",)),
    ("stay", (r"do|doing", r"nothing")),
    ("stay", (r"no_action",)),
    ("stay", (r"no", r"action|reaction")),
    ("stay", (r"not|don't|dont", r"mov(e|ing)|react|intervene")),
    ("stay", (r"no", r"need", r"to", r"mov(e)?|react|act|respond|intervene")),
    ("stay", (r"won't|wont", r"reach|hit|affect")),
    ("stay", (r"will", r"not", r"reach|hit|affect")),
)
_COMPILED = tuple((goal, tuple(re.compile(p) for p in words)) for goal, words in _PHRASES)
_TOKEN_RE = re.compile(r"[a-z_]+(?:'[a-z]+)?|[.,;:!?()\[\]\"]")


@dataclass(frozen=True)
class GoalHit:
    goal: str
    start: int
    end: int
    negated: bool


def tokenize(text: str) -> list[str]:
    return _TOKEN_RE.findall(text.lower().replace("\u2019", "'"))


def _is_break(token: str) -> bool:
    return not token[0].isalpha() and token[0] != "_" or token in CLAUSE_BREAKS


def _match_at(tokens: list[str], i: int) -> tuple[str, int] | None:
    best: tuple[str, int] | None = None
    for goal, words in _COMPILED:
        end = i + len(words)
        if end <= len(tokens) and all(w.fullmatch(tokens[i + k]) for k, w in enumerate(words)):
            if best is None or end > best[1]:
                best = (goal, end)
    return best


def _negated_by_window(tokens: list[str], start: int) -> bool:
    for j in range(start - 1, max(-1, start - 1 - NEGATION_WINDOW), -1):
        if _is_break(tokens[j]):
            return False
        if tokens[j] in NEGATORS:
            return True
    return False


def find_goals(text: str) -> list[GoalHit]:
    """Every goal phrase in text, in order, with its negation (see the module docstring)."""
    tokens = tokenize(text)
    hits: list[GoalHit] = []
    i = 0
    while i < len(tokens):
        found = _match_at(tokens, i)
        if found is None:
            i += 1
            continue
        goal, end = found
        if tokens[i].startswith("avoid") and any(_DAMAGE_RE.match(t) for t in tokens[end : end + 2]):
            i = end  # "to avoid it breaking": protects the object, states no goal
            continue
        negated = _negated_by_window(tokens, i)
        if not negated and hits and hits[-1].negated:
            between = tokens[hits[-1].end : i]
            negated = (
                bool(between)
                and set(between) <= {"or", "nor", "it", "them", "this", "the"}
                and ("or" in between or "nor" in between)
            )
        hits.append(GoalHit(goal, i, end, negated))
        i = end
    return hits


def action_intent_alignment(intent: str, correct_action: Action) -> float:
    """AIA in {0, 0.5, 1} of a stated intent against the true action (rules in the module docstring)."""
    target = GOAL_OF_ACTION[Action(correct_action)]
    hits = find_goals(intent)
    stated = {h.goal for h in hits if not h.negated}
    rejected = {h.goal for h in hits if h.negated}
    if target in stated:
        return 1.0 if stated == {target} else 0.5
    if not stated and rejected and target not in rejected:
        return 0.5
    return 0.0


# Doubt about an object's material or weight: explicit contrast between look and physics, or a hedge on
# what it is made of. Plain descriptions ("a heavy iron anvil", "made of glass") are not doubts.
_DOUBT_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"\b(lighter|heavier|denser|softer|harder|slower|faster)\s+than\s+(it\s+)?(looks|appears|seems|expected)",
        r"\b(may|might|could)\s+(actually\s+|not\s+|really\s+)?be\s+(made\s+of\s+|an?\s+)?"
        r"(foam|hollow|fake|prop|replica|plastic|lead|steel|solid|metal|heavier|lighter|dense|light|heavy)\b",
        r"\b(fake|replica|imitation|decoy|disguised|counterfeit)\b",
        r"\bdespite\s+(its|the)\s+(appearance|look|looks)\b",
        r"\b(appearance|appearances|looks)\s+(can|may|might|could)\s+be\s+(deceiving|deceptive|misleading)",
        r"\b(unusually|unexpectedly|surprisingly|suspiciously)\s+(light|heavy|slow|slowly|fast|quickly|dense)\b",
        r"\bnot\s+as\s+(heavy|light)\s+as\s+it\s+(looks|appears|seems)",
        r"\b(material|weight|mass|density)\s+(is\s+)?(unclear|uncertain|unknown|ambiguous)",
        r"\b(is\s+not|isn't)\s+(really|actually)\s+(an?|made)\b",
    )
)


def doubts_material(text: str | None) -> bool:
    """Whether text voices a doubt about an object's material or weight (patterns above)."""
    if not text:
        return False
    lowered = text.lower().replace("\u2019", "'")
    return any(p.search(lowered) for p in _DOUBT_PATTERNS)
