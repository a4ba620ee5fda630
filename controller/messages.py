"""The JSON documents the controller publishes, built in one place.

Every payload carries ``v`` (the schema major version) and ``ts`` (UTC ISO-8601 to the ms).
Events also carry ``id`` and ``seq``: ``seq`` counts this boot's events from 1 so a consumer can
see a gap; ``id`` is ``<boot id>-<seq>``, unique across restarts and the same on every redelivery
of one event, so a consumer drops duplicates by it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from controller import __version__
from controller.clock import Clock
from controller.core.effects import Emit, Reply

SCHEMA_VERSION = 1

_encoder = msgspec.json.Encoder()


class MessageFactory:
    """Stamps and encodes payloads for one boot of the service (owned by the loop thread)."""

    def __init__(self, *, boot_id: str, clock: Clock):
        self.boot_id = boot_id
        self._clock = clock
        self._seq = 0

    def _doc(self, t: float, body: dict[str, Any]) -> bytes:
        return _encoder.encode({"v": SCHEMA_VERSION, "ts": self._clock.utc_iso(t), **body})

    def event(self, emit: Emit) -> bytes:
        """``event/<kind>``: the envelope around the core's event data, ``ts`` from the edge."""
        self._seq += 1
        return self._doc(emit.t, {"id": f"{self.boot_id}-{self._seq}", "seq": self._seq,
                                  **emit.data})

    def state(self, snapshot: dict[str, Any]) -> bytes:
        """``state`` (retained)."""
        return self._doc(self._clock.monotonic(), snapshot)

    def status(self, online: bool) -> bytes:
        """``status`` (retained, and the last will with ``online=False``)."""
        return self._doc(self._clock.monotonic(), {
            "state": "online" if online else "offline",
            "version": __version__,
            "boot_id": self.boot_id,
        })

    def reply(self, reply: Reply) -> bytes:
        """``reply/<verb>``: ``{id, ok, error}``."""
        return self._doc(self._clock.monotonic(),
                         {"id": reply.id, "ok": reply.ok, "error": reply.error})
