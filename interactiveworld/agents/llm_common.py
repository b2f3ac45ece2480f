"""Shared plumbing of the model-driven agents: one client per agent, JSON replies under a schema, and
tolerant decoding (a malformed reply is a turn without words, never a crash)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

LOG = logging.getLogger(__name__)


def json_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


def decode_json(text: str) -> dict | None:
    """The first JSON object in a reply, or None."""
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else None
    except (json.JSONDecodeError, TypeError):
        pass
    m = re.search(r"\{.*\}", text or "", re.S)
    if m:
        try:
            value = json.loads(m.group(0))
            return value if isinstance(value, dict) else None
        except json.JSONDecodeError:
            return None
    return None


class ClientHolder:
    """Opens the model client on first use and closes it once."""

    def __init__(self, model: str) -> None:
        self.model = model
        self._client = None

    @property
    def client(self):
        if self._client is None:
            from reacthuman.llm import make_client

            self._client = make_client(self.model)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
