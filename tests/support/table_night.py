"""A night step's result as the table reports it, made by the table's own pure night code
(``controller.core.night``): each actor's keyed numbers taken one by one as the controller
takes them, with the step's surplus rule from the book's table preset, and the step's end as
the controller publishes it (``private/night/result``): so a group whose picks differ comes
marked ``disagree``, a surplus ``several_targets``, a short pick ``missing``, exactly as a real
table marks them (docs/mqtt-api.md), not as a test would guess."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from contract import events
from contract.events import Surplus
from controller.core import night
from controller.core.effects import Emit
from judge.game import Game, TableEvent
from judge.game.book import preset_path
from judge.game.mechanisms import mechanism


@cache
def _surplus(preset: Path) -> dict[str, Surplus]:
    """The ``[night] surplus`` table of a table preset (FIIM's readings when it has none)."""
    rules = tomllib.loads(preset.read_text(encoding="utf-8"))
    listed: dict[str, Surplus] = rules.get("night", {}).get("surplus", night.SURPLUS)
    return listed


def surplus(game: Game, name: str) -> Surplus:
    """What the table does with more numbers than ``name`` takes from one actor (the book's
    table preset's ``[night] surplus``, else FIIM's readings, else ``first``)."""
    return night.surplus_of(name, _surplus(preset_path(game.book)), None)


def reported(game: Game, keyed: dict[int, list[int]]) -> TableEvent:
    """The table's result of ``game``'s running step, each actor having keyed ``keyed[actor]``
    (the others nothing) in order."""
    name = game.running_step
    assert name is not None, "no step runs"
    step = game.book.step(name)
    opened = night.NightStep(
        id="n", step=name, actors=game.step_actors,
        picks=mechanism(step.mechanism).picks(game, step),
        allowed=tuple(range(1, len(game.players) + 1)),
        surplus=surplus(game, name), started=0.0, ends=10.0)
    for actor, numbers in keyed.items():
        for i, number in enumerate(numbers):
            opened, _ = night.pick(opened, actor, number, 1.0 + i / 10)
    emitted = night.finish(opened)[0]
    assert isinstance(emitted, Emit) and isinstance(emitted.event,
                                                          events.NightResultEvent)
    return TableEvent("private/night/result", emitted.event)
