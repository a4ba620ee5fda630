"""Nobody is left in the game (the last players kill each other the same night: the online book
does not say; the panel's reading, a draw): the row's ``team`` wins, ``draw`` for a draw."""

from __future__ import annotations

from judge.game.book import Endgame as EndgameRow
from judge.game.endgames.base import Endgame
from judge.game.state import Game


class NobodyLeft(Endgame):
    name = "nobody_left"

    def holds(self, game: Game, row: EndgameRow) -> bool:
        return not game.alive


ENDGAME = NobodyLeft()
