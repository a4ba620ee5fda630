"""Inputs to the core: plain data, each stamped with host monotonic seconds ``t``.

Adapters create these from what they see (a pin edge, an MQTT message, a timer) and hand them to
the event loop; the core never asks for the time itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.buttons import Button
from contract.events import Key, Source


@dataclass(frozen=True)
class ButtonEdge:
    """A raw level change of a button at its hardware edge time ``t`` (not yet debounced)."""

    button: Button
    pressed: bool
    t: float
    source: Source = "gpio"


@dataclass(frozen=True)
class KeyPressed:
    """A key of seat ``seat``'s keypad (``0``-``9``, ``*``, ``#``), pressed at ``t``."""

    seat: int
    key: Key
    t: float
    source: Source = "console"


@dataclass(frozen=True)
class Tick:
    """A timer the core asked for (see ``effects.WakeAt``) has come due at ``t``."""

    t: float


@dataclass(frozen=True)
class CommandReceived:
    """A command message as it came off MQTT, not yet parsed or validated.

    ``verb`` is the topic below the table prefix with ``cmd/`` removed (``light``) or the
    simulator topic (``sim/press``). ``response_topic`` and ``correlation`` are the MQTT 5
    request/response properties, passed through to the reply untouched.
    """

    verb: str
    payload: bytes
    t: float
    response_topic: str | None = None
    correlation: bytes | None = None


@dataclass(frozen=True)
class Boot:
    """The service has started (or restarted) at ``t``: bring the world in line with the state
    and resume a session that was running."""

    t: float


@dataclass(frozen=True)
class ConsoleStatus:
    """The console serving ``seats`` went ``online`` or offline at ``t``."""

    seats: frozenset[int]
    online: bool
    t: float


Input = ButtonEdge | KeyPressed | Tick | CommandReceived | Boot | ConsoleStatus
