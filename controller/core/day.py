"""The day at the table: standings, nominations from the keypad (FIIM 4.4.2-4.4.3), pure.

A nomination is a speaker's keypad entry (``7#``) while they hold the floor; any other entry
by day is refused with its reason (no floor, a paused timer, a vote running). The first time a
seat is nominated it is ``accepted``; nominated again by another speaker it is ``supported``
(the judge's "поддержано", club rules 002); a speaker who already nominated today is
``refused`` (4.4.3: one nomination per speaker per day), and so is an entry before the day has
begun (``cmd/day/start``), a speaker whose standing blocks nominating or a seat whose standing
blocks being nominated (the preset's ``[standings]``, see ``standings``), each with its reason.
``withdrawn`` when the rules core or the judge takes one back.
"""

from __future__ import annotations

import msgspec

from contract.events import NominationEvent
from contract.events import NominationOutcome as Outcome
from contract.seats import no_seat
from controller.core import standings as blocking
from controller.core.effects import Emit
from controller.core.scene import Standing


class Nomination(msgspec.Struct, frozen=True):
    by: int
    seat: int


class Day(msgspec.Struct, frozen=True, kw_only=True):
    number: int = 0
    nominations: tuple[Nomination, ...] = ()  # accepted ones, in nomination order
    nominators: tuple[int, ...] = ()  # who has used their nomination today
    voted: bool = False  # today's vote has been held: the nominated lights go out

    @property
    def nominees(self) -> list[int]:
        return [n.seat for n in self.nominations]


def event(day: Day, by: int, seat: int, t: float, outcome: Outcome,
          reason: str | None = None) -> Emit:
    """``event/nomination``: what became of ``by`` typing ``seat``, with today's nominees."""
    return Emit(NominationEvent(by=by, seat=seat, outcome=outcome, reason=reason, day=day.number,
                                nominees=day.nominees), t)


def nominate(day: Day, by: int, seat: int, standings: tuple[Standing, ...], t: float,
             one_per_speaker: bool = True,
             rules: blocking.StandingRules = blocking.FIIM,
             floor: str | None = "speech", one_rule: str = "FIIM 4.4.3") -> tuple[Day, Emit]:
    """``by`` typed ``seat`` by day, holding the floor for a timer of kind ``floor`` (None: not
    holding it, or the timer is paused)."""
    def answer(outcome: Outcome, reason: str | None = None) -> Emit:
        return event(day, by, seat, t, outcome, reason)

    if day.number < 1:
        return day, answer("refused", "the day has not begun (cmd/day/start)")
    if floor is None:
        return day, answer("refused", f"seat {by} does not hold the floor: a nomination is made "
                                      "in one's running speech (FIIM 4.4.2)")
    if (why := blocking.why_not(rules, standings, by, "nominate")) is not None:
        return day, answer("refused", why)
    if floor != "speech":
        return day, answer("refused", f"seat {by} has the floor for {floor.replace('_', ' ')}: "
                                      "a nomination is made in one's speech (FIIM 4.4.2)")
    if problem := no_seat(seat, len(standings)):
        return day, answer("refused", problem)
    if (why := blocking.why_not(rules, standings, seat, "nominated")) is not None:
        return day, answer("refused", why)
    if seat in day.nominees:  # supporting is not nominating: it uses nobody's nomination
        return day, answer("supported")
    if one_per_speaker and by in day.nominators:
        return day, answer("refused", f"seat {by} has already nominated today ({one_rule})")
    day = msgspec.structs.replace(day, nominators=(*day.nominators, by),
                                  nominations=(*day.nominations, Nomination(by, seat)))
    return day, answer("accepted")


def drop_out(day: Day, standings: tuple[Standing, ...],
             rules: blocking.StandingRules = blocking.FIIM) -> Day:
    """Nominations of seats whose standing now blocks being nominated no longer stand."""
    kept = tuple(n for n in day.nominations
                 if blocking.why_not(rules, standings, n.seat, "nominated") is None)
    return day if kept == day.nominations else msgspec.structs.replace(day, nominations=kept)


def withdraw(day: Day, seat: int, t: float) -> tuple[Day, Emit] | None:
    """Take back the nomination of ``seat`` (None if it is not nominated)."""
    found = [n for n in day.nominations if n.seat == seat]
    if not found:
        return None
    day = msgspec.structs.replace(
        day, nominations=tuple(n for n in day.nominations if n.seat != seat),
        nominators=tuple(b for b in day.nominators if b != found[0].by))
    return day, event(day, found[0].by, seat, t, "withdrawn")
