"""What a win condition is: the protocol every module of ``judge.game.endgames`` keeps.

A book lists its ``[[endgames]]`` in the order they are checked, each naming a ``kind`` (a
module here), the ``team`` that wins by it (or ``draw``), the ``rule`` it cites and its own
``options``. ``judge.game.end`` asks each in turn, after every removal (a vote, the morning,
fouls, the judge's disqualification): the first that ``holds`` ends the game. The game it is
asked about already counts out whoever is leaving after their last words (FIIM 1.4: "the
moment of removal is the vote or the night's kill").
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from judge.game.book import Endgame as EndgameRow
from judge.game.book import NoOptions
from judge.game.state import Game


class Endgame:
    """One kind of win. A module of ``judge.game.endgames`` defines a subclass and an
    instance of it as ``ENDGAME``; its ``name`` is what a book's ``[[endgames]] kind`` names."""

    name: ClassVar[str]
    Options: ClassVar[type[msgspec.Struct]] = NoOptions

    def holds(self, game: Game, row: EndgameRow) -> bool:
        raise NotImplementedError

    def options(self, row: EndgameRow) -> Any:
        return row.options


def count(game: Game, *teams: str) -> int:
    """How many players in the game play for ``teams``."""
    return sum(1 for s in game.alive if game.team(s) in teams)
