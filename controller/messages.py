"""The JSON documents the controller publishes, built in one place through ``contract.api``.

Every payload carries ``v`` (the schema major version) and ``ts`` (UTC ISO-8601 to the ms).
Events also carry ``seq`` (this table's event counter, kept across restarts by the store),
``id`` (``<store id>-<seq>``, the same on every redelivery, so consumers drop duplicates by it),
and ``host_boot`` with ``mono_ms`` (the host's monotonic clock: ``ts`` can step, these do not).
The core's events are typed already (``contract.events``): this module only stamps
them. Each document is built as its ``contract.api`` type, so what goes out is what the AsyncAPI
document describes.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from contract import api
from controller import __version__
from controller.clock import Clock
from controller.core.effects import Emit, Reply

_encoder = msgspec.json.Encoder()


class MessageFactory:
    """Stamps and encodes payloads for one boot of the service (used on the loop thread)."""

    def __init__(self, *, boot_id: str, store_id: str, gpio: Literal["lgpio", "mock"], clock: Clock,
                 host_boot: str | None = None):
        self.boot_id = boot_id
        self.host_boot = host_boot or boot_id
        self.store_id = store_id
        self._gpio = gpio
        self._clock = clock

    def _now(self) -> str:
        return self._clock.utc_iso(self._clock.monotonic())

    def event(self, emit: Emit, seq: int, store_id: str | None = None) -> bytes:
        """``event/<kind>`` (or ``private/<kind>``): the core's event in its envelope
        (``api.Envelope``), ``ts`` from the edge; ``id`` from the journal that numbered it.
        Converted to its published type, so an event that does not fit it fails here."""
        doc = {"v": api.SCHEMA_VERSION, "ts": self._clock.utc_iso(emit.t),
               "id": f"{store_id or self.store_id}-{seq}", "seq": seq,
               "host_boot": self.host_boot, "mono_ms": round(emit.t * 1000),
               **msgspec.to_builtins(emit.event)}
        return _encoder.encode(msgspec.convert(doc, api.EVENT_TYPES[emit.kind]))

    def state(self, snapshot: dict[str, Any]) -> bytes:
        """``state`` (retained)."""
        doc = {"v": api.SCHEMA_VERSION, "ts": self._now(), **snapshot}
        return _encoder.encode(msgspec.convert(doc, api.State))

    def status(self, online: bool) -> bytes:
        """``status`` (retained, and the last will with ``online=False``)."""
        return _encoder.encode(api.Status(
            v=api.SCHEMA_VERSION, ts=self._now(), state="online" if online else "offline",
            version=__version__, boot_id=self.boot_id))

    def health(self, *, outbox: api.OutboxHealth, consoles: list[api.ConsoleHealth],
               audio: api.AudioHealth | None, strip: api.StripHealth | None,
               expanders: api.ExpanderHealth | None, commands: api.CommandHealth,
               broker: api.BrokerLinkHealth, clock: api.ClockHealth,
               journal: api.JournalHealth) -> bytes:
        """``health`` (retained), around its sections (each built by
        ``controller.shell.health``)."""
        return _encoder.encode(api.Health(
            v=api.SCHEMA_VERSION, ts=self._now(), boot_id=self.boot_id, gpio=self._gpio,
            outbox=outbox, consoles=consoles, audio=audio, strip=strip, expanders=expanders,
            commands=commands, broker=broker, clock=clock, journal=journal))

    def reply(self, reply: Reply) -> bytes:
        """``reply/<verb>``: ``{id, ok, error}``."""
        return _encoder.encode(api.Reply(v=api.SCHEMA_VERSION, ts=self._now(), id=reply.id,
                                         ok=reply.ok, error=reply.error))
