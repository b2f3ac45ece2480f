"""Shared plumbing of the model-driven agents: one client per agent, JSON replies under a schema, and
tolerant decoding (a malformed reply is a turn without words, never a crash)."""

from __future__ import annotations

import logging

from reacthuman.core.reply_json import first_json_object, response_format
from reacthuman.llm import make_client

LOG = logging.getLogger(__name__)


# The suite's one reply-JSON reader and response-format wrapper, under the names the agents use.
json_format = response_format
decode_json = first_json_object


class ClientHolder:
    """Opens the model client on first use and closes it once."""

    def __init__(self, model: str) -> None:
        self.model = model
        self._client = None

    @property
    def client(self):
        if self._client is None:
            self._client = make_client(self.model)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
