"""What a win condition is: the protocol every module of ``judge.game.endgames`` keeps.

A book lists its ``[[endgames]]`` in the order they are checked, each naming a ``kind`` (a
module here), the ``team`` that wins by it (or ``draw``), the ``rule`` it cites and its own
``options``. ``judge.game.end`` asks each in turn, after every removal (a vote, the morning,
fouls, the judge's disqualification): the first that ``holds`` ends the game. The game it is
asked about already counts out whoever is leaving after their last words (FIIM 1.4: "the
moment of removal is the vote or the night's kill").

An endgame may also decide at a day's end, as the night would fall (``at_nightfall``): its
team wins without the night (the Crow Club's «критика»), or the night is not played and the
game goes on by day (the «угадайка» of the last three). And a win may be the judge's to
declare (``offers`` and ``declare``: the Crow Club's ghosts' forfeit and the maniac's gift):
the engine ends the game with the winner ``declare`` names, as it ends it with a row that holds.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import msgspec

from judge.game.actions import Offer
from judge.game.book import Endgame as EndgameRow
from judge.game.book import NoOptions
from judge.game.state import Game, Refused
from kit.i18n import Line


class Dusk(NamedTuple):
    """What an endgame decides as the night would fall: its row's team ``wins`` now, or (not
    ``wins``) no night is played and a new day begins; ``line`` says why."""

    wins: bool
    line: Line


class Endgame:
    """One kind of win. A module of ``judge.game.endgames`` defines a subclass and an
    instance of it as ``ENDGAME``; its ``name`` is what a book's ``[[endgames]] kind`` names."""

    name: ClassVar[str]
    Options: ClassVar[type[msgspec.Struct]] = NoOptions
    #: the judge's decisions it takes (``offers``, ``declare``), each with its value's one
    #: shape, as ``Mechanism.decisions``
    decisions: ClassVar[dict[str, Any]] = {}

    def holds(self, game: Game, row: EndgameRow) -> bool:
        raise NotImplementedError

    def at_nightfall(self, game: Game, row: EndgameRow) -> Dusk | None:
        """What it decides at the day's end, before the night falls (default: nothing)."""
        return None

    def options(self, row: EndgameRow) -> Any:
        return row.options

    def offers(self, game: Game, row: EndgameRow) -> list[Offer]:
        """The judge's decisions that end the game by this row now, as ``actions.decision``
        offers of one of its ``decisions``, ``of`` the row's kind (default: none)."""
        return []

    def declare(self, game: Game, row: EndgameRow, value: Any) -> Declared:
        """The judge's decision (``Choose``): who wins and why; ``Refused`` when it may not be
        declared now (default: never)."""
        raise Refused(Line(row.rule, "refused.choose.endgame"))


class Declared(NamedTuple):
    """A win the judge declared: ``winner`` (a team, or ``draw``) and the ``line`` saying
    why."""

    winner: str
    line: Line


def count(game: Game, *teams: str) -> int:
    """How many players in the game play for ``teams``."""
    return sum(1 for s in game.alive if game.team(s) in teams)
