"""The state MuJoCo cannot simulate: power, water, heat, cooking, timers, spills. A small explicit state
machine advanced by the world clock; physical facts (which knob is turned, which food sits in which pot
on which burner) are read from the simulator by `sim.World` and passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# food category -> (seconds of heat at level 2 to be cooked, seconds to be overcooked)
COOK_TIMES_S: dict[str, tuple[float, float]] = {"egg": (300.0, 900.0), "pasta": (480.0, 1200.0)}
KETTLE_BOIL_S = 120.0
DRY_POT_SCORCH_S = 120.0
FAUCET_OVERFLOW_S = 90.0
POWERED = ("lamp", "tv", "faucet", "kettle")
COOK_STATES = ("raw", "cooked", "overcooked")


@dataclass
class SpillState:
    name: str
    x: float
    y: float
    present: bool
    trigger: str = ""  # "" (present or absent from the start), "faucet_overflow" or "event"
    wiped: bool = False  # wiped up by the human (a spill that appeared after the handoff is scored by this)


@dataclass
class ApplianceMachine:
    """Everything here is explicit state; `advance` is the only way time passes."""

    foods: dict[str, str] = field(default_factory=dict)  # food object -> category
    clock_s: float = 0.0
    power: dict[str, bool] = field(default_factory=dict)  # appliance entity -> on
    filled: dict[str, bool] = field(default_factory=dict)  # container object -> holds water
    cook_s: dict[str, float] = field(default_factory=dict)
    kettle_heat_s: dict[str, float] = field(default_factory=dict)
    boiled: dict[str, bool] = field(default_factory=dict)
    dry_heat_s: dict[str, float] = field(default_factory=dict)
    scorched: dict[str, bool] = field(default_factory=dict)
    faucet_on_s: float = 0.0
    timers: list[tuple[float, float]] = field(default_factory=list)  # (set at, rings at)
    spills: dict[str, SpillState] = field(default_factory=dict)
    events: list[tuple[float, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for food, cat in self.foods.items():
            if cat not in COOK_TIMES_S:
                raise ValueError(f"foods[{food!r}]: {cat!r} cannot be cooked")
            self.cook_s.setdefault(food, 0.0)

    # --- queries -----------------------------------------------------------------------------------
    def cook_state(self, food: str) -> str:
        cooked_s, over_s = COOK_TIMES_S[self.foods[food]]
        t = self.cook_s.get(food, 0.0)
        return "overcooked" if t >= over_s else "cooked" if t >= cooked_s else "raw"

    def timer_ringing(self) -> bool:
        return any(end <= self.clock_s for _, end in self.timers)

    def snapshot(self) -> dict:
        return {
            "clock_s": round(self.clock_s, 3),
            "power": dict(sorted(self.power.items())),
            "filled": dict(sorted(self.filled.items())),
            "cook": {f: self.cook_state(f) for f in sorted(self.foods)},
            "boiled": dict(sorted(self.boiled.items())),
            "scorched": dict(sorted(self.scorched.items())),
            "timers": [list(t) for t in self.timers],
            "spills": {n: s.present for n, s in sorted(self.spills.items())},
            **(
                {"wiped": sorted(n for n, s in self.spills.items() if s.wiped)}
                if any(s.wiped for s in self.spills.values())
                else {}
            ),
        }

    # --- transitions -------------------------------------------------------------------------------
    def set_power(self, entity: str, on: bool, kettle_filled: bool | None = None) -> str | None:
        """Returns None, or the reason the switch is refused (a structured failure code)."""
        if entity not in self.power:
            return "INVALID_TARGET"
        if self.power[entity] == on:
            return "ALREADY_IN_STATE"
        if on and kettle_filled is False:
            return "UNSAFE"  # an empty kettle would burn out
        self.power[entity] = on
        if entity == "faucet" and not on:
            self.faucet_on_s = 0.0
        return None

    def fill(self, container: str) -> None:
        self.filled[container] = True

    def pour(self, source: str, target: str) -> str | None:
        if not self.filled.get(source):
            return "EMPTY"
        self.filled[source] = False
        self.filled[target] = True
        return None

    def set_timer(self, seconds: float) -> None:
        self.timers.append((self.clock_s, self.clock_s + seconds))

    def wipe(self, spill: str) -> str | None:
        s = self.spills.get(spill)
        if s is None or not s.present:
            return "INVALID_TARGET"
        s.present = False
        s.wiped = True
        return None

    def advance(self, dt_s: float, food_heat: dict[str, int], pot_heat: dict[str, int]) -> list[str]:
        """Let dt_s pass. food_heat: food -> burner level under its (water-filled) pot; pot_heat: pot ->
        burner level under it. Returns the events that happened."""
        if dt_s < 0:
            raise ValueError("advance: dt_s must be >= 0")
        happened: list[str] = []
        before = {f: self.cook_state(f) for f in self.foods}
        for food, level in food_heat.items():
            if level > 0:
                self.cook_s[food] = self.cook_s.get(food, 0.0) + dt_s * level / 2.0
        for food in self.foods:
            if self.cook_state(food) != before[food]:
                happened.append(f"{food} is {self.cook_state(food)}")
        for pot, level in pot_heat.items():
            if level > 0 and not self.filled.get(pot):
                self.dry_heat_s[pot] = self.dry_heat_s.get(pot, 0.0) + dt_s
                if self.dry_heat_s[pot] >= DRY_POT_SCORCH_S and not self.scorched.get(pot):
                    self.scorched[pot] = True
                    happened.append(f"{pot} is scorched")
        for kettle in [k for k, on in self.power.items() if k.endswith("kettle") and on]:
            self.kettle_heat_s[kettle] = self.kettle_heat_s.get(kettle, 0.0) + dt_s
            if self.kettle_heat_s[kettle] >= KETTLE_BOIL_S:
                self.boiled[kettle] = True
                self.power[kettle] = False  # kettles switch themselves off at the boil
                happened.append(f"{kettle} boiled")
        if self.power.get("faucet"):
            self.faucet_on_s += dt_s
            for s in self.spills.values():
                if s.trigger == "faucet_overflow" and not s.present and self.faucet_on_s >= FAUCET_OVERFLOW_S:
                    s.present = True
                    happened.append(f"{s.name} appeared")
        rang = [t for t in self.timers if self.clock_s < t[1] <= self.clock_s + dt_s]
        self.clock_s += dt_s
        happened += ["timer rang"] * len(rang)
        self.events += [(self.clock_s, e) for e in happened]
        return happened
