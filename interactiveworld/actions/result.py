"""What one command did: success, or a structured failure."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ActionResult:
    verb: str
    target: str = ""
    dest: str = ""
    ok: bool = True
    code: str = ""
    message: str = ""
    duration_s: float = 0.0
    walked_m: float = 0.0
    navigated: bool = False
    events: list[str] = field(default_factory=list)
    info: str = ""  # what the human learned (text read, contents found)

    def to_json(self) -> dict:
        return dict(self.__dict__)


class Failure(Exception):
    """Raised inside a primitive; turned into a failed ActionResult with `code`."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code, self.detail = code, detail
