"""Unitree G1 low-level DDS interface (rt/lowcmd, rt/lowstate; unitree_hg types with CRC) for the spine.

Two endpoints on the same topics, as on the robot:
- `G1LowLevelLink` is the controller's side: it turns the spine's JointCommands into LowCmd and LowState into
  RobotState. Pointed at the robot's network interface and domain (0), this is what drives a real G1.
- `SimulatedG1Endpoint` is the robot's side, for a simulator standing in for the G1 (the pattern of
  Unitree's own MuJoCo bridge): it publishes LowState and receives LowCmd, checking their CRC.

Motor index i is joint G1_JOINT_NAMES[i] (the G1 29-DOF motor order); motors 29..34 are unused and left
disabled. The IMU quaternion is (w, x, y, z), body to world; its gyroscope is in the body frame (pelvis IMU).

Lockstep (simulation only): the controller copies the LowState tick it answered into LowCmd.reserve[0], so a
simulator can wait for the answer to each state and run bit-reproducibly however loaded the machine is.
A real robot ignores the reserve words.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from reacthuman.spine.robot_state import RobotState
from reacthuman.spine.watchdog import CommandWatchdog
from reacthuman.core.config import config_with
from reacthuman.spine.joint_command import JointCommand, Mode
from reacthuman.spine.g1_assets import G1_JOINT_NAMES
from unitree_sdk2py.core.channel import ChannelFactoryInitialize, ChannelPublisher, ChannelSubscriber
from unitree_sdk2py.idl.default import unitree_hg_msg_dds__LowCmd_, unitree_hg_msg_dds__LowState_
from unitree_sdk2py.idl.unitree_hg.msg.dds_ import LowCmd_, LowState_
from unitree_sdk2py.utils.crc import CRC

if TYPE_CHECKING:
    from reacthuman.spine.spine import Spine

N_MOTORS_HG = 35
MOTOR_ENABLE = 1
MOTOR_DISABLE = 0
LOWCMD_TOPIC = "rt/lowcmd"
LOWSTATE_TOPIC = "rt/lowstate"
# The G1 29-DOF reports this machine mode; a LowCmd must carry the mode_machine the robot reports.
SIM_MODE_MACHINE = 5


@dataclass(frozen=True)
class UnitreeBridgeConfig:
    network_interface: str = "lo"  # the NIC wired to the robot (e.g. "enp3s0"); "lo" for a simulator
    domain_id: int = 0  # the G1 talks on domain 0; keep simulators on their own domain
    # "receipt": a state is stamped with the controller's monotonic clock when it arrives (the real robot);
    # "tick": stamped tick * tick_period_s (a simulator whose tick counts physics steps)
    clock: str = "receipt"
    tick_period_s: float = 1.0 / 240.0
    echo_tick: bool = False  # lockstep with a simulator: LowCmd.reserve[0] = the answered LowState tick

    def __post_init__(self) -> None:
        if not self.network_interface:
            raise ValueError("UnitreeBridgeConfig.network_interface must not be empty")
        if not 0 <= self.domain_id <= 232:
            raise ValueError(f"UnitreeBridgeConfig.domain_id must be in [0, 232], got {self.domain_id}")
        if self.clock not in ("receipt", "tick"):
            raise ValueError(f"UnitreeBridgeConfig.clock must be 'receipt' or 'tick', got {self.clock!r}")
        if not self.tick_period_s > 0:
            raise ValueError(f"UnitreeBridgeConfig.tick_period_s must be > 0, got {self.tick_period_s}")


def default_config(**overrides: object) -> UnitreeBridgeConfig:
    """config/unitree_bridge.yaml with `overrides` applied."""
    return config_with(UnitreeBridgeConfig, overrides)


def _init_dds(config: UnitreeBridgeConfig) -> None:
    # the SDK keeps one DDS participant per process: the first configuration wins
    ChannelFactoryInitialize(config.domain_id, config.network_interface)


def _crc(msg: object) -> int:
    return CRC().Crc(msg)


# --- message conversion (pure) ---------------------------------------------------------------------
def joint_command_to_lowcmd(cmd: JointCommand, mode_machine: int, echo_tick: int = 0) -> object:
    if cmd.names != G1_JOINT_NAMES:
        raise ValueError("joint command names are not the G1's 29 joints in motor order")
    msg = unitree_hg_msg_dds__LowCmd_()
    msg.mode_pr = 0  # pitch/roll ankle mode, the one the policy's joint angles are in
    msg.mode_machine = int(mode_machine)
    for i in range(len(G1_JOINT_NAMES)):
        m = msg.motor_cmd[i]
        m.mode = MOTOR_ENABLE
        m.q, m.dq, m.tau = float(cmd.q[i]), float(cmd.dq[i]), float(cmd.tau[i])
        m.kp, m.kd = float(cmd.kp[i]), float(cmd.kd[i])
    for i in range(len(G1_JOINT_NAMES), N_MOTORS_HG):
        msg.motor_cmd[i].mode = MOTOR_DISABLE
    msg.reserve[0] = int(echo_tick) & 0xFFFFFFFF
    msg.crc = _crc(msg)
    return msg


def lowcmd_to_joint_command(msg: object, stamp_s: float) -> JointCommand:
    """Raises ValueError on a CRC mismatch or a non-finite field (the robot would ignore such a message)."""
    if _crc(msg) != msg.crc:
        raise ValueError("LowCmd CRC mismatch")
    motors = msg.motor_cmd[: len(G1_JOINT_NAMES)]
    # a disabled motor applies no torque whatever its other fields say
    on = [1.0 if m.mode == MOTOR_ENABLE else 0.0 for m in motors]
    kp = tuple(e * float(m.kp) for e, m in zip(on, motors))
    return JointCommand(
        names=G1_JOINT_NAMES,
        q=tuple(float(m.q) for m in motors),
        dq=tuple(float(m.dq) for m in motors),
        kp=kp,
        kd=tuple(e * float(m.kd) for e, m in zip(on, motors)),
        tau=tuple(e * float(m.tau) for e, m in zip(on, motors)),
        mode=Mode.ACTIVE if any(k > 0 for k in kp) else Mode.DAMPING,
        stamp_s=stamp_s,
    )


def robot_state_to_lowstate(state: RobotState, tick: int, mode_machine: int = SIM_MODE_MACHINE) -> object:
    msg = unitree_hg_msg_dds__LowState_()
    msg.tick = int(tick) & 0xFFFFFFFF
    msg.mode_machine = int(mode_machine)
    msg.imu_state.quaternion = [float(v) for v in state.base_quat_wxyz]
    msg.imu_state.gyroscope = [float(v) for v in state.base_ang_vel_body]
    w, x, y, z = state.base_quat_wxyz
    msg.imu_state.rpy = [
        math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
        math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x)))),
        state.yaw_rad(),
    ]
    for i in range(len(G1_JOINT_NAMES)):
        msg.motor_state[i].q = float(state.q[i])
        msg.motor_state[i].dq = float(state.dq[i])
    msg.crc = _crc(msg)
    return msg


def lowstate_to_robot_state(msg: object, stamp_s: float) -> RobotState:
    """Joint and IMU state; base position and linear velocity are unknown on the robot (zeros)."""
    motors = msg.motor_state[: len(G1_JOINT_NAMES)]
    quat = [float(v) for v in msg.imu_state.quaternion]
    norm = math.sqrt(sum(v * v for v in quat))
    if not norm > 0:
        raise ValueError("LowState IMU quaternion is zero")
    return RobotState(
        q=tuple(float(m.q) for m in motors),
        dq=tuple(float(m.dq) for m in motors),
        base_quat_wxyz=tuple(v / norm for v in quat),
        base_ang_vel_body=tuple(float(v) for v in msg.imu_state.gyroscope),
        stamp_s=stamp_s,
    )


# --- endpoints --------------------------------------------------------------------------------------
class _Latest:
    """The newest message from a DDS listener thread, with a wait for one newer than a count."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.value: object = None
        self.count = 0
        self.rejected = 0

    def put(self, value: object) -> None:
        with self._cond:
            self.value, self.count = value, self.count + 1
            self._cond.notify_all()

    def reject(self) -> None:
        with self._cond:
            self.rejected += 1

    def wait_newer(self, count: int, timeout_s: float, accept: Callable[[object], bool] | None = None) -> object:
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self.count <= count or (accept is not None and not accept(self.value)):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self.value


class G1LowLevelLink:
    """The controller's side: latest RobotState from rt/lowstate; JointCommand out on rt/lowcmd."""

    def __init__(
        self, config: UnitreeBridgeConfig | None = None, on_state: Callable[[RobotState, int], None] | None = None
    ) -> None:
        """on_state(state, tick), if given, is called on the DDS listener thread for every valid LowState
        (a ROS bridge node republishes from there); wait_state works either way."""

        self.config = config or default_config()
        _init_dds(self.config)
        self._on_state_cb = on_state
        self._state = _Latest()
        self._last_msg: object = None
        self._pub = ChannelPublisher(LOWCMD_TOPIC, LowCmd_)
        self._pub.Init()
        self._sub = ChannelSubscriber(LOWSTATE_TOPIC, LowState_)
        self._sub.Init(self._on_state, 0)  # listening starts here: everything it touches exists

    def _on_state(self, msg: object) -> None:
        if _crc(msg) != msg.crc:
            self._state.reject()
            return
        stamp = msg.tick * self.config.tick_period_s if self.config.clock == "tick" else time.monotonic()
        self._state.put((msg, stamp))
        if self._on_state_cb is not None:
            self._last_msg = msg
            self._on_state_cb(lowstate_to_robot_state(msg, stamp), int(msg.tick))

    def now_s(self) -> float:
        """The clock states are stamped on (for Spine.command's sim_time_s in 'receipt' mode)."""
        return time.monotonic()

    @property
    def states_received(self) -> int:
        return self._state.count

    @property
    def states_rejected(self) -> int:
        return self._state.rejected

    def wait_state(self, after_count: int, timeout_s: float) -> tuple[RobotState, int, float] | None:
        """The first state received after `after_count` states: (state, its tick, its stamp), or None."""
        got = self._state.wait_newer(after_count, timeout_s)
        if got is None:
            return None
        msg, stamp = got
        self._last_msg = msg
        return lowstate_to_robot_state(msg, stamp), int(msg.tick), stamp

    def close(self) -> None:
        """Stop listening first: a DDS listener calling into a finalising interpreter can crash it."""
        self._sub.Close()
        self._pub.Close()

    def send(self, cmd: JointCommand) -> None:
        if self._last_msg is None:
            raise RuntimeError("no LowState received yet: the robot's mode_machine is unknown")
        echo = int(self._last_msg.tick) if self.config.echo_tick else 0
        self._pub.Write(joint_command_to_lowcmd(cmd, int(self._last_msg.mode_machine), echo))


class SimulatedG1Endpoint:
    """The robot's side, for a simulator: publish LowState each physics step, take LowCmd as it arrives."""

    def __init__(self, config: UnitreeBridgeConfig | None = None, mode_machine: int = SIM_MODE_MACHINE) -> None:
        self.config = config or default_config()
        _init_dds(self.config)
        self.mode_machine = mode_machine
        self._cmd = _Latest()
        self._pub = ChannelPublisher(LOWSTATE_TOPIC, LowState_)
        self._pub.Init()
        self._sub = ChannelSubscriber(LOWCMD_TOPIC, LowCmd_)
        self._sub.Init(self._on_cmd, 0)

    def _on_cmd(self, msg: object) -> None:
        try:
            cmd = lowcmd_to_joint_command(msg, 0.0)
        except ValueError:
            self._cmd.reject()  # a bad CRC or a NaN: dropped, as the robot drops it
            return
        self._cmd.put((cmd, int(msg.reserve[0])))

    def close(self) -> None:
        self._sub.Close()
        self._pub.Close()

    @property
    def commands_rejected(self) -> int:
        return self._cmd.rejected

    def publish_state(self, state: RobotState, tick: int) -> None:
        self._pub.Write(robot_state_to_lowstate(state, tick, self.mode_machine))

    def latest_command(self) -> JointCommand | None:
        got = self._cmd.value
        return None if got is None else got[0]

    def wait_command_for(self, tick: int, timeout_s: float) -> JointCommand | None:
        """Lockstep: the command that answers LowState `tick` (or a later one), or None after timeout_s."""
        got = self._cmd.wait_newer(-1, timeout_s, accept=lambda v: v is not None and v[1] >= tick)
        return None if got is None else got[0]


# --- loops ------------------------------------------------------------------------------------------
def drive_spine(
    spine: "Spine",
    link: G1LowLevelLink,
    duration_s: float,
    first_state_timeout_s: float = 10.0,
    state_timeout_s: float = 1.0,
) -> int:
    """The controller's loop: answer each LowState with the spine's command for it, until it has answered
    one at least duration_s (on the states' clock) after the first. Returns the number of commands sent.
    Raises TimeoutError if the robot stops talking (the robot side's watchdog then drops it to damping)."""
    seen = link.states_received
    t_start: float | None = None
    sent = 0
    while True:
        got = link.wait_state(seen, first_state_timeout_s if t_start is None else state_timeout_s)
        if got is None:
            raise TimeoutError(
                f"no LowState on {LOWSTATE_TOPIC} (domain {link.config.domain_id}, "
                f"interface {link.config.network_interface})"
            )
        state, _tick, stamp = got
        seen = link.states_received
        now = stamp if link.config.clock == "tick" else link.now_s()
        t_start = now if t_start is None else t_start
        link.send(spine.command(now, state))
        sent += 1
        if now - t_start >= duration_s:
            return sent


FIRST_STATE_RESEND_S = 2.0


def _first_answer(endpoint: SimulatedG1Endpoint, state: RobotState, tick: int, timeout_s: float) -> JointCommand | None:
    """The answer to the first LowState of a stream. That state can go out before the controller's reader has
    matched this writer (DDS discovery; seen once in CI under load: the lockstep then waited its whole timeout
    for an answer to a state nobody received), so it is sent again every FIRST_STATE_RESEND_S until answered,
    as a real G1, which streams LowState all the time, would."""
    deadline_s = time.monotonic() + timeout_s
    while True:
        left_s = deadline_s - time.monotonic()
        cmd = endpoint.wait_command_for(tick, max(0.0, min(FIRST_STATE_RESEND_S, left_s)))
        if cmd is not None or left_s <= FIRST_STATE_RESEND_S:
            return cmd
        endpoint.publish_state(state, tick)


def serve_simulated_robot(
    endpoint: SimulatedG1Endpoint,
    watchdog: CommandWatchdog,
    n_steps: int,
    dt_s: float,
    read_state: Callable[[float], RobotState],
    apply: Callable[[JointCommand], None],
    step: Callable[[], None],
    lockstep_timeout_s: float = 2.0,
    first_step: int = 0,
) -> int:
    """The simulated robot's loop, one physics step at a time: publish LowState (tick = step), wait for the
    LowCmd answering it (lockstep; after lockstep_timeout_s it steps on and the watchdog decides), apply the
    watchdog's command, step. Steps are numbered from first_step (to continue an earlier call). Returns how
    many steps went without a timely answer."""
    missed = 0
    for k in range(first_step, first_step + n_steps):
        now = k * dt_s
        state = read_state(now)
        endpoint.publish_state(state, k)
        if k == first_step:
            cmd = _first_answer(endpoint, state, k, lockstep_timeout_s)
        else:
            cmd = endpoint.wait_command_for(k, lockstep_timeout_s)
        if cmd is None:
            missed += 1
        else:
            watchdog.receive(cmd, now)
        apply(watchdog.apply(now, state.q))
        step()
    return missed
