"""`reacthuman eval --workers`: how many graphs each model gets, as `W` or `W,MODEL=N,...`.

A model that thinks slowly (the embedded local model answers in 15-30 s) leaves its body idle while it
thinks; a second graph of its own runs the next scene's window and execution meanwhile. Reference brains
answer at once, so more graphs of theirs only contend for the same cores. One number gives every model
that many graphs; `MODEL=N` entries give a named model its own count."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class WorkerCounts:
    default: int = 1
    per_model: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, n in {"": self.default, **self.per_model}.items():
            if n < 1:
                raise ValueError(f"--workers: {name + '=' if name else ''}{n}: a count must be >= 1")

    def for_model(self, model: str) -> int:
        return self.per_model.get(model, self.default)

    @property
    def uniform(self) -> bool:
        return not self.per_model


def parse_worker_counts(text: str, models: list[str]) -> WorkerCounts:
    """`"2"` or `"1,local=2"` -> WorkerCounts; ValueError (one line, naming the entry) for anything else,
    including a model that is not among `models`."""
    default, per_model = None, {}
    for entry in (part.strip() for part in text.split(",")):
        name, sep, count = entry.rpartition("=")
        if not sep:
            name, count = "", entry
        name = name.strip()
        try:
            n = int(count)
        except ValueError:
            raise ValueError(f"--workers: {entry!r} is not a count (W, or MODEL=N)") from None
        if not sep:
            if default is not None:
                raise ValueError(f"--workers: {text!r} gives the default count twice")
            default = n
        elif name not in models:
            raise ValueError(f"--workers: {name!r} is not one of the models evaluated ({', '.join(models)})")
        elif name in per_model:
            raise ValueError(f"--workers: {name!r} is given twice")
        else:
            per_model[name] = n
    return WorkerCounts(1 if default is None else default, per_model)
