"""A seat press as the service journals it, for the benches that fill a journal.

The topic is the core's (``contract.events.topic``) and the payload is stamped by
``controller.messages.MessageFactory``, as ``controller.shell.outbox`` does for a live press, so
a bench's journal holds what a table's would (the envelope with ``host_boot`` and ``mono_ms``,
the event's own fields), and a change of the format reaches the benches by itself.
"""

from __future__ import annotations

from collections.abc import Callable

from contract.events import SeatPress, topic
from controller.clock import SystemClock, host_boot_id
from controller.core.effects import Emit
from controller.messages import MessageFactory

#: Where a seat press is published, below the table's prefix, and the topic it is journaled with.
PRESS_TOPIC = topic(SeatPress)


def press_payloads(store_id: str, seat: int) -> Callable[[int, float], bytes]:
    """``payload(seq, t)``: the published document of a press of ``seat`` at host monotonic
    ``t``, numbered ``seq`` by the journal ``store_id`` (``Journal.store_id``)."""
    messages = MessageFactory(boot_id="bench", store_id=store_id, gpio="mock",
                              clock=SystemClock(), host_boot=host_boot_id())
    press = SeatPress(seat=seat, source="gpio")
    return lambda seq, t: messages.event(Emit(press, t), seq)
