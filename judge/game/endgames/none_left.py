"""A side wins when no player of the ``of`` sides is left in the game (FIIM 1.4: red wins the
moment every black is out; the Crow Club's red: no mafia and no maniac)."""

from __future__ import annotations

import msgspec

from judge.game.book import Endgame as EndgameRow
from judge.game.book import Name
from judge.game.endgames.base import Endgame, count
from judge.game.state import Game


class NoneLeftOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    of: tuple[Name, ...]


class NoneLeft(Endgame):
    name = "none_left"
    Options = NoneLeftOptions

    def holds(self, game: Game, row: EndgameRow) -> bool:
        options: NoneLeftOptions = row.options
        return count(game, *options.of) == 0


ENDGAME = NoneLeft()
