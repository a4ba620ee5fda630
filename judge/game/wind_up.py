"""What a game leaves running at the table, ended: a new game or an abandon (docs/judge.md,
"New game") tells the table to end it first, so the next game finds it idle and by day.

Two sources say what runs, and either may be behind the other: the game itself, which knows
what it started the moment it sent it (a vote the table has not yet reported running), and
the table's last ``state`` as the panel heard it, which knows what the game cannot (a vote the
game thinks over while its result is on the way, a timer started by hand). Whatever either
says runs is ended; the table takes commands in the order they are sent, so a vote whose
``cmd/vote/start`` is still on its way is started and then cancelled. An ending for something
that had ended meanwhile is refused by the table ("no vote is running"): harmless, and the
panel does not show it (``TableLink.send``'s ``quiet``).

The order is the table's: the vote cancelled, the speech or countdown timer stopped, the night
step stopped (its result comes and no game reads it), then the day (the table refuses the day
while any of those runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.game import table
from judge.game.state import Command, Game
from judge.game.votes import procedure


def wind_up(game: Game, table_state: Mapping[str, Any]) -> list[Command]:
    """The commands that end what ``game`` or the table (its retained ``state`` document, as
    last heard; ``{}`` when none was) has running, in the order the table takes them."""
    voting = game.vote is not None and game.stage in procedure(game).stages
    timing = game.floor is not None or game.discussing or game.countdown
    night = game.stage in ("night", "night0")
    commands = []
    if voting or table_state.get("vote") is not None:
        commands.append(table.vote_cancel())
    if timing or table_state.get("timer") is not None:
        commands.append(table.timer_stop())
    if game.running_step is not None:
        commands.append(table.night_stop())
    if night or table_state.get("phase") == "night":
        commands.append(table.phase("day"))
    return commands
