"""Executes typed commands on the world. Every refusal is a structured failure with a code from
`primitives.FAILURE_CODES`; nothing ever teleports: the body walks planned routes or the action fails.

One command is one macro action: navigation inserted before it (when the human is not near) belongs to it.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from interactiveworld.actions import navigation as nav
from interactiveworld.actions.entities import Catalog
from interactiveworld.actions.knowledge import HumanKnowledge
from interactiveworld.actions.manipulation import ManipulationMixin
from interactiveworld.actions.parser import Command
from interactiveworld.actions.primitives import BY_NAME, FAILURE_CODES
from interactiveworld.actions.result import ActionResult, Failure
from interactiveworld.names import display
from interactiveworld.world import human_body as hb
from interactiveworld.world.sim import World

MANIPULATION_S = 3.0
LOOK_S = 1.0
MAX_WAIT_S = 1800.0
READ_DISTANCE_M = 0.22  # a page held up to read fills most of the view


class Executor(ManipulationMixin):
    def __init__(
        self,
        world: World,
        catalog: Catalog | None = None,
        allowed: frozenset[str] | None = None,
        on_frame: Callable[[str], None] | None = None,
        knowledge: HumanKnowledge | None = None,
    ) -> None:
        """knowledge: what the human knows of where objects are; None = an all-knowing executor (only for
        testing primitives in isolation: every episode passes one)."""
        self.world = world
        self.catalog = catalog or Catalog(world)
        self.allowed = allowed
        self.on_frame = on_frame
        self.knowledge = knowledge
        if knowledge is not None:
            knowledge.observe(world)

    # --- helpers ------------------------------------------------------------------------------------
    def anchor(self, name: str) -> nav.Anchor:
        return nav.anchor_of(self.world, self.catalog.kind(name), name)

    def _frame(self, label: str) -> None:
        if self.knowledge is not None:
            self.knowledge.observe(self.world)
        if self.on_frame is not None:
            self.on_frame(label)

    def _navigate(self, name: str, res: ActionResult) -> None:
        self.walk_to(self.anchor(name), display(name), res)

    def walk_to(self, a: nav.Anchor, name: str, res: ActionResult) -> None:
        if nav.is_near(self.world, a):
            return
        plan = nav.plan_walk(self.world, a)
        if plan is None:
            raise Failure("NOT_REACHABLE", f"no safe place to stand near the {name}")
        pts, _ = plan
        walked = nav.walk(self.world, pts, (a.x, a.y), self.on_frame)
        res.walked_m += walked
        res.duration_s += walked / nav.WALK_SPEED_M_S
        res.navigated = True
        self._frame(f"arrived at {name}")

    def _face(self, name: str, look: bool = False) -> None:
        a = self.anchor(name)
        p = self.world.pose
        yaw = nav.facing(p.x, p.y, a.x, a.y)
        neck = 0.0
        if look and a.reach_z is not None:
            d = max(0.2, math.hypot(a.x - p.x, a.y - p.y))
            neck = max(-0.6, min(0.8, math.atan2(hb.HIP_H_M + hb.TORSO_M + 0.2 - a.reach_z, d)))
        self.world.set_pose(hb.Pose(p.x, p.y, yaw, neck_rad=neck))

    def reach(self, point: np.ndarray) -> None:
        """Adapt posture to the target (crouch, lean, arm IK) or refuse when no posture reaches it."""
        p = self.world.pose
        d = math.hypot(point[0] - p.x, point[1] - p.y)
        horizontal = math.sqrt(max(d * d - hb.SHOULDER_Y_M**2, 0.0))
        posture = hb.reach_posture(horizontal, float(point[2]))
        if posture is None:
            raise Failure("NOT_REACHABLE", "out of arm's reach")
        crouch, lean, shoulder, elbow = posture
        yaw = nav.facing(p.x, p.y, point[0], point[1]) + math.asin(min(1.0, hb.SHOULDER_Y_M / max(d, 0.2)))
        self.world.set_pose(
            hb.Pose(
                p.x, p.y, yaw, crouch_m=crouch, lean_rad=lean, neck_rad=0.5, shoulder_r_rad=shoulder, elbow_r_rad=elbow
            )
        )
        self._frame("reaching")

    def stand(self) -> None:
        """Upright; carrying with the forearm forward when something is held."""
        p = self.world.pose
        arm = (-0.3, -1.2) if self.world.held else (0.0, 0.0)
        self.world.set_pose(hb.Pose(p.x, p.y, p.yaw, neck_rad=p.neck_rad, shoulder_r_rad=arm[0], elbow_r_rad=arm[1]))

    # --- entry point --------------------------------------------------------------------------------
    def run(self, cmd: Command, auto_navigate: bool = True) -> ActionResult:
        res = ActionResult(cmd.verb, cmd.target, cmd.dest)
        prim = BY_NAME.get(cmd.verb)
        try:
            if prim is None:
                raise Failure("PARSE_ERROR", cmd.verb)
            if self.allowed is not None and cmd.verb not in self.allowed:
                raise Failure("NOT_ALLOWED", cmd.verb)
            if prim.args.startswith("T") and not cmd.target:
                raise Failure("INVALID_TARGET", "no target named")
            if prim.args == "TD" and not cmd.dest:
                raise Failure("INVALID_TARGET", "no destination named")
            self._check_applicable(cmd)
            if self.knowledge is not None:
                self._locate_objects(cmd, res)
            near = {"T": cmd.target, "D": cmd.dest}.get(prim.near, "")
            if near:
                if auto_navigate:
                    self._navigate(near, res)
                elif not nav.is_near(self.world, self.anchor(near)):
                    raise Failure("NOT_CLOSE_ENOUGH", f"too far from the {display(near)}")
            getattr(self, f"_do_{cmd.verb}")(cmd, res)
            res.message = res.message or f"done: {cmd.verb.replace('_', ' ')} {display(cmd.target)}".strip()
        except Failure as f:
            res.ok, res.code = False, f.code
            res.message = (
                f"cannot {cmd.verb.replace('_', ' ')} {self._spoken(cmd.target)}: "
                f"{FAILURE_CODES[f.code]}{' (' + f.detail + ')' if f.detail else ''}"
            )
        finally:
            self.stand()
        if self.knowledge is not None and res.ok:
            self._remember_moves(cmd)
        if res.ok or res.navigated:
            res.duration_s += self._base_duration(cmd)
        res.events = self.world.pass_time(res.duration_s) if res.duration_s > 0 else []
        self.world.settle()
        self._frame(res.message)
        return res

    def _base_duration(self, cmd: Command) -> float:
        if cmd.verb == "wait":
            return float(cmd.number or 10.0)
        if BY_NAME[cmd.verb].group in ("manipulation", "appliance"):
            return MANIPULATION_S
        if BY_NAME[cmd.verb].group == "dialogue":
            return 0.0
        return LOOK_S

    def _spoken(self, name: str) -> str:
        """How the human names a thing: an object it does not know by sight only by its kind ("the book"),
        so that a refusal never tells the assistant the colour of something the human has not seen."""
        if (
            self.knowledge is not None
            and name
            and self.catalog.kind(name) == "object"
            and name != self.world.held
            and name not in self.knowledge.identified
        ):
            return self.catalog.entities[name].sub
        return display(name)

    # --- what the human knows ------------------------------------------------------------------------
    def _locate_objects(self, cmd: Command, res: ActionResult) -> None:
        """Every object the command names must be one the human knows where to find; the human walks to
        where it believes the object is and looks (or feels, when blind) before acting on it."""
        if cmd.verb == "pick" and cmd.dest:
            self.knowledge.tell(cmd.target, cmd.dest)  # "pick up the X from the Y" says where X is
        for name in (cmd.target, cmd.dest):
            if name and self.catalog.kind(name) == "object" and name != self.world.held:
                self._locate(name, res)

    def _locate(self, name: str, res: ActionResult) -> None:
        k, w = self.knowledge, self.world
        if name in k.visible:
            return
        if not k.knows(name):
            raise Failure("NOT_KNOWN")
        place = k.believed_place(name)
        if place and place != name:
            self.walk_to(self.anchor(place), display(place), res)
            self._face(place, look=True)
            self._frame(f"looking for the {self._spoken(name)}")
            if name in k.visible:
                return
            if w.openable(place) and not w.is_open(place):
                # said whether or not the object is inside: the human only sees a closed door
                raise Failure("DOOR_CLOSED", f"the {display(place)} is closed")
        region = w.region_of(name)
        if place and region is not None and region.owner == place:
            return  # there, though out of view (under a cover, at the back): the human reaches for it
        raise Failure(
            "NOT_FOUND",
            f"the {self._spoken(name)} is not where I expected"
            if not place
            else f"I do not find the {self._spoken(name)} at the {display(place)}",
        )

    def _remember_moves(self, cmd: Command) -> None:
        """The human knows where it put things and what it felt in a receptacle."""
        if cmd.verb in ("place_in", "place_on"):
            self.knowledge.felt(cmd.target, cmd.dest)
        elif cmd.verb == "put_down":
            self.knowledge.felt(cmd.target, "")
        elif cmd.verb == "search":
            for obj, r in self.world.contents(cmd.target):
                if r.kind == "R":
                    self.knowledge.felt(obj, cmd.target)

    # --- navigation and perception ------------------------------------------------------------------
    def _do_navigate_to(self, cmd: Command, res: ActionResult) -> None:
        self._navigate(cmd.target, res)

    def _do_go_to_room(self, cmd: Command, res: ActionResult) -> None:
        if self.catalog.kind(cmd.target) != "room":
            raise Failure("INVALID_TARGET", f"{display(cmd.target)} is not a room")
        if self.world.apartment.room_at(self.world.pose.x, self.world.pose.y) != cmd.target:
            self._navigate(cmd.target, res)

    def _turn(self, d_rad: float) -> None:
        p = self.world.pose
        self.world.set_pose(hb.Pose(p.x, p.y, p.yaw + d_rad))

    def _do_turn_left(self, cmd, res) -> None:
        self._turn(math.pi / 2)

    def _do_turn_right(self, cmd, res) -> None:
        self._turn(-math.pi / 2)

    def _do_turn_around(self, cmd, res) -> None:
        self._turn(math.pi)

    def _do_step_forward(self, cmd, res) -> None:
        if not nav.step(self.world, 0.5):
            raise Failure("BLOCKED")

    def _do_step_back(self, cmd, res) -> None:
        if not nav.step(self.world, -0.5):
            raise Failure("BLOCKED")

    def _do_face(self, cmd, res) -> None:
        self._face(cmd.target)

    def _do_look_at(self, cmd, res) -> None:
        self._face(cmd.target, look=True)

    def _look(self, neck: float) -> None:
        p = self.world.pose
        self.world.set_pose(hb.Pose(p.x, p.y, p.yaw, neck_rad=neck))
        self._frame("looking")

    def _do_look_up(self, cmd, res) -> None:
        self._look(-0.5)

    def _do_look_down(self, cmd, res) -> None:
        self._look(0.6)

    def _do_look_around(self, cmd, res) -> None:
        for _ in range(4):
            self._turn(math.pi / 2)
            self._frame("looking around")
        res.duration_s += 3 * LOOK_S

    def _do_inspect(self, cmd, res) -> None:
        if self.world.blind:
            raise Failure("CANNOT_SEE")
        self._face(cmd.target, look=True)
        res.info = self.describe(cmd.target)
        res.message = f"inspected the {display(cmd.target)}: {res.info}"

    def _do_read(self, cmd, res) -> None:
        if self.world.blind:
            raise Failure("CANNOT_SEE")
        o = self.world.objects.get(cmd.target)
        if o is None or not o.text:
            raise Failure("NOT_READABLE")
        self._face(cmd.target, look=True)
        if self.on_frame is not None:  # the assistant sees the page held up in front of the eyes
            self.world.held_up_view(
                cmd.target, READ_DISTANCE_M, lambda: self.on_frame(f"reading the {display(cmd.target)}")
            )
        res.info = o.text
        res.message = f"the {display(cmd.target)} says: {o.text}"

    def _do_search(self, cmd, res) -> None:
        if cmd.target not in self.world.regions or not any(r.kind == "R" for r in self.world.regions[cmd.target]):
            raise Failure("INVALID_TARGET", "nothing can be inside it")
        if self.world.openable(cmd.target) and not self.world.is_open(cmd.target):
            raise Failure("DOOR_CLOSED", f"the {display(cmd.target)} is closed")
        found = sorted(display(o) for o, r in self.world.contents(cmd.target) if r.kind == "R")
        res.info = ", ".join(found) if found else "nothing"
        res.message = f"inside the {display(cmd.target)}: {res.info}"

    # --- dialogue and time --------------------------------------------------------------------------
    def _do_ask(self, cmd, res) -> None:
        res.message = f"asked: {cmd.text}"

    def _do_confirm(self, cmd, res) -> None:
        room = self.world.apartment.room_at(self.world.pose.x, self.world.pose.y) or "a doorway"
        held = display(self.world.held) if self.world.held else "nothing"
        res.message = f"I am in the {room}, holding {held}"

    def _do_halt(self, cmd, res) -> None:
        res.message = "stopped, waiting for guidance"

    def _do_wait(self, cmd, res) -> None:
        if not 0 < float(cmd.number or 10.0) <= MAX_WAIT_S:
            raise Failure("INVALID_TARGET", f"wait must be 0-{MAX_WAIT_S:.0f} s")
        res.message = f"waited {float(cmd.number or 10.0):.0f} seconds"

    def _do_set_timer(self, cmd, res) -> None:
        if cmd.number is None or not 0 < cmd.number <= 3 * MAX_WAIT_S:
            raise Failure("INVALID_TARGET", "timer needs a number of seconds")
        self.world.machine.set_timer(float(cmd.number))
        res.message = f"timer set for {cmd.number:.0f} seconds"
