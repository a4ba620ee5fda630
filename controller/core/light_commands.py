"""``cmd/light``: the judge's (or a technician's) own picture on the seat lights (pure).

A seat light normally shows the table's scene (``controller.core.scene``: standing, nominated,
speaker, vote). ``cmd/light`` sets the manual layer above it, seat by seat: a mode and, for an
RGB light, a colour. ``auto`` clears a seat's manual light and gives it back to the scene. A
command names each seat at most once; all its seats change together or none does.
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import LightCommand
from contract.lights import Light, LightMode
from contract.seats import seat_problem
from controller.core.replies import Outcome
from controller.core.state import TableState


def set_lights(state: TableState, cmd: LightCommand, t: float) -> Outcome:
    problem = seat_problem("lights", [spec.seat for spec in cmd.lights], state.setup.seats,
                           ".seat")
    if problem:
        return state, [], problem
    lights = list(state.lights)
    for spec in cmd.lights:
        color = spec.color.lower() if spec.color else None
        lights[spec.seat - 1] = None if spec.mode == "auto" else Light(LightMode(spec.mode), color)
    return replace(state, lights=tuple(lights)), [], None
