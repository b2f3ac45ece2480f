"""Manipulation and appliance primitives of the executor (mixed into `executor.Executor`)."""

from __future__ import annotations

import numpy as np

from interactiveworld.actions.navigation import Anchor, can_reach
from interactiveworld.actions.result import Failure
from interactiveworld.names import display
from interactiveworld.world.objects import (
    COVER_CATEGORIES,
    FILLABLE_CATEGORIES,
    WIPING_CATEGORIES,
    footprint_m,
    half_height_m,
)
from interactiveworld.world.sim import BURNERS
from interactiveworld.actions.navigation import walk_grid

HOLDING_VERBS = ("place_in", "place_on", "put_down", "hand_over", "fill")


class ManipulationMixin:
    # --- checks before walking anywhere -------------------------------------------------------------
    def _check_applicable(self, cmd) -> None:
        w, kind = self.world, self.catalog.kind
        if cmd.verb == "pick":
            if kind(cmd.target) != "object":
                raise Failure("INVALID_TARGET", f"the {display(cmd.target)} cannot be picked up")
            if w.held == cmd.target:
                raise Failure("ALREADY_IN_STATE", "already holding it")
            if w.held is not None:
                raise Failure("HANDS_FULL", f"holding the {display(w.held)}")
            if cmd.dest and self.knowledge is None:  # with knowledge, the human walks there and looks
                r = w.region_of(cmd.target)
                if r is None or r.owner != cmd.dest:
                    raise Failure("INVALID_TARGET", f"the {display(cmd.target)} is not at the {display(cmd.dest)}")
        if cmd.verb in HOLDING_VERBS:
            if w.held is None:
                raise Failure("HANDS_EMPTY")
            if w.held != cmd.target:
                raise Failure("NOT_HOLDING", f"holding the {display(w.held)}")
        if cmd.verb == "place_in" and (
            cmd.dest == cmd.target or not any(r.kind == "R" for r in w.regions.get(cmd.dest, []))
        ):
            raise Failure("INVALID_TARGET", f"nothing can go inside the {display(cmd.dest)}")
        if cmd.verb == "place_on" and (
            kind(cmd.dest) == "person"
            or cmd.dest == cmd.target
            or not any(r.kind == "S" for r in w.regions.get(cmd.dest, []))
        ):
            raise Failure("INVALID_TARGET", f"nothing can be put on the {display(cmd.dest)}")
        if cmd.verb == "hand_over" and kind(cmd.dest) != "person":
            raise Failure("INVALID_TARGET", f"the {display(cmd.dest)} is not a person")
        if cmd.verb in ("open", "close") and not w.openable(cmd.target):
            raise Failure("INVALID_TARGET", f"the {display(cmd.target)} does not open")
        if cmd.verb == "uncover" and w.held is not None:
            raise Failure("HANDS_FULL", f"holding the {display(w.held)}")
        if cmd.verb in ("cover", "wipe", "pour"):
            if w.held is None:
                raise Failure("HANDS_EMPTY")
            if cmd.dest and cmd.dest != w.held:
                raise Failure("NOT_HOLDING", f"holding the {display(w.held)}")
        if cmd.verb == "wipe" and kind(cmd.target) != "spill":
            raise Failure("INVALID_TARGET", f"the {display(cmd.target)} is not a spill")

    # --- helpers ------------------------------------------------------------------------------------
    def cover_of(self, obj: str) -> str | None:
        """The object lying on top of obj, if any."""
        w = self.world
        p = w.object_pos(obj)
        top = p[2] + half_height_m(w.objects[obj].category)
        for other in sorted(w.objects):
            if other in (obj, w.held):
                continue
            q = w.object_pos(other)
            bottom = q[2] - half_height_m(w.objects[other].category)
            if np.hypot(*(q[:2] - p[:2])) < footprint_m(w.objects[other].category) and -0.02 <= bottom - top <= 0.03:
                return other
        return None

    def _closed_around(self, obj: str) -> str | None:
        """The closed fixture (fridge, cabinet, drawer) that obj, or the container holding it, is inside."""
        w = self.world
        seen = set()
        while obj not in seen:
            seen.add(obj)
            r = w.region_of(obj)
            if r is None:
                return None
            if r.kind == "R" and w.openable(r.owner) and not w.is_open(r.owner):
                return r.owner
            if r.owner not in w.objects:
                return None
            obj = r.owner
        return None

    def _put(self, obj: str, dest: str, kind: str, res) -> None:
        w = self.world
        if kind == "R" and w.openable(dest) and not w.is_open(dest):
            raise Failure("DOOR_CLOSED", f"the {display(dest)} is closed")
        for region in sorted((r for r in w.regions[dest] if r.kind == kind), key=lambda r: r.index):
            slot = w.free_slot(region, obj)
            if slot is None:
                continue
            point = slot + np.array([0, 0, half_height_m(w.objects[obj].category)])
            if not can_reach(w.pose.x, w.pose.y, point):  # a low shelf: step to where it can be reached
                a = self.anchor(dest)
                self.walk_to(
                    Anchor(float(point[0]), float(point[1]), float(point[2]), a.room, a.front), display(dest), res
                )
            self.reach(point)
            w.release()
            w.put_object(obj, slot, w.region_yaw(region))
            w.settle()
            return
        raise Failure("NO_SPACE", f"no room on or in the {display(dest)}")

    def describe(self, name: str) -> str:
        w, kind = self.world, self.catalog.kind(name)
        parts = [f"a {display(self.catalog.entities[name].sub)}"]
        if kind == "object":
            parts[0] = f"a {w.objects[name].color} {w.objects[name].category}"
            if w.objects[name].text:
                parts.append("with writing on it")
            if name in w.machine.foods:
                parts.append(w.machine.cook_state(name))
            if w.machine.filled.get(name):
                parts.append("holding water")
        if kind in ("door", "fixture", "object") and w.openable(name):
            parts.append("open" if w.is_open(name) else "closed")
        if kind == "burner":
            parts.append(f"at level {w.burner_level(name)}")
        if name in w.machine.power:
            parts.append("on" if w.machine.power[name] else "off")
        return ", ".join(parts)

    # --- manipulation -------------------------------------------------------------------------------
    def _do_pick(self, cmd, res) -> None:
        closed = self._closed_around(cmd.target)
        if closed:
            raise Failure("DOOR_CLOSED", f"the {display(closed)} is closed")
        cover = self.cover_of(cmd.target)
        if cover:
            raise Failure("COVERED", f"the {display(cover)} lies on it")
        self.reach(self.world.object_pos(cmd.target))
        self.world.grasp(cmd.target)
        res.message = f"picked up the {display(cmd.target)}"

    def _do_place_in(self, cmd, res) -> None:
        self._put(cmd.target, cmd.dest, "R", res)
        res.message = f"put the {display(cmd.target)} in the {display(cmd.dest)}"

    def _do_place_on(self, cmd, res) -> None:
        self._put(cmd.target, cmd.dest, "S", res)
        res.message = f"put the {display(cmd.target)} on the {display(cmd.dest)}"

    def _do_hand_over(self, cmd, res) -> None:
        self._put(cmd.target, cmd.dest, "S", res)
        res.message = f"gave the {display(cmd.target)} to the {display(cmd.dest)}"

    def _do_put_down(self, cmd, res) -> None:
        w, p = self.world, self.world.pose
        spot = np.array([p.x + 0.35 * np.cos(p.yaw), p.y + 0.35 * np.sin(p.yaw), 0.0])
        grid = walk_grid(w)
        if not grid.free(grid.cell(spot[0], spot[1])):
            raise Failure("BLOCKED", "no free floor in front")
        self.reach(spot + np.array([0, 0, half_height_m(w.objects[cmd.target].category)]))
        w.release()
        w.put_object(cmd.target, spot, p.yaw)
        w.settle()
        res.message = f"put down the {display(cmd.target)} on the floor"

    def _do_uncover(self, cmd, res) -> None:
        w = self.world
        cover = self.cover_of(cmd.target)
        if cover is None:
            raise Failure("INVALID_TARGET", f"nothing covers the {display(cmd.target)}")
        region = w.region_of(cmd.target)
        slot = w.free_slot(region, cover) if region is not None else None
        if slot is None:
            raise Failure("NO_SPACE", "nowhere to set the cover aside")
        self.reach(w.object_pos(cover))
        w.put_object(cover, slot, w.region_yaw(region))
        w.settle()
        res.message = f"lifted the {display(cover)} off the {display(cmd.target)}"

    def _do_cover(self, cmd, res) -> None:
        w = self.world
        if w.objects[w.held].category not in COVER_CATEGORIES:
            raise Failure("WRONG_TOOL", f"the {display(w.held)} cannot cover things")
        if self.catalog.kind(cmd.target) != "object" or cmd.target == w.held:
            raise Failure("INVALID_TARGET")
        top = w.object_pos(cmd.target) + np.array([0, 0, half_height_m(w.objects[cmd.target].category)])
        self.reach(top)
        held = w.held
        w.release()
        w.put_object(held, top + np.array([0, 0, 0.004]), w.pose.yaw)
        w.settle()
        res.message = f"covered the {display(cmd.target)} with the {display(held)}"

    def _do_wipe(self, cmd, res) -> None:
        w = self.world
        if w.objects[w.held].category not in WIPING_CATEGORIES:
            raise Failure("WRONG_TOOL", f"the {display(w.held)} cannot wipe")
        code = w.machine.wipe(cmd.target)
        if code:
            raise Failure(code, "there is nothing to wipe")
        w.sync_spills()
        res.message = f"wiped up the {display(cmd.target)}"

    def _do_pour(self, cmd, res) -> None:
        w = self.world
        if cmd.target == w.held or (
            cmd.target in w.objects and w.objects[cmd.target].category not in FILLABLE_CATEGORIES
        ):
            raise Failure("INVALID_TARGET", f"cannot pour into the {display(cmd.target)}")
        if cmd.target not in w.objects and cmd.target != "sink":
            raise Failure("INVALID_TARGET", f"cannot pour into the {display(cmd.target)}")
        code = w.machine.pour(w.held, cmd.target)
        if code:
            raise Failure(code, f"the {display(w.held)} holds no water")
        res.message = f"poured water from the {display(w.held)} into the {display(cmd.target)}"

    # --- articulation and appliances ----------------------------------------------------------------
    def _set_open(self, cmd, res, is_open: bool) -> None:
        w = self.world
        if w.is_open(cmd.target) == is_open:
            raise Failure("ALREADY_IN_STATE", f"it is already {'open' if is_open else 'closed'}")
        a = self.anchor(cmd.target)
        self.reach(np.array([a.x, a.y, a.reach_z]))
        w.set_open(cmd.target, is_open)
        res.message = f"{'opened' if is_open else 'closed'} the {display(cmd.target)}"

    def _do_open(self, cmd, res) -> None:
        self._set_open(cmd, res, True)

    def _do_close(self, cmd, res) -> None:
        self._set_open(cmd, res, False)

    def _power(self, cmd, res, on: bool) -> None:
        w, name = self.world, cmd.target
        if name in BURNERS:
            level = w.burner_level(name)
            if (level > 0) == on:
                raise Failure("ALREADY_IN_STATE", f"it is already {'on' if on else 'off'}")
            w.set_burner_level(name, 2 if on else 0)
        elif name in w.machine.power:
            kettle_filled = (
                bool(w.machine.filled.get(name))
                if w.objects.get(name) and w.objects[name].category == "kettle"
                else None
            )
            code = w.machine.set_power(name, on, kettle_filled)
            if code:
                raise Failure(code, "an empty kettle" if code == "UNSAFE" else "")
        else:
            raise Failure("INVALID_TARGET", f"the {display(name)} cannot be switched")
        res.message = f"turned {'on' if on else 'off'} the {display(name)}"

    def _do_turn_on(self, cmd, res) -> None:
        self._power(cmd, res, True)

    def _do_turn_off(self, cmd, res) -> None:
        self._power(cmd, res, False)

    def _do_set_level(self, cmd, res) -> None:
        if cmd.target not in BURNERS or cmd.number is None or not 0 <= cmd.number <= 3:
            raise Failure("INVALID_TARGET", "only a burner takes a level from 0 to 3")
        self.world.set_burner_level(cmd.target, int(cmd.number))
        res.message = f"set the {display(cmd.target)} to level {int(cmd.number)}"

    def _do_press(self, cmd, res) -> None:
        w = self.world
        if cmd.target not in w.machine.power or cmd.target == "faucet":
            raise Failure("INVALID_TARGET", f"the {display(cmd.target)} has no button")
        self._power(cmd, res, not w.machine.power[cmd.target])

    def _do_fill(self, cmd, res) -> None:
        w = self.world
        if w.objects[cmd.target].category not in FILLABLE_CATEGORIES or "sink" not in w.fixtures:
            raise Failure("INVALID_TARGET", f"the {display(cmd.target)} cannot be filled here")
        self._navigate("sink", res)
        w.machine.fill(cmd.target)
        res.message = f"filled the {display(cmd.target)} with water"
