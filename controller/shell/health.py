"""The retained ``health`` document: one builder for each of its sections.

Each section has one shape, its ``contract.api`` struct (``OutboxHealth``, ``ConsoleHealth``,
``AudioHealth``...), and one function here that builds it from the part it describes; a part
that is not configured (no ``[strip]``, no ``[expanders]``) has no section. ``HealthReport``
gathers them whenever something in them changes and on every connect, and
``MessageFactory.health`` stamps the envelope.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from contract import api
from controller.clock import ClockSync
from controller.journal import Journal
from controller.messages import MessageFactory
from controller.mqtt_link import LinkDrops, MqttLink
from controller.shell.clock_watch import ClockWatch
from controller.shell.intake import CommandIntake
from controller.shell.outbox import Outbox
from controller.shell.wiring import Devices
from firmware_bridge.link import ConsoleLink

Section = TypeVar("Section")


class _Reporting(Protocol):
    def health(self) -> Any: ...


def outbox(depth: int, limit: int) -> api.OutboxHealth:
    return api.OutboxHealth(depth=depth, limit=limit, over_limit=depth > limit)


def consoles(links: Iterable[ConsoleLink]) -> list[api.ConsoleHealth]:
    """Each link's own ``ConsoleHealth``, copied: its port's thread goes on counting."""
    return [msgspec.structs.replace(link.health, counts=dict(link.health.counts))
            for link in links]


def device(part: _Reporting | None, shape: type[Section]) -> Section | None:
    """A device's section (the speaker's, the strip's, the expanders'), or None without it."""
    return None if part is None else msgspec.convert(part.health(), shape)


def broker(drops: LinkDrops) -> api.BrokerLinkHealth:
    return api.BrokerLinkHealth(
        disconnects=drops.disconnects, taken_over=drops.taken_over,
        last_reason=drops.last_reason, thrown_off=drops.thrown_off(time.monotonic()),
        sessions_lost=drops.sessions_lost)


def clock(sync: ClockSync) -> api.ClockHealth:
    return api.ClockHealth(synchronized=sync.synchronized, max_error_ms=sync.max_error_ms,
                           source=sync.source)


def journal(journals: Sequence[Journal], hold_limit: int) -> api.JournalHealth:
    """Both journals together (the private one's own figures would tell about the night)."""
    return api.JournalHealth(
        ok=not any(j.problem or j.unreadable or j.dropped or j.moved_aside for j in journals),
        problems=[p for j in journals for p in (j.problem, j.unreadable) if p],
        held=sum(j.held for j in journals), hold_limit=hold_limit,
        dropped=sum(j.dropped for j in journals),
        moved_aside=[str(j.moved_aside) for j in journals if j.moved_aside])


class HealthReport:
    """The whole document from the service's parts, as they are when it is built."""

    def __init__(self, *, messages: MessageFactory, mqtt: MqttLink, outbox: Outbox,
                 devices: Devices, intake: CommandIntake, clock_watch: ClockWatch,
                 hold_limit: int):
        self._messages = messages
        self._mqtt = mqtt
        self._outbox = outbox
        self._devices = devices
        self._intake = intake
        self._clock_watch = clock_watch
        self._hold_limit = hold_limit

    def document(self) -> bytes:
        devices = self._devices
        return self._messages.health(
            outbox=outbox(self._outbox.depth, self._outbox.limit),
            consoles=consoles(devices.links),
            audio=device(devices.speaker, api.AudioHealth),
            strip=device(devices.strip, api.StripHealth),
            expanders=device(devices.expanders, api.ExpanderHealth),
            commands=self._intake.health(), broker=broker(self._mqtt.drops),
            clock=clock(self._clock_watch.sync),
            journal=journal(list(self._outbox.journals.values()), self._hold_limit))

    def publish(self) -> None:
        """Republish ``health`` (retained), on the loop thread."""
        self._mqtt.retain("health", self.document())
