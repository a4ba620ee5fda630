"""Seat numbers: an N-seat table has seats 1..N, and one check says whether a number is one.

Every input that names a seat (a command's ``seat`` or list of seats, a nomination typed on a
keypad, a config key wiring a button, a light or a console) is checked here, so all of them
refuse a wrong number alike: ``no seat 11 at this table (seats are 1..10)``, after the key or
field that holds it.
"""

from __future__ import annotations


def no_seat(seat: int, seats: int) -> str | None:
    """Why ``seat`` is not a seat of a ``seats``-seat table, or None when it is one."""
    if 1 <= seat <= seats:
        return None
    return f"no seat {seat} at this table (seats are 1..{seats})"


def seat_problem(key: str, numbers: list[int], seats: int, field: str = "") -> str | None:
    """The first problem of a list of seats at ``key`` (each entry's ``field``, if the seat is
    a field of it): a seat the table has not, or one given twice; None when there is none."""
    seen: set[int] = set()
    for i, seat in enumerate(numbers):
        if problem := no_seat(seat, seats):
            return f"{key}[{i}]{field}: {problem}"
        if seat in seen:
            return f"{key}[{i}]{field}: seat {seat} given twice"
        seen.add(seat)
    return None
