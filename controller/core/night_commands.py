"""``cmd/night/...``: the judge runs the night's steps (pure).

A night step (``controller.core.night``) is one thing some seats do with their eyes closed: the
mafia's shot, the don's or sheriff's check, the best move. ``night/step`` opens one for its
actors, with the targets they may pick (any seat, seats whose standing allows the action, or
plain numbers for a roulette), how picks are entered (keypad digits within a time, or a press
while the number is spoken) and what a surplus of picks does (void them, or the first stand: the
command's choice, else the preset's for the step). One step at a time, only at night.
``night/stop`` ends the running step now; ``night/reveal`` shows a check result on one seat's
private indicator, so only that player sees it.
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from contract.commands import NightStepCommand, RevealCommand, VoteAction
from contract.seats import no_seat, seat_problem
from controller.core import night
from controller.core import standings as standings_module
from controller.core.effects import Indicate
from controller.core.replies import Outcome
from controller.core.state import TableState


def open_step(state: TableState, cmd: NightStepCommand, t: float) -> Outcome:
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
    opened, effects = night.start(night.NightStep(
        id=cmd.id, step=cmd.step, actors=tuple(cmd.actors), picks=cmd.picks, allowed=allowed,
        mode=cmd.mode, seconds=cmd.seconds or state.setup.night_seconds,
        cadence=cmd.cadence or state.setup.night_cadence,
        surplus=night.surplus_of(cmd.step, state.setup.night_surplus, cmd.surplus)), t,
        state.speaks)
    return replace(state, night_step=opened), effects, None


def stop(state: TableState, cmd: VoteAction, t: float) -> Outcome:
    if state.night_step is None:
        return state, [], "no night step runs"
    ended = msgspec.structs.replace(state.night_step, ends=t)
    return replace(state, night_step=None), night.finish(ended), None


def reveal(state: TableState, cmd: RevealCommand, t: float) -> Outcome:
    if not state.night:
        return state, [], "it is day: a check result is shown at night, masks on"
    if problem := no_seat(cmd.seat, state.setup.seats):
        return state, [], f"seat: {problem}"
    return state, [Indicate(cmd.seat, cmd.pattern)], None
