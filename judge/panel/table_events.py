"""The table's events as the judge reads them: decoded once, at the edge, into the controller's
own types.

Every event the table publishes on ``event/<kind>`` or ``private/<kind>`` is the struct of that
kind in ``contract.events`` with the envelope beside it (``contract.api.EVENT_TYPES``
has each stamped type, a subclass of the core's). ``decode`` reads one MQTT payload into a
``judge.game.TableEvent`` holding that struct, or refuses it with ``BadEvent`` naming the field;
the game core then reads attributes, never dict keys. Of the retained ``state`` the game reads
only the table's day, so ``state`` becomes the ``DayEvent`` of that day.

The panel's journal keeps each event as its JSON data (``to_data``) and reads it back with
``from_data``, which also takes the form journals were written in before the events were typed
(each event's published payload as a dict, ``state`` with all its fields or only ``day``) and
events without the envelope (a script's, a test's). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contract import api, events
from judge.game import TableEvent

#: the topics below ``mafia/<table>/`` that carry events: ``event/<kind>``, ``private/<kind>``
_PREFIXES = ("event/", "private/")


class BadEvent(ValueError):
    """A payload that is not the event its topic names (the message says which field)."""


class _StateDay(msgspec.Struct):
    """What the game reads of the table's retained ``state`` (other fields are ignored)."""

    day: int


def kind(topic: str) -> str | None:
    """The event kind of a topic (``event/vote/result`` -> ``vote/result``), ``state`` for the
    table's state, ``None`` for a topic that carries no event the game reads."""
    if topic == "state":
        return topic
    for prefix in _PREFIXES:
        if topic.startswith(prefix) and topic.removeprefix(prefix) in api.EVENT_TYPES:
            return topic.removeprefix(prefix)
    return None


def decode(topic: str, payload: bytes) -> TableEvent | None:
    """One payload the table published, as the game reads it (``None``: a topic that carries
    no event). ``BadEvent`` when it is not JSON, or not its kind's type, envelope included."""
    name = kind(topic)
    if name is None:
        return None
    try:
        if name == "state":
            return _state(topic, msgspec.json.decode(payload, type=_StateDay))
        return TableEvent(topic, msgspec.json.decode(payload, type=api.EVENT_TYPES[name]))
    except msgspec.DecodeError as exc:  # ValidationError included
        raise BadEvent(f"{topic}: {exc}") from None


def from_data(topic: str, data: Any) -> TableEvent | None:
    """An event from its JSON data: as the journal keeps it (``to_data``), as journals kept it
    before the events were typed (the published payload as a dict), or without the envelope."""
    name = kind(topic)
    if name is None:
        return None
    try:
        if name == "state":
            return _state(topic, msgspec.convert(data, _StateDay))
        stamped = isinstance(data, dict) and "seq" in data
        return TableEvent(topic, msgspec.convert(
            data, api.EVENT_TYPES[name] if stamped else events.KINDS[name]))
    except msgspec.ValidationError as exc:
        raise BadEvent(f"{topic}: {exc}") from None


def to_data(given: TableEvent) -> Any:
    """The event as JSON data (``from_data`` reads it back)."""
    return msgspec.to_builtins(given.event)


def _state(topic: str, state: _StateDay) -> TableEvent:
    return TableEvent(topic, events.DayEvent(day=state.day))
