"""What every node shares: endpoints created from the graph contract, parameter declaration with
descriptions and validation, and the standard main() with clean shutdown."""

from __future__ import annotations

import importlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import rclpy
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import ParameterException
from rclpy.executors import Executor, ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from reacthuman import ros_contract as graph
from reacthuman.evaluation.liveness import HEARTBEAT_ENV, HEARTBEAT_S, beat

# A node that reports a fault and then exits waits this long first, so that the episode manager hears the reason
# (and fails the episode with it) before the launcher, seeing the exit, stops the graph.
FAULT_EXIT_DELAY_S = 2.0

# Scene and ground truth are latched so a node that starts late still learns the current episode. A node's
# episode fault is latched too: a body that refuses its scene can publish before discovery has matched it with
# the episode manager (seen in CI: the fault of a fresh graph's first episode never arrived, and the episode
# waited out its timeout); a latched sample reaches the subscriber once it matches.
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
RELIABLE = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
# The per-tick streams are recorded by a reader that may lag behind the lockstep for a while on a loaded
# machine: a deep writer history keeps a slow reader from losing samples the writer has overwritten.
STREAM = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)
_LATCHED_TOPICS = {graph.SCENE, graph.GROUND_TRUTH, graph.EPISODE_FAULT}
_STREAM_TOPICS = {
    graph.CLOCK,
    graph.JOINT_STATES,
    graph.BASE_STATE,
    graph.HAND_POSITIONS,
    graph.HAZARD_STATE,
    graph.JOINT_COMMAND,
}
C = TypeVar("C")  # a config dataclass (declare_config)


def msg_type(type_name: str) -> type:
    """'reacthuman_msgs/msg/ReactionPlan' -> the generated class."""
    package, kind, name = type_name.split("/")
    return getattr(importlib.import_module(f"{package}.{kind}"), name)


def qos_for(topic: str) -> QoSProfile:
    return LATCHED if topic in _LATCHED_TOPICS else STREAM if topic in _STREAM_TOPICS else RELIABLE


def recorder_qos(topic: str) -> QoSProfile:
    """A recorder keeps every sample until it has taken it (KEEP_ALL), whatever the topic's usual depth."""
    base = qos_for(topic)
    return QoSProfile(history=HistoryPolicy.KEEP_ALL, reliability=base.reliability, durability=base.durability)


class ContractNode(Node):
    """A node whose publishers and subscriptions are exactly those its contract lists (reacthuman.ros_contract's, or
    another system's NodeContract); services and actions the subclass creates from `self.contract`.

    Subclasses register callbacks in `callbacks` (topic -> function) before calling super().__init__;
    a subscribed topic without a callback is still created (so the graph is as declared) and ignored.
    With raw=True callbacks receive the serialized bytes (for recording); `qos` gives each topic's QoS.
    """

    def __init__(
        self,
        contract: str | graph.NodeContract,
        callbacks: dict[str, Callable[[Any], None]] | None = None,
        raw: bool = False,
        qos: Callable[[str], QoSProfile] = qos_for,
        *,
        parameter_overrides: list | None = None,
    ) -> None:
        # a name in reacthuman.ros_contract, or a contract another system declares (physment.ros_contract)
        self.contract = graph.contract(contract) if isinstance(contract, str) else contract
        # parameter_overrides: rclpy's (Parameter values), for nodes composed in one process (InteractiveWorld's)
        super().__init__(self.contract.name, namespace=self.contract.namespace, parameter_overrides=parameter_overrides)
        callbacks = callbacks or {}
        self.pub = {t: self.create_publisher(msg_type(ty), t, qos(t)) for t, ty in self.contract.publishes.items()}
        self.subs = [
            self.create_subscription(msg_type(ty), t, callbacks.get(t, lambda _msg: None), qos(t), raw=raw)
            for t, ty in self.contract.subscribes.items()
        ]
        self._read_at_start: set[str] = set()
        self.add_on_set_parameters_callback(self._on_set_parameters)

    def declare(
        self, name: str, default: Any, description: str, validate: Callable[[Any], str | None] | None = None
    ) -> Any:
        """Declare a parameter with its description; `validate` returns a reason string to refuse a value.
        The node reads it here, once: a later set is refused (see _on_set_parameters)."""
        value = self.declare_parameter(name, default, ParameterDescriptor(description=description)).value
        reason = validate(value) if validate else None
        if reason:
            raise ValueError(f"parameter '{name}': {reason}")
        self._read_at_start.add(name)  # after the declaration, whose own set passes through the callback
        return value

    def declare_config(self, defaults: C, descriptions: Mapping[str, str], names: Mapping[str, str] | None = None) -> C:
        """Declare one parameter per field of `descriptions` (field -> description), named as the field or as
        `names[field]`, its default the field's value in `defaults` (a module's `default_config()`, so
        config/*.yaml). A value is refused when the dataclass refuses it: its __post_init__ message, which
        names the field, is the reason. Returns `defaults` with the declared values."""
        names = names or {}
        values = {
            field: self.declare(
                names.get(field, field), getattr(defaults, field), description, _accepted_by(defaults, field)
            )
            for field, description in descriptions.items()
        }
        return replace(defaults, **values)

    def report_fault(self, scene_id: str, reason: str) -> None:
        """Tell the episode manager that this node gives up on `scene_id` (graph.EPISODE_FAULT): the episode fails
        at once with `reason` and is retried on a fresh graph, instead of waiting out its timeout."""
        fault = graph.EpisodeFault(scene_id, self.contract.name, reason)
        self.get_logger().error(str(fault))
        self.pub[graph.EPISODE_FAULT].publish(String(data=fault.to_json()))

    def _on_set_parameters(self, params: list) -> SetParametersResult:
        # Every declared parameter configures what the node built at start (a body, a brain, a ledger path):
        # accepting a later value would report a change that never happens.
        for p in params:
            if p.name in self._read_at_start:
                return SetParametersResult(
                    successful=False,
                    reason=(f"parameter '{p.name}' is read once at start: restart the node with -p {p.name}:=VALUE"),
                )
        return SetParametersResult(successful=True)


def _accepted_by(config: Any, field: str) -> Callable[[Any], str | None]:
    """A parameter validator: None when `config` with `field` set to the value is valid, else why not."""

    def check(value: Any) -> str | None:
        try:
            replace(config, **{field: value})
        except (TypeError, ValueError) as exc:
            return str(exc)
        return None

    return check


def one_of(*choices: str) -> Callable[[Any], str | None]:
    return lambda v: None if v in choices else f"must be one of {', '.join(choices)}, got {v!r}"


def positive(v: Any) -> str | None:
    return None if isinstance(v, (int, float)) and v > 0 else f"must be > 0, got {v!r}"


# A node whose launcher is killed gets SIGKILL from the kernel (PR_SET_PDEATHSIG); one started some other way
# and orphaned is ended after ORPHAN_GRACE_S. One whose shutdown hangs (a callback stuck in a long wait, a
# worker thread the interpreter would join at exit, or DDS destroying an entity while holding the GIL, which
# starves every Python thread) is ended by the kernel EXIT_GRACE_S after shutdown began: SIGALRM's default
# action needs no Python code to run.
ORPHAN_GRACE_S = 10.0
EXIT_GRACE_S = 10.0
_PARENT_POLL_S = 1.0


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(_PARENT_POLL_S)
    time.sleep(ORPHAN_GRACE_S)
    sys.stderr.write(f"[{os.getpid()}] parent {parent_pid} is gone; exiting\n")
    os._exit(1)


def _force_exit_later() -> None:
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(math.ceil(EXIT_GRACE_S))


# rclpy's own SIGTERM handler shuts the context down on its signal thread, holding the GIL; if DDS hangs in that
# shutdown no Python code runs again, not even the exit timer below (the likely cause of a scorer seen once under
# load still alive 30 s after SIGTERM). So the nodes handle SIGINT and SIGTERM in Python: the handler arms the kernel's
# exit timer first, then unwinds the spin. Python runs a handler only between bytecodes, so the spin waits at
# most SPIN_POLL_S at a time.
SPIN_POLL_S = 0.5


def _on_terminate(signum: int, _frame: object) -> None:
    _force_exit_later()
    raise KeyboardInterrupt(signal.Signals(signum).name)


def default_executor() -> Executor:
    """rclpy's events executor (C++: one queue of ready events, no wait set rebuilt per wake-up) where this rclpy
    has it, else the single-threaded Python executor. Its callbacks cannot take the message info (it fails
    inside rclpy), so a node that needs that runs the Python one. Measured on the lockstep: the body's wait for
    the spine's command fell from 10-30 ms to 1-3 ms per control tick (docs/performance.md, "The graph's overhead
    on an episode")."""
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return SingleThreadedExecutor()
    return EventsExecutor()


def _start_heartbeat(node: Node) -> None:
    """Beat while the executor spins (reacthuman.evaluation.liveness): an eval that launched this node watches
    the beats, and takes a node whose beats stop while it does not compute for hung."""
    folder = os.environ.get(HEARTBEAT_ENV)
    if not folder:
        return
    pid = os.getpid()
    beat(Path(folder), pid)
    # on the steady clock: a node following /clock (use_sim_time) would not beat while sim time is frozen
    node.create_timer(HEARTBEAT_S, lambda: beat(Path(folder), pid), clock=Clock(clock_type=ClockType.STEADY_TIME))


def _spin(node: Node, executor: Executor) -> None:
    executor.add_node(node)
    while rclpy.ok():
        executor.spin_once(timeout_sec=SPIN_POLL_S)


def run(
    factory: Callable[[], Node], args: list[str] | None = None, executor_factory: Callable[[], Executor] | None = None
) -> int:
    """Standard main: init, spin until Ctrl-C / SIGTERM / external shutdown, clean up. Returns the exit code.
    The process never outlives its parent by more than ORPHAN_GRACE_S, nor a SIGINT, a SIGTERM or the start of
    its shutdown by EXIT_GRACE_S."""
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _on_terminate)
    try:
        with rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO):
            try:
                node = factory()
            except (ValueError, ParameterException) as exc:  # a refused parameter (value or type): one line
                sys.stderr.write(f"{getattr(factory, '__name__', 'node')}: {exc}\n")
                return 2
            _start_heartbeat(node)
            try:
                _spin(node, (executor_factory or default_executor)())
            finally:
                # armed before the clean-up: destroying the node or rclpy's shutdown can hang
                _force_exit_later()
                node.destroy_node()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    return 0
