"""Reusable pieces of reference solutions (generators used with `yield from`)."""

from __future__ import annotations

from typing import Callable, Generator

from physment.scenegen.registry import call

Turn = Generator[list[dict], list[dict], object]


def bisect(
    probe: Callable[[float], list[dict]],
    passes: Callable[[list[dict]], bool],
    lo: float,
    hi: float,
    turns: int = 4,
    probes_per_turn: int = 3,
    geometric: bool = False,
) -> Turn:
    """Smallest x in [lo, hi] for which `passes` holds (monotone), probing several x per turn.

    Each turn splits the bracket into probes_per_turn + 1 parts; returns the final (lo, hi)."""
    for _ in range(turns):
        if geometric:
            xs = [lo * (hi / lo) ** ((i + 1) / (probes_per_turn + 1)) for i in range(probes_per_turn)]
        else:
            xs = [lo + (hi - lo) * (i + 1) / (probes_per_turn + 1) for i in range(probes_per_turn)]
        calls: list[dict] = []
        sizes = []
        for x in xs:
            c = probe(x)
            calls += c
            sizes.append(len(c))
        results = yield calls
        offset, verdicts = 0, []
        for n in sizes:
            verdicts.append(passes(results[offset : offset + n]))
            offset += n
        new_lo, new_hi = lo, hi
        for x, ok in zip(xs, verdicts):
            if ok:
                new_hi = x
                break
            new_lo = x
        lo, hi = new_lo, new_hi
    return lo, hi


def scan(
    read: dict,
    value: Callable[[dict], float],
    reached: Callable[[float], bool],
    dt_s: float,
    pairs_per_turn: int = 20,
    max_turns: int = 4,
    first: list[dict] | None = None,
    start_t_s: float | None = None,
) -> Turn:
    """Step dt_s at a time, reading after each step, until `reached(value(reading))`.

    Returns (t_before, v_before, t_after, v_after) around the first reading that reached, or raises;
    t_before is start_t_s (v_before None) when the very first reading reached."""
    prev_t, prev_v = start_t_s, None
    prefix = list(first or [])
    for _ in range(max_turns):
        calls = prefix + [c for _ in range(pairs_per_turn) for c in (call("step", duration=dt_s), read)]
        results = yield calls
        results = results[len(prefix) :]
        prefix = []
        for i in range(0, len(results), 2):
            t = results[i]["simulation_time_s"]
            v = value(results[i + 1])
            if reached(v):
                return prev_t, prev_v, t, v
            prev_t, prev_v = t, v
    raise RuntimeError("scan: condition not reached within the allotted turns")


def crossing_time(t0: float, v0: float, t1: float, v1: float, target: float = 0.0) -> float:
    """Linear interpolation of the time at which the reading crosses target."""
    if v1 == v0:
        return t1
    return t0 + (target - v0) * (t1 - t0) / (v1 - v0)
