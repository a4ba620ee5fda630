"""``cmd/phase``: day to night and back (pure).

The phase decides what every other command may do: votes and speeches are for the day, night
steps and check results for the night. The switch is refused while something of the old phase
still runs (a vote, a speaker's timer or the table's discussion, a night step, the night
countdown): the judge ends it first, so nothing half-done crosses over. Switching fades the
night music in or out and drops any sound still scheduled; at daybreak every private indicator
goes dark, so a check result cannot blink into the day.
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import PhaseCommand
from contract.events import PhaseEvent
from controller.core import timer
from controller.core.effects import CancelCues, Emit, Indicate, Music
from controller.core.replies import Outcome
from controller.core.state import TableState


def switch(state: TableState, cmd: PhaseCommand, t: float) -> Outcome:
    night = cmd.phase == "night"
    if night == state.night:
        return state, [], f"phase: it is {cmd.phase} already"
    if night and state.session is not None:
        return state, [], f"a vote is running (session {state.session.id!r}); end it first"
    if night and state.timer is not None:
        return state, [], f"{timer.holder(state.timer)}; stop the timer first"
    if not night and state.night_step is not None:
        return state, [], f"the night step {state.night_step.step!r} runs; let it end first"
    if not night and state.timer is not None:
        return state, [], "the night countdown runs; stop it first"
    # day: every private indicator goes dark (a check result must not blink into the day)
    dark = [] if night else [Indicate(seat, 0) for seat in range(1, state.setup.seats + 1)]
    return (replace(state, night=night),  # no sound still waiting belongs to the new phase
            [Emit(PhaseEvent(phase=cmd.phase), t), Music(night), CancelCues(), *dark], None)
