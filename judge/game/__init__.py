"""The judge's game engine: a game of any rule book as pure data, moved on by the judge's taps
and the table's events (docs/judge-engine.md).

    game = new_game(rules=load_rules("crow-club"), seats=13)
    game, commands, records = step(game, Action("deal", {"seed": 7}), now)

Its parts, one module each: ``book`` (a rule book's schema), ``rules`` (a book put to use),
``state`` (the game), ``actions`` (the judge's actions, typed), ``engine`` (``step``,
``replay``, undo), ``setup``, ``day``, ``votes/`` (the vote procedures), ``counting`` (the
judge's part in a count), ``night`` and ``mechanisms/`` (the wake order and what each step
does), ``leaving``, ``fouls``, ``end`` and ``endgames/`` (the wins), ``offers`` (what the
judge may do now), ``table`` (the commands to the table); beside them, not rules,
``scripted`` (the scripted players a game plays itself with: the example, the benches).
"""

from __future__ import annotations

from judge.game.engine import Replayed, replay, step
from judge.game.rules import fiim, load_rules
from judge.game.setup import new_game as _new_game
from judge.game.state import (
    Action,
    Command,
    Game,
    Player,
    Previous,
    Refused,
    Rules,
    TableEvent,
    Timings,
)
from judge.game.table import NO, YES

#: FIIM's cards (1.1), as the tests and the FIIM scoring name them
MAFIA, DON, SHERIFF, CIVILIAN = "mafia", "don", "sheriff", "civilian"
BLACK = (MAFIA, DON)
FIIM_DECK = (DON, MAFIA, MAFIA, SHERIFF, *([CIVILIAN] * 6))


def new_game(seats: int | None = None, timings: Timings | None = None,
             rules: Rules | None = None, previous: Previous | None = None) -> Game:
    """A game of ``rules`` (FIIM's by default) for ``seats`` players (the book's smallest
    table by default), ``timings`` over the rules' own, after ``previous`` at the table."""
    rules = rules or fiim()
    if timings is not None:
        timings.over(rules.book, rules.preset)  # every name one of the book's
        rules = Rules(rules.book, rules.preset,
                      Timings(**{**dict(rules.timings.items()), **dict(timings.items())}),
                      rules.night_input)
    return _new_game(rules, seats, previous)


__all__ = ["BLACK", "CIVILIAN", "DON", "FIIM_DECK", "MAFIA", "NO", "SHERIFF", "YES", "Action",
           "Command", "Game", "Player", "Previous", "Refused", "Replayed", "Rules", "TableEvent",
           "Timings", "fiim", "load_rules", "new_game", "replay", "step"]
