"""Day commands: ``cmd/seats``, ``cmd/timer/...``, ``cmd/nomination/withdraw``,
``cmd/day/start``, checked against the table (pure)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import msgspec

from controller.core import commands, day, night, scene, timer, vote
from controller.core import standings as standings_module
from controller.core.effects import (
    AudioControl,
    CancelCues,
    Cue,
    Effect,
    Emit,
    Indicate,
    Music,
)
from controller.core.inputs import CommandReceived
from controller.core.replies import answer, seat_problem
from controller.core.seats import no_seat

if TYPE_CHECKING:
    from controller.core.table import TableState


DayOutcome = "tuple[TableState, list[Effect], str | None]"


SAY_AFTER_CUE = 1.0  # s: cmd/audio with both a cue and a number speaks after the cue
#: s: cmd/audio's sounds start this long after the command, scheduled ahead so that the tone
#: and the number are SAY_AFTER_CUE apart however busy the table is (controller.cue_schedule)
AUDIO_LEAD = 0.3


def handle(state: TableState, cmd: CommandReceived) -> tuple[TableState, list[Effect]]:
    handler = {
        "seats": _seats, "timer/start": _timer_start, "timer/pause": _timer_pause,
        "timer/resume": _timer_resume, "timer/add": _timer_add, "timer/stop": _timer_stop,
        "nomination/withdraw": _withdraw, "day/start": _day_start, "phase": _phase,
        "audio": _audio, "night/step": _night_step, "night/reveal": _reveal,
        "night/stop": _night_stop,
    }[cmd.verb]
    return answer(state, cmd, commands.parse_day(cmd.verb, cmd.payload), handler)


def _seats(state: TableState, cmd: Any, t: float) -> DayOutcome:
    problem = seat_problem("seats", [s.seat for s in cmd.seats], state.setup.seats, ".seat")
    if problem:
        return state, [], problem
    standings = list(state.standings)
    for change in cmd.seats:
        old = standings[change.seat - 1]
        fouls = old.fouls if change.fouls is None else change.fouls
        in_game = old.in_game if change.in_game is None else change.in_game
        if change.in_game is None and old.fouls >= 4 > fouls:
            in_game = True  # a fourth foul taken back: the player was only out for it
        standings[change.seat - 1] = scene.Standing(
            in_game=in_game and fouls < 4,  # the fourth foul removes the player
            fouls=fouls,
            silenced=old.silenced if change.silenced is None else change.silenced,
            immune=old.immune if change.immune is None else change.immune)
    events = [Emit("seats", t, {"seats": [
        {"seat": seat, **msgspec.structs.asdict(standings[seat - 1])}
        for seat in sorted({c.seat for c in cmd.seats})]})]
    now = tuple(standings)
    rules = state.setup.standings
    session = state.session
    if session is not None:  # a voter whose standing now blocks voting is counted no more
        session, recount = vote.bar(session, tuple(
            s for s in session.voters
            if standings_module.why_not(rules, now, s, "vote") is not None), t)
        events += recount
    return (replace(state, standings=now, session=session,
                    day=day.drop_out(state.day, now, rules)), events, None)


def _timer_start(state: TableState, cmd: Any, t: float) -> DayOutcome:
    countdown = cmd.kind == "night"
    if state.night and not countdown:
        return state, [], ("it is night: speeches are for the day (cmd/phase day first); at "
                           'night only a countdown, kind "night" with no seat (FIIM 4.2.1, '
                           "4.2.3)")
    if countdown and not state.night:
        return state, [], "kind: a night countdown is for the night (cmd/phase night first)"
    if countdown and cmd.seat is not None:
        return state, [], "seat: a night countdown lights no seat and names none: leave it out"
    if countdown:
        return _take_floor(state, cmd, t)
    if cmd.seat is None:
        return state, [], "seat: give the seat that takes the floor"
    if problem := no_seat(cmd.seat, state.setup.seats):
        return state, [], f"seat: {problem}"
    if state.session is not None:
        return state, [], (f"a vote is running (session {state.session.id!r}): nobody has "
                           "the floor during a vote (FIIM 4.4.5-4.4.6)")
    if cmd.kind != "last_words":  # a player who leaves has them (FIIM 4.4.13, 4.5.4)
        why = standings_module.why_not(state.setup.standings, state.standings, cmd.seat,
                                       "floor")
        if why is not None:
            return state, [], f"seat: {why}"
    return _take_floor(state, cmd, t)


def _take_floor(state: TableState, cmd: Any, t: float) -> DayOutcome:
    """Start the timer, taking over from a running one if ``replace``."""
    effects: list[Effect] = []
    if state.timer is not None:
        if not cmd.replace:
            holder = ("the night countdown runs" if state.timer.seat is None
                      else f"seat {state.timer.seat} holds the floor")
            return state, [], f'{holder}; stop that timer or send "replace": true'
        _, effects = timer.stop(state.timer, t)
    new, more = timer.start(cmd.id, cmd.seat, cmd.kind, cmd.seconds, t)
    return replace(state, timer=new), effects + more, None


def _running_timer(state: TableState) -> str | None:
    return "no timer is running" if state.timer is None else None


def _timer_pause(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if state.timer is None or not state.timer.running:
        return state, [], _running_timer(state) or "the timer is already paused"
    new, effects = timer.pause(state.timer, t)
    return replace(state, timer=new), effects, None


def _timer_resume(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if state.timer is None or state.timer.running:
        return state, [], _running_timer(state) or "the timer is not paused"
    new, effects = timer.resume(state.timer, t)
    return replace(state, timer=new), effects, None


def _timer_add(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if state.timer is None:
        return state, [], "no timer is running"
    new, effects = timer.add(state.timer, cmd.seconds, t)
    return replace(state, timer=new), effects, None


def _timer_stop(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if state.timer is None:
        return state, [], "no timer is running"
    new, effects = timer.stop(state.timer, t)
    return replace(state, timer=new), effects, None


def _withdraw(state: TableState, cmd: Any, t: float) -> DayOutcome:
    done = day.withdraw(state.day, cmd.seat, t)
    if done is None:
        return state, [], f"seat: seat {cmd.seat} is not nominated today"
    today, event = done
    return replace(state, day=today), [event], None


def _day_start(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if cmd.day <= state.day.number:
        return state, [], (f"day: day {cmd.day} has begun already (today is day "
                           f"{state.day.number})")
    today = day.Day(number=cmd.day)
    return replace(state, day=today), [Emit("day", t, {"day": cmd.day})], None


def _phase(state: TableState, cmd: Any, t: float) -> DayOutcome:
    night = cmd.phase == "night"
    if night == state.night:
        return state, [], f"phase: it is {cmd.phase} already"
    if night and state.session is not None:
        return state, [], f"a vote is running (session {state.session.id!r}); end it first"
    if night and state.timer is not None:
        return state, [], f"seat {state.timer.seat} holds the floor; stop the timer first"
    if not night and state.night_step is not None:
        return state, [], f"the night step {state.night_step.step!r} runs; let it end first"
    if not night and state.timer is not None:
        return state, [], "the night countdown runs; stop it first"
    # day: every private indicator goes dark (a check result must not blink into the day)
    dark = [] if night else [Indicate(seat, 0) for seat in range(1, state.setup.seats + 1)]
    return (replace(state, night=night),  # no sound still waiting belongs to the new phase
            [Emit("phase", t, {"phase": cmd.phase}), Music(night), CancelCues(), *dark], None)


def _audio(state: TableState, cmd: Any, t: float) -> DayOutcome:
    at, group = t + AUDIO_LEAD, f"audio/{cmd.id}"
    sounds: list[Effect] = [] if cmd.cue is None else [Cue(cmd.cue, at, group)]
    if cmd.say is not None:  # after the cue, if there is one (cues last under a second)
        sounds.append(Cue(f"number/{cmd.say}", at + (SAY_AFTER_CUE if sounds else 0.0), group))
    if cmd.volume is not None or cmd.next_track:
        sounds.insert(0, AudioControl(cmd.volume, cmd.next_track))
    if not sounds:
        return state, [], 'give "volume", "next_track", "cue" or "say"'
    return state, sounds, None


def _night_step(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if not state.night:
        return state, [], "it is day: night steps are for the night (cmd/phase night first)"
    if state.night_step is not None:
        return state, [], f"the night step {state.night_step.step!r} runs"
    problem = seat_problem("actors", cmd.actors, state.setup.seats)
    if problem:
        return state, [], problem
    if cmd.mode == "count" and cmd.seconds is not None:
        return state, [], ("seconds: a count step lasts as long as its numbers take "
                           "(one cadence each); give cadence, not seconds")
    seats = range(1, state.setup.seats + 1)
    action = state.setup.night_steps.get(cmd.step)  # a shot or a check: standings matter
    blocked = () if action is None else set(seats) - set(standings_module.allowed(
        state.setup.standings, state.standings, action))
    alive = tuple(s for s in seats if state.standings[s - 1].in_game and s not in blocked)
    allowed = {"seats": tuple(seats), "alive": alive,
               "numbers": tuple(range(1, cmd.numbers + 1))}[cmd.targets]
    # digits an actor typed before the step opened must not become its pick
    entries = {seat: e for seat, e in state.entries.items() if seat not in cmd.actors}
    state = replace(state, entries=entries)
    step, effects = night.start(night.NightStep(
        id=cmd.id, step=cmd.step, actors=tuple(cmd.actors), picks=cmd.picks, allowed=allowed,
        mode=cmd.mode, seconds=cmd.seconds or state.setup.night_seconds,
        cadence=cmd.cadence or state.setup.night_cadence), t)
    return replace(state, night_step=step), effects, None


def _night_stop(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if state.night_step is None:
        return state, [], "no night step runs"
    ended = msgspec.structs.replace(state.night_step, ends=t)
    return replace(state, night_step=None), night.finish(ended), None


def _reveal(state: TableState, cmd: Any, t: float) -> DayOutcome:
    if not state.night:
        return state, [], "it is day: a check result is shown at night, masks on"
    if problem := no_seat(cmd.seat, state.setup.seats):
        return state, [], f"seat: {problem}"
    return state, [Indicate(cmd.seat, cmd.pattern)], None
