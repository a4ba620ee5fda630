"""``cmd/day/start`` and ``cmd/nomination/withdraw``: the day's own record (pure).

A game day (``controller.core.day``) holds its number and today's nominations, in the order
they were made (FIIM 4.4.4: the vote follows it). ``day/start`` opens a new day with no
nominations; a day number never goes back. ``nomination/withdraw`` takes back a nomination the
table accepted from a keypad: the judge's correction, refused for a seat not nominated today.
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import DayStart, NominationWithdraw
from contract.events import DayEvent
from controller.core import day
from controller.core.effects import Emit
from controller.core.replies import Outcome
from controller.core.state import TableState


def start(state: TableState, cmd: DayStart, t: float) -> Outcome:
    if cmd.day <= state.day.number:
        return state, [], (f"day: day {cmd.day} has begun already (today is day "
                           f"{state.day.number})")
    today = day.Day(number=cmd.day)
    return replace(state, day=today), [Emit(DayEvent(day=cmd.day), t)], None


def withdraw(state: TableState, cmd: NominationWithdraw, t: float) -> Outcome:
    done = day.withdraw(state.day, cmd.seat, t)
    if done is None:
        return state, [], f"seat: seat {cmd.seat} is not nominated today"
    today, event = done
    return replace(state, day=today), [event], None
