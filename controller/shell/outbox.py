"""An event's way out: into the journal first, then to the broker while it is there.

Every ``Emit`` of the core is numbered and written by the journal it belongs to (``private``
events count in their own, so a gap in the public ``seq`` tells nobody how much happened at
night), then published at once if the broker is connected; otherwise it waits on disk and
``controller.delivery`` sends it after the next connect, oldest first, paced behind live ones.

A console's input is special (docs/protocol.md, "Exactly once"): its events and the console's
position go into the journal in one transaction, and only then is the console acknowledged, so
whenever the controller dies the console sends again exactly what the journal lacks. The link's
thread notes the position (``console_input``); the loop's ``applying`` hook (``journaling``)
holds the events the input causes and writes them with it. The acknowledgement then waits
``ACK_DELAY`` (loop time) before it goes: the port's thread that writes it, and the console that
reads it, would otherwise wake in the very moment the event is on its way to the broker (paho's
thread, the broker, the subscribers), and on a busy two-core machine every thread woken then
is one more that the event's own threads wait for (docs/performance.md, "Seat consoles").
Every acknowledgement due within that time goes out in one wake-up.

The outbox also watches its depth against ``[store] outbox_limit`` and the journals' troubles
(a full disk: events held in memory and tried again every ``RETRY_SECONDS``); either change is
told through ``on_change`` (the service republishes ``health``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from contract import events
from contract.inputs import Input
from controller.core.effects import Emit
from controller.delivery import Delivery
from controller.journal import Journal, StoredEvent
from controller.messages import MessageFactory
from firmware_bridge.link import ConsoleLink
from firmware_bridge.sequence import Position

log = logging.getLogger(__name__)

#: How often a journal that could not take writes is tried again.
RETRY_SECONDS = 1.0
#: How long a console's acknowledgement waits once its input is on disk: past an event's way
#: to the broker (about 1 ms at p99 on a quiet machine), far inside the console's 200 ms before
#: it sends again (docs/protocol.md).
ACK_DELAY = 0.003


def event_topic(effect: Emit) -> str:
    """Where an event goes under the table's prefix: ``event/<kind>`` or ``private/<kind>``."""
    return events.topic(type(effect.event), effect.private)


class Outbox:
    """The journals (``{private: Journal}``) and what goes out of them (loop thread, but
    ``console_input`` and the journals' trouble calls)."""

    def __init__(self, journals: dict[bool, Journal], *, messages: MessageFactory,
                 delivery: Delivery, connected: Callable[[], bool], limit: int,
                 call_soon: Callable[[Callable[[], None]], None],
                 call_at: Callable[[float, Callable[[], None]], None],
                 now: Callable[[], float], on_change: Callable[[], None]):
        """``call_soon`` and ``call_at``: the loop's (``call_at`` from the loop thread only),
        ``now`` its clock."""
        self.journals = journals
        self._messages = messages
        self._delivery = delivery
        self._connected = connected
        self.limit = limit
        self._call_soon = call_soon
        self._call_at = call_at
        self._now = now
        self._on_change = on_change
        self._over_limit = False
        self._retry_timer: threading.Timer | None = None
        # console inputs on their way to the loop -> (their link, the console's position)
        self._positions: dict[int, tuple[ConsoleLink, Position]] = {}
        self._held: list[Emit] | None = None  # the events of the console input being applied
        self._acks: list[tuple[ConsoleLink, Position]] = []  # journaled, to acknowledge soon

    @property
    def depth(self) -> int:
        """Events journaled and not yet acknowledged by the broker, both journals together."""
        return sum(journal.depth for journal in self.journals.values())

    # ---------------------------------------------------------------- events

    def emit(self, effect: Emit) -> None:
        """Journal the event and publish it (or hold it for the console input it belongs to)."""
        if self._held is not None:
            self._held.append(effect)  # journaled with the console's position
            return
        journal = self.journals[effect.private]
        event = journal.append(event_topic(effect), self._payload_for(effect, journal))
        self._published([] if event is None else [event], effect.private)

    def console_input(self, inp: Input, link: ConsoleLink, position: Position) -> None:
        """On a link's thread, before ``inp`` is submitted: where its console's stream stands
        once the input is taken."""
        self._positions[id(inp)] = (link, position)

    @contextmanager
    def journaling(self, inp: Input) -> Iterator[None]:
        """Around a console input: hold the events it causes, then journal them with the
        console's position in one transaction, publish them, and acknowledge the console
        ``ACK_DELAY`` later."""
        origin = self._positions.pop(id(inp), None)
        if origin is None:
            yield
            return
        link, position = origin
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
        row = (position.unique_id, position.boot_id, position.seq, position.count)
        # the position goes with the events, into the journal that gets them (at night the
        # private one; a console's restart takes the furthest position of the two files);
        # an input that caused no event leaves its position in the public journal alone
        private = {e.private for e in held} or {False}
        kept = True
        for secret in sorted(private):
            journal = self.journals[secret]
            events = [(event_topic(e), self._payload_for(e, journal)) for e in held
                      if e.private == secret]
            stored = journal.append_console_input(events, row)
            kept = kept and len(stored) == len(events)
            self._published(stored, secret)
        if kept:  # (held in memory under a full disk counts: see docs/protocol.md)
            if not self._acks:
                self._call_at(self._now() + ACK_DELAY, self._acknowledge)
            self._acks.append((link, position))

    def _acknowledge(self) -> None:
        """The consoles' inputs journaled ``ACK_DELAY`` ago and since: acknowledged, in order."""
        acks, self._acks = self._acks, []
        for link, position in acks:
            link.journaled(position)

    def _payload_for(self, effect: Emit, journal: Journal) -> Callable[[int], bytes]:
        return lambda seq: self._messages.event(effect, seq, journal.store_id)

    def _published(self, events: list[StoredEvent], private: bool) -> None:
        """Stored events: to the broker now if it is there (else on the next connect)."""
        if self._connected():
            for event in events:
                self._delivery.live(event, private)
        self.check_limit()

    # ---------------------------------------------------------------- acknowledgements

    def acked(self, mid: int) -> None:
        """The broker acknowledged message ``mid``: the first of a batch is written with the
        rest of it in one go, later on this turn of the loop."""
        if self._delivery.acked(mid):
            self._call_soon(self._commit_acks)

    def _commit_acks(self) -> None:
        self._delivery.commit()
        self.check_limit()

    def check_limit(self) -> None:
        """Log and tell when the depth crosses ``limit`` (either way)."""
        over = self.depth > self.limit
        if over != self._over_limit:
            self._over_limit = over
            if over:
                log.error("outbox over its limit: %d events wait for the broker (limit %d); "
                          "they are kept on disk, nothing is dropped", self.depth, self.limit)
            else:
                log.info("outbox back under its limit (%d events wait)", self.depth)
            self._on_change()

    # ---------------------------------------------------------------- the journals' troubles

    def trouble(self) -> None:
        """A journal could not take a write, took it again, or refused an event: tell it now,
        and keep retrying while anything is held."""
        self._on_change()
        if self._retry_timer is None and any(j.problem for j in self.journals.values()):
            self._retry_timer = threading.Timer(
                RETRY_SECONDS, lambda: self._call_soon(self._retry_journals))
            self._retry_timer.daemon = True
            self._retry_timer.start()

    def _retry_journals(self) -> None:
        self._retry_timer = None
        for journal in self.journals.values():
            journal.retry()
        self.trouble()

    def cancel_retry(self) -> None:
        """At shutdown: no more retries."""
        if self._retry_timer is not None:
            self._retry_timer.cancel()
