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

    def said_aloud(self) -> str:
        """What the human says of this result. It says what it did and why it could not; it reads a text aloud
        (reading is communication, and the page is held up to the eyes in the assistant's frames too). It does
        not describe what it saw or felt: a search's list of contents or an inspection's colour and state is
        perception the assistant has to do itself, from the frames."""
        if self.ok and self.verb == "search":
            return f"searched the {self.target.replace('_', ' ')}"
        if self.ok and self.verb == "inspect":
            return f"looked closely at the {self.target.replace('_', ' ')}"
        return self.message


class Failure(Exception):
    """Raised inside a primitive; turned into a failed ActionResult with `code`."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code, self.detail = code, detail
