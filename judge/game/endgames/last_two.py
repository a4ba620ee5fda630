"""A side wins when at most two players are left and one of them plays for it (the Crow Club's
maniac, «Победа маньяка»: one on one with anyone, a black one too; the online book's maniac,
alone or with one other: the panel's reading). Put it before the sides' own wins: the first that
holds ends the game."""

from __future__ import annotations

from judge.game.book import Endgame as EndgameRow
from judge.game.endgames.base import Endgame, count
from judge.game.state import Game


class LastTwo(Endgame):
    name = "last_two"

    def holds(self, game: Game, row: EndgameRow) -> bool:
        return len(game.alive) <= 2 and count(game, row.team) >= 1


ENDGAME = LastTwo()
