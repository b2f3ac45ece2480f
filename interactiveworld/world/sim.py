"""The live world: MuJoCo model and data, the appliance state machine, the human's pose and hands.

Everything true about the world is read from here: object positions from MuJoCo, joint angles from
MuJoCo, non-physical state from `ApplianceMachine`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import mujoco
import numpy as np

from interactiveworld.world import human_body as hb
from interactiveworld.world import labels
from interactiveworld.world.appliances import ApplianceMachine, SpillState
from interactiveworld.world.fixtures import DOOR_OPEN_RAD, DRAWER_OPEN_M, HINGED_KINDS, KNOB_RAD_PER_LEVEL
from interactiveworld.world.layout import ApartmentSpec, generate_apartment
from interactiveworld.world.mjcf import DOOR_OPEN_RAD as ROOM_DOOR_OPEN_RAD
from interactiveworld.world.mjcf import build_mjcf, spill_xy
from interactiveworld.world.objects import CATEGORIES, COLORS_RGBA, LIDDED_CATEGORIES, footprint_m, half_height_m
from interactiveworld.world.scene import OFFSTAGE, EventSpec, SceneSpec
from interactiveworld.world.cmu_body import CmuPoser, compile_with_cmu

SETTLE_STEPS = 30
SLOT_PITCH_M = 0.17
REGION_MARGIN_M = 0.02
BURNERS = ("left_burner", "right_burner")


@dataclass(frozen=True)
class Region:
    owner: str
    kind: str  # "S" surface or "R" receptacle
    index: int
    site_id: int


BODIES = ("capsule", "cmu")


class World:
    def __init__(self, scene: SceneSpec, body: str = "capsule", meshes: bool = False) -> None:
        """meshes: draw objects with their catalogue meshes (world.meshes), for worlds that are rendered; the
        physics is the same without them (and compiles several times faster)."""
        if body not in BODIES:
            raise ValueError(f"body must be one of {BODIES}, got {body!r}")
        self.scene = scene
        self.body = body
        self.apartment: ApartmentSpec = generate_apartment(scene.layout, scene.seed, scene.doors_open)
        self.xml = build_mjcf(self.apartment, scene.objects, scene.spills, human=body == "capsule", meshes=meshes)
        self.poser = None
        if body == "cmu":
            self.model = compile_with_cmu(self.xml)
            self.poser = CmuPoser(self.model)
        else:
            self.model = mujoco.MjModel.from_xml_string(self.xml)
        self.data = mujoco.MjData(self.model)
        written = [o for o in scene.objects if o.text and CATEGORIES[o.category][0] == "box"]
        labels.paint(
            self.model,
            {o.name: o.text for o in written},
            {o.name: None if o.category == "note" else labels.rgb_of(COLORS_RGBA[o.color]) for o in written},
        )
        self.objects = {o.name: o for o in scene.objects}
        self.fixtures = {f.name: f for f in self.apartment.fixtures}
        self.doors = {d.name: d for d in self.apartment.doors}
        self.regions: dict[str, list[Region]] = {}
        for i in range(self.model.nsite):
            name = mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_SITE, i) or ""
            if name[:2] in ("S:", "R:"):
                kind, owner, idx = name.split(":")
                self.regions.setdefault(owner, []).append(Region(owner, kind, int(idx), i))
        self._region_list = [(owner, r) for owner, regions in self.regions.items() for r in regions]
        self._region_ids = np.array([r.site_id for _, r in self._region_list], dtype=int)
        self._jid = {mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_JOINT, j): j for j in range(self.model.njnt)}
        names = list(self.poser.qpos_for(hb.Pose(0, 0, 0))) if self.poser else list(hb.HUMAN_JOINTS)
        self._hnames = names
        self._hq = [self.model.jnt_qposadr[self._jid[n]] for n in names]
        self._hv = [self.model.jnt_dofadr[self._jid[n]] for n in names]
        self.wrist_site = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_SITE, "H:wrist")
        self.held: str | None = None
        self.blind = False
        self._kinematic: dict[str, float] = {}  # fixture joint -> commanded position, re-imposed in settle
        powered = {f.name: False for f in self.apartment.fixtures if f.kind in ("lamp", "tv")}
        if any(f.kind == "sink" for f in self.apartment.fixtures):
            powered["faucet"] = False
        powered.update({o.name: False for o in scene.objects if o.category == "kettle"})
        self.machine = ApplianceMachine(foods={f: self.objects[f].category for f in scene.foods}, power=powered)
        for s in scene.spills:
            x, y = spill_xy(self.apartment, s.room)
            self.machine.spills[s.name] = SpillState(s.name, x, y, s.present, s.trigger)
        for name in scene.powered:
            if name in BURNERS:
                self._set_joint(f"J:{name}", 2 * KNOB_RAD_PER_LEVEL)
            elif name in powered:
                self.machine.power[name] = True
            else:
                raise ValueError(f"scene.powered: {name!r} is not an appliance here")
        for c in scene.filled:
            self.machine.fill(c)
        for j in self._jid:
            if j and j.startswith("J:"):
                self._kinematic.setdefault(j, 0.0)
        for d in self.apartment.doors:
            self._set_joint(f"J:{d.name}", ROOM_DOOR_OPEN_RAD if d.open_at_start else 0.0)
        for name in scene.open_fixtures:
            self.set_open(name, True)
        room = self.apartment.room(scene.human_room or self.apartment.rooms[0].name)
        cx, cy = room.center
        self.pose = hb.Pose(cx, cy, 0.0)
        self._apply_pose()
        mujoco.mj_forward(self.model, self.data)
        self._place_initial_objects()
        self.settle(SETTLE_STEPS * 4)
        self.sync_spills()

    # --- joints -------------------------------------------------------------------------------------
    def _set_joint(self, joint: str, value: float) -> None:
        j = self._jid[joint]
        self.data.qpos[self.model.jnt_qposadr[j]] = value
        self.data.qvel[self.model.jnt_dofadr[j]] = 0.0
        self._kinematic[joint] = value

    def joint(self, joint: str) -> float:
        return float(self.data.qpos[self.model.jnt_qposadr[self._jid[joint]]])

    def openable(self, name: str) -> bool:
        return (
            name in self.doors
            or (name in self.fixtures and self.fixtures[name].kind in HINGED_KINDS + ("drawer",))
            or (name in self.objects and self.objects[name].category in LIDDED_CATEGORIES)
        )

    def is_open(self, name: str) -> bool:
        """Read from the joint angle: a door or lid counts as open past ~30 degrees, a drawer past 15 cm."""
        q = self.joint(f"J:{name}")
        if name in self.doors:
            return q > 0.5
        if name in self.fixtures and self.fixtures[name].kind == "drawer":
            return q > 0.15
        return q < -0.5

    def set_open(self, name: str, is_open: bool) -> None:
        if name in self.doors:
            target = ROOM_DOOR_OPEN_RAD if is_open else 0.0
        elif name in self.fixtures and self.fixtures[name].kind == "drawer":
            target = DRAWER_OPEN_M if is_open else 0.0
        else:
            target = DOOR_OPEN_RAD if is_open else 0.0
        inside = self.contents(name)
        before = {r.site_id: self.data.site_xpos[r.site_id].copy() for r in self.regions.get(name, [])}
        self._set_joint(f"J:{name}", target)
        mujoco.mj_forward(self.model, self.data)
        for obj, region in inside:  # things in a drawer ride with it
            delta = self.data.site_xpos[region.site_id] - before[region.site_id]
            self._move_object(obj, self.object_pos(obj) + delta)
        mujoco.mj_forward(self.model, self.data)

    def burner_level(self, burner: str) -> int:
        return int(round(self.joint(f"J:{burner}") / KNOB_RAD_PER_LEVEL))

    def set_burner_level(self, burner: str, level: int) -> None:
        self._set_joint(f"J:{burner}", level * KNOB_RAD_PER_LEVEL)
        mujoco.mj_forward(self.model, self.data)

    # --- objects and regions -------------------------------------------------------------------------
    def _qadr(self, obj: str) -> int:
        return self.model.jnt_qposadr[self._jid[f"O:{obj}:free"]]

    def object_pos(self, obj: str) -> np.ndarray:
        a = self._qadr(obj)
        return self.data.qpos[a : a + 3].copy()

    def _move_object(self, obj: str, pos: np.ndarray, yaw: float | None = None) -> None:
        a = self._qadr(obj)
        self.data.qpos[a : a + 3] = pos
        if yaw is not None:
            self.data.qpos[a + 3 : a + 7] = [math.cos(yaw / 2), 0, 0, math.sin(yaw / 2)]
        d = self.model.jnt_dofadr[self._jid[f"O:{obj}:free"]]
        self.data.qvel[d : d + 6] = 0.0

    def held_up_view(self, obj: str, distance_m: float, on_frame) -> None:
        """Shows obj held up in front of the eyes (reading a note) for one frame, then puts every coordinate
        back exactly as it was: the world state after the look is bit-identical to the one before."""
        qpos, qvel = self.data.qpos.copy(), self.data.qvel.copy()
        cam = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_CAMERA, "H:eye")
        rot = self.data.cam_xmat[cam].reshape(3, 3)
        # its largest face towards the eyes, upright (a page lies flat, a carton's label is on its side),
        # that face `distance_m` from the eyes: a thick carton's centre nearer would be cut by the near plane
        _, size, _ = CATEGORIES[self.objects[obj].category]
        thin = int(np.argmin(size)) if len(size) == 3 else 2
        cx, cy, cz = rot[:, 0], rot[:, 1], rot[:, 2]
        axes = {0: (cz, cx, cy), 1: (-cx, cz, cy), 2: (cx, cy, cz)}[thin]
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, np.column_stack(axes).reshape(-1))
        a = self._qadr(obj)
        self.data.qpos[a : a + 3] = self.data.cam_xpos[cam] - cz * (distance_m + size[thin])
        self.data.qpos[a + 3 : a + 7] = quat
        mujoco.mj_forward(self.model, self.data)
        try:
            on_frame()
        finally:
            self.data.qpos[:], self.data.qvel[:] = qpos, qvel
            mujoco.mj_forward(self.model, self.data)

    def _site_frame(self, site_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (
            self.data.site_xpos[site_id].copy(),
            self.data.site_xmat[site_id].reshape(3, 3).copy(),
            self.model.site_size[site_id].copy(),
        )

    def region_of(self, obj: str) -> Region | None:
        """The region holding obj (surface it rests on, or receptacle it is inside), from positions."""
        p = self.object_pos(obj)
        hh = half_height_m(self.objects[obj].category)
        best = None
        for owner, r in self._candidate_regions(p):
            if owner == obj:
                continue
            c, R, (hx, hy, hz) = self._site_frame(r.site_id)
            lx, ly, lz = R.T @ (p - c)
            if abs(lx) > hx + REGION_MARGIN_M or abs(ly) > hy + REGION_MARGIN_M:
                continue
            if r.kind == "R" and abs(lz) <= hz + REGION_MARGIN_M:
                if best is None or owner in self.objects:  # a pot inside a cabinet: the pot wins
                    best = r
            elif r.kind == "S" and -0.02 <= (lz - hh) - (-hz) <= 0.04 and best is None:
                best = r
        return best

    def _candidate_regions(self, p: np.ndarray) -> list[tuple[str, Region]]:
        """Regions whose footprint may hold point p, in `self.regions` order. A vectorised pre-filter with
        a slack far above rounding error: `region_of` then decides with its exact per-region arithmetic,
        so the answer is the one the plain loop gives, at a fraction of the cost."""
        ids = self._region_ids
        if ids.size == 0:
            return []
        rot = self.data.site_xpos[ids], self.data.site_xmat[ids].reshape(-1, 3, 3)
        local = np.einsum("nji,nj->ni", rot[1], p - rot[0])
        half = self.model.site_size[ids]
        slack_m = REGION_MARGIN_M + 1e-6
        keep = (np.abs(local[:, 0]) <= half[:, 0] + slack_m) & (np.abs(local[:, 1]) <= half[:, 1] + slack_m)
        return [self._region_list[i] for i in np.flatnonzero(keep)]

    def contents(self, owner: str) -> list[tuple[str, Region]]:
        out = []
        for obj in self.objects:
            if obj == self.held or obj == owner:
                continue
            r = self.region_of(obj)
            if r is not None and r.owner == owner:
                out.append((obj, r))
        return out

    def slot_positions(self, region: Region) -> list[np.ndarray]:
        c, R, (hx, hy, hz) = self._site_frame(region.site_id)
        if region.owner == "stove":  # the two burners are the stove's places
            local = [(-0.17, 0.0), (0.17, 0.0)]
        else:
            nx, ny = max(1, int(2 * hx / SLOT_PITCH_M)), max(1, int(2 * hy / SLOT_PITCH_M))
            px, py = 2 * hx / nx, 2 * hy / ny
            local = [(-hx + px * (i + 0.5), -hy + py * (j + 0.5)) for j in range(ny) for i in range(nx)]
        return [c + R @ np.array([lx, ly, -hz]) for lx, ly in local]

    def region_yaw(self, region: Region) -> float:
        R = self.data.site_xmat[region.site_id].reshape(3, 3)
        return math.atan2(R[1, 0], R[0, 0])

    def fits(self, region: Region, obj: str, slot: np.ndarray) -> bool:
        """The object, turned square to the region, stays within it (a little overhang at front and back)."""
        shape, size, _ = CATEGORIES[self.objects[obj].category]
        sx, sy = (size[0], size[0]) if shape == "cylinder" else (size[0], size[1])
        c, R, (hx, hy, _) = self._site_frame(region.site_id)
        lx, ly, _ = R.T @ (slot - c)
        return abs(lx) + sx <= hx + 0.03 and abs(ly) + sy <= hy + 0.06

    def free_slot(self, region: Region, obj: str) -> np.ndarray | None:
        """First slot where obj fits and nothing else's footprint overlaps it."""
        need = footprint_m(self.objects[obj].category)
        for s in self.slot_positions(region):
            if not self.fits(region, obj, s):
                continue
            clear = True
            for other in self.objects:
                if other in (obj, self.held, region.owner):
                    continue
                q = self.object_pos(other)
                if (
                    np.hypot(*(q[:2] - s[:2])) < need + footprint_m(self.objects[other].category) + 0.01
                    and -0.05 <= q[2] - s[2] <= 0.5
                ):
                    clear = False
                    break
            if clear:
                return s
        return None

    def carried_with(self, obj: str) -> list[str]:
        """obj and whatever sits inside it (an egg in a pot) move together."""
        return [obj] + [o for o, _ in self.contents(obj)]

    def put_object(self, obj: str, slot_bottom: np.ndarray, yaw: float) -> None:
        """Stand obj upright on a slot's floor point, turned to yaw, with whatever it carries inside."""
        movers = self.carried_with(obj)
        old = self.object_pos(obj)
        new = slot_bottom + np.array([0.0, 0.0, half_height_m(self.objects[obj].category) + 0.004])
        for m in movers:
            self._move_object(m, self.object_pos(m) + (new - old), yaw=yaw if m == obj else None)
        mujoco.mj_forward(self.model, self.data)

    def _place_initial_objects(self) -> None:
        ordered = sorted(self.scene.objects, key=lambda o: (o.support in self.objects, o.under != ""))
        for o in ordered:
            if o.support == OFFSTAGE:
                continue  # stays parked outside the home until its event brings it in
            regions = sorted(self.regions.get(o.support, []), key=lambda r: (r.kind != "R", r.index))
            if not regions:
                raise ValueError(f"object {o.name!r}: support {o.support!r} has no place to hold things")
            if o.support in self.objects:
                self.put_object(o.name, self.slot_positions(regions[0])[0], self.region_yaw(regions[0]))
                continue
            slots = [(r, s) for r in regions for s in self.slot_positions(r)]
            if o.slot >= len(slots):
                raise ValueError(f"object {o.name!r}: slot {o.slot} out of range for {o.support!r}")
            region, s = slots[o.slot]
            if o.under:  # a cover lies on top of the hidden object
                s = self.object_pos(o.under) + np.array([0, 0, -half_height_m(self.objects[o.under].category)])
                self._move_object(
                    o.under,
                    s
                    + np.array(
                        [0, 0, 2 * half_height_m(o.category) + 0.02 + half_height_m(self.objects[o.under].category)]
                    ),
                )
            self.put_object(o.name, s, self.region_yaw(region))

    # --- human --------------------------------------------------------------------------------------
    def _apply_pose(self) -> None:
        vals = self.poser.qpos_for(self.pose) if self.poser else self.pose.joint_values()
        for name, qa, va in zip(self._hnames, self._hq, self._hv):
            self.data.qpos[qa] = vals[name]
            self.data.qvel[va] = 0.0

    def set_pose(self, pose: hb.Pose) -> None:
        self.pose = pose
        self._apply_pose()
        mujoco.mj_forward(self.model, self.data)
        self._carry_held()

    def wrist_pos(self) -> np.ndarray:
        return self.data.site_xpos[self.wrist_site].copy()

    def _carry_held(self) -> None:
        if self.held is None:
            return
        target = self.wrist_pos() - np.array([0, 0, half_height_m(self.objects[self.held].category) + 0.03])
        old = self.object_pos(self.held)
        for m in self._held_group:
            self._move_object(m, self.object_pos(m) + (target - old), yaw=self.pose.yaw if m == self.held else None)
        mujoco.mj_forward(self.model, self.data)

    def grasp(self, obj: str) -> None:
        self._held_group = self.carried_with(obj)
        self.held = obj
        self._carry_held()

    def release(self) -> None:
        self.held = None
        self._held_group = []

    # --- time and physics ---------------------------------------------------------------------------
    def settle(self, steps: int = SETTLE_STEPS) -> None:
        """Step physics with the kinematic parts (human, held object, fixture joints) held where set."""
        group = getattr(self, "_held_group", []) if self.held else []
        fixed = {m: self.data.qpos[self._qadr(m) : self._qadr(m) + 7].copy() for m in group}
        for _ in range(steps):
            mujoco.mj_step(self.model, self.data)
            self._apply_pose()
            for j, v in self._kinematic.items():
                self.data.qpos[self.model.jnt_qposadr[self._jid[j]]] = v
                self.data.qvel[self.model.jnt_dofadr[self._jid[j]]] = 0.0
            for m, q in fixed.items():
                a = self._qadr(m)
                self.data.qpos[a : a + 7] = q
                d = self.model.jnt_dofadr[self._jid[f"O:{m}:free"]]
                self.data.qvel[d : d + 6] = 0.0
        mujoco.mj_forward(self.model, self.data)

    def heat_inputs(self) -> tuple[dict[str, int], dict[str, int]]:
        """Which pot stands on which lit burner, and which food is in which heated, filled pot."""
        pot_heat: dict[str, int] = {}
        stove = self.regions.get("stove", [])
        for obj, region in self.contents("stove") if stove else []:
            slots = self.slot_positions(region)
            p = self.object_pos(obj)
            i = int(np.argmin([np.hypot(*(p[:2] - s[:2])) for s in slots]))
            if CATEGORIES[self.objects[obj].category][0] == "pot":
                pot_heat[obj] = self.burner_level(BURNERS[i])
        food_heat = {}
        for food in self.machine.foods:
            r = self.region_of(food)
            if r is not None and r.owner in pot_heat and self.machine.filled.get(r.owner):
                food_heat[food] = pot_heat[r.owner]
        return food_heat, pot_heat

    def pass_time(self, dt_s: float) -> list[str]:
        food_heat, pot_heat = self.heat_inputs()
        events = self.machine.advance(dt_s, food_heat, pot_heat)
        self.sync_spills()
        return events

    def sync_spills(self) -> None:
        for name, s in self.machine.spills.items():
            g = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, f"P:{name}")
            self.model.geom_rgba[g, 3] = 0.8 if s.present else 0.0

    def happen(self, event: EventSpec) -> None:
        """A scene event (someone else in the home acts): see `scene.EventSpec`."""
        if event.kind == "arrive":
            regions = sorted(self.regions.get(event.dest, []), key=lambda r: (r.kind != "R", r.index))
            slots = [(r, s) for r in regions for s in self.slot_positions(r)]
            if event.slot >= len(slots):
                raise ValueError(f"event arrive {event.target!r}: no slot {event.slot} at {event.dest!r}")
            region, s = slots[event.slot]
            self.put_object(event.target, s, self.region_yaw(region))
        elif event.kind == "spill":
            self.machine.spills[event.target].present = True
            self.sync_spills()
        elif event.target in BURNERS:
            self.set_burner_level(event.target, 2)
        else:
            self.machine.power[event.target] = True
        self.settle()

    def digest(self) -> str:
        """Hash of the full physical and appliance state (for determinism checks)."""
        h = hashlib.sha256(np.round(self.data.qpos, 9).tobytes())
        h.update(repr(self.machine.snapshot()).encode())
        return h.hexdigest()
