"""Small helpers the command handlers share (pure)."""

from __future__ import annotations

from controller.core.effects import Reply
from controller.core.inputs import CommandReceived


def reply(cmd: CommandReceived, id: str | None, error: str | None) -> Reply:
    return Reply(cmd.verb, id, error is None, error, cmd.response_topic, cmd.correlation)


def seat_problem(key: str, seats: list[int], table_seats: int, field: str = "") -> str | None:
    seen: set[int] = set()
    for i, seat in enumerate(seats):
        if not 1 <= seat <= table_seats:
            return (f"{key}[{i}]{field}: no seat {seat} at this table "
                    f"(seats are 1..{table_seats})")
        if seat in seen:
            return f"{key}[{i}]{field}: seat {seat} given twice"
        seen.add(seat)
    return None
