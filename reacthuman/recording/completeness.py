"""What a complete episode bag holds, derived from the graph contract and the episode's own messages.

Every topic the episode manager records (the contract's `episode_manager.subscribes`) has one rule here:

- once per episode: the scene announcement, its ground truth, the observation window, the freeze state, the
  outcome, the score;
- the plan, when the outcome says one arrived (received or late);
- the hazard's recorded path, once, in the closed loop (`--loop closed`; its re-plans add observations, freeze
  states and plans, which the rules above count at least once);
- per view of the observation: as many `image_raw` frames as the window carries, and one `camera_info`;
- per control tick: the body's /clock, joint states, base state, hand positions and one hazard state per
  hazard body, and the spine's joint command answering that tick. Ticks run from sim time 0 every control
  period up to the last one before the outcome's stamp (the body checks for the end before stepping), or up
  to the outcome's stamp itself when a controller fault ended the episode on that tick, whose command may
  then never have come.

Messages of one episode reach the recorder on independent DDS readers in no guaranteed order, so the score
(which ends the episode) can arrive before the last ticks or even the plan: the episode manager waits until
`missing()` is empty before it closes the bag, and fails the episode (to be retried) if it never is.

ROS-free: stamps are read straight from the CDR bytes (every awaited message starts with its stamp).
"""

from __future__ import annotations

import struct
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from reacthuman import ros_contract as graph

ONCE_TOPICS = (graph.SCENE, graph.GROUND_TRUTH, graph.OBSERVATION, graph.FREEZE_STATE, graph.OUTCOME, graph.SCORE)
BODY_TICK_TOPICS = (graph.CLOCK, graph.JOINT_STATES, graph.BASE_STATE, graph.HAND_POSITIONS)
TICK_TOPICS = (*BODY_TICK_TOPICS, graph.HAZARD_STATE, graph.JOINT_COMMAND)
# The spine publishes /g1/cmd_vel only when it accepts a plan, which no message of the episode states:
# recorded when it comes, never waited for (nothing is scored from it).
# A node's episode fault fails the episode, whose bag is then discarded: a complete bag never waits for one.
# A policy's commands come only in a policy's graph, all of them before the executed plan (the policy node
# publishes both from one thread, in order), which the bag waits for; `reacthuman rescore` counts them.
NOT_AWAITED = frozenset({graph.CMD_VEL, graph.EPISODE_FAULT, graph.POLICY_COMMAND})
# Sim stamps are rounded to whole nanoseconds from float seconds: tick times match within this.
STAMP_TOLERANCE_NS = 1000


def awaited_topics() -> set[str]:
    """Every recorded topic some rule waits for (the test checks this covers the whole contract)."""
    views = {t for v in graph.VIEWS for t in (graph.image_topic(v), graph.camera_info_topic(v))}
    return {*ONCE_TOPICS, *TICK_TOPICS, graph.PLAN, graph.HAZARD_PATH} | views


def cdr_stamp_ns(raw: bytes) -> int:
    """The leading builtin_interfaces/Time of a CDR message (header.stamp, or Clock.clock)."""
    if len(raw) < 12:
        raise ValueError(f"a {len(raw)}-byte CDR message has no stamp")
    fmt = "<iI" if raw[1] == 1 else ">iI"  # encapsulation 0x0001: little endian
    sec, nanosec = struct.unpack_from(fmt, raw, 4)
    return sec * 1_000_000_000 + nanosec


@dataclass(frozen=True)
class EpisodeEnd:
    """What the episode's own terminal messages say about what it produced."""

    outcome_stamp_ns: int
    plan_expected: bool
    controller_fault: bool
    frames_per_view: dict[str, int]  # image_raw messages per view (0 where the bag keeps them only in the observation)
    hazard_count: int
    path_expected: bool = False  # the closed loop: the body publishes the hazard's recorded path


@dataclass
class EpisodeTally:
    """Counts of what the bag holds so far: messages per topic, and per tick topic the stamps seen."""

    counts: Counter = field(default_factory=Counter)
    tick_stamps: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, topic: str, raw: bytes) -> None:
        self.counts[topic] += 1
        if topic in TICK_TOPICS:
            self.tick_stamps[topic][cdr_stamp_ns(raw)] += 1


def control_period_ns(tally: EpisodeTally) -> float | None:
    """The tick period from the episode's own stamps: the smallest gap between distinct tick stamps."""
    stamps = sorted({s for t in BODY_TICK_TOPICS for s in tally.tick_stamps.get(t, ())})
    gaps = [b - a for a, b in zip(stamps, stamps[1:]) if b - a > STAMP_TOLERANCE_NS]
    return float(min(gaps)) if gaps else None


def expected_ticks(period_ns: float, end: EpisodeEnd) -> int:
    """Number of control ticks (from t=0) the body ran before the episode ended at the outcome's stamp."""
    limit = end.outcome_stamp_ns + (STAMP_TOLERANCE_NS if end.controller_fault else -STAMP_TOLERANCE_NS)
    return int(limit // period_ns) + 1 if limit >= 0 else 0


def missing(tally: EpisodeTally, end: EpisodeEnd | None) -> list[str]:
    """What the bag still lacks, one phrase per topic; empty when it holds the whole episode. `end` is None
    until the outcome and the observation are recorded (the rest follows from them)."""
    lacks = [f"{t}" for t in ONCE_TOPICS if tally.counts[t] < 1]
    if end is None:
        return lacks or ["the outcome and observation (not yet decoded)"]
    if end.plan_expected and tally.counts[graph.PLAN] < 1:
        lacks.append(graph.PLAN)
    if end.path_expected and tally.counts[graph.HAZARD_PATH] < 1:
        lacks.append(graph.HAZARD_PATH)
    for view, frames in sorted(end.frames_per_view.items()):
        for topic, want in ((graph.image_topic(view), frames), (graph.camera_info_topic(view), 1)):
            if tally.counts[topic] < want:
                lacks.append(f"{topic} ({tally.counts[topic]} of {want})")
    return lacks + _missing_ticks(tally, end)


def _missing_ticks(tally: EpisodeTally, end: EpisodeEnd) -> list[str]:
    period = control_period_ns(tally)
    if period is None:
        return [f"{graph.CLOCK} (fewer than two control ticks)"]
    n = expected_ticks(period, end)
    lacks = []
    for topic in TICK_TOPICS:
        per_tick = end.hazard_count if topic == graph.HAZARD_STATE else 1
        need = n - 1 if topic == graph.JOINT_COMMAND and end.controller_fault else n
        seen = Counter()
        for stamp, count in tally.tick_stamps.get(topic, {}).items():
            seen[round(stamp / period)] += count
        short = [k for k in range(need) if seen[k] < per_tick]
        if short:
            lacks.append(f"{topic} ({len(short)} of {need} ticks, first at t={short[0] * period / 1e9:.3f} s)")
    return lacks
