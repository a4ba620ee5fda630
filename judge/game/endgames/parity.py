"""A side wins when it is at least as many as everyone else in the game (FIIM 1.4: black wins
when the blacks equal or outnumber the reds; the Crow Club counts the maniacs with the reds).
``against``: the sides counted against it (none given: every other player)."""

from __future__ import annotations

import msgspec

from judge.game.book import Endgame as EndgameRow
from judge.game.book import Name
from judge.game.endgames.base import Endgame, count
from judge.game.state import Game


class ParityOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    against: tuple[Name, ...] = ()


class Parity(Endgame):
    name = "parity"
    Options = ParityOptions

    def holds(self, game: Game, row: EndgameRow) -> bool:
        options: ParityOptions = row.options
        ours = count(game, row.team)
        theirs = count(game, *options.against) if options.against \
            else len(game.alive) - ours
        return ours > 0 and ours >= theirs


ENDGAME = Parity()
