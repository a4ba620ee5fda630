"""``cmd/timer/...``: who holds the floor, and for how long (pure).

By day the timer belongs to one seat: a speech (FIIM 4.3.1: a minute), an excuse, last words;
or to the whole table at once, a discussion (``kind`` ``discussion``, no seat: the classic
club's «3. Обсуждение», "не больше 5 минуты"). Nobody holds the floor while a vote runs
(4.4.5-4.4.6), and a player whose standing bars speech cannot take it, except for last words,
which a leaving player always has (4.4.13, 4.5.4). At night the only timer is the judge's
countdown (``kind`` ``night``, no seat: 4.2.1, 4.2.3). One timer at a time: a second
``start`` is refused unless it says ``replace``.

The clock itself (ticks, warnings, the end) lives in ``controller.core.timer``; these handlers
only check the command against the table and hand over.
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import TimerAdd, TimerStart, VoteAction
from contract.seats import no_seat
from controller.core import standings as standings_module
from controller.core import timer
from controller.core.effects import Effect
from controller.core.replies import Outcome
from controller.core.state import TableState


def start(state: TableState, cmd: TimerStart, t: float) -> Outcome:
    countdown = cmd.kind == "night"
    whole = cmd.kind == "discussion"  # the whole table's: nobody's floor
    if state.night and not countdown:
        return state, [], ("it is night: speeches are for the day (cmd/phase day first); at "
                           'night only a countdown, kind "night" with no seat (FIIM 4.2.1, '
                           "4.2.3)")
    if countdown and not state.night:
        return state, [], "kind: a night countdown is for the night (cmd/phase night first)"
    if countdown and cmd.seat is not None:
        return state, [], "seat: a night countdown lights no seat and names none: leave it out"
    if whole and cmd.seat is not None:
        return state, [], ("seat: a discussion is the whole table's: it lights no seat and "
                           "names none: leave it out")
    if countdown:
        return _take_floor(state, cmd, t)
    if cmd.seat is None and not whole:
        return state, [], ('seat: give the seat that takes the floor (or kind "discussion": '
                           "the whole table)")
    if cmd.seat is not None and (problem := no_seat(cmd.seat, state.setup.seats)):
        return state, [], f"seat: {problem}"
    if state.session is not None:
        return state, [], (f"a vote is running (session {state.session.id!r}): nobody has "
                           "the floor during a vote (FIIM 4.4.5-4.4.6)")
    if cmd.seat is None:
        return _take_floor(state, cmd, t)
    if cmd.kind != "last_words":  # a player who leaves has them (FIIM 4.4.13, 4.5.4)
        why = standings_module.why_not(state.setup.standings, state.standings, cmd.seat,
                                       "floor")
        if why is not None:
            return state, [], f"seat: {why}"
    return _take_floor(state, cmd, t)


def _take_floor(state: TableState, cmd: TimerStart, t: float) -> Outcome:
    """Start the timer, taking over from a running one if ``replace``."""
    effects: list[Effect] = []
    if state.timer is not None:
        if not cmd.replace:
            return state, [], (f"{timer.holder(state.timer)}; stop that timer or send "
                               '"replace": true')
        _, effects = timer.stop(state.timer, t)
    new, more = timer.start(cmd.id, cmd.seat, cmd.kind, cmd.seconds, t)
    return replace(state, timer=new), effects + more, None


def _running_timer(state: TableState) -> str | None:
    return "no timer is running" if state.timer is None else None


def pause(state: TableState, cmd: VoteAction, t: float) -> Outcome:
    if state.timer is None or not state.timer.running:
        return state, [], _running_timer(state) or "the timer is already paused"
    new, effects = timer.pause(state.timer, t)
    return replace(state, timer=new), effects, None


def resume(state: TableState, cmd: VoteAction, t: float) -> Outcome:
    if state.timer is None or state.timer.running:
        return state, [], _running_timer(state) or "the timer is not paused"
    new, effects = timer.resume(state.timer, t)
    return replace(state, timer=new), effects, None


def add(state: TableState, cmd: TimerAdd, t: float) -> Outcome:
    if state.timer is None:
        return state, [], "no timer is running"
    new, effects = timer.add(state.timer, cmd.seconds, t)
    return replace(state, timer=new), effects, None


def stop(state: TableState, cmd: VoteAction, t: float) -> Outcome:
    if state.timer is None:
        return state, [], "no timer is running"
    new, effects = timer.stop(state.timer, t)
    return replace(state, timer=new), effects, None
