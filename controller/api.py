"""The MQTT API's payloads as types: what the controller publishes and what it accepts.

These msgspec structs are the single source of truth. ``controller.messages`` builds every
outgoing payload through them (so a message that does not fit its type is a bug caught at the
source), the command parsers in ``controller.core.commands`` decode incoming ones with them, and
``controller.asyncapi`` writes ``docs/asyncapi.yaml`` from them. Field descriptions here become
the documentation.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from controller.core.commands import Color, LightCommand, ReplayCommand, SimButtonCommand

SCHEMA_VERSION = 1

Version = Annotated[Literal[1], msgspec.Meta(description="Schema major version.")]
Timestamp = Annotated[str, msgspec.Meta(
    pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$(?!\n)",
    description="UTC ISO-8601 to the millisecond. For events: the time of the hardware edge.",
    examples=["2026-11-29T21:22:15.481Z"],
)]
Seat = Annotated[int, msgspec.Meta(ge=1, le=24, description="Seat number as painted (1-based).")]
Source = Annotated[Literal["gpio"], msgspec.Meta(description="What the input came through.")]


class _Payload(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    v: Version
    ts: Timestamp


class Status(_Payload):
    """``status`` (retained; also the last will, with ``state: offline``)."""

    state: Literal["online", "offline"]
    version: Annotated[str, msgspec.Meta(description="Controller package version.")]
    boot_id: Annotated[str, msgspec.Meta(
        description="New at every start of the service: a change means it restarted.")]


class LightState(msgspec.Struct, forbid_unknown_fields=True):
    mode: Literal["off", "on", "dim", "blink"]
    color: Annotated[Color | None, msgspec.Meta(description="#rrggbb, or null for white.")]


class SeatState(msgspec.Struct, forbid_unknown_fields=True):
    seat: Seat
    light: LightState


class State(_Payload):
    """``state`` (retained): the whole table, republished after every change and reconnect."""

    table: str
    phase: Literal["idle"]
    seats: list[SeatState]


class OutboxHealth(msgspec.Struct, forbid_unknown_fields=True):
    depth: Annotated[int, msgspec.Meta(
        ge=0, description="Events stored and not yet acknowledged by the broker.")]
    limit: Annotated[int, msgspec.Meta(ge=1, description="Depth above which over_limit is set.")]
    over_limit: Annotated[bool, msgspec.Meta(
        description="The outbox holds more than its limit: the broker has been away too long. "
                    "Nothing is dropped; events keep being stored on disk.")]


class Health(_Payload):
    """``health`` (retained): republished when anything in it changes and on every connect."""

    boot_id: str
    gpio: Annotated[Literal["lgpio", "mock"], msgspec.Meta(description="GPIO backend.")]
    outbox: OutboxHealth


class _Event(_Payload):
    id: Annotated[str, msgspec.Meta(
        description="<store id>-<seq>: unique for all time, the same on every redelivery. "
                    "Drop duplicates by it.")]
    seq: Annotated[int, msgspec.Meta(
        ge=1, description="Counts this table's events from 1 with no gaps, across restarts. "
                          "A jump means missed events: ask for them with cmd/replay.")]


class SeatButtonEvent(_Event):
    """``event/seat/press`` and ``event/seat/release``: a seat's vote button, debounced."""

    seat: Seat
    source: Source


class JudgeButtonEvent(_Event):
    """``event/judge/press`` and ``event/judge/release``: a judge station button."""

    button: Literal["confirm", "reject", "next"]
    source: Source


class Reply(_Payload):
    """``reply/<verb>`` (or the request's MQTT 5 response topic): one per command."""

    id: Annotated[str | None, msgspec.Meta(
        description="The command's id; null when the payload was too broken to read one.")]
    ok: bool
    error: Annotated[str | None, msgspec.Meta(
        description="Why the command was refused (key path first); null when ok.")]


#: Event kinds (the topic below ``event/``) and their payload types.
EVENT_TYPES: dict[str, type[_Event]] = {
    "seat/press": SeatButtonEvent,
    "seat/release": SeatButtonEvent,
    "judge/press": JudgeButtonEvent,
    "judge/release": JudgeButtonEvent,
}

__all__ = [
    "EVENT_TYPES",
    "SCHEMA_VERSION",
    "Health",
    "JudgeButtonEvent",
    "LightCommand",
    "ReplayCommand",
    "Reply",
    "SeatButtonEvent",
    "SimButtonCommand",
    "State",
    "Status",
]
