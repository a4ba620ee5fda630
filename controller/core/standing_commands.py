"""``cmd/seats``: the judge sets seats' standing (pure).

A standing is what the rules know of a player besides the role: in the game or out, fouls,
silenced for a round, immune. The judge changes only the fields given; the rules that follow from
a change are applied here, in one place:

- a fourth foul removes the player (club rules 002; the FIIM text names its penalty section
  only), and taking that foul back brings them in again;
- a voter whose new standing bars voting is counted no more in the running vote
  (``vote.bar``), so the tally never holds a hand that may not be raised;
- a nominee who leaves the table drops out of today's nominations (``day.drop_out``).
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from contract.commands import SeatsCommand
from contract.events import SeatsEvent, SeatStandingChange
from contract.seats import seat_problem
from controller.core import day, scene, vote
from controller.core import standings as standings_module
from controller.core.effects import Effect, Emit
from controller.core.replies import Outcome
from controller.core.state import TableState


def set_standings(state: TableState, cmd: SeatsCommand, t: float) -> Outcome:
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
    events: list[Effect] = [Emit(SeatsEvent(seats=[
        SeatStandingChange(seat=seat, **msgspec.structs.asdict(standings[seat - 1]))
        for seat in sorted({c.seat for c in cmd.seats})]), t)]
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
