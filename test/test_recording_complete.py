"""What a complete episode bag must hold (reacthuman.recording.completeness), checked against real CDR
messages, and the compressed bags read by the standard MCAP reader as well as by rosbags."""

from __future__ import annotations

from pathlib import Path

from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory
from rclpy.serialization import serialize_message
from reacthuman_msgs.msg import JointCommand
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState

from reacthuman import ros_contract as graph
from reacthuman.nodes.body_lockstep import sim_stamp
from reacthuman.core.bag import BagWriter, bag_info, read_bag
from reacthuman.recording.completeness import (
    NOT_AWAITED,
    TICK_TOPICS,
    EpisodeEnd,
    EpisodeTally,
    awaited_topics,
    cdr_stamp_ns,
    missing,
)

PERIOD_S = 5 / 240  # the body's control tick: 5 physics steps at 240 Hz
END = EpisodeEnd(
    outcome_stamp_ns=int(round(12 * PERIOD_S * 1e9)),
    plan_expected=True,
    controller_fault=False,
    frames_per_view={"egocentric": 2},
    hazard_count=1,
)


def _stamped(cls, t_s: float) -> bytes:
    msg = cls()
    if cls is Clock:
        msg.clock = sim_stamp(t_s)
    else:
        msg.header.stamp = sim_stamp(t_s)
    return serialize_message(msg)


def _full_episode(ticks: int = 12) -> list[tuple[str, bytes]]:
    """What the body, spine and the rest publish in an episode ending at tick `ticks` (not run)."""
    messages = [
        (t, b"\0\1\0\0" + bytes(8))
        for t in (
            graph.SCENE,
            graph.GROUND_TRUTH,
            graph.OBSERVATION,
            graph.FREEZE_STATE,
            graph.PLAN,
            graph.OUTCOME,
            graph.SCORE,
            graph.camera_info_topic("egocentric"),
        )
    ]
    messages += [(graph.image_topic("egocentric"), b"\0\1\0\0" + bytes(8))] * 2
    for k in range(ticks):
        t = k * PERIOD_S
        messages += [
            (graph.CLOCK, _stamped(Clock, t)),
            (graph.JOINT_STATES, _stamped(JointState, t)),
            (graph.JOINT_COMMAND, _stamped(JointCommand, t)),
        ]
        messages += [
            (topic, _stamped(JointState, t)) for topic in (graph.BASE_STATE, graph.HAND_POSITIONS, graph.HAZARD_STATE)
        ]  # same leading stamp layout
    return messages


def _tally(messages) -> EpisodeTally:
    tally = EpisodeTally()
    for topic, raw in messages:
        tally.add(topic, raw)
    return tally


def test_every_recorded_topic_of_the_contract_has_a_rule():
    recorded = set(graph.NODES["episode_manager"].subscribes)
    assert recorded - NOT_AWAITED <= awaited_topics(), recorded - NOT_AWAITED - awaited_topics()
    assert awaited_topics() <= recorded


def test_stamps_are_read_from_the_cdr_bytes():
    assert cdr_stamp_ns(_stamped(Clock, 1.5)) == 1_500_000_000
    assert cdr_stamp_ns(_stamped(JointState, 0.0208333)) == 20_833_300


def test_a_whole_episode_is_complete():
    assert missing(_tally(_full_episode()), END) == []


def test_the_score_before_the_rest_is_not_complete():
    """The race of the issue: the score is in, the plan and the last ticks are still in flight."""
    messages = _full_episode()
    held_back = {graph.PLAN} | {t for t in TICK_TOPICS if t != graph.CLOCK}
    last_tick = cdr_stamp_ns(_stamped(Clock, 11 * PERIOD_S))
    early = [
        (t, raw)
        for t, raw in messages
        if t != graph.PLAN and not (t in held_back and t in TICK_TOPICS and cdr_stamp_ns(raw) == last_tick)
    ]
    lacks = missing(_tally(early), END)
    assert graph.PLAN in lacks
    assert any(graph.JOINT_STATES in x and "1 of 12 ticks, first at t=0.229 s" in x for x in lacks), lacks
    assert not any(x.startswith(graph.CLOCK) for x in lacks)


def test_a_tick_lost_in_the_middle_and_a_missing_frame_are_named():
    messages = _full_episode()
    lost = cdr_stamp_ns(_stamped(Clock, 4 * PERIOD_S))
    some = [(t, raw) for t, raw in messages if not (t == graph.HAZARD_STATE and cdr_stamp_ns(raw) == lost)]
    some.remove((graph.image_topic("egocentric"), b"\0\1\0\0" + bytes(8)))
    lacks = missing(_tally(some), END)
    assert f"{graph.image_topic('egocentric')} (1 of 2)" in lacks
    assert any(x.startswith(graph.HAZARD_STATE) and "t=0.083 s" in x for x in lacks), lacks


def test_ticks_up_to_the_outcome_and_the_faulted_last_tick():
    short = _full_episode(ticks=11)  # the 12th tick (t=0.229 s, before the outcome at 0.25 s) never recorded
    assert any(x.startswith(graph.CLOCK) for x in missing(_tally(short), END))
    faulted = EpisodeEnd(
        outcome_stamp_ns=int(round(11 * PERIOD_S * 1e9)),
        plan_expected=False,
        controller_fault=True,
        frames_per_view={"egocentric": 2},
        hazard_count=1,
    )
    no_last_command = [
        (t, raw)
        for t, raw in _full_episode()
        if not (t == graph.JOINT_COMMAND and cdr_stamp_ns(raw) == faulted.outcome_stamp_ns)
    ]
    assert missing(_tally(no_last_command), faulted) == []


def test_compressed_bag_reads_in_rosbags_and_the_standard_mcap_reader(tmp_path):
    writer = BagWriter(tmp_path / "bag")
    raws = [_stamped(JointState, k * PERIOD_S) for k in range(200)]
    for k, raw in enumerate(raws):
        writer.write(graph.JOINT_STATES, "sensor_msgs/msg/JointState", k, raw)
    writer.close()
    assert [m.raw for m in read_bag(tmp_path / "bag")] == raws
    assert bag_info(tmp_path / "bag")["messages"] == 200
    mcap_file = next(Path(tmp_path / "bag").glob("*.mcap"))
    with mcap_file.open("rb") as fh:
        reader = make_reader(fh, decoder_factories=[DecoderFactory()])
        assert {c.compression for c in reader.get_summary().chunk_indexes} == {"zstd"}
        stamps = [m.header.stamp.nanosec for _, _, _, m in reader.iter_decoded_messages()]
    assert stamps == [cdr_stamp_ns(r) % 1_000_000_000 for r in raws]
