"""Test fixture for the spine: the G1 on a plane in Genesis (through the body's engine adapter), driven by a
JointCommand source with PD torques every physics step, plus the two sides of the Unitree DDS loopback run.

Run as a script for the DDS test's processes:
    python test/spine_harness.py dds-sim   --domain 7 --seconds 4 --out result.json --plan '{...}'
    python test/spine_harness.py dds-spine --domain 7 --seconds 4 --plan '{"walking_cmd": [0.5, 0, 0], ...}'
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reacthuman.spine.robot_state import RobotState  # noqa: E402
from reacthuman.spine.joint_command import JointCommand  # noqa: E402
from reacthuman.plan.plan import Keyframe, Plan, Pose2D  # noqa: E402
from reacthuman.sim_bridge.engine import RobotSpec, make_engine, quat_rotate_wxyz  # noqa: E402
from reacthuman.spine.g1_assets import (  # noqa: E402
    G1_JOINT_NAMES,
    default_pose_geometry,
    g1_mjcf_path,
    read_policy_metadata,
)
from reacthuman.sim_bridge.scene_setup import hand_points  # noqa: E402

WORLD_MJCF = '<mujoco model="plane"><worldbody><geom name="floor" type="plane" size="0 0 0.05"/></worldbody></mujoco>'
FALLEN_PELVIS_Z_M = 0.5
DT_S = 1.0 / 240.0
AFTER_STOP_S = 0.25  # the DDS sim serves this long after the controller stops


@dataclass(frozen=True)
class Trace:
    """What a run did, in the frame of its start pose."""

    forward_m: float  # displacement along the start heading
    left_m: float
    yaw_change_rad: float  # unwrapped
    min_pelvis_z_m: float
    max_pelvis_z_m: float
    fell: bool


class G1Harness:
    def __init__(self) -> None:
        geo = default_pose_geometry()
        self.spec = RobotSpec(
            g1_mjcf_path(),
            G1_JOINT_NAMES,
            (0.0, 0.0, geo.pelvis_height_m + 0.002),
            0.0,
            read_policy_metadata().default_pose_rad,
        )
        self.engine = make_engine("genesis")
        self.engine.build(WORLD_MJCF, self.spec, ())
        self.limits = self.engine.torque_limits_nm()
        self.nominal_pelvis_z_m = geo.pelvis_height_m

    def reset(self) -> None:
        """The G1 back at its start pose, at rest. The engine interface has no reset; rebuilding costs a
        minute, so the adapter's entity is used directly here."""
        ent = self.engine._robot_entity
        qpos = np.asarray(ent.get_qpos().cpu() if hasattr(ent.get_qpos(), "cpu") else ent.get_qpos(), dtype=float)
        qpos[0:3] = self.spec.base_pos_m
        qpos[3:7] = self.spec.base_quat_wxyz()
        qpos[7:] = self.spec.joint_pos_rad
        ent.set_qpos(qpos, zero_velocity=True)
        self.engine.set_joint_torques(np.zeros(len(G1_JOINT_NAMES)))

    def state(self) -> RobotState:
        s = self.engine.robot_state()
        return RobotState(
            q=tuple(s.joint_pos_rad),
            dq=tuple(s.joint_vel_radps),
            base_quat_wxyz=tuple(s.base.quat_wxyz),
            base_ang_vel_body=tuple(s.gyro_radps),
            base_pos_world=tuple(s.base.pos_m),
            base_lin_vel_world=tuple(s.base.lin_vel_mps),
            stamp_s=self.engine.time_s,
        )

    def pose(self) -> Pose2D:
        s = self.state()
        return Pose2D(s.base_pos_world[0], s.base_pos_world[1], s.yaw_rad())

    def hands_robot(self) -> tuple[np.ndarray, np.ndarray]:
        """Both palms in the current robot frame (pelvis projected to the floor, heading x)."""
        pose = self.pose()
        out = []
        for link, offset in hand_points():
            b = self.engine.body_state(link)
            out.append(np.array(pose.to_robot(tuple(b.pos_m + quat_rotate_wxyz(b.quat_wxyz, offset)))))
        return out[0], out[1]

    def apply(self, cmd: JointCommand) -> None:
        s = self.engine.robot_state()
        tau = np.asarray(cmd.torques(s.joint_pos_rad, s.joint_vel_radps))
        self.engine.set_joint_torques(np.clip(tau, -self.limits, self.limits))

    def run(self, source: Callable[[float, RobotState], JointCommand], duration_s: float) -> Trace:
        start = self.pose()
        zs, yaw, last_yaw, fell = [], 0.0, start.yaw_rad, False
        for _ in range(int(round(duration_s / DT_S))):
            self.apply(source(self.engine.time_s, self.state()))
            self.engine.step()
            s = self.state()
            zs.append(s.base_pos_world[2])
            fell = fell or zs[-1] < FALLEN_PELVIS_Z_M
            y = s.yaw_rad()
            yaw += math.remainder(y - last_yaw, 2 * math.pi)
            last_yaw = y
        end = self.pose()
        fwd, left, _ = start.to_robot((end.x_m, end.y_m, 0.0))
        return Trace(fwd, left, yaw, min(zs), max(zs), fell)


def plan_from_json(text: str) -> Plan:
    d = json.loads(text)
    frames = tuple(Keyframe(k["t_s"], tuple(k["left_hand"]), tuple(k["right_hand"])) for k in d.get("keyframes", ()))
    return Plan("test", "test", 1.0, tuple(d["walking_cmd"]), d["walking_duration_s"], keyframes=frames)


# --- the two sides of the Unitree DDS loopback run -----------------------------------------------------
def _dds_config(domain: int):
    from reacthuman.sim_bridge.unitree_bridge import default_config

    return default_config(network_interface="lo", domain_id=domain, clock="tick", tick_period_s=DT_S, echo_tick=True)


def dds_sim(domain: int, seconds: float, out: Path, plan: Plan | None) -> None:
    """Serve the DDS episode, then run the same plan with the spine in this process (the path the ROS graph
    takes: a command source called every physics step) from the same start, for comparison."""
    from reacthuman.spine.spine import Spine, default_config
    from reacthuman.spine.watchdog import CommandWatchdog
    from reacthuman.sim_bridge.unitree_bridge import SimulatedG1Endpoint, serve_simulated_robot

    harness = G1Harness()
    endpoint = SimulatedG1Endpoint(_dds_config(domain))
    watchdog = CommandWatchdog(G1_JOINT_NAMES)
    start = harness.pose()
    zs: list[float] = []

    def step() -> None:
        harness.engine.step()
        zs.append(float(harness.engine.robot_state().base.pos_m[2]))

    modes: list[int] = []

    def apply(cmd: JointCommand) -> None:
        modes.append(int(cmd.mode))
        harness.apply(cmd)

    # the spine stamps states with tick * dt, so the sim's states carry the same clock
    n = int(round(seconds / DT_S))
    missed = serve_simulated_robot(
        endpoint, watchdog, n, DT_S, lambda now: harness.state(), apply, step, lockstep_timeout_s=20.0
    )
    end = harness.pose()
    fwd, left, _ = start.to_robot((end.x_m, end.y_m, 0.0))
    result = {
        "forward_m": fwd,
        "left_m": left,
        "min_pelvis_z_m": min(zs),
        "max_pelvis_z_m": max(zs),
        "missed": missed,
        "rejected": endpoint.commands_rejected,
        "timeouts": watchdog.timeouts,
        "modes": sorted(set(modes)),
    }
    # the controller has stopped: the stream goes silent and the watchdog must drop the robot to damping
    n_after = int(round(AFTER_STOP_S / DT_S))
    result["missed_after_stop"] = serve_simulated_robot(
        endpoint,
        watchdog,
        n_after,
        DT_S,
        lambda now: harness.state(),
        apply,
        step,
        lockstep_timeout_s=0.01,
        first_step=n,
    )
    result["timeouts_after_stop"] = watchdog.timeouts
    result["final_mode"] = modes[-1]
    endpoint.close()
    harness.reset()
    spine = Spine(default_config(base_position_feedback=False))  # as on the robot: no world position
    spine.reset(plan)
    result["in_process"] = asdict(harness.run(spine.command, seconds))
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, out)
    harness.engine.close()


def dds_spine(domain: int, seconds: float, plan: Plan | None) -> None:
    from reacthuman.spine.spine import Spine, default_config
    from reacthuman.sim_bridge.unitree_bridge import G1LowLevelLink, drive_spine

    spine = Spine(default_config(base_position_feedback=False))  # LowState carries no base position
    link = G1LowLevelLink(_dds_config(domain))
    spine.reset(plan)
    # the sim publishes states 0 .. n-1; the last is (n - 1) dt after the first
    n = int(round(seconds / DT_S))
    try:
        sent = drive_spine(spine, link, (n - 1.5) * DT_S, first_state_timeout_s=300.0, state_timeout_s=60.0)
    finally:
        link.close()
    print(json.dumps({"sent": sent, "fault": spine.status().fault, "rejected": link.states_rejected}))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("side", choices=("dds-sim", "dds-spine"))
    parser.add_argument("--domain", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plan")
    args = parser.parse_args(argv)
    plan = plan_from_json(args.plan) if args.plan else None
    if args.side == "dds-sim":
        dds_sim(args.domain, args.seconds, args.out, plan)
    else:
        dds_spine(args.domain, args.seconds, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
